"""The report a person looks at: one self-contained HTML page per build (``<out_dir>/report.html``)
and per scored sample set (``quicksilver score --report PATH``), with plotly plots.

A build report is made from what the build published, its funnel and its stage folders, nothing
else: the rows of ``<out_dir>/parquet/<split>.parquet`` (Mercury rows or DPE / EvalPerf rows, told
apart by their columns), :meth:`Runner.funnel` (the stage files' counts and rejects) and
``<out_dir>/stages/`` (the rejects' names, the shards' seconds). It shows

- the funnel: tasks and solutions in and out of every stage, the drops per reason, and the tasks
  each reason dropped, by name;
- per task, the cost of every measured solution on a log axis, the published references marked
  (Mercury: every published solution is a reference, the fastest and slowest are the ends of
  Beyond's scale; DPE: every profiled solution coloured by cluster, the cluster references
  marked), the tasks whose spread is extreme, and the inputs each was tested on;
- the spread of the measurements as the rows carry it (a sentence under an exact meter);
- where the build's time went: per stage, and per task in the sharded stages;
- DPE: the clusters of every task and their cumulative scores, one small panel per task.

The page embeds plotly.js (no network: the browser that opens it may have none). The same content
as Markdown and tables (:func:`report_markdown`, :func:`task_rows`, ...) is what the Prefect layer
records as artifacts; nothing here imports Prefect.

A score report (:func:`score_report_html`) is made from ``ScoreReport.to_dict()`` (what
``quicksilver score --json`` writes): per task Pass, Beyond or DPS, every sample placed among the
references measured on this machine, and why each failed sample failed.

The modules: :mod:`.model` (the rows read into views), :mod:`.stagefiles` (the stage folders),
:mod:`.tables` (tables and Markdown), :mod:`.figures` (plots), :mod:`.page` (the HTML document),
:mod:`.build_page` and :mod:`.score` (the two pages).
"""

from quicksilver.report.build_page import PLOT_IDS, build_report_html, write_build_report
from quicksilver.report.figures import (
    clusters_figure,
    distribution_figure,
    drops_figure,
    funnel_figure,
    spread_figure,
    stage_time_figure,
    task_time_figure,
)
from quicksilver.report.model import (
    REPORT_NAME,
    BuildReport,
    Cluster,
    Inputs,
    Point,
    TaskView,
    build_report,
    input_size,
    read_published_rows,
    report_from_rows,
    row_kind,
)
from quicksilver.report.page import Section, render_page
from quicksilver.report.score import (
    FAILURE_DETAIL_CHARS,
    SCORE_PLOT_IDS,
    failure_rows,
    failure_summary_rows,
    score_report_html,
    score_task_rows,
)
from quicksilver.report.tables import (
    EXACT_SPREAD,
    EXTREME_SPREAD,
    SLOWEST_TASKS,
    _num,
    _ratio,
    cluster_rows,
    drop_rows,
    dropped_name_rows,
    extreme_rows,
    funnel_table_rows,
    input_rows,
    report_markdown,
    spread_informative,
    spread_rows,
    stage_time_rows,
    task_rows,
    task_time_rows,
)

__all__ = [
    "EXACT_SPREAD",
    "EXTREME_SPREAD",
    "FAILURE_DETAIL_CHARS",
    "PLOT_IDS",
    "REPORT_NAME",
    "SCORE_PLOT_IDS",
    "SLOWEST_TASKS",
    "BuildReport",
    "Cluster",
    "Inputs",
    "Point",
    "Section",
    "TaskView",
    "_num",
    "_ratio",
    "build_report",
    "build_report_html",
    "cluster_rows",
    "clusters_figure",
    "distribution_figure",
    "drop_rows",
    "dropped_name_rows",
    "drops_figure",
    "extreme_rows",
    "failure_rows",
    "failure_summary_rows",
    "funnel_figure",
    "funnel_table_rows",
    "input_rows",
    "input_size",
    "read_published_rows",
    "render_page",
    "report_from_rows",
    "report_markdown",
    "row_kind",
    "score_report_html",
    "score_task_rows",
    "spread_figure",
    "spread_informative",
    "spread_rows",
    "stage_time_figure",
    "stage_time_rows",
    "task_rows",
    "task_time_figure",
    "task_time_rows",
    "write_build_report",
]
