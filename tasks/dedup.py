"""Stage 2: exact then MinHash-LSH near-duplicates removed (quicksilver.stages.dedup)."""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(name="mercury-dedup", cache_key_fn=cache_key, persist_result=True)
def dedup(config: dict[str, Any]) -> dict[str, Any]:
    return log_summary(build_of(config).run_dedup())
