"""The build report's plots: plotly figures, one per plot div of the page."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go  # type: ignore[import-untyped]
from plotly.subplots import make_subplots  # type: ignore[import-untyped]

from quicksilver.report.model import BuildReport, TaskView
from quicksilver.report.tables import SLOWEST_TASKS, _seconds

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


CLUSTER_COLUMNS = 4
"""Panels per row of the clusters' small multiples."""


def clusters_figure(report: BuildReport) -> go.Figure:
    """DPE: one small panel per task (its name the panel's title), its clusters' reference costs
    against their cumulative scores (marker size: the cluster's solutions); the panels share the
    score axis, each has its own log cost axis. Readable with many tasks: a panel keeps its size
    and the grid grows downwards."""
    tasks = [t for t in report.tasks if any(c.reference_cost for c in t.clusters)]
    cols = max(1, min(CLUSTER_COLUMNS, len(tasks)))
    rows = max(1, math.ceil(len(tasks) / cols))
    panel = 230  # px per row of panels
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=[t.task for t in tasks] or None,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        vertical_spacing=min(0.3 / rows, 60 / (rows * panel)) if rows > 1 else 0.0,
    )
    for n, t in enumerate(tasks):
        cs = [c for c in t.clusters if c.reference_cost is not None]
        fig.add_trace(
            go.Scatter(
                x=[c.reference_cost for c in cs],
                y=[c.score for c in cs],
                mode="lines+markers",
                name=t.task,
                line={"color": "steelblue"},
                marker={"size": [6 + 2 * math.sqrt(c.size) for c in cs], "color": "steelblue"},
                text=[f"{t.task}: cluster {c.index}, {c.size} solution(s)" for c in cs],
                hovertemplate="%{text}<br>cost %{x:.3s}<br>score %{y:.3g}<extra></extra>",
            ),
            row=n // cols + 1,
            col=n % cols + 1,
        )
    fig.update_xaxes(type="log", tickfont={"size": 9}, nticks=4)
    fig.update_yaxes(range=[0, 105], tickfont={"size": 9})
    fig.update_annotations(font={"size": 11})
    fig.update_layout(
        _LAYOUT,
        title="Clusters: reference cost (log) against cumulative score (%), one panel per task",
        height=110 + panel * rows,
        showlegend=False,
    )
    return fig


def stage_time_figure(report: BuildReport) -> go.Figure:
    """Seconds per stage (a sharded stage's summed over its shards), the build's order."""
    stages = [str(r["stage"]) for r in report.funnel][::-1]
    seconds = [float(r.get("seconds") or 0.0) for r in report.funnel][::-1]
    fig = go.Figure(
        go.Bar(
            y=stages,
            x=seconds,
            orientation="h",
            text=[f"{_seconds(s)} s" for s in seconds],
            textposition="auto",
            marker={"color": "slateblue"},
        )
    )
    fig.update_xaxes(title="seconds")
    fig.update_layout(_LAYOUT, title="Seconds per stage", height=_height(len(stages), 26))
    return fig


def task_time_figure(report: BuildReport, limit: int = SLOWEST_TASKS) -> go.Figure:
    """The tasks that took the most time in the sharded stages, stacked by stage (estimated
    shares of the shards' seconds)."""
    slowest = report.task_times[:limit]
    stages = list(dict.fromkeys(sh.stage for sh in report.shards))
    names = [t.task for t in slowest][::-1]
    fig = go.Figure()
    for stage in stages:
        fig.add_trace(
            go.Bar(
                y=names,
                x=[t.stages.get(stage, 0.0) for t in slowest][::-1],
                name=stage,
                orientation="h",
            )
        )
    fig.update_xaxes(title="seconds (estimated share of its shards)")
    fig.update_layout(
        _LAYOUT,
        barmode="stack",
        title=f"The {len(slowest)} slowest tasks",
        height=_height(len(names), 24),
    )
    return fig
