"""Stage 5 (sharded): generated inputs + examples, every solution's answers, in the sandbox.

Core: quicksilver.stages.testcases.
"""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import build_of, cache_key, log_summary


@task(
    name="mercury-testcases",
    cache_key_fn=cache_key,
    persist_result=True,
    task_run_name="testcases-{part}",
)
def testcases(config: dict[str, Any], part: str, slugs: list[str]) -> dict[str, Any]:
    return log_summary(build_of(config).run_testcases(part, slugs))
