"""Stage 1: snapshot folders -> normalised, hashed Python 3 solutions (quicksilver.stages.load)."""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(name="mercury-load", cache_key_fn=cache_key, persist_result=True)
def load(config: dict[str, Any]) -> dict[str, Any]:
    return log_summary(build_of(config).run_load())
