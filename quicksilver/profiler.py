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
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import json
import logging
import math
import os
import signal
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from quicksilver import astparse
from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.machine import machine_info
from quicksilver.meters import (
    EXEC_REFUSED_EXIT,
    MAP_REFUSED_EXIT,
    CpuMeter,
    Meter,
    MeterError,
    make_meter,
)
from quicksilver.metrics import time_memory_integral
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.cgroup import MEMORY_SOURCE_RSS
from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.session import (
    ChildGone,
    ChildProcess,
    Exchange,
    LimitExceeded,
    MemoryTrace,
    MeterTampering,
    OutputLimitExceeded,
    ProtocolViolation,
    SandboxError,
    SandboxSession,
    ShuttingDown,
    solution_setup,
)
from quicksilver.stats import ModeSplit, fastest_band, median_ci, mode_split

log = logging.getLogger(__name__)

Status = Literal["passed", "failed", "error", "timeout", "memory"]
TaskKind = Literal["class", "function"]

WARM_UP_PINGS = 64
"""Commands the zygote serves before its first child, so its command loop is warm (CPython
specialises code as it runs) and every child starts from the same state."""

WARM_UP_SPAWNS = 3
"""Children forked and reaped before the calibration (same reason as the pings)."""

NULL_CALLS = 7
"""Empty calls in the trusted calibration child; their median is the cost of an empty call."""

COMPILE_ALLOWANCE_BYTES = 16 << 10
"""Compiling a source is the solution's load work only beyond what compiling a trusted source of
this size costs (a literal table: ``_allowance_source``). Honest solutions (LeetCode's rarely
pass 5 KB) are not ranked by the length of their source or comments; a source that carries a
table of precomputed answers of more than this pays for compiling the excess, on both meters."""

NULL_LOADS = 3
"""Loads of a minimal solution, each in a fresh trusted child (one for a deterministic meter);
their median is subtracted from a solution's load: its own module code is what counts. The same
children compile the allowance source (COMPILE_ALLOWANCE_BYTES)."""

# With a deterministic meter a serialisation costs what its trusted calibration costs, give or
# take the state the two processes are in: this much is tolerated before an excess is charged.
ICOUNT_CHARGE_TOLERANCE = 1.05
ICOUNT_CHARGE_SLACK = 20_000  # instructions

# A report's memory beyond what serialising the same values takes in a trusted child (times
# this, plus the slack) counts toward its case's peak: a patched harness cannot move an
# allocation out of the call into the report unseen.
HONEST_REPORT_ROUNDS = 3
"""With a time meter, each reported value is serialised this many times in the trusted
calibration child; its honest report cost is the cheapest (``_TaskRunner._honest_reports``)."""

REPORT_MEMORY_TOLERANCE = 1.5
REPORT_MEMORY_SLACK = 1 << 20  # bytes

# A pass that is not sampled (a timed pass of the cpu meter) whose peak for a case (or the load)
# exceeds the sampled pass's by more than this (times, plus the slack) raises that case's TMU to
# its peak times its duration in that pass (docs/profiler.md, "Time-memory integral").
UNSAMPLED_PEAK_TOLERANCE = 1.1
UNSAMPLED_PEAK_SLACK = 1 << 20  # bytes

TMU_SAMPLE_INTERVAL_S = 0.001
"""How often (host wall time, nominal) the host reads a solution's resident size during the
sampled pass, for its time-memory integral (docs/profiler.md, "Time-memory integral")."""


@dataclass(frozen=True)
class Case:
    inputs: list[Any]
    expected: Any


@dataclass(frozen=True)
class ProfileTask:
    """What the profiler needs of a task (see ``from_record`` for Mercury rows)."""

    task_id: str
    entry_point: str
    cases: tuple[Case, ...]
    kind: TaskKind = "class"
    convert_offline: str = "def convert_offline(case):\n    return case\n"
    evaluate_offline: str = (
        "def evaluate_offline(inputs, outputs, expected):\n    return outputs == expected\n"
    )
    difficulty: str | None = None

    @classmethod
    def from_record(cls, record: Any) -> ProfileTask:
        """Build from a :class:`quicksilver.records.TaskRecord`."""
        cases = tuple(Case(list(c.inputs), c.expected) for c in record.cases())
        return cls(
            task_id=record.task_key,
            entry_point=record.entry_point,
            cases=cases,
            kind=record.task_kind,
            convert_offline=record.effective_convert_offline(),
            evaluate_offline=record.effective_evaluate_offline(),
            difficulty=record.difficulty,
        )

    @functools.cached_property
    def needs_inputs_after(self) -> bool:
        """Whether ``evaluate_offline`` reads its ``inputs`` argument (the arguments after the
        call: in-place problems). When it does not, a pass does not serialise them."""
        try:
            tree = astparse.parse(self.evaluate_offline)
        except SyntaxError:
            return True  # the judge will say what is wrong with it
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "evaluate_offline":
                params = node.args.posonlyargs + node.args.args
                if not params:
                    return True
                name = params[0].arg
                return any(
                    isinstance(n, ast.Name) and n.id == name
                    for stmt in node.body
                    for n in ast.walk(stmt)
                )
        return True

    def identity(self) -> str:
        """Tasks with the same identity can share one zygote."""
        blob = json.dumps(
            [
                self.task_id,
                self.entry_point,
                self.kind,
                self.convert_offline,
                self.evaluate_offline,
                [wire.encode(c.inputs) for c in self.cases],
                [wire.encode(c.expected) for c in self.cases],
            ],
            sort_keys=True,
        )
        return blob


@dataclass
class CaseResult:
    index: int
    passed: bool | None = None
    error: str | None = None
    rounds: int = 0
    calls_per_window: int = 1
    median: float | None = None  # in the meter's reported unit, per call
    ci_low: float | None = None
    ci_high: float | None = None
    ci_coverage: float | None = None
    converged: bool = False  # the CI target was met (False: stopped by max_rounds or budget)
    charged: float = 0.0  # per pass, on average: serialisation cost beyond its calibration
    samples: list[float] = field(default_factory=list)
    # peak resident memory during this case's call above the trusted post-load baseline, read
    # by the host (bytes, the largest over passes; None when memory could not be measured)
    peak_memory_bytes: int | None = None
    # the case's time-memory integral (whole-process resident bytes x the meter's unit, from the
    # sampled pass) and how many readings it rests on (the window's two ends included)
    tmu: float | None = None
    tmu_samples: int | None = None
    # the case's tmu is a timed pass's peak times its duration, not the sampled pass's integral:
    # that pass held more than the sampled one (docs/profiler.md, "Time-memory integral")
    tmu_bounded: bool = False


@dataclass
class RunResult:
    task_id: str
    status: Status
    meter: str
    unit: str
    isolation: str
    runtime: float | None = None  # median over passes of the pass cost (meter unit)
    runtime_ci: tuple[float, float] | None = None
    error: str | None = None
    failed_case: int | None = None
    cases: list[CaseResult] = field(default_factory=list)
    load_cost: float | None = None  # median cost of compiling and executing its source
    window_overhead: float | None = None  # the cost of an empty call, subtracted from each call
    measure_cpu_seconds: float = 0.0
    stdout: str = ""
    stderr: str = ""
    output_dropped_bytes: int = 0
    machine_id: str = ""
    # passes measured: with a deterministic meter the verdict pass; with a time meter the passes
    # after it (the verdict pass is the sampled one, not timed)
    rounds: int = 0
    round_costs: list[float] = field(default_factory=list)  # each pass's cost (meter unit)
    # how runtime was taken from round_costs: "exact" (one pass of a deterministic meter),
    # "fastest-K" (the mean of the K fastest passes) or "median"
    estimator: str = ""
    converged: bool = False  # deterministic meter, or the CI target was met
    charged: float = 0.0  # per pass, on average: idle and serialisation excess (meter unit)
    flags: list[str] = field(default_factory=list)  # why a measurement is not to be trusted
    # Memory (bytes, read by the host from /proc, docs/profiler.md "Memory"): the largest
    # per-case peak and the load's peak, above the trusted post-load baseline; and that
    # baseline (the resident size of a child that loaded a minimal solution).
    peak_memory_bytes: int | None = None
    load_memory_bytes: int | None = None
    memory_baseline_bytes: int | None = None
    # EffiBench's TMU (docs/profiler.md, "Time-memory integral"): whole-process resident memory
    # integrated over the load and every case of the sampled pass, bytes x the meter's unit
    # (bytes x s for cpu, bytes x instructions for icount); the readings it rests on and the
    # mean host wall time between them (ms)
    tmu: float | None = None
    tmu_samples: int | None = None
    tmu_interval_ms: float | None = None
    # only when asked (``keep_outputs``) and the solution passed: per case, the answer and the
    # arguments after the call as the judge saw them, as plain data (trees and linked lists as
    # their LeetCode lists; ``inputs_after`` None when evaluate_offline does not read them)
    outputs: list[dict[str, Any]] | None = None
    # the load's or a case's integral was raised to a timed pass's peak (CaseResult.tmu_bounded)
    tmu_bounded: bool = False
    # what the memory figures rest on: "rss+cgroup-v1" / "rss+cgroup-v2" (the resident size
    # plus what the kernel holds for the process: pipe buffers, page tables, unmapped shmem) or
    # "rss" (the resident size alone: no usable memory cgroup here); None: not measured
    memory_source: str | None = None

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def to_dict(self, *, samples: bool = False) -> dict[str, Any]:
        data = asdict(self)
        data["runtime_ci"] = list(self.runtime_ci) if self.runtime_ci else None
        if not samples:
            for case in data["cases"]:
                case.pop("samples", None)
        return data


class _Verdict(Exception):
    """Internal: ends a solution's profile early with a status."""

    def __init__(self, status: Status, message: str, case: int | None = None) -> None:
        super().__init__(message)
        self.status: Status = status
        self.case = case


def _status_of_reply(reply: dict[str, Any]) -> Status:
    return "memory" if reply.get("kind") == "memory" else "error"


def _status_of_exception(exc: SandboxError) -> tuple[Status, str]:
    if isinstance(exc, LimitExceeded):
        return "timeout", str(exc)
    if isinstance(exc, OutputLimitExceeded):
        return "error", str(exc)  # "output limit: the solution wrote more than N bytes ..."
    if isinstance(exc, ChildGone) and "MemoryError" in str(exc):
        return "memory", str(exc)
    if isinstance(exc, ProtocolViolation):
        return "error", f"protocol violation: {exc}"
    if isinstance(exc, MeterTampering):
        return "error", f"{METER_TAMPERING}: {exc}"
    return "error", str(exc)


METER_TAMPERING = "meter-tampering"
"""How a verdict's error starts when the meter's readings of the solution went backwards (a
count rewound from inside the process): docs/sandbox.md, "The instruction counter"."""


def _unexpected(exc: Exception, task_id: str, what: str) -> str:
    """A verdict's text for an exception nothing expected while profiling one solution: that
    solution gets it (with the traceback in the log), and every other solution its own result."""
    log.error("%s: %s failed unexpectedly", task_id, what, exc_info=exc)
    return f"profiling failed ({what}): {type(exc).__name__}: {exc}"


@dataclass
class _Pass:
    """One pass of a solution over the cases, in raw meter units."""

    load: int
    calls: list[int]  # per case: the call's window minus an empty call's
    reports: list[int]  # per case: the serialisation window
    idle: int  # cost between commands
    items: list[dict[str, Any]]  # per case: output and post-call inputs, serialised
    cpu_ns: int  # the child's CPU over all windows
    output: dict[str, Any]  # the child's captured stdout / stderr
    # memory, bytes (None: not measured): the trusted post-load baseline of this child, the
    # load's peak, and per case the call's peak (with the idle gap after it) and the report's
    # peak above the report's own starting size (with its gap); all absolute except the last
    baseline: int | None = None
    load_peak: int | None = None
    call_peaks: list[int | None] = field(default_factory=list)
    report_growth: list[int | None] = field(default_factory=list)
    report_starts: list[int | None] = field(default_factory=list)
    memory_source: str | None = None  # MemoryProbe.source of the child
    # the sampled pass only: its load, then per case its call and report (see _pass_tmu)
    sampled: list[Exchange] = field(default_factory=list)


class _TaskRunner:
    """One zygote for one task: passes of solutions, judging and calibration in its children."""

    def __init__(
        self,
        task: ProfileTask,
        meter: MeterName,
        sandbox: SandboxConfig,
        measure: MeasureConfig,
        isolation: iso.Isolation,
    ) -> None:
        self.task = task
        self.sandbox = sandbox
        self.measure = measure
        self.isolation = isolation
        self.limits = sandbox.limits
        self.meter: Meter = make_meter(meter)
        self.scale = self.meter.slowdown
        self.session = SandboxSession(
            sandbox, self.meter, isolation, limit_scale=self.scale, zygote=True, track_memory=True
        )
        self.encoded_inputs = [wire.encode(c.inputs) for c in task.cases]
        self.null_call = 0
        self.null_cpu = 0
        self.null_load = 0
        self.compile_allowance = 0  # compiling a trusted COMPILE_ALLOWANCE_BYTES source
        self.null_load_rss: int | None = None  # resident growth of loading a minimal solution
        self.null_call_rss = 0  # peak growth of an empty call (the emulator's, under icount)
        self.last_output: dict[str, Any] = {"stdout": "", "stderr": "", "dropped_bytes": 0}
        self.judge_session: SandboxSession | None = None
        self.honest_cache: dict[str, tuple[list[int], list[int | None]]] = {}
        if self.meter.deterministic:
            self.tolerance, self.slack, self.idle_slack = (
                ICOUNT_CHARGE_TOLERANCE,
                ICOUNT_CHARGE_SLACK,
                0,
            )
        else:
            self.tolerance = measure.charge_tolerance
            self.slack = int(measure.charge_slack_ms * 1e6)
            self.idle_slack = int(measure.idle_slack_ms * 1e6)

    # -- the zygote -----------------------------------------------------------------------------

    def start(self, *, calibrate: bool = True) -> None:
        """Start the zygote; ``calibrate=False`` for a judge-only runner (the native verdicts read
        a pass's answers and CPU, never its net costs or memory)."""
        self.session.start()
        wall = self.limits.wall
        ex = self.session.request(
            "zsetup",
            kind=self.task.kind,
            entry_point=self.task.entry_point,
            convert_offline=self.task.convert_offline,
            cases=self.encoded_inputs,
            seed=0,
            inputs_after=self.task.needs_inputs_after,
            # no file a pass writes may reach the next pass (the private /tmp of a real sandbox;
            # the weak one's /tmp is the host's and is left alone)
            seal_tmp=not self.isolation.weak,
            wall_limit_s=wall,
            cpu_limit_s=self.limits.cpu_seconds,
        )
        if not ex.reply.get("ok"):
            raise _Verdict("error", f"task setup failed (dataset problem): {ex.reply.get('error')}")
        for _ in range(WARM_UP_PINGS):
            self.session.request("ping", wall_limit_s=wall)
        for _ in range(WARM_UP_SPAWNS):  # the zygote's own spawn and reap paths, warmed too
            self._spawn().finish()
        try:
            self.session.set_memory_limit(self.limits.memory_mb << 20)
        except OSError as exc:
            raise SandboxError(f"could not cap the sandbox's memory: {exc}") from exc
        if calibrate:
            self._calibrate()

    def _calibrate(self) -> None:
        """The cost of an empty call, of loading a minimal solution, and of compiling the allowance
        source, in children that never see solution code (loads: each in a fresh child, as a
        solution's is)."""
        wall = self.limits.wall
        loads = []
        allowances = []
        load_rss: list[int] = []
        for _ in range(NULL_LOADS):
            child = self._spawn()
            try:
                comp = child.request("compile", code=self._minimal_source(), wall_limit_s=wall)
                loads.append(child.request("load", wall_limit_s=wall).cost)
                # the resident size the minimal solution's calls would start from
                after = child.request("ping", wall_limit_s=wall).rss_before
                if after is not None and comp.rss_before is not None:
                    load_rss.append(after - comp.rss_before)
                big = child.request("compile", code=self._allowance_source(), wall_limit_s=wall)
                allowances.append(big.cost)
                if self.meter.deterministic:
                    break
            finally:
                child.finish()
        self.null_load = int(statistics.median(loads))
        self.compile_allowance = int(statistics.median(allowances))
        self.null_load_rss = int(statistics.median_low(load_rss)) if load_rss else None
        child = self._spawn()
        try:
            nulls = []
            for _ in range(NULL_CALLS):
                nulls.append(child.request("call", case=0, null=True, wall_limit_s=wall))
        finally:
            child.finish()
        if self.task.cases:
            # the empty call's cost as the solutions' calls are estimated: from the fastest ones
            # (an empty call read in a slow phase would be subtracted from every call)
            costs = [e.cost for e in nulls]
            self.null_call = int(
                statistics.median(costs)
                if self.meter.deterministic
                else _estimate(self.measure, costs).estimate
            )
            self.null_cpu = int(statistics.median(e.cpu_ns for e in nulls))
            growth = [
                e.span_peak - e.rss_before
                for e in nulls
                if e.span_peak is not None and e.rss_before is not None
            ]
            self.null_call_rss = int(statistics.median_low(growth)) if growth else 0

    def _allowance_source(self) -> str:
        """A trusted source of COMPILE_ALLOWANCE_BYTES: the minimal solution and a literal table
        of integers (what a solution that carries precomputed answers looks like)."""
        head = self._minimal_source() + "TABLE = (\n"
        rows, size, i = [], len(head) + 3, 0
        while size < COMPILE_ALLOWANCE_BYTES:
            row = "    " + ", ".join(str((i * 7919 + j * 104729) % 1_000_003) for j in range(8))
            rows.append(row + ",\n")
            size += len(rows[-1])
            i += 1
        return head + "".join(rows) + ")\n"

    def _minimal_source(self) -> str:
        if self.task.kind == "class":
            return f"class Solution:\n    def {self.task.entry_point}(self, *args):\n        pass\n"
        return f"def {self.task.entry_point}(*args):\n    pass\n"

    def _spawn(self, *, judge: bool = False) -> ChildProcess:
        limits = self.limits
        setup = solution_setup(
            self.sandbox,
            self.isolation,
            as_bytes=limits.memory_mb << 20,
            cpu_seconds=math.ceil(
                (limits.cpu_seconds * 2 + self.measure.budget_seconds + 30) * self.scale
            ),
        )
        setup["limits"].pop("as_bytes")  # the host caps the zygote's, which children inherit
        setup["prefault"] = not self.meter.deterministic and not judge
        return self.session.spawn(setup, wall_limit_s=30.0 * self.scale)

    def close(self) -> None:
        self._close_judge()
        self.session.close()

    # -- passes ---------------------------------------------------------------------------------

    def run_pass(
        self, code: str, *, sample: bool = False, cpu_seconds: float | None = None
    ) -> _Pass:
        """Load ``code`` in a fresh child and call it once on every case, in order.

        ``sample``: the host also samples the child's memory during the load, every call and
        every report (the sampled pass: its time-memory integral, :func:`_pass_tmu`).
        ``cpu_seconds``: the pass's CPU limit in native seconds (default the sandbox's), its wall
        limit following it."""
        # the emulator runs ~15x slower (meter.slowdown): readings as dense per unit of work as
        # natively, and a fifteenth of the host CPU the sampler takes beside the pass
        every = TMU_SAMPLE_INTERVAL_S * self.scale if sample else None
        limits = self.limits
        wall = limits.wall
        cpu_left = limits.cpu_seconds
        if cpu_seconds is not None and cpu_seconds < cpu_left:
            cpu_left = cpu_seconds
            wall = min(wall, 2 * cpu_seconds + 5)
        child = self._spawn()
        idle = 0
        cpu_ns = 0
        calls: list[int] = []
        reports: list[int] = []
        items: list[dict[str, Any]] = []
        windows: list[tuple[Exchange, Exchange]] = []  # per case: call, report (for memory)
        comp: Exchange | None = None
        load: Exchange | None = None
        try:
            try:
                # Compiling beyond the allowance is booked with the load: a source that holds a
                # huge literal table (precomputed answers) pays. The compiler runs no solution code
                # (no hook of the solution's is armed yet), so nothing else happens in this window.
                comp = child.request("compile", code=code, cpu_limit_s=cpu_left, wall_limit_s=wall)
                if not comp.reply.get("ok"):
                    raise _Verdict("error", f"the solution does not compile: {comp.reply['error']}")
                cpu_left -= comp.cpu_ns / 1e9 / self.scale  # the limit is in native seconds
                load = child.request(
                    "load",
                    cpu_limit_s=max(cpu_left, 0.001),
                    wall_limit_s=wall,
                    sample_interval_s=every,
                )
            except LimitExceeded as exc:
                raise _Verdict("timeout", f"loading the solution: {exc}") from exc
            if not load.reply.get("ok"):
                raise _Verdict(
                    _status_of_reply(load.reply), f"loading the solution: {load.reply.get('error')}"
                )
            cpu_left -= load.cpu_ns / 1e9 / self.scale
            idle += load.idle
            cpu_ns += comp.cpu_ns + load.cpu_ns
            for i in range(len(self.task.cases)):
                try:
                    call = child.request(
                        "call",
                        case=i,
                        cpu_limit_s=max(cpu_left, 0.001),
                        wall_limit_s=wall,
                        sample_interval_s=every,
                    )
                except LimitExceeded as exc:
                    raise _Verdict(
                        "timeout", f"case {i}: {exc} (limit for all cases together)", i
                    ) from exc
                if not call.reply.get("ok"):
                    raise _Verdict(
                        _status_of_reply(call.reply), f"case {i}: {call.reply.get('error')}", i
                    )
                cpu_left -= call.cpu_ns / 1e9 / self.scale
                rep = child.request("report", case=i, wall_limit_s=wall, sample_interval_s=every)
                if not rep.reply.get("ok"):
                    raise _Verdict(
                        _status_of_reply(rep.reply), f"case {i}: {rep.reply['error']}", i
                    )
                # net of an empty call; with the cpu meter a microsecond call can read below it
                # in one pass (noise), so only the median over passes is clamped
                net = call.cost - self.null_call
                calls.append(max(0, net) if self.meter.deterministic else net)
                reports.append(rep.cost)
                windows.append((call, rep))
                idle += call.idle + rep.idle
                cpu_ns += call.cpu_ns + rep.cpu_ns
                items.append(
                    {
                        "inputs": self.encoded_inputs[i],
                        "expected": wire.encode(self.task.cases[i].expected),
                        "inputs_after": rep.reply["inputs_after"],
                        "output": rep.reply["output"],
                    }
                )
        except ShuttingDown:
            raise
        except SandboxError as exc:
            end = child.finish()
            status, message = _status_of_exception(exc)
            if end.exit_code == -signal.SIGXCPU:
                status, message = "timeout", "the CPU time limit (RLIMIT_CPU) killed the process"
            elif end.exit_code == EXEC_REFUSED_EXIT and self.meter.name == "icount":
                status, message = (
                    "error",
                    "the solution tried to execute another program (refused: it would run "
                    "outside the instruction counter)",
                )
            elif end.exit_code == MAP_REFUSED_EXIT and self.meter.name == "icount":
                status, message = (
                    "error",
                    "the solution tried to map executable memory it wrote itself (refused: "
                    "native code of its own would run inside the emulator, beside the "
                    "instruction counter)",
                )
            elif isinstance(exc, ChildGone) and end.exit_code is not None and end.exit_code < 0:
                # (a timer of the solution's whose handler the harness took away, for one)
                with contextlib.suppress(ValueError):
                    message += f" (killed by {signal.Signals(-end.exit_code).name})"
            raise _Verdict(status, message) from exc
        finally:
            if not child.finished:
                child.finish()  # its `exit` closes the last report's memory span
            self.last_output = output = child.output.as_dict()
        assert comp is not None and load is not None
        baseline = None
        if comp.rss_before is not None and self.null_load_rss is not None:
            baseline = comp.rss_before + self.null_load_rss
        return _Pass(
            # the load's own work, and compiling only beyond the allowance (COMPILE_ALLOWANCE_BYTES)
            load=max(0, comp.cost - self.compile_allowance) + max(0, load.cost - self.null_load),
            calls=calls,
            reports=reports,
            idle=idle,
            items=items,
            cpu_ns=cpu_ns,
            output=output,
            baseline=baseline,
            load_peak=load.span_peak,
            call_peaks=[
                None if c.span_peak is None else c.span_peak - self.null_call_rss
                for c, _ in windows
            ],
            report_growth=[
                None if r.span_peak is None or r.rss_before is None else r.span_peak - r.rss_before
                for _, r in windows
            ],
            report_starts=[r.rss_before for _, r in windows],
            memory_source=None if child.endpoint.memory is None else child.endpoint.memory.source,
            sampled=[load, *(e for w in windows for e in w)] if sample else [],
        )

    def judge(self, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``evaluate_offline`` on each item, in a sandbox that never sees solution code.

        The judge runs natively (nothing of it is measured): one process per task serves every
        solution's verdicts, on values the host rebuilt; a judge that dies is started again.
        """
        limits = self.limits
        try:
            judge = self._judge_session()
            out = judge.request(
                "judge", items=items, cpu_limit_s=limits.cpu_seconds, wall_limit_s=limits.wall
            )
        except _Verdict:
            raise
        except ShuttingDown:
            raise
        except SandboxError as exc:
            self._close_judge()
            raise _Verdict("error", f"the judge failed: {exc}") from exc
        verdicts = out.reply.get("verdicts")
        if not isinstance(verdicts, list) or len(verdicts) != len(items):
            self._close_judge()
            raise _Verdict("error", "the judge answered with the wrong number of verdicts")
        return verdicts

    def _judge_session(self) -> SandboxSession:
        if self.judge_session is not None:
            return self.judge_session
        limits = self.limits
        session = SandboxSession(self.sandbox, CpuMeter(), self.isolation)
        session.start()
        self.judge_session = session
        setup = session.request(
            "setup",
            **solution_setup(
                self.sandbox,
                self.isolation,
                as_bytes=limits.memory_mb << 20,
                cpu_seconds=math.ceil(limits.cpu_seconds) * 4 + 30,
            ),
            kind="judge",
            entry_point="",
            convert_offline=self.task.convert_offline,
            cases=[],
            wall_limit_s=limits.wall,
        )
        if not setup.reply.get("ok"):
            self._close_judge()
            raise _Verdict("error", f"judge setup failed: {setup.reply.get('error')}")
        js = session.request(
            "judge_setup",
            convert_offline=self.task.convert_offline,
            evaluate_offline=self.task.evaluate_offline,
            wall_limit_s=limits.wall,
        )
        if not js.reply.get("ok"):
            self._close_judge()
            raise _Verdict("error", f"evaluate_offline does not load: {js.reply.get('error')}")
        return session

    def _close_judge(self) -> None:
        if self.judge_session is not None:
            self.judge_session.close()
            self.judge_session = None

    def honest_reports(self, items: list[dict[str, Any]]) -> tuple[list[int], list[int | None]]:
        """What serialising each reported value costs in a child that never sees solution code,
        and how much its resident memory grows meanwhile (bytes; None: not measured).

        Correct solutions of a task mostly report the very same values: those are calibrated
        once (keyed by their serialisation)."""
        key = hashlib.sha256(
            json.dumps([[i["output"], i["inputs_after"]] for i in items]).encode()
        ).hexdigest()
        known = self.honest_cache.get(key)
        if known is not None:
            return known
        costs = self._honest_reports(items)
        self.honest_cache[key] = costs
        return costs

    def _honest_reports(self, items: list[dict[str, Any]]) -> tuple[list[int], list[int | None]]:
        """One trusted child serialises every item; with a time meter it does so
        :data:`HONEST_REPORT_ROUNDS` times and each item's cost is its cheapest: a calibration
        read once, in a slow phase or cold (the first encode of a child costs about twice the
        next), would widen by as much the allowance a patched harness hides work in. Memory
        growth is the first round's (later rounds reuse what the first allocated)."""
        rounds = 1 if self.meter.deterministic else HONEST_REPORT_ROUNDS
        child = self._spawn()
        first: list[Exchange] = []
        costs: list[int] = []
        try:
            child.request("stage", items=items, wall_limit_s=self.limits.wall)
            for r in range(rounds):
                for i in range(len(items)):
                    e = child.request("encode", i=i, wall_limit_s=self.limits.wall)
                    if r == 0:
                        first.append(e)
                        costs.append(e.cost)
                    else:
                        costs[i] = min(costs[i], e.cost)
        finally:
            child.finish()
        # an exchange's span_peak is filled in by the command after it (or the child's exit)
        growth = [
            None if e.span_peak is None or e.rss_before is None else e.span_peak - e.rss_before
            for e in first
        ]
        return costs, growth


@dataclass
class _Solution:
    """A solution's profile as it goes: the verdict, then the passes."""

    index: int
    code: str
    result: RunResult
    items: list[dict[str, Any]] = field(default_factory=list)
    honest: list[int] = field(default_factory=list)
    honest_memory: list[int | None] = field(default_factory=list)  # a report's memory growth
    passes: list[_Pass] = field(default_factory=list)
    costs: list[int] = field(default_factory=list)  # raw, per pass
    charges: list[list[int]] = field(default_factory=list)  # raw, per pass, per case
    idle_charges: list[int] = field(default_factory=list)
    memory: list[list[int | None]] = field(default_factory=list)  # per pass, per case (bytes)
    load_memory: list[int | None] = field(default_factory=list)  # per pass (bytes)
    memory_sources: list[str | None] = field(default_factory=list)  # per pass
    tmu: _Tmu | None = None  # from the sampled pass
    native_cpu: float | None = None  # CPU seconds of its native pass ("Native first")
    done: bool = False


@dataclass(frozen=True)
class _Tmu:
    """A sampled pass's time-memory integral, in bytes x the meter's raw unit."""

    total: float
    cases: list[float]
    samples: list[int]  # per case: readings of its call (the window's ends included)
    readings: int  # over the load and every call
    interval_s: float  # mean host wall time between two readings of the load and the calls
    load: float = 0.0  # the load's integral (part of total)
    # the sampled pass's peaks above its baseline (bytes; None: not measured), for the
    # comparison with the passes that are not sampled (_with_unsampled_peaks)
    load_peak: int | None = None
    peaks: list[int | None] = field(default_factory=list)
    # which figures were raised to an unsampled pass's peak times its duration
    load_bounded: bool = False
    bounded: list[bool] = field(default_factory=list)


def _trace_integral(trace: MemoryTrace) -> float:
    return time_memory_integral(trace.clock, trace.rss, trace.marks)


def _pass_tmu(
    p: _Pass,
    honest: Sequence[int],
    honest_memory: Sequence[int | None],
    tolerance: float,
    slack: int,
    idle_slack: int,
) -> _Tmu | None:
    """EffiBench's TMU of a sampled pass: the whole process's resident memory, read by the host,
    integrated over the pass (docs/profiler.md, "Time-memory integral"). None when a window was
    not sampled (memory not measurable here).

    Counted: the load (work done at import is memory held over time too), and per case its call;
    its report when the report cost more, in time or memory, than serialising the same values in
    a trusted child (the charge rules of the timed figures: a patched harness that moved work
    into the report pays for it); and the idle gaps before the call and before the report, at
    the highest memory seen up to the next command (the gap is not sampled; its charged cost
    times that peak bounds what it held)."""
    if not p.sampled or any(e.trace is None for e in p.sampled):
        return None
    load, rest = p.sampled[0], p.sampled[1:]
    assert load.trace is not None
    total = _trace_integral(load.trace)
    cases: list[float] = []
    samples: list[int] = []
    prev = load
    for i in range(len(rest) // 2):
        call, rep = rest[2 * i], rest[2 * i + 1]
        assert call.trace is not None and rep.trace is not None
        tmu = _trace_integral(call.trace)
        expected = honest[i] if i < len(honest) else 0
        over_time = rep.cost > int(expected * tolerance) + slack
        growth = p.report_growth[i]
        honest_growth = honest_memory[i] if i < len(honest_memory) else None
        over_memory = (
            growth is not None
            and honest_growth is not None
            and growth > int(honest_growth * REPORT_MEMORY_TOLERANCE) + REPORT_MEMORY_SLACK
        )
        if over_time or over_memory:
            tmu += _trace_integral(rep.trace)
        for gap, before in ((call.idle, prev), (rep.idle, call)):
            peak = before.span_peak if before.span_peak is not None else before.peak
            tmu += max(0, gap - idle_slack) * (peak or 0)
        cases.append(tmu)
        samples.append(len(call.trace.clock))
        total += tmu
        prev = rep
    windows = [load.trace, *(e.trace for e in rest[0::2] if e.trace is not None)]
    intervals = sum(len(t.clock) - 1 for t in windows)
    wall = sum(t.wall_s for t in windows)
    return _Tmu(
        total=total,
        cases=cases,
        samples=samples,
        readings=sum(len(t.clock) for t in windows),
        interval_s=wall / intervals if intervals else 0.0,
        load=_trace_integral(load.trace),
        load_peak=_load_memory(p),
        peaks=_case_memory(p, honest_memory),
        bounded=[False] * len(cases),
    )


def _held_more(peak: int | None, sampled: int | None) -> bool:
    """An unsampled pass's peak (above its baseline) beyond the sampled pass's tolerance."""
    if peak is None or sampled is None:
        return False
    return peak > sampled * UNSAMPLED_PEAK_TOLERANCE + UNSAMPLED_PEAK_SLACK


def _with_unsampled_peaks(
    tmu: _Tmu,
    passes: Sequence[_Pass],
    honest_memory: Sequence[int | None],
    null_call: int,
    null_load: int,
) -> _Tmu:
    """The sampled pass's integral, raised where a pass that was not sampled held more.

    With a time meter only the sampled pass has a memory curve, and a solution may tell that
    pass from the others (by its pid, say) and hold little only there. Every pass's peaks are
    read, though: where a pass's peak for a case (or for the load) exceeds the sampled pass's by
    more than ``UNSAMPLED_PEAK_TOLERANCE`` x and ``UNSAMPLED_PEAK_SLACK``, the case's figure is
    at least that whole-process peak times the window's duration in that pass (its call net
    of nothing, as the integral's is; the load's window): an upper bound of that pass's
    integral, flagged (``bounded``). Honest passes peak alike, so their figures stay the
    sampled integral (docs/profiler.md, "Time-memory integral")."""
    cases, bounded = list(tmu.cases), list(tmu.bounded)
    load, load_bounded = tmu.load, tmu.load_bounded
    for p in passes:
        if p.baseline is None:
            continue
        above = _load_memory(p)
        if above is not None and _held_more(above, tmu.load_peak):
            bound = (p.baseline + above) * max(0, p.load + null_load)
            if bound > load:
                load, load_bounded = float(bound), True
        for i, above in enumerate(_case_memory(p, honest_memory)[: len(cases)]):
            sampled = tmu.peaks[i] if i < len(tmu.peaks) else None
            if above is None or not _held_more(above, sampled):
                continue
            bound = (p.baseline + above) * max(0, p.calls[i] + null_call)
            if bound > cases[i]:
                cases[i], bounded[i] = float(bound), True
    if not load_bounded and not any(bounded):
        return tmu
    total = tmu.total + (load - tmu.load) + sum(cases) - sum(tmu.cases)
    return replace(
        tmu, total=total, cases=cases, load=load, load_bounded=load_bounded, bounded=bounded
    )


def _case_memory(p: _Pass, honest: Sequence[int | None]) -> list[int | None]:
    """Each case's peak memory in pass ``p``, above the pass's trusted post-load baseline.

    The call's peak counts (with the idle gap after its reply, where a signal handler or a
    finalizer would run), and so does whatever its report needed beyond serialising the same
    values in a trusted child: an allocation a patched harness moved into the report."""
    out: list[int | None] = []
    for i, call_peak in enumerate(p.call_peaks):
        base = p.baseline
        if base is None or call_peak is None:
            out.append(None)
            continue
        peak = call_peak
        growth, start = p.report_growth[i], p.report_starts[i]
        expected = honest[i] if i < len(honest) else None
        if growth is not None and start is not None and expected is not None:
            excess = growth - int(expected * REPORT_MEMORY_TOLERANCE) - REPORT_MEMORY_SLACK
            peak = max(peak, start + max(0, excess))
        out.append(max(0, peak - base))
    return out


def _load_memory(p: _Pass) -> int | None:
    """The load's peak in pass ``p`` above the pass's trusted post-load baseline."""
    if p.baseline is None or p.load_peak is None:
        return None
    return max(0, p.load_peak - p.baseline)


def _memory_source(sources: Sequence[str | None]) -> str | None:
    """What the passes' memory figures rest on: the weaker when they differ (a child that
    could not be put in a memory cgroup read its resident size alone); None: not measured."""
    if not sources or None in sources:
        return None
    return sources[0] if len(set(sources)) == 1 else MEMORY_SOURCE_RSS


def _largest_bytes(values: Sequence[int | None]) -> int | None:
    """The largest reading over passes, or None if any is missing.

    Not the median: memory barely varies between passes, and a solution whose peak moved from
    one case (or one window) to another between passes would slip under every per-case median.
    """
    if not values or any(v is None for v in values):
        return None
    return max(v for v in values if v is not None)


def _plain_outputs(item: dict[str, Any]) -> dict[str, Any]:
    """A judged item's answer and post-call arguments as plain data (``RunResult.outputs``)."""
    after = item["inputs_after"]
    return {
        "output": wire.to_plain(item["output"]),
        "inputs_after": None if after is None else wire.to_plain(after),
    }


def _wrong_answer(item: dict[str, Any], i: int) -> str:
    got = json.dumps(wire.to_plain(item["output"]))[:200]
    want = json.dumps(wire.to_plain(item["expected"]))[:200]
    msg = f"case {i}: wrong answer: got {got}, expected {want}"
    if item["output"] is None:  # in-place problems are judged on the arguments
        after = json.dumps(wire.to_plain(item["inputs_after"]))[:200]
        msg += f"; arguments after the call: {after}"
    return msg


class _Profile:
    """Profiling several solutions of one task in one zygote (see the module docstring)."""

    def __init__(
        self,
        task: ProfileTask,
        codes: Sequence[str],
        *,
        meter: MeterName,
        sandbox: SandboxConfig,
        measure: MeasureConfig,
        isolation: iso.Isolation,
        measure_cost: bool,
        keep_outputs: bool = False,
    ) -> None:
        self.task = task
        self.measure = measure
        self.measure_cost = measure_cost
        self.keep_outputs = keep_outputs
        self.runner = _TaskRunner(task, meter, sandbox, measure, isolation)
        m = self.runner.meter
        # under a deterministic meter, every solution is judged natively first ("Native first")
        self.native = (
            _TaskRunner(task, "cpu", sandbox, measure, isolation)
            if m.deterministic and measure.native_first
            else None
        )
        mid = str(machine_info()["machine_id"])
        self.solutions = [
            _Solution(
                i,
                code,
                RunResult(
                    task_id=task.task_id,
                    status="error",
                    meter=m.name,
                    unit=m.unit,
                    isolation=isolation.mode,
                    machine_id=mid,
                    cases=[CaseResult(index=j) for j in range(len(task.cases))],
                ),
            )
            for i, code in enumerate(codes)
        ]

    def run(self) -> list[RunResult]:
        started = time.monotonic()
        try:
            return self._run()
        finally:
            log.info(
                "%s: %d solution(s) profiled with %s in %.1f s",
                self.task.task_id,
                len(self.solutions),
                self.runner.meter.name,
                time.monotonic() - started,
            )

    def _run(self) -> list[RunResult]:
        runner = self.runner
        # the native verdicts first, in their own zygote and judge, closed before the meter's
        # zygote starts: the counted passes run exactly as they would without them
        self._native_verdicts()
        try:
            if any(not sol.done for sol in self.solutions):
                try:
                    runner.start()
                except _Verdict as v:
                    return self._all(v.status, str(v))
                except (SandboxError, MeterError, OSError) as exc:
                    if isinstance(exc, ShuttingDown):
                        raise
                    return self._all("error", f"could not start the sandbox: {exc}")
                except Exception as exc:  # a task's problem is its solutions' verdict
                    return self._all(
                        "error", _unexpected(exc, self.task.task_id, "the task's setup")
                    )
                for sol in self.solutions:
                    if not sol.done:
                        self._verdict(sol)
                if self.measure_cost and not runner.meter.deterministic:
                    self._rounds()
        finally:
            runner.close()
        for sol in self.solutions:
            try:
                self._finish(sol)
            except Exception as exc:  # one solution never stops the others
                res = sol.result
                res.status, res.runtime, res.runtime_ci = "error", None, None
                res.error = _unexpected(exc, self.task.task_id, "its figures")
        return [s.result for s in self.solutions]

    def _all(self, status: Status, message: str) -> list[RunResult]:
        """Every solution without a verdict yet gets this one (the task could not start)."""
        for sol in self.solutions:
            if not sol.done:
                sol.result.status, sol.result.error = status, message
        return [s.result for s in self.solutions]

    @staticmethod
    def _judged(
        runner: _TaskRunner, items: list[dict[str, Any]], res: RunResult, prefix: str = ""
    ) -> None:
        """Every case's answer judged by the task's ``evaluate_offline`` (in ``runner``'s
        judge): the first failure is the verdict (a :class:`_Verdict`, its text after
        ``prefix``)."""
        verdicts = runner.judge(items)
        for i, v in enumerate(verdicts):
            if not v.get("ok"):
                raise _Verdict(
                    "error", f"{prefix}case {i}: evaluate_offline failed: {v.get('error')}", i
                )
            res.cases[i].passed = bool(v["passed"])
            if not v["passed"]:
                raise _Verdict("failed", prefix + _wrong_answer(items[i], i), i)

    def _native_verdicts(self) -> None:
        """Every solution judged natively first (``self.native``, "Native first" in
        docs/profiler.md): a failure there is its verdict, prefixed "natively:", and it is not
        counted; a solution that passes gets the CPU limit of its counted pass
        (:meth:`_counted_limit`)."""
        native = self.native
        if native is None:
            return
        try:
            try:
                native.start(calibrate=False)
            except ShuttingDown:
                raise
            except Exception as exc:  # counted as before, only without the native verdicts
                log.warning(
                    "%s: the native judge did not start (%s): solutions are judged under the "
                    "meter only",
                    self.task.task_id,
                    exc,
                )
                self.native = None
                return
            for sol in self.solutions:
                self._native_verdict(native, sol)
        finally:
            native.close()

    def _native_verdict(self, native: _TaskRunner, sol: _Solution) -> None:
        res = sol.result
        try:
            try:
                npass = native.run_pass(sol.code)
            except _Verdict as v:
                raise _Verdict(v.status, f"natively: {v}", v.case) from None
            finally:
                out = native.last_output
                res.stdout, res.stderr = out["stdout"], out["stderr"]
                res.output_dropped_bytes = out["dropped_bytes"]
            self._judged(native, npass.items, res, "natively: ")
            sol.native_cpu = npass.cpu_ns / 1e9
        except _Verdict as v:
            res.status, res.error, res.failed_case = v.status, str(v), v.case
            sol.done = True
        except ShuttingDown:
            raise
        except SandboxError as exc:
            status, message = _status_of_exception(exc)
            res.status, res.error = status, f"natively: {message}"
            sol.done = True
        except Exception as exc:  # one solution never stops the others (docs/sandbox.md)
            res.status = "error"
            res.error = _unexpected(exc, self.task.task_id, "the native verdict")
            sol.done = True

    def _counted_limit(self, sol: _Solution) -> float | None:
        """The counted pass's CPU limit (native seconds) after a native pass: ``native_margin``
        x its CPU, ``native_floor_seconds`` at least; None without a native pass."""
        if sol.native_cpu is None:
            return None
        m = self.measure
        return max(m.native_floor_seconds, m.native_margin * sol.native_cpu)

    def _verdict(self, sol: _Solution) -> None:
        runner = self.runner
        res = sol.result
        try:
            limit = self._counted_limit(sol)
            try:
                # the verdict pass is the sampled one (its memory curve, for the time-memory
                # integral): the first pass of the solution, so that nothing it did in an
                # earlier pass can lighten it, and, with a time meter, not timed
                first = runner.run_pass(sol.code, sample=self.measure_cost, cpu_seconds=limit)
            except _Verdict as v:
                if v.status != "timeout" or sol.native_cpu is None:
                    raise
                raise _Verdict(
                    "timeout",
                    f"{v} under the meter, though it finished natively in "
                    f"{sol.native_cpu:.3g} s of CPU (a counted pass may take "
                    f"{self.measure.native_margin:g}x that, "
                    f"{self.measure.native_floor_seconds:g} s at least)",
                    v.case,
                ) from None
            finally:
                out = runner.last_output
                res.stdout, res.stderr = out["stdout"], out["stderr"]
                res.output_dropped_bytes = out["dropped_bytes"]
            self._judged(runner, first.items, res)
            res.status = "passed"
            sol.items = first.items
            if self.keep_outputs:
                res.outputs = [_plain_outputs(item) for item in first.items]
            if self.measure_cost and self.task.cases:
                sol.honest, sol.honest_memory = runner.honest_reports(first.items)
                sol.tmu = _pass_tmu(
                    first,
                    sol.honest,
                    sol.honest_memory,
                    runner.tolerance,
                    runner.slack,
                    runner.idle_slack,
                )
                if runner.meter.deterministic:
                    # a count and a high-water mark are the same whether the host samples or
                    # not: the one pass is the sampled pass and the measured one
                    self._add(sol, first)
                else:
                    # the host's sampling thread runs beside the child: its time is not booked
                    # (the rounds are), its peak memory is (sampling never resets the mark)
                    self._add_memory(sol, first)
        except _Verdict as v:
            res.status, res.error, res.failed_case = v.status, str(v), v.case
            sol.done = True
        except MeterError as exc:
            res.status, res.error = "error", f"meter failed: {exc}"
            sol.done = True
        except ShuttingDown:
            raise
        except SandboxError as exc:
            res.status, res.error = _status_of_exception(exc)
            sol.done = True
        except Exception as exc:  # one solution never stops the others (docs/sandbox.md)
            res.status, res.error = "error", _unexpected(exc, self.task.task_id, "the verdict")
            sol.done = True
        if not self.measure_cost or runner.meter.deterministic:
            sol.done = True

    def _add(self, sol: _Solution, p: _Pass) -> None:
        """Book one pass: its cost is load + calls + every excess beyond a calibration."""
        tol, slack = self.runner.tolerance, self.runner.slack
        charges = [
            max(0, rep - int(honest * tol) - slack)
            for rep, honest in zip(p.reports, sol.honest, strict=True)
        ]
        idle = max(0, p.idle - self.runner.idle_slack * (2 * len(p.calls) + 1))
        sol.passes.append(p)
        sol.charges.append(charges)
        sol.idle_charges.append(idle)
        sol.costs.append(p.load + sum(p.calls) + sum(charges) + idle)
        self._add_memory(sol, p)

    def _add_memory(self, sol: _Solution, p: _Pass) -> None:
        """Book one pass's peak memory (each figure is the largest over passes)."""
        sol.memory.append(_case_memory(p, sol.honest_memory))
        sol.load_memory.append(_load_memory(p))
        sol.memory_sources.append(p.memory_source)

    def _rounds(self) -> None:
        """Further passes, one solution after another in turn, until each has converged."""
        m = self.measure
        budget = m.budget_seconds * 1e9
        # the verdict pass (the sampled one) is not booked with a time meter: max_rounds more
        for rnd in range(1, m.max_rounds + 1):
            active = [s for s in self.solutions if not s.done]
            if not active:
                break
            for sol in active:
                res = sol.result
                try:
                    p = self.runner.run_pass(sol.code)
                    if p.items != sol.items:
                        verdicts = self.runner.judge(p.items)
                        for i, v in enumerate(verdicts):
                            if not (v.get("ok") and v.get("passed")):
                                raise _Verdict(
                                    "failed",
                                    f"pass {rnd + 1}: {_wrong_answer(p.items[i], i)} (it passed "
                                    "the verdict pass: answers that change between passes)",
                                    i,
                                )
                    self._add(sol, p)
                except _Verdict as v:
                    res.status, res.error, res.failed_case = v.status, str(v), v.case
                    if v.status != "failed":
                        res.error = f"pass {rnd + 1} (after passing the verdict pass): {v}"
                    sol.done = True
                    continue
                except ShuttingDown:
                    raise
                except SandboxError as exc:
                    status, message = _status_of_exception(exc)
                    res.status, res.error = status, f"pass {rnd + 1}: {message}"
                    sol.done = True
                    continue
                except Exception as exc:  # one solution never stops the others
                    res.status = "error"
                    res.error = _unexpected(exc, self.task.task_id, f"pass {rnd + 1}")
                    sol.done = True
                    continue
                n = len(sol.costs)
                spent = sum(q.cpu_ns for q in sol.passes[1:])
                if n >= m.min_rounds:
                    if _estimate(m, sol.costs).rel_half_width <= m.target_rel_ci:
                        res.converged = sol.done = True
                    elif spent > budget:
                        res.flags.append("budget")
                        sol.done = True

    def _modes(self, sol: _Solution) -> ModeSplit:
        """The mode check of ``sol``'s passes, against the task's other passing solutions
        (measured interleaved with it, round by round)."""
        m = self.runner.meter
        peers = [
            [m.to_unit(c) for c in other.costs]
            for other in self.solutions
            if other is not sol and other.result.status == "passed" and other.costs
        ]
        costs = [m.to_unit(c) for c in sol.costs]
        return mode_check(self.measure, costs, peers, unit=m.unit)

    def _finish(self, sol: _Solution) -> None:
        res = sol.result
        m = self.runner.meter
        res.window_overhead = m.to_unit(self.runner.null_call)
        res.measure_cpu_seconds = sum(p.cpu_ns for p in sol.passes) / 1e9
        if res.status == "passed" and sol.tmu is not None:
            runner = self.runner
            t = _with_unsampled_peaks(
                sol.tmu, sol.passes, sol.honest_memory, runner.null_call, runner.null_load
            )
            res.tmu = m.to_unit(t.total)
            res.tmu_samples = t.readings
            res.tmu_interval_ms = t.interval_s * 1e3
            res.tmu_bounded = t.load_bounded or any(t.bounded)
            for case, tmu, n, b in zip(res.cases, t.cases, t.samples, t.bounded, strict=False):
                case.tmu, case.tmu_samples, case.tmu_bounded = m.to_unit(tmu), n, b
            if res.tmu_bounded:
                log.info(
                    "%s: a pass that was not sampled held more memory than the sampled one; "
                    "the TMU of its load (%s) and cases %s is that pass's peak x duration",
                    res.task_id,
                    t.load_bounded,
                    [i for i, b in enumerate(t.bounded) if b],
                )
        if res.status != "passed" or not sol.costs:
            res.runtime = res.runtime_ci = None
            res.rounds = len(sol.costs)
            return
        n = len(sol.costs)
        res.rounds = n
        res.round_costs = [m.to_unit(c) for c in sol.costs]
        res.load_cost = m.to_unit(statistics.median(p.load for p in sol.passes))
        res.charged = m.to_unit((sum(map(sum, sol.charges)) + sum(sol.idle_charges)) / n)
        res.estimator = estimator_name(self.measure, m.deterministic)
        measure = self.measure
        if m.deterministic:
            res.runtime = res.round_costs[0]
            res.runtime_ci = (res.runtime, res.runtime)
            res.converged = True
        else:
            split = self._modes(sol)
            if split.split:
                # A cheap path in some passes only: the fastest passes would credit it with its
                # luckiest draws. Its median pass is the figure, and it is not converged.
                res.flags.append("modes")
                res.converged = False
                measure = measure.model_copy(update={"estimator": "median"})
                res.estimator = estimator_name(measure, False)
                log.warning(
                    "%s: solution %d's passes split into modes: %s; scored by its median pass",
                    res.task_id,
                    sol.index,
                    split.describe(),
                )
            est = _estimate(measure, res.round_costs)
            # a microsecond solution's passes can read below the empty calls subtracted from
            # them (noise); a cost is never negative
            res.runtime = max(0.0, est.estimate)
            res.runtime_ci = (max(0.0, est.low), max(0.0, est.high))
            if n < measure.min_rounds:
                res.flags.append("few-rounds")
            if not res.converged and not {"budget", "modes"} & set(res.flags):
                res.flags.append("max-rounds" if n >= measure.max_rounds else "unconverged")
        for i, case in enumerate(res.cases):
            per_pass = [
                m.to_unit(p.calls[i] + ch[i]) for p, ch in zip(sol.passes, sol.charges, strict=True)
            ]
            est = _estimate(measure, per_pass)
            case.rounds = n
            case.samples = per_pass
            case.median, case.ci_low, case.ci_high = (
                max(0.0, v) for v in (est.estimate, est.low, est.high)
            )
            case.ci_coverage = est.coverage
            case.converged = res.converged
            case.charged = m.to_unit(sum(ch[i] for ch in sol.charges) / n)
            case.peak_memory_bytes = _largest_bytes([mem[i] for mem in sol.memory])
        res.load_memory_bytes = _largest_bytes(sol.load_memory)
        res.memory_source = _memory_source(sol.memory_sources)
        baselines = [p.baseline for p in sol.passes if p.baseline is not None]
        if sol.passes and len(baselines) == len(sol.passes):
            res.memory_baseline_bytes = int(statistics.median_low(baselines))
        figures = [c.peak_memory_bytes for c in res.cases] + [res.load_memory_bytes]
        if sol.passes and all(f is not None for f in figures):
            res.peak_memory_bytes = max(f for f in figures if f is not None)
        if res.flags:
            log.info(
                "%s: measurement not converged (%s) after %d pass(es)",
                res.task_id,
                ", ".join(res.flags),
                n,
            )


def mode_check(
    measure: MeasureConfig,
    costs: Sequence[float],
    peers: Sequence[Sequence[float]] = (),
    *,
    unit: str = "s",
) -> ModeSplit:
    """Do a time meter's pass ``costs`` (in ``unit``) split into a cheap and an expensive mode?
    ``peers``: the pass costs of the task's other solutions, measured in the same rounds
    (``measure.modes_*``, :func:`quicksilver.stats.mode_split`; docs/profiler.md, "The mode
    check")."""
    return mode_split(
        costs,
        ratio=measure.modes_ratio,
        floor=measure.modes_floor_ms / 1e3 if unit == "s" else 0.0,
        peers=peers,
        peer_factor=measure.modes_peer_factor,
    )


@dataclass(frozen=True)
class _Estimate:
    estimate: float
    low: float
    high: float
    coverage: float | None  # the median's CI95 coverage; None for the fastest passes' band

    @property
    def rel_half_width(self) -> float:
        return (self.high - self.low) / 2 / self.estimate if self.estimate > 0 else math.inf


def estimator_name(measure: MeasureConfig, deterministic: bool) -> str:
    """What :attr:`RunResult.estimator` records."""
    if deterministic:
        return "exact"
    return "median" if measure.estimator == "median" else f"fastest-{measure.fastest_k}"


def estimate_of(estimator: str, costs: Sequence[float]) -> float:
    """The figure ``estimator`` (a :attr:`RunResult.estimator`) takes from pass costs."""
    if estimator.startswith("fastest-"):
        return fastest_band(costs, int(estimator.removeprefix("fastest-"))).estimate
    return statistics.median(costs) if estimator == "median" else costs[0]


def _estimate(measure: MeasureConfig, costs: Sequence[float]) -> _Estimate:
    """A time meter's cost from its passes, by ``measure.estimator`` (stats.py says why the
    fastest passes, by default)."""
    if measure.estimator == "median":
        ci = median_ci(costs)
        return _Estimate(ci.median, ci.low, ci.high, ci.coverage)
    band = fastest_band(costs, measure.fastest_k)
    return _Estimate(band.estimate, band.low, band.high, None)


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


@dataclass(frozen=True)
class Job:
    task: ProfileTask
    code: str
    key: str = ""
    weight: float = 0.0  # expected cost (any unit): heavier batches start first


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
