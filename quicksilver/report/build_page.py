"""The build report's page (``<out_dir>/report.html``): its sections, in the order a person reads
them: the funnel, the drops (by reason, then by name), the tasks and their costs, the extreme
spreads, the inputs they were tested on, the spread of the measurements, where the time went,
and for DPE the clusters."""

from __future__ import annotations

from pathlib import Path

from quicksilver import __version__
from quicksilver.fsutil import write_text_atomic
from quicksilver.report.figures import (
    clusters_figure,
    distribution_figure,
    drops_figure,
    funnel_figure,
    spread_figure,
    stage_time_figure,
    task_time_figure,
)
from quicksilver.report.model import BuildReport
from quicksilver.report.page import Section, _plot, _table, render_page
from quicksilver.report.tables import (
    EXACT_SPREAD,
    EXTREME_SPREAD,
    SLOWEST_TASKS,
    _ratio,
    cluster_rows,
    drop_rows,
    dropped_name_rows,
    extreme_rows,
    funnel_table_rows,
    input_rows,
    spread_informative,
    spread_rows,
    stage_time_rows,
    task_rows,
    task_time_rows,
)

PLOT_IDS = (
    "plot-funnel",
    "plot-drops",
    "plot-costs",
    "plot-spread",
    "plot-clusters",
    "plot-time-stages",
    "plot-time-tasks",
)
"""The plot divs a build report can hold (a DPE report of a measured build has them all)."""


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


def _drops_section(report: BuildReport) -> Section:
    tables = [_table(drop_rows(report))]
    if report.dropped:
        tables.append(_table(dropped_name_rows(report), "Dropped, by name (stage and reason)"))
    return Section(
        "drops",
        "Drops by reason",
        "Over all stages: tasks dropped (with the solutions they held), solutions dropped, "
        "and other records (test inputs, files, samples); then, per stage and reason, the "
        "tasks dropped by name and whose solutions and other records were dropped on their own "
        "(count in brackets). Each stage's rejects file names every dropped record and why."
        + ("" if report.stage_files else " (The stage folders were not read: no names.)"),
        [_plot(drops_figure(report.drops), "plot-drops")] if report.drops else [],
        tables,
    )


def _extreme_section(report: BuildReport) -> Section:
    rows = extreme_rows(report)
    if not rows:
        text = f"No task's slowest solution costs {_ratio(EXTREME_SPREAD)} its fastest or more."
    else:
        text = (
            f"{len(rows)} task(s) whose slowest measured solution costs {_ratio(EXTREME_SPREAD)} "
            "its fastest or more (flagged '(extreme)' in the tasks table): Beyond's scale spans "
            "orders of magnitude there, and the slowest may be a pathological solution or a "
            "mismeasurement worth a look."
        )
    return Section("extreme", "Extreme spreads", text, [], [_table(rows)] if rows else [])


def _inputs_section(report: BuildReport) -> Section:
    text = (
        "Per task, the test cases it was tested on and the largest of them: elements (every "
        "scalar and every character of a string, through nested lists: the n a complexity bound "
        "speaks of) and bytes (its compact JSON)."
    )
    if report.kind == "dpe":
        text += (
            " DPE: the performance-exercising input profiled for the clusters, the scale its "
            "generator made it at, its elements and bytes (the row's pe_input_bytes)."
        )
    return Section(
        "inputs", "Inputs each task was tested on", text, [], [_table(input_rows(report))]
    )


def _time_section(report: BuildReport) -> Section:
    plots = [_plot(stage_time_figure(report), "plot-time-stages")] if report.funnel else []
    tables = [_table(stage_time_rows(report), "Per stage")]
    text = (
        "Seconds per stage, as its manifest records them (a sharded stage's summed over its "
        "shards)."
    )
    if report.shards:
        text += (
            f" Per task, the {min(SLOWEST_TASKS, len(report.task_times))} that took the most: no "
            "stage records a task's own seconds, only each shard's, so a task's share is its "
            "shard's seconds split by the work its record says it cost there (the profiling "
            "stages' measured passes, the test-case stages' answer CPU seconds), or evenly when "
            "a record says none. An estimate; the shards' seconds are measured."
        )
        plots.append(_plot(task_time_figure(report), "plot-time-tasks"))
        tables.append(_table(task_time_rows(report), "The slowest tasks (seconds, estimated)"))
    elif not report.stage_files:
        text += " The stage folders were not read: no time per task."
    return Section("time", "Where the build's time went", text, plots, tables)


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
        _drops_section(report),
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
        _extreme_section(report),
        _inputs_section(report),
        _spread_section(report),
        _time_section(report),
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
