"""Stage 8: difficulty-balanced eval split and train split (quicksilver.stages.splits)."""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(name="mercury-splits", cache_key_fn=cache_key, persist_result=True)
def splits(config: dict[str, Any]) -> dict[str, Any]:
    return log_summary(build_of(config).run_splits())
