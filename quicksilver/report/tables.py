"""The report's tables (the HTML page and the Prefect artifacts) and its Markdown, with numbers
written for people."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from quicksilver.funnel import drops_summary, funnel_markdown
from quicksilver.report.model import BuildReport

EXTREME_SPREAD = 100.0
"""A task whose slowest measured solution costs at least this many times its fastest is flagged
(docs/report.md): its Beyond scale spans orders of magnitude, so a sample's Beyond says little
about it, and the slowest may be a pathological solution or a mismeasurement worth a look."""

SLOWEST_TASKS = 20
"""How many tasks the report's time per task lists (the most time first)."""

_SI = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def _num(value: float | None, digits: int = 4) -> str:
    """A number as people read it: ``digits`` significant digits, and from 10,000 on three
    significant digits with an SI prefix (``7.13 G`` instructions, ``84.5 k``), never
    ``7.133e+09``; ``-`` for none."""
    if value is None:
        return "-"
    if math.isfinite(value) and abs(value) >= 1e4:
        scale, prefix = next((s, p) for s, p in _SI if abs(value) >= s)
        return f"{value / scale:.3g} {prefix}"
    return f"{value:.{digits}g}"


def _ratio(value: float) -> str:
    """``8,450x``, ``12.3x``, ``1.05x``."""
    return f"{value:,.0f}x" if value >= 100 else f"{value:.3g}x"


def _short_unit(unit: str | None) -> str:
    """A column header's unit: ``instr.`` for instructions (a narrow table keeps its columns in
    view)."""
    return {"instructions": "instr."}.get(unit or "", unit or "cost")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def _spread_cell(spread: float | None) -> str:
    """``6x``, or ``8,450x (extreme)`` from :data:`EXTREME_SPREAD` on."""
    if spread is None:
        return "-"
    return _ratio(spread) + (" (extreme)" if spread >= EXTREME_SPREAD else "")


def _seconds(value: float) -> str:
    """``1,162``, ``649``, ``0.303``: whole seconds from 100 on, else three significant digits."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def task_rows(report: BuildReport) -> list[dict[str, Any]]:
    """One row per published task: its solutions, references and cost range (DPE: clusters and
    their scores)."""
    out = []
    for t in report.tasks:
        costs = [p.cost for p in t.points]
        row: dict[str, Any] = {
            "task": t.task,
            "split": t.split,
            "difficulty": t.difficulty,
            "solutions": len(t.points),
            f"fastest ({_short_unit(report.unit)})": _num(min(costs)) if costs else "-",
            f"slowest ({_short_unit(report.unit)})": _num(max(costs)) if costs else "-",
            "slowest/fastest": _spread_cell(t.spread),
        }
        if report.kind == "dpe":  # (in a Mercury build every solution is a reference)
            row["references"] = sum(p.reference for p in t.points)
            row["clusters"] = len(t.clusters)
            row["sizes (slowest first)"] = " ".join(str(c.size) for c in t.clusters)
            row["scores"] = " ".join(_num(c.score, 3) for c in t.clusters)
        out.append(row)
    return out


def spread_informative(report: BuildReport) -> bool:
    """Whether the spread of the measurements says anything: some measurement has a spread
    (a CI wider than a point, a CV above 0), did not converge or carries a flag. Under the
    icount meter every count is exact (one pass, CI and CV 0): a table of 0.00% and a plot of
    zeros say nothing, so the report says that in a sentence instead (:data:`EXACT_SPREAD`)."""
    return any(
        (p.relative_ci or 0) > 0 or (p.cv or 0) > 0 or p.converged is False or p.flags
        for t in report.tasks
        for p in t.points
    )


EXACT_SPREAD = (
    "Every measurement is exact (meter {meter}: one counted pass per solution, no spread, "
    "nothing that did not converge): no table or plot of zeros."
)


def spread_rows(report: BuildReport) -> list[dict[str, Any]]:
    """Per task, how tight the measurements are, as the rows carry it."""
    out = []
    for t in report.tasks:
        rounds = [p.rounds for p in t.points if p.rounds is not None]
        flags = Counter(f for p in t.points for f in p.flags)
        row: dict[str, Any] = {"task": t.task, "solutions": len(t.points)}
        if report.kind == "dpe":
            cvs = [p.cv for p in t.points if p.cv is not None]
            row["median CV"] = _pct(statistics.median(cvs)) if cvs else "-"
            row["max CV"] = _pct(max(cvs)) if cvs else "-"
            row["p99 CV"] = _pct(t.p99_cv)
        else:
            widths = [w for w in (p.relative_ci for p in t.points) if w is not None]
            row["median CI width"] = _pct(statistics.median(widths)) if widths else "-"
            row["max CI width"] = _pct(max(widths)) if widths else "-"
        row["rounds"] = f"{min(rounds)}-{max(rounds)}" if rounds else "-"
        row["not converged"] = sum(p.converged is False for p in t.points)
        row["flags"] = ", ".join(f"{k}: {v}" for k, v in sorted(flags.items())) or "-"
        out.append(row)
    return out


def cluster_rows(report: BuildReport) -> list[dict[str, Any]]:
    """DPE: one row per cluster of every task (0 = the slowest)."""
    return [
        {
            "task": t.task,
            "cluster": c.index,
            "size": c.size,
            "score": _num(c.score, 4),
            f"reference cost ({_short_unit(report.unit)})": _num(c.reference_cost),
            "reference hash": str(c.reference_hash) if c.reference_hash is not None else "-",
        }
        for t in report.tasks
        for c in t.clusters
    ]


def drop_rows(report: BuildReport) -> list[dict[str, Any]]:
    """Per reason over all stages: the stages that dropped for it and what they dropped."""
    stages: dict[str, list[str]] = {}
    for r in report.funnel:
        for reason in (r.get("drops") or {}) | (r.get("drop_solutions") or {}):
            if (r.get("drops") or {}).get(reason) or (r.get("drop_solutions") or {}).get(reason):
                stages.setdefault(reason, []).append(str(r["stage"]))
    return [{**d, "stages": ", ".join(stages.get(d["reason"], []))} for d in report.drops]


def funnel_table_rows(report: BuildReport) -> list[dict[str, Any]]:
    return [
        {
            "stage": r["stage"],
            "tasks in": r["tasks_in"],
            "tasks out": r["tasks_out"],
            "solutions in": r["solutions_in"],
            "solutions out": r["solutions_out"],
            "dropped": drops_summary(r),
        }
        for r in report.funnel
    ]


def extreme_rows(report: BuildReport) -> list[dict[str, Any]]:
    """The tasks whose slowest measured solution costs :data:`EXTREME_SPREAD` times their fastest
    or more, the widest first."""
    unit = _short_unit(report.unit)
    wide = [t for t in report.tasks if (t.spread or 0.0) >= EXTREME_SPREAD]
    return [
        {
            "task": t.task,
            "split": t.split,
            f"fastest ({unit})": _num(min(p.cost for p in t.points)),
            f"slowest ({unit})": _num(max(p.cost for p in t.points)),
            "slowest/fastest": _ratio(t.spread or 0.0),
        }
        for t in sorted(wide, key=lambda t: -(t.spread or 0.0))
    ]


def input_rows(report: BuildReport) -> list[dict[str, Any]]:
    """Per task, the inputs it was tested on: its test cases and the largest of them (elements:
    scalars and characters; bytes: compact JSON), DPE also the performance input and its scale."""
    out = []
    for t in report.tasks:
        i = t.inputs
        row: dict[str, Any] = {
            "task": t.task,
            "test cases": "-" if i.cases is None else i.cases,
            "largest input (elements)": _num(i.largest_elements),
            "largest input (bytes)": _num(i.largest_bytes),
        }
        if report.kind == "dpe":
            row["pe scale"] = _num(i.pe_scale)
            row["pe input (elements)"] = _num(i.pe_elements)
            row["pe input (bytes)"] = _num(i.pe_bytes)
        out.append(row)
    return out


def stage_time_rows(report: BuildReport) -> list[dict[str, Any]]:
    """Per stage: its seconds (a sharded stage's summed over its shards) and share of the build."""
    total = sum(float(r.get("seconds") or 0.0) for r in report.funnel)
    shards = Counter(sh.stage for sh in report.shards)
    return [
        {
            "stage": r["stage"],
            "seconds": _seconds(float(r.get("seconds") or 0.0)),
            "share": f"{100 * float(r.get('seconds') or 0.0) / total:.1f}%" if total else "-",
            "shards": shards.get(str(r["stage"]), "-"),
        }
        for r in report.funnel
    ]


def task_time_rows(report: BuildReport, limit: int = SLOWEST_TASKS) -> list[dict[str, Any]]:
    """The ``limit`` tasks that took the most time in the sharded stages (estimated: each task's
    share of its shards' seconds, :mod:`quicksilver.report.stagefiles`), one column per stage."""
    stages = list(dict.fromkeys(sh.stage for sh in report.shards))
    return [
        {
            "task": t.task,
            "seconds (est.)": _seconds(t.total),
            **{f"{stage} (s)": _seconds(t.stages.get(stage, 0.0)) for stage in stages},
        }
        for t in report.task_times[:limit]
    ]


def _per_task(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{slug} ({n})" for slug, n in sorted(counts.items())) or "-"


def dropped_name_rows(report: BuildReport) -> list[dict[str, Any]]:
    """Per stage and reason: the tasks dropped, by name; the solutions and other records (test
    inputs, files, samples) dropped on their own, per task."""
    return [
        {
            "stage": d.stage,
            "reason": d.reason,
            "tasks": ", ".join(d.tasks) or "-",
            "solutions of": _per_task(d.solutions),
            "other records of": _per_task(d.other),
        }
        for d in report.dropped
    ]


def _markdown_table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    if not rows:
        return ["(none)"]
    cols = list(rows[0])

    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(r.get(c, "")) for c in cols) + " |" for r in rows]
    return lines


def report_markdown(report: BuildReport, html_path: Path | str | None = None) -> str:
    """The report as Markdown (a Prefect artifact): the funnel, drops (with the dropped tasks by
    name), tasks, extreme spreads, inputs, spread, time, clusters."""
    lines = [funnel_markdown(report.funnel, report.dataset, report.title).rstrip("\n")]
    if html_path is not None:
        lines += ["", f"The report with plots: `{html_path}`"]
    lines += ["", "## Drops by reason", "", *_markdown_table(drop_rows(report))]
    if report.dropped:
        lines += ["", "## Dropped, by name", "", *_markdown_table(dropped_name_rows(report))]
    lines += [
        "",
        f"## Tasks ({len(report.tasks)}; meter {report.meter or '-'}, unit {report.unit or '-'})",
        "",
        *_markdown_table(task_rows(report)),
        "",
        f"## Extreme spreads (slowest / fastest >= {EXTREME_SPREAD:g}x)",
        "",
        *_markdown_table(extreme_rows(report)),
        "",
        "## Inputs each task was tested on",
        "",
        *_markdown_table(input_rows(report)),
        "",
        "## Spread of the measurements",
        "",
        *(
            _markdown_table(spread_rows(report))
            if spread_informative(report)
            else [EXACT_SPREAD.format(meter=report.meter or "-")]
        ),
        "",
        "## Where the time went",
        "",
        *_markdown_table(stage_time_rows(report)),
    ]
    if report.shards:
        lines += ["", *_markdown_table(task_time_rows(report))]
    if report.kind == "dpe":
        lines += ["", "## Clusters", "", *_markdown_table(cluster_rows(report))]
    return "\n".join(lines) + "\n"
