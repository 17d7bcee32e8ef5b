"""Which failed stage runs Prefect runs again: infrastructure faults only, never a verdict.

A stage or shard run is retried (``retries:`` in the build config: ``attempts``, and a wait of
``backoff_seconds`` doubled each time) only when it failed on an
:class:`~quicksilver.faults.InfrastructureFault`: a sandbox that could not start. A solution that
timed out, crashed or answered wrong does not fail its stage at all (its verdict is recorded in
the stage's records and rejects), and any other exception is a bug or a lasting condition (a full
disk, a stop on a signal) that a rerun would only repeat.

A Dask worker that dies (its process killed, its machine lost) is not seen here: its task never
returns. The Dask scheduler gives it to another worker (``distributed.scheduler.allowed-failures``
times; :func:`quicksilver.orchestration.cli.make_task_runner` sets it from ``retries.attempts`` for
a local cluster).
A rerun of a stage is safe either way: a stage writes its files and manifest only once it
finished, so a rerun starts from the same inputs.
"""

from __future__ import annotations

from typing import Any

from prefect.logging import get_logger

from quicksilver.config import RetrySection
from quicksilver.faults import infrastructure_fault

log = get_logger("quicksilver.retries")


def _exception(state: Any) -> BaseException | None:
    data = getattr(state, "data", None)
    if isinstance(data, BaseException):
        return data
    try:
        result = state.result(raise_on_failure=False)
    except Exception:  # the result could not be read back: no fault to name
        return None
    return result if isinstance(result, BaseException) else None


def infrastructure_failed(task: Any, task_run: Any, state: Any) -> bool:
    """Prefect's ``retry_condition_fn``: retry only a run that failed on an infrastructure
    fault (module docstring)."""
    fault = infrastructure_fault(_exception(state))
    if fault is None:
        return False
    name = getattr(task_run, "name", None) or getattr(task, "name", "a task")
    log.warning("%s: infrastructure fault, running it again: %s", name, fault)
    return True


def retry_options(section: RetrySection) -> dict[str, Any]:
    """The Prefect task options of ``section``."""
    return {
        "retries": section.attempts,
        "retry_delay_seconds": section.delays() or 0,
        "retry_condition_fn": infrastructure_failed,
    }
