"""A killed build shown as what it is: Crashed, not Running forever.

Builds run with Prefect's heartbeats off (a heartbeat per flow run costs an API call every few
seconds, and a killed process is only marked by a separate service watching them), so a build
killed outright (SIGKILL, the OOM killer, a lost machine) leaves its flow run and the task runs it
was running in the Running state. The build's output folder remembers it instead: the lock file
(:mod:`quicksilver.pipeline.lock`) holds the flow run's id while the build runs and is emptied
whenever the build ends in its own process, so a record found by the next build on that folder
is a run that was killed. :func:`mark_crashed` sets that flow run and its unfinished task runs
to Crashed, with a message naming what happened, when the Prefect server the new build talks to
knows them and still shows them running; a run on another server, or one already final, is left
alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any
from uuid import UUID

log = logging.getLogger("quicksilver.build")

_UNFINISHED = ("RUNNING", "PENDING", "SCHEDULED", "PAUSED", "CANCELLING")


def lock_record() -> dict[str, Any]:
    """What a build adds to its lock file: its flow run and the API it reports to."""
    from prefect.runtime import flow_run
    from prefect.settings import PREFECT_API_URL

    run_id = flow_run.id
    return {"flow_run_id": str(run_id) if run_id else None, "api": PREFECT_API_URL.value()}


def _message(previous: Mapping[str, Any]) -> str:
    started = previous.get("started")
    when = (
        time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(started))
        if isinstance(started, (int, float))
        else "an unknown time"
    )
    return (
        f"killed: the build (pid {previous.get('pid', '?')} on {previous.get('host', '?')}, "
        f"started {when}) ended without a word; found by the next build on its output folder"
    )


def mark_crashed(previous: Mapping[str, Any] | None) -> int:
    """Mark the killed build's flow run and its unfinished task runs Crashed (module docstring);
    returns how many runs were marked. Never raises: the UI is a view, the build goes on."""
    if not previous or not previous.get("flow_run_id"):
        return 0
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        TaskRunFilter,
        TaskRunFilterState,
        TaskRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType
    from prefect.exceptions import ObjectNotFound
    from prefect.states import Crashed

    message = _message(previous)
    marked = 0
    try:
        run_id = UUID(str(previous["flow_run_id"]))
        with get_client(sync_client=True) as client:
            try:
                run = client.read_flow_run(run_id)
            except ObjectNotFound:  # another server's run: nothing to mark here
                return 0
            if run.state is None or run.state.type.value not in _UNFINISHED:
                return 0
            tasks = client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run_id])),
                task_run_filter=TaskRunFilter(
                    state=TaskRunFilterState(
                        type=TaskRunFilterStateType(any_=[StateType(t) for t in _UNFINISHED])
                    )
                ),
            )
            for task in tasks:
                client.set_task_run_state(task.id, Crashed(message=message), force=True)
                marked += 1
            client.set_flow_run_state(run_id, Crashed(message=message), force=True)
            marked += 1
        log.warning(
            "the previous build on this folder, flow run %s (%s), was killed while running: "
            "marked Crashed with %d unfinished task run(s)",
            run.name,
            run_id,
            marked - 1,
        )
    except Exception as exc:  # a view of what happened: never a reason to stop this build
        log.warning("could not mark the killed previous build's run as Crashed: %s", exc)
    return marked
