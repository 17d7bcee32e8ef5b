"""Running the sharded stages of a build: each shard's stages in order, every worker slot busy.

A build's expensive stages run per shard (testcases -> uniqueness -> profile for Mercury). The
flows used to submit every stage of every shard at once, each waiting on its predecessor
(``wait_for``). On a thread or process runner a submitted task takes a worker slot as soon as it
is picked up, and one that waits on another holds that slot while it waits: with one worker per
core, most of a build ran one sandbox at a time.

Here the flow is the scheduler instead. It keeps at most ``slots`` task runs in flight, submits a
shard's next stage only when the previous one has completed (so nothing submitted ever waits), and
picks among the ready stages the one to start first: later stages before earlier ones (a shard
that has come far finishes, and the expensive profile runs start early), and within a stage the
shard with the most expected work first (longest first keeps the last minutes of a build from
being one long shard on one core).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from prefect.futures import PrefectFuture, as_completed
from prefect.logging import get_run_logger

from quicksilver.sandbox.session import shutting_down


def cluster_threads() -> int | None:
    """The threads of the Dask cluster the current flow runs its tasks on (every worker's), or
    None on another task runner: with ``runner.address`` and no ``runner.workers``, the slots
    are the cluster's, not this machine's cores."""
    from prefect.context import FlowRunContext

    ctx = FlowRunContext.get()
    client = getattr(ctx.task_runner, "client", None) if ctx is not None else None
    if client is None or not hasattr(client, "nthreads"):
        return None
    return sum(client.nthreads().values()) or None


class StepEvents(Protocol):
    """Who hears when a shard's stage starts and ends (quicksilver/orchestration/progress.py)."""

    def start(self, stage: str, part: str = "") -> None: ...

    def finish(self, stage: str, part: str = "", summary: dict[str, Any] | None = None) -> None: ...


def completed_summary(state: Any) -> dict[str, Any] | None:
    """The stage's summary a completed task run returned (None when it cannot be read)."""
    try:
        value = state.result(raise_on_failure=False)
    except Exception:
        return None
    return value if isinstance(value, dict) else None


@dataclass
class ShardChain:
    """One shard's stages, in order; ``submit(i)`` submits stage ``i`` and returns its future."""

    part: str
    stages: Sequence[str]
    submit: Callable[[int], PrefectFuture[Any]]
    failed: Any | None = None  # the state of the stage run that did not complete
    done: int = 0  # stages completed
    futures: list[PrefectFuture[Any]] = field(default_factory=list)


def run_chains(
    chains: list[ShardChain],
    *,
    slots: int,
    cost: Callable[[ShardChain, int], float] | None = None,
    events: StepEvents | None = None,
) -> list[tuple[str, Any]]:
    """Run every chain to its end (or its first failure); returns (shard, state) per failure.

    ``cost(chain, i)`` estimates the work of stage ``i`` of ``chain`` when it becomes ready (for
    example from the previous stage's output); larger goes first among ready stages of the same
    depth. After a stop request (SIGTERM) nothing new is submitted; what runs is waited for.
    ``events`` hears each stage run start and complete.
    """
    logger = get_run_logger()
    ready: list[tuple[ShardChain, int, float]] = [(c, 0, 0.0) for c in chains if c.stages]
    in_flight: dict[PrefectFuture[Any], tuple[ShardChain, int]] = {}
    slots = max(1, slots)
    while ready or in_flight:
        if not shutting_down():
            # deepest stage first, then the most expected work, then the shard order
            ready.sort(key=lambda r: (-r[1], -r[2], r[0].part))
            while ready and len(in_flight) < slots:
                chain, index, _ = ready.pop(0)
                fut = chain.submit(index)
                if events is not None:
                    events.start(chain.stages[index], chain.part)
                chain.futures.append(fut)
                in_flight[fut] = (chain, index)
        else:
            ready.clear()
        if not in_flight:
            break
        finished = next(as_completed(list(in_flight)))
        chain, index = in_flight.pop(finished)
        finished.wait()  # the final state from the run itself, not read back from the server
        state = finished.state
        if not state.is_completed():
            chain.failed = state
            continue
        chain.done = index + 1
        if events is not None:
            events.finish(chain.stages[index], chain.part, completed_summary(state))
        if index + 1 < len(chain.stages):
            estimate = cost(chain, index + 1) if cost is not None else 0.0
            ready.append((chain, index + 1, estimate))
    unfinished = [c for c in chains if c.failed is None and c.done < len(c.stages)]
    if unfinished and not shutting_down():
        logger.warning("%d shard(s) did not finish", len(unfinished))
    return [(c.part, c.failed) for c in chains if c.failed is not None]
