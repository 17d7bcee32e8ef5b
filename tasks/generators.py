"""Stage 4: a test generator per task, offline synthesizer or LLM (quicksilver.stages.synthesis)."""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(name="mercury-generators", cache_key_fn=cache_key, persist_result=True)
def generators(config: dict[str, Any]) -> dict[str, Any]:
    return log_summary(build_of(config).run_generators())
