"""Stage 7 (sharded): reference profiling with the bundled profiler (quicksilver.stages.profile)."""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(
    name="mercury-profile",
    cache_key_fn=cache_key,
    persist_result=True,
    task_run_name="profile-{part}",
)
def profile(config: dict[str, Any], part: str, slugs: list[str]) -> dict[str, Any]:
    return log_summary(build_of(config).run_profile(part, slugs))
