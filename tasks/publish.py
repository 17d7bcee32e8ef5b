"""Stage 9: Parquet per split, a HF DatasetDict and the dataset card (quicksilver.publishing).

Releasing to the Hub is a separate, explicit step: ``quicksilver publish`` (never part of a build).
"""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(name="mercury-publish", cache_key_fn=cache_key, persist_result=True)
def publish(config: dict[str, Any], funnel: list[dict[str, Any]]) -> dict[str, Any]:
    return log_summary(build_of(config).run_publish(funnel))
