"""The build report, from the Prefect layer: the core writes ``<out_dir>/report.html``
(:mod:`quicksilver.report`, from the published rows and the funnel); this records the same content
as Prefect artifacts (docs/report.md):

- ``<build>-report``: Markdown with the funnel, the drops by reason, the tasks, the spread of the
  measurements (and, for DPE, the clusters), and where the HTML page is;
- ``<build>-tasks``, ``<build>-spread``, ``<build>-drops`` (and ``dpe-clusters``): the same
  tables as table artifacts.

The report is a view of a finished build: a failure to write it or to record it is a warning, never
a failed build.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from prefect.artifacts import create_markdown_artifact
from prefect.logging import get_run_logger

from quicksilver.orchestration.artifacts import table_artifact
from quicksilver.orchestration.server_watch import window_closed
from quicksilver.pipeline.build import Build
from quicksilver.report import (
    REPORT_NAME,
    build_report,
    cluster_rows,
    drop_rows,
    dropped_name_rows,
    extreme_rows,
    input_rows,
    report_markdown,
    spread_informative,
    spread_rows,
    stage_time_rows,
    task_rows,
    task_time_rows,
    write_build_report,
)


def publish_report(build: Build, root: Path, funnel: Sequence[dict[str, Any]]) -> Path | None:
    """Write the build's report beside its dataset and record it as artifacts; returns the
    page's path (None when it could not be written)."""
    logger = get_run_logger()
    try:
        report = build_report(root, funnel, title=build.title)
        path = write_build_report(report, root / REPORT_NAME)
    except Exception as exc:  # a view of the build: the dataset is there without it
        logger.warning("could not write the build report: %s", exc)
        return None
    logger.info("build report (open it in a browser): %s", path)
    tables = {
        "tasks": (task_rows(report), f"Published tasks: solutions, cost range ({report.unit})"),
        "drops": (drop_rows(report), "Drops by reason over all stages"),
        "dropped": (dropped_name_rows(report), "Dropped tasks by name, per stage and reason"),
        "time": (stage_time_rows(report), "Where the build's time went, per stage"),
        "slowest": (task_time_rows(report), "The slowest tasks (a shard's seconds split by work)"),
        "inputs": (input_rows(report), "The inputs each task was tested on"),
        "extreme": (extreme_rows(report), "Tasks whose slowest reference is far above the fastest"),
    }
    if spread_informative(report):  # under icount: exact, nothing to show (the report says so)
        tables["spread"] = (spread_rows(report), "Spread of the measurements per task")
    if report.kind == "dpe":
        tables["clusters"] = (cluster_rows(report), "Clusters and their scores")
    if (
        window_closed()
    ):  # the Prefect server went away during the build (quicksilver/orchestration/server_watch.py)
        return path
    try:
        create_markdown_artifact(
            key=f"{build.name}-report",
            markdown=report_markdown(report, path),
            description=f"Build report (plots: {path})",
        )
        for name, (rows, description) in tables.items():
            table_artifact(f"{build.name}-{name}", rows, description)
    except Exception as exc:  # artifacts are a view; the build does not depend on them
        logger.warning("could not record the build report as Prefect artifacts: %s", exc)
    return path
