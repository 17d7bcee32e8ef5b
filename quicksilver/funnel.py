"""The build's funnel as a person reads it: a rich table, Prefect artifact rows, markdown, and the
per-reason counts the dataset cards show.

A stage's ``drops`` (:class:`~quicksilver.pipeline.stage.StageCounts`) count each reason in its own
unit: tasks for ``ambiguous-output``, solutions for ``wrong-answer``, inputs for
``invalid-input``. Its manifest also counts what the drops set aside per kind and reason
(``drop_tasks``, ``drop_solutions`` with those lost with a dropped task, ``drop_inputs``), as
:meth:`~quicksilver.pipeline.stage.Context.drop` counted them when the stage wrote each rejects row
with its ``dropped`` field (docs/mercury-build.md). :func:`drop_text` then says
"ambiguous-output: 4 tasks (47 solutions)".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def drop_parts(row: Mapping[str, Any]) -> list[tuple[str, int, int, int]]:
    """(reason, count, tasks, solutions) per reason of a funnel row, sorted by reason. ``count``
    is the stage's own; ``tasks`` and ``solutions`` what its drops set aside."""
    drops = {str(k): int(v) for k, v in dict(row.get("drops") or {}).items()}
    tasks = {str(k): int(v) for k, v in dict(row.get("drop_tasks") or {}).items()}
    sols = {str(k): int(v) for k, v in dict(row.get("drop_solutions") or {}).items()}
    reasons = sorted({k for k, v in drops.items() if v} | {k for k, v in sols.items() if v})
    return [(k, drops.get(k, 0), tasks.get(k, 0), sols.get(k, 0)) for k in reasons]


def drop_text(reason: str, count: int, tasks: int, solutions: int) -> str:
    """``ambiguous-output: 4 tasks (47 solutions)``, ``wrong-answer: 12 solutions``, or the plain
    count when the records do not say what was counted (``invalid-input: 3``)."""
    if tasks:
        return f"{reason}: {_plural(tasks, 'task')} ({_plural(solutions, 'solution')})"
    if solutions and solutions == count:
        return f"{reason}: {_plural(solutions, 'solution')}"
    if solutions:
        return f"{reason}: {count} ({_plural(solutions, 'solution')})"
    return f"{reason}: {count}"


def drops_summary(row: Mapping[str, Any], sep: str = "; ") -> str:
    """Every reason of a funnel row as :func:`drop_text`, or ``-``."""
    return sep.join(drop_text(*part) for part in drop_parts(row)) or "-"


def drop_totals(funnel: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per reason over all stages: tasks, solutions and other records (inputs, files, samples)
    dropped, the most first."""
    totals: dict[str, Counter[str]] = {}
    for row in funnel:
        for reason, count, tasks, solutions in drop_parts(row):
            t = totals.setdefault(reason, Counter())
            t["tasks"] += tasks
            t["solutions"] += solutions
            if not tasks and solutions != count:
                t["other"] += count
    out = [
        {"reason": k, **{n: v[n] for n in ("tasks", "solutions", "other")}}
        for k, v in totals.items()
    ]
    return sorted(out, key=lambda r: (-(r["tasks"] + r["solutions"] + r["other"]), r["reason"]))


def funnel_rows(funnel: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The funnel as table rows (a Prefect table artifact): tasks and solutions in and out, the
    stage's seconds, then its drop reasons one per line (the long column last and the table
    narrow: the UI does not wrap a cell)."""
    return [
        {
            "stage": r["stage"],
            "tasks (in → out)": f"{r['tasks_in']} → {r['tasks_out']}",
            "solutions (in → out)": f"{r['solutions_in']} → {r['solutions_out']}",
            "seconds": round(float(r.get("seconds", 0.0)), 1),
            "dropped (reason: count)": drops_summary(r, sep="\n"),
        }
        for r in funnel
    ]


def funnel_markdown(
    funnel: list[dict[str, Any]], dataset: Path | str, title: str = "Mercury build"
) -> str:
    lines = [
        f"# {title}",
        "",
        f"Dataset: `{dataset}` (parquet/, hf/, README.md)",
        "",
        "| stage | tasks in | tasks out | solutions in | solutions out | seconds | dropped |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in funnel:  # one reason per line: a rendered table does not wrap its cells
        lines.append(
            f"| {r['stage']} | {r['tasks_in']} | {r['tasks_out']} | {r['solutions_in']} | "
            f"{r['solutions_out']} | {r.get('seconds', 0.0):.1f} | {drops_summary(r, '<br>')} |"
        )
    notes = [f"{r['stage']}: {n}" for r in funnel for n in r.get("notes", [])]
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"


# Notes a person must see at the end of a build (the rest are in the card and the artifacts).
_SHOWN_NOTES = ("splits", "publish")


WIDE = 110
"""Columns from which the funnel table holds the reasons too."""


def print_funnel(
    funnel: list[dict[str, Any]], *, title: str, console: Console | None = None
) -> None:
    """The funnel table, then the notes of the splits and publish stages (a split left out, a
    task set aside, nothing to publish). On a console narrower than :data:`WIDE` the reasons
    follow the table, one line per stage, so that no stage name or reason is cut."""
    if console is None:
        console = Console()
        if not console.is_terminal:  # a log file or a pipe: do not wrap the table at 80 columns
            console = Console(width=160)
    wide = console.width >= WIDE
    table = Table(title=title)
    columns = [
        ("stage", "left"),
        ("tasks\nin", "right"),
        ("tasks\nout", "right"),
        ("solutions\nin", "right"),
        ("solutions\nout", "right"),
        *([("dropped (reason: count)", "left")] if wide else []),
        ("s", "right"),
    ]
    for col, justify in columns:
        table.add_column(col, justify=justify, no_wrap=col != "dropped (reason: count)")  # type: ignore[arg-type]
    for r in funnel:
        table.add_row(
            r["stage"],
            str(r["tasks_in"]),
            str(r["tasks_out"]),
            str(r["solutions_in"]),
            str(r["solutions_out"]),
            *([drops_summary(r, sep="\n")] if wide else []),
            f"{r.get('seconds', 0.0):.1f}",
        )
    console.print(table)
    if not wide:
        for r in funnel:
            if drop_parts(r):
                console.print(
                    f"dropped at {r['stage']}: {drops_summary(r)}", soft_wrap=False, markup=False
                )
    for r in funnel:
        if r["stage"] in _SHOWN_NOTES:
            for note in r.get("notes", []):
                console.print(f"{r['stage']}: {note}", soft_wrap=True, markup=False)
