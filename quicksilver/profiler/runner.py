"""One zygote for one task: calibration, the passes of solutions and their judging."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import signal
import statistics
from dataclasses import dataclass, field
from typing import Any

from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.meters import EXEC_REFUSED_EXIT, MAP_REFUSED_EXIT, CpuMeter, Meter, make_meter
from quicksilver.profiler.estimate import _estimate
from quicksilver.profiler.model import ProfileTask, applied_limits
from quicksilver.profiler.verdicts import _status_of_exception, _status_of_reply, _Verdict
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.session import (
    ChildGone,
    ChildProcess,
    Exchange,
    LimitExceeded,
    SandboxError,
    SandboxSession,
    ShuttingDown,
    solution_setup,
)

log = logging.getLogger("quicksilver.profiler")

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

HONEST_REPORT_ROUNDS = 3
"""With a time meter, each reported value is serialised this many times in the trusted
calibration child; its honest report cost is the cheapest (``_TaskRunner._honest_reports``)."""

TMU_SAMPLE_INTERVAL_S = 0.001
"""How often (host wall time, nominal) the host reads a solution's resident size during the
sampled pass, for its time-memory integral (docs/profiler.md, "Time-memory integral")."""


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


@dataclass
class _PassSteps:
    """A pass as it goes (``_TaskRunner.run_pass``): its limits left and what it has read."""

    every: float | None  # the memory sampling interval (the sampled pass), or None
    wall: float  # each command's wall limit
    cpu_left: float  # native CPU seconds left for the rest of the pass
    # native CPU seconds each command of solution code (the load, each call) may take, and
    # where that limit came from (None: only what is left of the pass's)
    call_cap: float | None = None
    call_from: str | None = None
    idle: int = 0
    cpu_ns: int = 0
    calls: list[int] = field(default_factory=list)
    reports: list[int] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    windows: list[tuple[Exchange, Exchange]] = field(default_factory=list)  # per case: call, report
    comp: Exchange | None = None
    load: Exchange | None = None


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
        # the whole pass's CPU limit and the row's per call (docs/profiler.md, "Limits from
        # the row"), recorded in every result
        self.applied = applied_limits(task, sandbox.limits.cpu_seconds)
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
        self,
        code: str,
        *,
        sample: bool = False,
        cpu_seconds: float | None = None,
        per_call: bool = True,
    ) -> _Pass:
        """Load ``code`` in a fresh child and call it once on every case, in order.

        ``sample``: the host also samples the child's memory during the load, every call and
        every report (the sampled pass: its time-memory integral, :func:`_pass_tmu`).
        ``cpu_seconds``: the pass's CPU limit in native seconds (default the sandbox's, or the
        row's when tighter: :func:`applied_limits`), its wall limit following it.
        ``per_call``: the row's limit per call applies too (False: a counted pass after a
        native one that ran under it; its own limit is its native CPU's margin)."""
        # the emulator runs ~15x slower (meter.slowdown): readings as dense per unit of work as
        # natively, and a fifteenth of the host CPU the sampler takes beside the pass
        every = TMU_SAMPLE_INTERVAL_S * self.scale if sample else None
        wall = self.limits.wall
        cpu_left = self.applied["pass_seconds"]
        if cpu_seconds is not None and cpu_seconds < cpu_left:
            cpu_left = cpu_seconds
            wall = min(wall, 2 * cpu_seconds + 5)
        child = self._spawn()
        acc = _PassSteps(every=every, wall=wall, cpu_left=cpu_left)
        if per_call and self.applied["call_seconds"] is not None:
            acc.call_cap, acc.call_from = self.applied["call_seconds"], self.applied["call_from"]
        try:
            self._load_step(child, code, acc)
            for i in range(len(self.task.cases)):
                self._case_step(child, i, acc)
        except ShuttingDown:
            raise
        except SandboxError as exc:
            raise self._child_verdict(child, exc) from exc
        finally:
            if not child.finished:
                child.finish()  # its `exit` closes the last report's memory span
            self.last_output = child.output.as_dict()
        return self._pass_of(child, acc, sample)

    def _command_limits(self, acc: _PassSteps, spent: float = 0.0) -> tuple[float, str]:
        """One command's CPU limit (native seconds), and what a timeout there says of the
        limit: what is left of the pass's, or the row's per call when that is less (``spent``:
        what the command's earlier part, a compile, took of it). The wall limit stays the
        pass's: the CPU limit decides, so a verdict does not move with the machine's load."""
        cpu = acc.cpu_left
        if acc.call_cap is not None and acc.call_cap - spent < cpu:
            cpu = acc.call_cap - spent
            return max(cpu, 0.001), f"limit per call {acc.call_cap:g} s, {acc.call_from}"
        return max(cpu, 0.001), "limit for all cases together"

    def _load_step(self, child: ChildProcess, code: str, acc: _PassSteps) -> None:
        """A pass's first step: compile ``code`` and execute its module code (together one
        command of solution code, as the build's judge loads it: within the per-call limit)."""
        wall = acc.wall
        cpu, what = self._command_limits(acc)
        try:
            # Compiling beyond the allowance is booked with the load: a source that holds a
            # huge literal table (precomputed answers) pays. The compiler runs no solution code
            # (no hook of the solution's is armed yet), so nothing else happens in this window.
            comp = child.request("compile", code=code, cpu_limit_s=cpu, wall_limit_s=wall)
            acc.comp = comp
            if not comp.reply.get("ok"):
                raise _Verdict("error", f"the solution does not compile: {comp.reply['error']}")
            compiled = comp.cpu_ns / 1e9 / self.scale  # the limits are in native seconds
            acc.cpu_left -= compiled
            cpu, what = self._command_limits(acc, compiled)
            load = child.request(
                "load", cpu_limit_s=cpu, wall_limit_s=wall, sample_interval_s=acc.every
            )
            acc.load = load
        except LimitExceeded as exc:
            raise _Verdict("timeout", f"loading the solution: {exc} ({what})") from exc
        if not load.reply.get("ok"):
            raise _Verdict(
                _status_of_reply(load.reply), f"loading the solution: {load.reply.get('error')}"
            )
        acc.cpu_left -= load.cpu_ns / 1e9 / self.scale
        acc.idle += load.idle
        acc.cpu_ns += comp.cpu_ns + load.cpu_ns

    def _case_step(self, child: ChildProcess, i: int, acc: _PassSteps) -> None:
        """One case of a pass: its call, then its report."""
        wall, every = acc.wall, acc.every
        cpu, what = self._command_limits(acc)
        try:
            call = child.request(
                "call", case=i, cpu_limit_s=cpu, wall_limit_s=wall, sample_interval_s=every
            )
        except LimitExceeded as exc:
            raise _Verdict("timeout", f"case {i}: {exc} ({what})", i) from exc
        if not call.reply.get("ok"):
            raise _Verdict(_status_of_reply(call.reply), f"case {i}: {call.reply.get('error')}", i)
        acc.cpu_left -= call.cpu_ns / 1e9 / self.scale
        rep = child.request("report", case=i, wall_limit_s=wall, sample_interval_s=every)
        if not rep.reply.get("ok"):
            raise _Verdict(_status_of_reply(rep.reply), f"case {i}: {rep.reply['error']}", i)
        # net of an empty call; with the cpu meter a microsecond call can read below it
        # in one pass (noise), so only the median over passes is clamped
        net = call.cost - self.null_call
        acc.calls.append(max(0, net) if self.meter.deterministic else net)
        acc.reports.append(rep.cost)
        acc.windows.append((call, rep))
        acc.idle += call.idle + rep.idle
        acc.cpu_ns += call.cpu_ns + rep.cpu_ns
        acc.items.append(
            {
                "inputs": self.encoded_inputs[i],
                "expected": wire.encode(self.task.cases[i].expected),
                "inputs_after": rep.reply["inputs_after"],
                "output": rep.reply["output"],
            }
        )

    def _child_verdict(self, child: ChildProcess, exc: SandboxError) -> _Verdict:
        """The verdict on a pass whose child failed: ``exc``, or how the child ended."""
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
        return _Verdict(status, message)

    def _pass_of(self, child: ChildProcess, acc: _PassSteps, sample: bool) -> _Pass:
        """The finished pass's figures, from its steps."""
        comp, load, windows = acc.comp, acc.load, acc.windows
        assert comp is not None and load is not None
        baseline = None
        if comp.rss_before is not None and self.null_load_rss is not None:
            baseline = comp.rss_before + self.null_load_rss
        return _Pass(
            # the load's own work, and compiling only beyond the allowance (COMPILE_ALLOWANCE_BYTES)
            load=max(0, comp.cost - self.compile_allowance) + max(0, load.cost - self.null_load),
            calls=acc.calls,
            reports=acc.reports,
            idle=acc.idle,
            items=acc.items,
            cpu_ns=acc.cpu_ns,
            output=self.last_output,
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
