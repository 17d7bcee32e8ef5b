"""The bundled profiler: run solutions of a task in the sandbox, judge them, and measure their cost.

One sandboxed *zygote* serves a task (see sandbox/runtime/harness.py). It prepares the task's
case inputs once (``convert_offline``), warms the interpreter up on trusted code, and never runs
solution code. Every *pass* of a solution over the cases runs in a fresh child forked from it:

1. the child drops its privileges and takes its limits; the host caps its address space;
2. ``compile``, then ``load``: the solution's source is compiled and its module code executed
   (the load beyond what a minimal solution's costs: work done at import is cost; compiling
   beyond what a trusted 16 KiB source costs: a source that holds a huge literal table pays);
3. ``call`` per case: one call of the entry point on that case's input (counted, minus the cost
   of an empty call calibrated in a trusted child);
4. ``report`` per case: the output and the post-call arguments, strictly serialised; checked
   against the cost of serialising the same values in a trusted child, and any excess (work a
   patched harness moved out of ``call``) is charged;
5. any cost between commands (signal handlers, finalizers, timers firing while the harness
   waits) is charged; the child is discarded (nothing it leaves behind runs or survives).

The first pass is the verdict: its outputs are judged by ``evaluate_offline`` in another child,
on values the host rebuilt, against expected outputs that never enter a solution's process.
A deterministic meter (``icount``) needs no other pass. The others repeat passes (rounds),
interleaved over the task's solutions so that all of them see the same machine phases, and
every round's outputs must equal the verdict's (or be judged again): a solution that is right
only when it is judged fails.

Cost is read by the host, from outside the process, between commands (see meters.py).

The package, by step: ``model`` (tasks, cases, jobs, results), ``runner`` (one zygote: calibration,
passes, judging), ``profile`` (one task's solutions: native verdicts, the verdict pass, the rounds,
the figures), ``memory`` (peaks and the time-memory integral), ``estimate`` (a time meter's figure
and the mode check), ``verdicts`` (how a profile ends early), and here the entry points.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.profiler.estimate import estimate_of, estimator_name, mode_check
from quicksilver.profiler.model import (
    CallLimits,
    Case,
    CaseResult,
    Job,
    ProfileTask,
    RunResult,
    Status,
    TaskKind,
    applied_limits,
)
from quicksilver.profiler.profile import _Profile
from quicksilver.profiler.runner import COMPILE_ALLOWANCE_BYTES
from quicksilver.profiler.verdicts import METER_TAMPERING
from quicksilver.sandbox import isolation as iso

__all__ = [
    "COMPILE_ALLOWANCE_BYTES",
    "METER_TAMPERING",
    "CallLimits",
    "Case",
    "CaseResult",
    "Job",
    "ProfileTask",
    "RunResult",
    "Status",
    "TaskKind",
    "applied_limits",
    "estimate_of",
    "estimator_name",
    "mode_check",
    "profile_many",
    "profile_solution",
]

log = logging.getLogger(__name__)


def profile_solution(
    task: ProfileTask,
    code: str,
    *,
    meter: MeterName | None = None,
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    isolation: iso.Isolation | None = None,
    measure_cost: bool = True,
    keep_outputs: bool = False,
) -> RunResult:
    """Judge ``code`` on ``task`` and, if it passes, measure its cost (``keep_outputs``: see
    :func:`profile_many`)."""
    return profile_many(
        [Job(task, code)],
        meter=meter,
        sandbox=sandbox,
        measure=measure,
        isolation=isolation,
        measure_cost=measure_cost,
        keep_outputs=keep_outputs,
        workers=1,
    )[0]


def _batches(jobs: Sequence[Job], measure: MeasureConfig) -> list[list[int]]:
    """Job indices grouped by task (one zygote each), heaviest batch first (longest first keeps
    the end of a parallel run from being one long batch on one core).

    With a deterministic meter a heavy task (``split_above_seconds``) gets one zygote per
    solution, so its solutions run in parallel: a count does not depend on what runs beside it,
    and a solution's position in its zygote moves its count by a few hundred instructions at
    most (docs/profiler.md), nothing beside the cost of a heavy solution.
    """
    groups: dict[str, list[int]] = {}
    for i, job in enumerate(jobs):
        groups.setdefault(job.task.identity(), []).append(i)
    split = measure.split_above_seconds if measure.deterministic else None
    batches: list[list[int]] = []
    for members in groups.values():
        if split is not None and sum(jobs[i].weight for i in members) > split:
            batches.extend([i] for i in members)
        else:
            batches.append(members)
    return sorted(batches, key=lambda b: -sum(jobs[i].weight for i in b))


def profile_many(
    jobs: Sequence[Job],
    *,
    meter: MeterName | None = None,
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    workers: int | None = None,
    on_result: Callable[[Job, RunResult], None] | None = None,
    measure_cost: bool = True,
    isolation: iso.Isolation | None = None,
    keep_outputs: bool = False,
) -> list[RunResult]:
    """Profile solutions; the solutions of one task share one zygote and are measured
    interleaved (paired), or, with a deterministic meter and ``solutions_per_zygote``, a few
    zygotes. Zygotes run in parallel, one per worker (one per core by default), heaviest first
    (``Job.weight``).

    ``keep_outputs``: a passing solution's result also carries what its verdict pass answered
    (:attr:`RunResult.outputs`), for a caller that takes trusted code's answers as the expected
    ones (DPE scoring, on a row without them). Off by default: answers can be as large as the
    inputs."""
    sandbox = sandbox or SandboxConfig()
    measure = measure or MeasureConfig()
    if meter is not None:
        measure = measure.model_copy(update={"meter": meter})
    isolation = isolation or iso.resolve(sandbox)
    batches = _batches(jobs, measure)
    results: list[RunResult | None] = [None] * len(jobs)
    lock = threading.Lock()

    def one(indices: list[int]) -> None:
        task = jobs[indices[0]].task
        profile = _Profile(
            task,
            [jobs[i].code for i in indices],
            meter=measure.meter,
            sandbox=sandbox,
            measure=measure,
            isolation=isolation,
            measure_cost=measure_cost,
            keep_outputs=keep_outputs,
        )
        for i, res in zip(indices, profile.run(), strict=True):
            with lock:
                results[i] = res
            if isolation.weak:
                log.warning("%s: measured in the WEAK sandbox (no namespaces)", task.task_id)
            if on_result is not None:
                on_result(jobs[i], res)

    n = workers or measure.workers or os.cpu_count() or 1
    if n == 1 or len(batches) <= 1:
        for batch in batches:
            one(batch)
    else:
        with ThreadPoolExecutor(max_workers=n, thread_name_prefix="qs-profile") as pool:
            list(pool.map(one, batches))
    return [r for r in results if r is not None]
