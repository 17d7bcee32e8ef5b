"""Stage 3: paid-only, unsupported types, missing fields, min-solutions.

Core: quicksilver.stages.filters.
"""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(name="mercury-filters", cache_key_fn=cache_key, persist_result=True)
def filters(config: dict[str, Any]) -> dict[str, Any]:
    return log_summary(build_of(config).run_filters())
