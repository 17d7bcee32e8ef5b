"""Stage 6 (sharded): keep, order-free, drop a wrong minority, or drop the task.

Core: quicksilver.stages.uniqueness.
"""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(
    name="mercury-uniqueness",
    cache_key_fn=cache_key,
    persist_result=True,
    task_run_name="uniqueness-{part}",
)
def uniqueness(config: dict[str, Any], part: str, slugs: list[str]) -> dict[str, Any]:
    return log_summary(build_of(config).run_uniqueness(part, slugs))
