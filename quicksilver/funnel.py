"""The build's funnel as a person reads it: a rich table, Prefect artifact rows, markdown, and the
per-reason counts the dataset cards show.

A stage's ``drops`` (:class:`~quicksilver.pipeline.stage.StageCounts`) count each reason in its own
unit: tasks for ``ambiguous-output``, solutions for ``wrong-answer``, inputs for
``invalid-input``. What a dropped task takes with it is only in the stage's rejects file, where a
dropped task contributes one record for the task and one per solution lost with it
(docs/mercury-build.md). :func:`tally_rejects` reads those records back into two counts per reason,
``drop_tasks`` and ``drop_solutions``, which :meth:`Runner.funnel` adds to every funnel row;
:func:`drop_text` then says "ambiguous-output: 4 tasks (47 solutions)".

Which record is which:

- a **solution** record carries a solution: its ``hash`` (or, before it was hashed, its ``code``);
- a **task** record carries neither, names a ``slug``, and is not a test input, a generator seed
  or a model answer (no ``input``, ``seed`` or ``answer``);
- anything else (inputs, files, samples) is counted by ``drops`` only.

A solution listed twice in one stage (the testcases stage lists a solution that does not load,
then again with its task when the task is dropped) counts once, for the first reason.

As a guard against records that only look like tasks (a sample naming a task that does not
exist), task records count only when there are exactly as many as the tasks the stage (or shard)
dropped, ``tasks_in - tasks_out``; otherwise the reason is shown with its plain count.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

SOLUTION_KEYS = ("hash", "code")
NOT_A_TASK_KEYS = ("input", "seed", "answer")


def is_solution_record(record: Mapping[str, Any]) -> bool:
    return any(k in record for k in SOLUTION_KEYS)


def is_task_record(record: Mapping[str, Any]) -> bool:
    return (
        not is_solution_record(record)
        and isinstance(record.get("slug"), str)
        and not any(k in record for k in NOT_A_TASK_KEYS)
    )


@dataclass
class RejectTally:
    """Per reason: tasks dropped and solutions dropped (with a task or on their own)."""

    tasks: Counter[str] = field(default_factory=Counter)
    solutions: Counter[str] = field(default_factory=Counter)

    def update(self, other: RejectTally) -> None:
        self.tasks.update(other.tasks)
        self.solutions.update(other.solutions)


def tally_rejects(
    records: Iterable[Mapping[str, Any]], tasks_dropped: int | None = None
) -> RejectTally:
    """Count a stage's (or shard's) reject records per reason; see the module docstring.

    ``tasks_dropped``: how many tasks the stage dropped (``tasks_in - tasks_out``); task records
    are counted only when there are exactly that many. None: no guard.
    """
    tally = RejectTally()
    tasks: Counter[str] = Counter()
    seen: set[tuple[Any, ...]] = set()
    for r in records:
        reason = str(r.get("reason"))
        if is_solution_record(r):
            # a solution listed twice (dropped on its own, then again with its task) is one
            # solution, lost for the first reason
            key = (r.get("slug"), r["hash"]) if "hash" in r else (r.get("slug"), r.get("code"))
            if key not in seen:
                seen.add(key)
                tally.solutions[reason] += 1
        elif is_task_record(r):
            tasks[reason] += 1
    if tasks_dropped is None or sum(tasks.values()) == tasks_dropped:
        tally.tasks = tasks
    return tally


def _stream(path: Path) -> Iterable[dict[str, Any]]:
    """The records of a JSONL file, one at a time (a rejects file can hold much code)."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                try:
                    record = json.loads(line)
                except ValueError:  # a torn line: the counts are a view, not worth a crash
                    continue
                if isinstance(record, dict):
                    yield record


_TALLY_CACHE: dict[tuple[str, int, int, int | None], RejectTally] = {}


def tally_rejects_file(path: Path, tasks_dropped: int | None = None) -> RejectTally:
    """:func:`tally_rejects` of a rejects file (remembered while the file is unchanged)."""
    try:
        st = path.stat()
    except OSError:
        return RejectTally()
    key = (str(path), st.st_size, st.st_mtime_ns, tasks_dropped)
    if key not in _TALLY_CACHE:
        _TALLY_CACHE[key] = tally_rejects(_stream(path), tasks_dropped)
    cached = _TALLY_CACHE[key]
    return RejectTally(Counter(cached.tasks), Counter(cached.solutions))


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def drop_parts(row: Mapping[str, Any]) -> list[tuple[str, int, int, int]]:
    """(reason, count, tasks, solutions) per reason of a funnel row, sorted by reason. ``count``
    is the stage's own; ``tasks`` and ``solutions`` come from its rejects (0 when unknown)."""
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
