"""The report a person looks at: one self-contained HTML page per build (``<out_dir>/report.html``)
and per scored sample set (``quicksilver score --report PATH``), with plotly plots.

A build report is made from what the build published and its funnel, nothing else: the rows of
``<out_dir>/parquet/<split>.parquet`` (Mercury rows or DPE / EvalPerf rows, told apart by their
columns) and :meth:`Runner.funnel` (the stage files' counts and rejects). It shows

- the funnel: tasks and solutions in and out of every stage, and the drops per reason;
- per task, the cost of every measured solution on a log axis, the published references marked
  (Mercury: every published solution is a reference, the fastest and slowest are the ends of
  Beyond's scale; DPE: every profiled solution coloured by cluster, the cluster references
  marked);
- DPE: the clusters of every task and their cumulative scores;
- the spread of the measurements as the rows carry it: Mercury the 95% CI's width relative to the
  runtime, rounds, convergence and flags; DPE the robust CV, rounds, convergence and flags.

The page embeds plotly.js (no network: the browser that opens it may have none). The same content
as Markdown and tables (:func:`report_markdown`, :func:`task_rows`, :func:`spread_rows`) is what
the Prefect layer records as artifacts; nothing here imports Prefect.

A score report (:func:`score_report_html`) is made from ``ScoreReport.to_dict()`` (what
``quicksilver score --json`` writes): per task Pass, Beyond or DPS, and every sample placed among
the references measured on this machine.
"""

from __future__ import annotations

import datetime as dt
import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import plotly.graph_objects as go  # type: ignore[import-untyped]
from plotly.offline import get_plotlyjs  # type: ignore[import-untyped]
from plotly.subplots import make_subplots  # type: ignore[import-untyped]

from quicksilver import __version__
from quicksilver.fsutil import write_text_atomic
from quicksilver.funnel import drop_totals, drops_summary, funnel_markdown

REPORT_NAME = "report.html"
"""The build report's file name, beside the dataset's README.md."""

_SPLIT_ORDER = {"train": 0, "eval": 1, "test": 2}
_DIFFICULTY_ORDER = {"Easy": 0, "Medium": 1, "Hard": 2}


# --- what the rows say ---------------------------------------------------------------------------


@dataclass
class Point:
    """One measured solution of a task."""

    hash: int
    cost: float
    reference: bool
    """A published reference: every solution of a Mercury row, a cluster's reference in DPE."""
    ci_low: float | None = None
    ci_high: float | None = None
    rounds: int | None = None
    converged: bool | None = None
    flags: list[str] = field(default_factory=list)
    cluster: int | None = None
    cv: float | None = None

    @property
    def relative_ci(self) -> float | None:
        """The CI's width over the cost (Mercury), None without a CI or a cost."""
        if self.ci_low is None or self.ci_high is None or self.cost <= 0:
            return None
        return (self.ci_high - self.ci_low) / self.cost


@dataclass
class Cluster:
    """One performance cluster of a DPE task (0 = the slowest)."""

    index: int
    size: int
    score: float
    reference_cost: float | None
    reference_hash: int | None


@dataclass
class TaskView:
    task: str
    split: str
    difficulty: str
    points: list[Point]
    clusters: list[Cluster] = field(default_factory=list)
    p99_cv: float | None = None


@dataclass
class BuildReport:
    title: str
    kind: str
    """``mercury`` or ``dpe``."""
    dataset: str
    meter: str
    unit: str
    funnel: list[dict[str, Any]]
    tasks: list[TaskView]
    built_at: str = ""

    @property
    def drops(self) -> list[dict[str, Any]]:
        return drop_totals(self.funnel)


def read_published_rows(root: Path) -> dict[str, list[dict[str, Any]]]:
    """The rows a build published, per split (``<root>/parquet/<split>.parquet``); {} when it
    published none."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted((root / "parquet").glob("*.parquet")):
        out[path.stem] = pq.read_table(path).to_pylist()
    return dict(sorted(out.items(), key=lambda kv: (_SPLIT_ORDER.get(kv[0], 9), kv[0])))


def row_kind(row: Mapping[str, Any]) -> str:
    """``dpe`` for an EvalPerf-format row (``solution_costs``), else ``mercury``."""
    return "dpe" if "solution_costs" in row else "mercury"


def _float(value: Any) -> float | None:
    if value is None:
        return None
    try:
        f = float(value)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _mercury_task(row: Mapping[str, Any], split: str) -> TaskView:
    points = []
    for r in row.get("reference_runtimes") or []:
        cost = _float(r.get("runtime"))
        if cost is None:
            continue
        points.append(
            Point(
                hash=int(r["hash"]),
                cost=cost,
                reference=True,
                ci_low=_float(r.get("ci_low")),
                ci_high=_float(r.get("ci_high")),
                rounds=r.get("rounds"),
                converged=r.get("converged"),
                flags=list(r.get("flags") or []),
            )
        )
    return TaskView(str(row["slug_name"]), split, str(row.get("difficulty") or "?"), points)


def _dpe_task(row: Mapping[str, Any], split: str) -> TaskView:
    refs = [int(h) for h in row.get("reference_hashes") or []]
    points = []
    for s in row.get("solution_costs") or []:
        cost = _float(s.get("cost"))
        if cost is None:
            continue
        points.append(
            Point(
                hash=int(s["hash"]),
                cost=cost,
                reference=int(s["hash"]) in refs,
                rounds=s.get("rounds"),
                converged=s.get("converged"),
                flags=list(s.get("flags") or []),
                cluster=s.get("cluster"),
                cv=_float(s.get("cv")),
            )
        )
    costs = list(row.get("reference_costs") or [])
    sizes = list(row.get("cluster_sizes") or [])
    clusters = [
        Cluster(
            index=j,
            size=int(sizes[j]) if j < len(sizes) else 0,
            score=float(score),
            reference_cost=_float(costs[j]) if j < len(costs) else None,
            reference_hash=refs[j] if j < len(refs) else None,
        )
        for j, score in enumerate(row.get("scores") or [])
    ]
    return TaskView(
        str(row["task_id"]),
        split,
        str(row.get("difficulty") or "?"),
        points,
        clusters,
        _float(row.get("p99_cv")),
    )


def report_from_rows(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    funnel: Sequence[Mapping[str, Any]],
    *,
    title: str,
    dataset: str,
    built_at: str = "",
) -> BuildReport:
    """The build report of these published rows and this funnel (:meth:`Runner.funnel`)."""
    rows = [(split, row) for split, part in splits.items() for row in part]
    kind = row_kind(rows[0][1]) if rows else "mercury"
    tasks = [
        _dpe_task(row, split) if kind == "dpe" else _mercury_task(row, split) for split, row in rows
    ]
    tasks.sort(key=lambda t: (_SPLIT_ORDER.get(t.split, 9), t.split, t.task))
    first = rows[0][1] if rows else {}
    meter = str(first.get("cost_meter" if kind == "dpe" else "runtime_meter") or "")
    unit = str(first.get("cost_unit" if kind == "dpe" else "runtime_unit") or "")
    return BuildReport(
        title=title,
        kind=kind,
        dataset=dataset,
        meter=meter,
        unit=unit,
        funnel=[dict(r) for r in funnel],
        tasks=tasks,
        built_at=built_at,
    )


def build_report(root: Path, funnel: Sequence[Mapping[str, Any]], *, title: str) -> BuildReport:
    """The report of the build in ``root``: its published rows and its funnel."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return report_from_rows(
        read_published_rows(root), funnel, title=title, dataset=str(root), built_at=stamp
    )


# --- tables (the HTML page and the Prefect artifacts) --------------------------------------------


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
            "slowest/fastest": _ratio(max(costs) / min(costs)) if costs and min(costs) > 0 else "-",
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
    """The report as Markdown (a Prefect artifact): the funnel, drops, tasks, spread, clusters."""
    lines = [funnel_markdown(report.funnel, report.dataset, report.title).rstrip("\n")]
    if html_path is not None:
        lines += ["", f"The report with plots: `{html_path}`"]
    lines += ["", "## Drops by reason", "", *_markdown_table(drop_rows(report))]
    lines += [
        "",
        f"## Tasks ({len(report.tasks)}; meter {report.meter or '-'}, unit {report.unit or '-'})",
        "",
        *_markdown_table(task_rows(report)),
        "",
        "## Spread of the measurements",
        "",
        *(
            _markdown_table(spread_rows(report))
            if spread_informative(report)
            else [EXACT_SPREAD.format(meter=report.meter or "-")]
        ),
    ]
    if report.kind == "dpe":
        lines += ["", "## Clusters", "", *_markdown_table(cluster_rows(report))]
    return "\n".join(lines) + "\n"


# --- plots ---------------------------------------------------------------------------------------

_LAYOUT: dict[str, Any] = {
    "template": "plotly_white",
    "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
    "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "xanchor": "right", "x": 1},
    "yaxis": {"automargin": True},
}


def _height(n: int, per: int = 22, least: int = 320) -> int:
    return max(least, 120 + per * n)


def funnel_figure(funnel: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Tasks and solutions after every stage (the first bar: what the first stage read)."""
    stages = ["input", *(str(r["stage"]) for r in funnel)]
    tasks = [funnel[0]["tasks_in"], *(r["tasks_out"] for r in funnel)] if funnel else [0]
    sols = [funnel[0]["solutions_in"], *(r["solutions_out"] for r in funnel)] if funnel else [0]
    fig = make_subplots(rows=1, cols=2, subplot_titles=("tasks", "solutions"))
    fig.add_trace(go.Bar(x=stages, y=tasks, name="tasks", text=tasks), row=1, col=1)
    fig.add_trace(go.Bar(x=stages, y=sols, name="solutions", text=sols), row=1, col=2)
    fig.update_layout(_LAYOUT, title="What is left after every stage", showlegend=False)
    return fig


def drops_figure(drops: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Per reason (over all stages): tasks, solutions and other records dropped, stacked."""
    reasons = [str(d["reason"]) for d in drops][::-1]
    fig = go.Figure()
    for what in ("tasks", "solutions", "other"):
        values = [int(d[what]) for d in drops][::-1]
        fig.add_trace(go.Bar(y=reasons, x=values, name=what, orientation="h"))
    fig.update_layout(
        _LAYOUT,
        barmode="stack",
        title="Drops by reason (all stages)",
        height=_height(len(reasons), 26),
    )
    return fig


def _label(t: TaskView) -> str:
    return f"{t.task} ({t.split})"


def distribution_figure(report: BuildReport) -> go.Figure:
    """Every task's measured solutions on one log axis, the published references marked."""
    fig = go.Figure()
    unit = report.unit or "cost"
    if report.kind == "dpe":
        others = [(t, p) for t in report.tasks for p in t.points if not p.reference]
        refs = [(t, p) for t in report.tasks for p in t.points if p.reference]
        fig.add_trace(
            go.Scatter(
                x=[p.cost for _, p in others],
                y=[_label(t) for t, _ in others],
                mode="markers",
                name="solution (colour: cluster, 0 = slowest)",
                marker={
                    "color": [p.cluster or 0 for _, p in others],
                    "colorscale": "Viridis",
                    "size": 7,
                    "opacity": 0.7,
                },
                text=[f"hash {p.hash}, cluster {p.cluster}" for _, p in others],
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[p.cost for _, p in refs],
                y=[_label(t) for t, _ in refs],
                mode="markers",
                name="cluster reference (published)",
                marker={"symbol": "star", "size": 13, "color": "crimson"},
                text=[f"hash {p.hash}, cluster {p.cluster}" for _, p in refs],
            )
        )
    else:
        pts = [(t, p) for t in report.tasks for p in t.points]
        fig.add_trace(
            go.Scatter(
                x=[p.cost for _, p in pts],
                y=[_label(t) for t, _ in pts],
                mode="markers",
                name="reference solution (published), with its 95% CI",
                marker={"size": 8, "color": "steelblue", "opacity": 0.75},
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": [max(0.0, (p.ci_high or p.cost) - p.cost) for _, p in pts],
                    "arrayminus": [max(0.0, p.cost - (p.ci_low or p.cost)) for _, p in pts],
                    "thickness": 1,
                },
                text=[f"hash {p.hash}, {p.rounds} round(s)" for _, p in pts],
            )
        )
        ends = [
            (t, p, end)
            for t in report.tasks
            if t.points
            for end, p in (
                ("fastest", min(t.points, key=lambda q: q.cost)),
                ("slowest", max(t.points, key=lambda q: q.cost)),
            )
        ]
        fig.add_trace(
            go.Scatter(
                x=[p.cost for _, p, _ in ends],
                y=[_label(t) for t, _, _ in ends],
                mode="markers",
                name="ends of Beyond's scale (fastest, slowest reference)",
                marker={
                    "symbol": "line-ns-open",
                    "size": 16,
                    "color": "crimson",
                    "line": {"width": 3},
                },
                text=[end for _, _, end in ends],
            )
        )
    fig.update_xaxes(type="log", title=f"cost ({unit}, log scale)")
    fig.update_yaxes(
        type="category",
        categoryorder="array",
        categoryarray=[_label(t) for t in report.tasks][::-1],
    )
    fig.update_layout(
        _LAYOUT,
        title=f"Reference {'cost' if report.kind == 'dpe' else 'runtime'} per task",
        height=_height(len(report.tasks)),
    )
    return fig


def spread_figure(report: BuildReport) -> go.Figure:
    """Per task, the spread of its solutions' measurements: the CI width relative to the runtime
    (Mercury) or the robust CV (DPE), in %; the colour says whether the measurement converged."""
    dpe = report.kind == "dpe"
    rows = [
        (t, p, (p.cv if dpe else p.relative_ci))
        for t in report.tasks
        for p in t.points
        if (p.cv if dpe else p.relative_ci) is not None
    ]
    fig = go.Figure()
    for converged, colour in ((True, "seagreen"), (False, "darkorange")):
        part = [(t, p, v) for t, p, v in rows if (p.converged is not False) == converged]
        fig.add_trace(
            go.Scatter(
                x=[100 * (v or 0.0) for _, _, v in part],
                y=[_label(t) for t, _, _ in part],
                mode="markers",
                name="converged" if converged else "not converged",
                marker={"color": colour, "size": 8, "opacity": 0.75},
                text=[
                    f"hash {p.hash}, {p.rounds} round(s)"
                    + (f", flags: {', '.join(p.flags)}" if p.flags else "")
                    for _, p, _ in part
                ],
            )
        )
    fig.update_xaxes(
        title="robust CV (%)" if dpe else "95% CI width / runtime (%)", rangemode="tozero"
    )
    fig.update_yaxes(
        type="category",
        categoryorder="array",
        categoryarray=[_label(t) for t in report.tasks][::-1],
    )
    fig.update_layout(
        _LAYOUT, title="Spread of the measurements", height=_height(len(report.tasks))
    )
    return fig


def clusters_figure(report: BuildReport) -> go.Figure:
    """DPE: every task's clusters, reference cost against cumulative score (marker size: the
    cluster's solutions)."""
    fig = go.Figure()
    for t in report.tasks:
        cs = [c for c in t.clusters if c.reference_cost is not None]
        fig.add_trace(
            go.Scatter(
                x=[c.reference_cost for c in cs],
                y=[c.score for c in cs],
                mode="lines+markers",
                name=t.task,
                marker={"size": [8 + 2 * math.sqrt(c.size) for c in cs]},
                text=[f"cluster {c.index}: {c.size} solution(s)" for c in cs],
            )
        )
    fig.update_xaxes(type="log", title=f"cluster reference cost ({report.unit}, log scale)")
    fig.update_yaxes(title="score (cumulative %)", range=[0, 105])
    fig.update_layout(
        _LAYOUT, title="Clusters and their scores (DPS)", height=480, legend={"orientation": "v"}
    )
    return fig


# --- the page ------------------------------------------------------------------------------------

_PAGE = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined).from_string(
    """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.n { text-align: right; }
section { margin-bottom: 2.5em; }
.meta { color: #555; }
</style>
<script>{{ plotly_js | safe }}</script>
</head><body>
<h1>{{ title }}</h1>
<p class="meta">{% for line in meta %}{{ line }}<br>{% endfor %}</p>
{% for s in sections %}
<section id="{{ s.id }}">
<h2>{{ s.heading }}</h2>
{% if s.text %}<p>{{ s.text }}</p>{% endif %}
{% for plot in s.plots %}{{ plot | safe }}{% endfor %}
{% for t in s.tables %}
<table><thead><tr>{% for c in t.columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for r in t.rows %}<tr>{% for c in t.columns %}{% set v = r[c] %}
<td{% if v is number %} class="n"{% endif %}>{{ v }}</td>{% endfor %}</tr>
{% endfor %}</tbody></table>
{% endfor %}
</section>
{% endfor %}
</body></html>
"""
)


@dataclass
class Section:
    id: str
    heading: str
    text: str = ""
    plots: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)


def _plot(fig: go.Figure, div_id: str) -> str:
    """A figure as a div of the page (plotly.js is in the page's head, once)."""
    html: str = fig.to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        config={"displaylogo": False, "responsive": True},
    )
    return html


def _table(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"columns": list(rows[0]) if rows else [], "rows": list(rows)}


def render_page(title: str, meta: Sequence[str], sections: Sequence[Section]) -> str:
    """A self-contained HTML page: plotly.js inline, then the sections."""
    return _PAGE.render(title=title, meta=meta, sections=sections, plotly_js=get_plotlyjs())


PLOT_IDS = ("plot-funnel", "plot-drops", "plot-costs", "plot-spread", "plot-clusters")
"""The plot divs a build report can hold (the DPE one has all five)."""


def _spread_section(report: BuildReport) -> Section:
    """The report's spread section: the plot and the table, or one sentence when every
    measurement is exact (:func:`spread_informative`)."""
    if report.tasks and not spread_informative(report):
        return Section(
            "spread",
            "Spread of the measurements",
            EXACT_SPREAD.format(meter=report.meter or "-"),
            [],
            [],
        )
    return Section(
        "spread",
        "Spread of the measurements",
        "How tight each solution's measurement is: "
        + (
            "the robust coefficient of variation (1.4826 MAD / median) over its rounds"
            if report.kind == "dpe"
            else "its 95% CI's width relative to its runtime (0 under the exact icount meter)"
        )
        + ", rounds taken, and the measurements that did not converge, with their flags.",
        [_plot(spread_figure(report), "plot-spread")] if report.tasks else [],
        [_table(spread_rows(report))],
    )


def build_report_html(report: BuildReport) -> str:
    meta = [
        f"dataset: {report.dataset}",
        f"format: {'DPE / EvalPerf' if report.kind == 'dpe' else 'Mercury'}; "
        f"{len(report.tasks)} task(s); meter {report.meter or '-'}, unit {report.unit or '-'}",
        f"written {report.built_at or '-'} by Quicksilver {__version__}",
    ]
    unit = report.unit or "cost"
    sections = [
        Section(
            "funnel",
            "The stage funnel",
            "Tasks and solutions into and out of every stage, and what each dropped.",
            [_plot(funnel_figure(report.funnel), "plot-funnel")],
            [_table(funnel_table_rows(report))],
        ),
        Section(
            "drops",
            "Drops by reason",
            "Over all stages: tasks dropped (with the solutions they held), solutions dropped, "
            "and other records (test inputs, files, samples). Each stage's rejects file names "
            "every dropped record and why.",
            [_plot(drops_figure(report.drops), "plot-drops")] if report.drops else [],
            [_table(drop_rows(report))],
        ),
        Section(
            "costs",
            "Reference " + ("costs" if report.kind == "dpe" else "runtimes") + " per task",
            (
                f"Every profiled solution on the performance input ({unit}); the stars are the "
                "published cluster references (slowest cluster first in the rows)."
                if report.kind == "dpe"
                else f"Every reference solution's runtime over all test cases ({unit}), with its "
                "95% CI; the red ticks are the fastest and slowest reference, the ends of "
                "Beyond's scale."
            ),
            [_plot(distribution_figure(report), "plot-costs")] if report.tasks else [],
            [_table(task_rows(report))],
        ),
        _spread_section(report),
    ]
    if report.kind == "dpe":
        sections.append(
            Section(
                "clusters",
                "Clusters and their scores",
                "Per task, each performance cluster's reference cost and its cumulative score "
                "(the fastest cluster scores 100); a sample scores the first cluster, from the "
                "fastest, whose reference is at least as costly.",
                [_plot(clusters_figure(report), "plot-clusters")] if report.tasks else [],
                [_table(cluster_rows(report))],
            )
        )
    return render_page(report.title, meta, sections)


def write_build_report(report: BuildReport, path: Path) -> Path:
    """Write the build report's page to ``path`` (atomically)."""
    return write_text_atomic(path, build_report_html(report))


# --- the score report ----------------------------------------------------------------------------


def score_task_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per scored task of a score report (``ScoreReport.to_dict()``)."""
    out = []
    for t in data.get("tasks") or []:
        dpe = bool(t.get("dpe"))
        out.append(
            {
                "task": t.get("task_id"),
                "difficulty": t.get("difficulty") or "?",
                "samples": t.get("n", len(t.get("samples") or [])),
                "correct": t.get("c", t.get("n_correct", 0)),
                "pass@k": _num(_float(t.get("pass_at_k")), 3),
                "Beyond": "-" if dpe else _num(_float(t.get("beyond")), 3),
                "DPS": _num(_float(t.get("dps")), 3) if dpe else "-",
                "Beyond-memory": "-" if dpe else _num(_float(t.get("beyond_memory")), 3),
                "NMU": "-" if dpe else _num(_float(t.get("nmu")), 3),
                "NTMU": "-" if dpe else _num(_float(t.get("ntmu")), 3),
                "unconverged": _unconverged_cell(t),
                "note": t.get("dps_error") or ("unscorable" if t.get("unscorable") else ""),
            }
        )
    return out


def _unconverged_cell(task: Mapping[str, Any]) -> str:
    """A task's samples and references scored from a profile that did not converge or split
    into modes (their RunResult flags), e.g. ``sample 2 (modes); reference 0 (max-rounds)``."""
    parts = [
        f"reference {j} ({', '.join(flags)})"
        for j, flags in enumerate(task.get("reference_flags") or [])
        if flags
    ]
    parts += [
        f"sample {s.get('index')} ({', '.join(s['flags'])})"
        for s in task.get("samples") or []
        if s.get("flags")
    ]
    return "; ".join(parts)


def _score_figure(data: Mapping[str, Any]) -> go.Figure:
    """Per task: Beyond (0-100) or DPS, and pass@k, as bars."""
    tasks = list(data.get("tasks") or [])
    names = [str(t.get("task_id")) for t in tasks]
    metric = [
        (_float(t.get("dps")) if t.get("dpe") else _mul(_float(t.get("beyond")), 100.0))
        for t in tasks
    ]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=names,
            y=[100 * (_float(t.get("pass_at_k")) or 0.0) for t in tasks],
            name="pass@k (%)",
        )
    )
    fig.add_trace(go.Bar(x=names, y=metric, name="Beyond × 100, or DPS for a DPE task"))
    fig.update_yaxes(range=[0, 105])
    fig.update_layout(_LAYOUT, barmode="group", title="Per task")
    return fig


def _mul(value: float | None, factor: float) -> float | None:
    return None if value is None else value * factor


def _placement_figure(data: Mapping[str, Any]) -> go.Figure:
    """Every sample placed among its task's references (both measured on this machine)."""
    refs_x: list[float] = []
    refs_y: list[str] = []
    samples: dict[bool, tuple[list[float], list[str], list[str]]] = {
        True: ([], [], []),
        False: ([], [], []),
    }
    tasks = list(data.get("tasks") or [])
    for t in tasks:
        name = str(t.get("task_id"))
        refs = t.get("reference_costs") if t.get("dpe") else t.get("reference_runtimes")
        for cost in refs or []:
            c = _float(cost)
            if c is not None and c > 0:
                refs_x.append(c)
                refs_y.append(name)
        for s in t.get("samples") or []:
            c = _float(s.get("pe_cost") if t.get("dpe") else s.get("runtime"))
            if c is None or c <= 0:
                continue
            ok = s.get("status") == "passed"
            xs, ys, texts = samples[ok]
            xs.append(c)
            ys.append(name)
            score = (
                f"DPS {s.get('dps')}, cluster {s.get('cluster')}"
                if t.get("dpe")
                else f"Beyond {_num(_float(s.get('beyond')), 3)}"
            )
            flags = f" [{', '.join(s['flags'])}]" if s.get("flags") else ""
            texts.append(f"sample {s.get('index')}: {s.get('status')}; {score}{flags}")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=refs_x,
            y=refs_y,
            mode="markers",
            name="reference",
            marker={"size": 9, "color": "steelblue", "opacity": 0.6},
        )
    )
    for ok, colour, label in (
        (True, "crimson", "sample (passed)"),
        (False, "gray", "sample (failed)"),
    ):
        xs, ys, texts = samples[ok]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name=label,
                text=texts,
                marker={"symbol": "diamond", "size": 12, "color": colour},
            )
        )
    fig.update_xaxes(type="log", title=f"cost ({data.get('unit') or '-'}, log scale)")
    fig.update_yaxes(
        type="category",
        categoryorder="array",
        categoryarray=[str(t.get("task_id")) for t in tasks][::-1],
    )
    fig.update_layout(_LAYOUT, title="Samples among the references", height=_height(len(tasks)))
    return fig


SCORE_PLOT_IDS = ("plot-scores", "plot-placement")


def score_report_html(
    data: Mapping[str, Any], *, dataset: str, samples: str, title: str = "Quicksilver score"
) -> str:
    """The score report's page, from ``ScoreReport.to_dict()``."""
    k_pass = next((k for k in data if k.startswith("pass_at_") and k != "pass_at_k"), "pass_at_k")
    k_beyond = next(
        (k for k in data if k.startswith("beyond_at_") and k != "beyond_at_k"), "beyond_at_k"
    )
    summary = [
        {"figure": k_pass, "value": _num(_float(data.get(k_pass)), 4)},
        {"figure": k_beyond, "value": _num(_float(data.get(k_beyond)), 4)},
        {"figure": "gap", "value": _num(_float(data.get("gap")), 4)},
        {"figure": "tasks", "value": data.get("n_tasks", 0)},
        {"figure": "unscorable for Beyond", "value": data.get("n_unscorable", 0)},
        {
            # docs/profiler.md: a time meter's profile that did not converge, or whose passes
            # split into modes (scored by its median pass); listed per task below
            "figure": "scored from unconverged profiles",
            "value": f"{data.get('unconverged_samples', 0)} sample(s), "
            f"{data.get('unconverged_references', 0)} reference(s)",
        },
    ]
    if data.get("memory_tasks") or data.get("nmu_tasks") or data.get("ntmu_tasks"):
        # docs/metrics.md, "Memory": each mean over the tasks that have the figure
        for figure, key, count in (
            ("Beyond-memory@1", "beyond_memory_at_1", "memory_tasks"),
            ("NMU", "nmu", "nmu_tasks"),
            ("NTMU", "ntmu", "ntmu_tasks"),
        ):
            summary.append(
                {
                    "figure": f"{figure} (over {data.get(count, 0)} tasks)",
                    "value": _num(_float(data.get(key)), 4),
                }
            )
    if "dps" in data:
        summary += [
            {"figure": "DPS", "value": _num(_float(data.get("dps")), 4)},
            {"figure": "DPS_norm", "value": _num(_float(data.get("dps_norm")), 4)},
            {
                "figure": "DPE tasks with a DPS",
                "value": f"{data.get('dps_tasks')} of {data.get('dpe_tasks')}",
            },
        ]
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    meta = [
        f"dataset: {dataset}",
        f"samples: {samples}",
        f"meter {data.get('meter') or '-'}, unit {data.get('unit') or '-'}, "
        f"isolation {data.get('isolation') or '-'}",
        f"written {stamp} by Quicksilver {__version__}",
    ]
    missing = list(data.get("missing_tasks") or [])
    sections = [
        Section("summary", "Summary", "", [], [_table(summary)]),
        Section(
            "tasks",
            "Per task",
            "Pass@k and Beyond (Mercury rows, × 100 in the plot) or DPS (DPE rows); for Mercury "
            "rows also Beyond with peak memory in place of runtime, and EffiBench's NMU and NTMU "
            "(peak memory and memory integrated over time, each against the task's first "
            "reference)."
            + (f" Samples of tasks not in the dataset: {', '.join(missing)}." if missing else ""),
            [_plot(_score_figure(data), "plot-scores")],
            [_table(score_task_rows(data))],
        ),
        Section(
            "placement",
            "The samples on the reference distribution",
            "Each sample's cost among its task's references, all measured on this machine "
            "(DPE: on the performance input; only the references the scan needed were measured).",
            [_plot(_placement_figure(data), "plot-placement")],
        ),
    ]
    return render_page(title, meta, sections)
