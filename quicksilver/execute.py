"""Running code that did not come from us, in the sandbox, for its values rather than its cost.

Two uses in the build pipelines:

- :func:`run_generator`: a test generator's ``generate_test_case()`` (or any entry point, e.g.
  DPE's ``perf_input_gen(scale)``), called once per seed, each call seeded with ``random.seed``;
- :func:`run_outputs`: a reference solution on a list of inputs, returning each call's canonical
  answer (the return value, or the mutated argument of an in-place problem) as plain JSON data,
  trees and linked lists as their LeetCode lists.

Both use the profiler's harness in one sandboxed process per (code, batch). A call that exceeds its
limit kills that process; the remaining calls continue in a fresh one, so one hanging input costs
its own limit and nothing else. Limits may differ per input (the test-case stage sets them from
the other solutions' times), and a batch can give up on code that has already failed too often
(``give_up_after``), or stop once its calls have spent a budget of CPU (``cpu_budget``): the
calls it did not make are ``skipped``. Values cross the boundary strictly
serialised (see ``sandbox/runtime/wire.py``): an object that is not plain data is an error, never
trusted.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from quicksilver.config import SandboxConfig
from quicksilver.meters import CpuMeter
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.session import (
    LimitExceeded,
    OutputLimitExceeded,
    SandboxError,
    SandboxSession,
    solution_setup,
)

log = logging.getLogger(__name__)

CallStatus = Literal["ok", "error", "timeout", "memory", "skipped"]

SLOW_STATUSES = frozenset({"timeout", "memory", "skipped"})
"""Outcomes that say the code did not finish the call within its limits (or never got it)."""

BUDGET_STOP = "not run: the batch's CPU budget is spent"
"""How a call not made because the batch spent its ``cpu_budget`` starts its error."""


def call_wall_seconds(cpu_seconds: float) -> float:
    """The wall-clock limit of one call with ``cpu_seconds`` of CPU: room for a loaded machine,
    yet a call that sleeps or waits costs seconds, not minutes."""
    return 2 * cpu_seconds + 3


IDENTITY_CONVERT = "def convert_offline(case):\n    return case\n"

_SEEDED_WRAPPER = """

def __quicksilver_seeded_call(__seed, *__args):
    import random as __random
    __random.seed(__seed)
    return {entry}(*__args)
"""


@dataclass
class CallOutcome:
    """One call's result: ``value`` is plain JSON data when ``status == "ok"``."""

    status: CallStatus
    value: Any = None
    error: str | None = None
    cpu_seconds: float = 0.0
    # the call's peak resident memory above the process's size when it started, read by the
    # host from /proc (bytes; None when not measured: see SandboxSession's track_memory)
    peak_memory_bytes: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class BatchRun:
    """The outcomes of a batch, in input order; ``load_error`` when the code did not load."""

    outcomes: list[CallOutcome] = field(default_factory=list)
    load_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.load_error is None and all(o.ok for o in self.outcomes)

    def first_error(self) -> str | None:
        if self.load_error:
            return self.load_error
        for i, o in enumerate(self.outcomes):
            if not o.ok:
                return f"call {i}: {o.status}: {o.error}"
        return None


def _status_of(reply: dict[str, Any]) -> CallStatus:
    return "memory" if reply.get("kind") == "memory" else "error"


def _plain_answer(report: dict[str, Any], output_param: int | None) -> Any:
    if output_param is None:
        return wire.to_plain(report["output"])
    after = wire.to_plain(report["inputs_after"])
    return after[output_param]


def run_calls(
    code: str,
    *,
    entry_point: str,
    inputs: Sequence[Sequence[Any]],
    kind: Literal["class", "function"] = "function",
    convert_offline: str = IDENTITY_CONVERT,
    output_param: int | None = None,
    cpu_seconds: float | Sequence[float] = 10.0,
    wall_seconds: float | None = None,
    memory_mb: int | None = None,
    sandbox: SandboxConfig | None = None,
    isolation: iso.Isolation | None = None,
    give_up_after: int | None = None,
    load_cpu_seconds: float | None = None,
    decisive: Collection[int] = (),
    memory_wall_mb: int | None = None,
    cpu_budget: float | None = None,
) -> BatchRun:
    """Call ``entry_point`` of ``code`` once per argument list, each within its CPU limit.

    ``cpu_seconds`` is one limit for every call or one per input; loading the code gets
    ``load_cpu_seconds`` (default: the largest call limit). ``wall_seconds`` is the wall-clock
    limit of every call; by default each call gets :func:`call_wall_seconds` of its CPU limit.
    ``give_up_after``: once that many calls timed out or ran out of memory, the rest are not
    made (status ``skipped``); a timeout on an input listed in ``decisive`` (indices into
    ``inputs``) gives up at once. ``cpu_budget``: once the calls made have spent that much CPU
    (a call stopped at its limit counts its limit), the rest are not made (``skipped``, the
    error starting with :data:`BUDGET_STOP`).

    ``kind="class"`` calls ``Solution().<entry_point>`` as the profiler does (after
    ``convert_offline``); ``output_param`` names the argument whose state after the call is the
    answer (in-place problems).

    Each call's peak memory is measured by the host (``CallOutcome.peak_memory_bytes``);
    with ``memory_wall_mb`` a call whose peak grows past it is stopped (status ``memory``,
    error ``memory wall: ...``), whatever its address-space limit still allows.
    """
    sandbox = sandbox or SandboxConfig()
    if memory_mb is not None:
        sandbox = sandbox.model_copy(
            update={"limits": sandbox.limits.model_copy(update={"memory_mb": memory_mb})}
        )
    isolation = isolation or iso.resolve(sandbox)
    encoded = [wire.encode(list(args)) for args in inputs]
    if isinstance(cpu_seconds, int | float):
        cpu = [float(cpu_seconds)] * len(encoded)
    else:
        cpu = [float(c) for c in cpu_seconds]
        if len(cpu) != len(encoded):
            raise ValueError(f"{len(cpu)} CPU limits for {len(encoded)} inputs")
    walls = [wall_seconds if wall_seconds is not None else call_wall_seconds(c) for c in cpu]
    out = BatchRun()
    while True:
        restart = _serve(
            code,
            entry_point,
            kind,
            convert_offline,
            output_param,
            encoded,
            len(out.outcomes),
            out,
            cpu=cpu,
            walls=walls,
            load_cpu=load_cpu_seconds,
            sandbox=sandbox,
            isolation=isolation,
            memory_wall=None if memory_wall_mb is None else memory_wall_mb << 20,
            cpu_budget=cpu_budget,
        )
        if out.load_error is not None or len(out.outcomes) >= len(encoded):
            return out
        spent = sum(o.cpu_seconds for o in out.outcomes)
        if cpu_budget is not None and spent >= cpu_budget:
            out.outcomes.extend(
                CallOutcome(
                    "skipped",
                    error=f"{BUDGET_STOP}: the calls before it spent {spent:.3g} s of CPU, the "
                    f"budget of {cpu_budget:g} s",
                )
                for _ in range(len(encoded) - len(out.outcomes))
            )
            return out
        slow = sum(o.status in ("timeout", "memory") for o in out.outcomes)
        last = len(out.outcomes) - 1
        stop = out.outcomes[-1].status == "timeout" and last in decisive if out.outcomes else False
        if stop or (give_up_after is not None and slow >= give_up_after):
            out.outcomes.extend(
                CallOutcome("skipped", error=f"not run: {slow} earlier call(s) did not finish")
                for _ in range(len(encoded) - len(out.outcomes))
            )
            return out
        if not restart:
            return out


def _serve(
    code: str,
    entry_point: str,
    kind: str,
    convert_offline: str,
    output_param: int | None,
    encoded: list[Any],
    base: int,
    out: BatchRun,
    *,
    cpu: list[float],
    walls: list[float],
    load_cpu: float | None,
    sandbox: SandboxConfig,
    isolation: iso.Isolation,
    memory_wall: int | None = None,
    cpu_budget: float | None = None,
) -> bool:
    """Serve calls ``base..`` in one process; True when it died and the rest needs a new one.
    With ``cpu_budget``, it stops (False) once every call made so far has spent that much."""
    session = SandboxSession(sandbox, CpuMeter(), isolation, track_memory=True)
    serving = False
    cpu_seconds = max(cpu[base:])
    load_cpu = load_cpu if load_cpu is not None else cpu_seconds
    wall = max(walls[base:])
    setup_wall = max(wall, 30.0)  # the harness's own work (decoding the inputs), not the code's
    try:
        session.start()
        setup = session.request(
            "setup",
            **solution_setup(
                sandbox,
                isolation,
                as_bytes=sandbox.limits.memory_mb << 20,
                # a backstop only: each call has its own limit
                cpu_seconds=math.ceil(sum(cpu[base:]) + load_cpu + cpu_seconds) + 10,
            ),
            kind=kind,
            entry_point=entry_point,
            convert_offline=convert_offline,
            cases=encoded[base:],
            inputs_after=output_param is not None,
            wall_limit_s=setup_wall,
        )
        if not setup.reply.get("ok"):
            out.load_error = f"setup failed: {setup.reply.get('error')}"
            return False
        try:
            load = session.request(
                "load",
                code=code,
                cpu_limit_s=load_cpu,
                wall_limit_s=max(wall, call_wall_seconds(load_cpu)),
            )
        except LimitExceeded as exc:
            out.load_error = f"loading the code timed out: {exc}"
            return False
        if not load.reply.get("ok"):
            out.load_error = f"loading the code: {load.reply.get('error')}"
            return False
        serving = True
        spent = sum(o.cpu_seconds for o in out.outcomes)  # by the processes before this one
        for i in range(base, len(encoded)):
            out.outcomes.append(
                _one_call(session, i - base, output_param, cpu[i], walls[i], memory_wall)
            )
            last = out.outcomes[-1]
            if last.status == "timeout" or (last.error or "").startswith("memory wall"):
                return True  # the process was killed: the rest runs in a fresh one
            spent += last.cpu_seconds
            if cpu_budget is not None and spent >= cpu_budget:
                return False  # the caller marks the rest not run
        return False
    except OutputLimitExceeded as exc:
        # killed for its output: an error, as the profiler reports it; the rest runs afresh
        if not serving:
            out.load_error = str(exc)
            return False
        if len(out.outcomes) < len(encoded):
            out.outcomes.append(CallOutcome("error", error=str(exc)))
        return True
    except SandboxError as exc:
        # the process died (an interpreter crash, a kill on memory): blame the call in flight
        if not serving:
            out.load_error = f"the process died before serving calls: {exc}"
            return False
        status: CallStatus = "memory" if "MemoryError" in str(exc) else "error"
        if len(out.outcomes) < len(encoded):
            out.outcomes.append(CallOutcome(status, error=f"the process died: {exc}"))
        return True
    except OSError as exc:
        out.load_error = f"the sandbox did not start: {exc}"
        return False
    finally:
        session.close()


def _one_call(
    session: SandboxSession,
    case: int,
    output_param: int | None,
    cpu_seconds: float,
    wall: float,
    memory_wall: int | None = None,
) -> CallOutcome:
    prep = session.request("prep", case=case, k=1, wall_limit_s=wall)
    if not prep.reply.get("ok"):
        session.request("release", wall_limit_s=wall)
        return CallOutcome(
            _status_of(prep.reply), error=f"preparing the input: {prep.reply.get('error')}"
        )
    try:
        go = session.request(
            "go", cpu_limit_s=cpu_seconds, wall_limit_s=wall, memory_limit_bytes=memory_wall
        )
    except LimitExceeded as exc:
        if exc.kind == "memory":  # the host stopped it at the measured wall (the process died)
            return CallOutcome("memory", error=str(exc), peak_memory_bytes=memory_wall)
        return CallOutcome("timeout", error=str(exc), cpu_seconds=cpu_seconds)
    cpu = go.cpu_ns / 1e9
    peak = None if go.peak is None or go.rss_before is None else go.peak - go.rss_before
    if not go.reply.get("ok"):
        session.request("release", wall_limit_s=wall)
        return CallOutcome(
            _status_of(go.reply),
            error=str(go.reply.get("error")),
            cpu_seconds=cpu,
            peak_memory_bytes=peak,
        )
    rep = session.request("report", wall_limit_s=wall)
    session.request("release", wall_limit_s=wall)
    if not rep.reply.get("ok"):
        return CallOutcome("error", error=str(rep.reply.get("error")), cpu_seconds=cpu)
    try:
        value = _plain_answer(rep.reply, output_param)
    except (wire.WireError, IndexError, TypeError) as exc:
        return CallOutcome("error", error=f"the answer is not plain data: {exc}", cpu_seconds=cpu)
    return CallOutcome("ok", value=value, cpu_seconds=cpu, peak_memory_bytes=peak)


def run_outputs(
    code: str,
    *,
    entry_point: str,
    inputs: Sequence[Sequence[Any]],
    convert_offline: str = IDENTITY_CONVERT,
    output_param: int | None = None,
    kind: Literal["class", "function"] = "class",
    cpu_seconds: float | Sequence[float] = 10.0,
    memory_mb: int | None = None,
    sandbox: SandboxConfig | None = None,
    isolation: iso.Isolation | None = None,
    give_up_after: int | None = None,
    load_cpu_seconds: float | None = None,
    decisive: Collection[int] = (),
    cpu_budget: float | None = None,
) -> BatchRun:
    """A solution's canonical answers on ``inputs`` (see the module docstring)."""
    return run_calls(
        code,
        entry_point=entry_point,
        inputs=inputs,
        kind=kind,
        convert_offline=convert_offline,
        output_param=output_param,
        cpu_seconds=cpu_seconds,
        memory_mb=memory_mb,
        sandbox=sandbox,
        isolation=isolation,
        give_up_after=give_up_after,
        load_cpu_seconds=load_cpu_seconds,
        decisive=decisive,
        cpu_budget=cpu_budget,
    )


def case_seeds(seed: int, count: int) -> list[int]:
    """Per-call seeds derived from one recorded seed (stable across Python versions)."""
    import hashlib

    return [
        int.from_bytes(hashlib.sha256(f"{seed}:{i}".encode()).digest()[:4], "big")
        for i in range(count)
    ]


def run_generator(
    code: str,
    *,
    seeds: Sequence[int],
    entry: str = "generate_test_case",
    args: Sequence[Any] = (),
    cpu_seconds: float = 10.0,
    memory_mb: int | None = None,
    sandbox: SandboxConfig | None = None,
    isolation: iso.Isolation | None = None,
    load_cpu_seconds: float | None = None,
) -> BatchRun:
    """Call ``entry(*args)`` once per seed, after ``random.seed(seed)``, in the sandbox.

    Each outcome's ``value`` is what the generator returned, as plain data (tuples as lists).
    Loading the code gets ``load_cpu_seconds`` (default: ``cpu_seconds``).
    """
    wrapped = code + _SEEDED_WRAPPER.format(entry=entry)
    return run_calls(
        wrapped,
        entry_point="__quicksilver_seeded_call",
        inputs=[[s, *args] for s in seeds],
        kind="function",
        cpu_seconds=cpu_seconds,
        memory_mb=memory_mb,
        sandbox=sandbox,
        isolation=isolation,
        load_cpu_seconds=load_cpu_seconds,
    )
