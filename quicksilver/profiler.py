"""The bundled profiler: run one solution on a task's test cases in the sandbox, judge it,
and measure its cost.

One sandboxed process serves all cases and rounds of a solution:

1. ``setup``: limits and privileges, the case inputs, ``convert_offline``;
2. calibration, before any solution code exists in the process: each case's input preparation
   (deep copy + convert_offline) and release, and the fixed cost of an empty timed window;
3. ``load``: the solution's source is executed (its cost is reported, not counted);
4. the verdict pass: every case once, within the CPU/wall limits for one pass; outputs and
   post-call inputs are serialised strictly and judged by ``evaluate_offline`` in a second,
   separate sandbox, against expected outputs that never enter the solution's process;
5. measurement (passed solutions only): rounds over the cases, each round a timed window of K
   back-to-back calls on K fresh copies (K chosen so a window lasts ~window_target_ms), until the
   CI95 of each case's median is within target_rel_ci, or max_rounds, or the budget is spent.

Cost is read by the host from the kernel between commands (see meters.py). Untimed windows are
checked against their calibration: whatever exceeds it (work a solution tried to shift out of
the timed window via signal handlers, finalizers, tracing hooks or forged replies) is charged
to the case's cost and reported as ``charged``.
"""

from __future__ import annotations

import json
import logging
import math
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.machine import machine_info
from quicksilver.meters import CpuMeter, Meter, MeterError, make_meter
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.session import (
    ChildGone,
    Exchange,
    LimitExceeded,
    OutputLimitExceeded,
    ProtocolViolation,
    SandboxError,
    SandboxSession,
    solution_setup,
)
from quicksilver.stats import median_ci

log = logging.getLogger(__name__)

Status = Literal["passed", "failed", "error", "timeout", "memory"]
TaskKind = Literal["class", "function"]

# Valgrind runs the interpreter ~50-100x slower: limits are scaled so verdicts do not change.
LIMIT_SCALE = {"cpu": 1.0, "instructions": 1.0, "callgrind": 100.0}


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
    charged: float = 0.0  # per call, on average: cost moved back in from untimed windows
    samples: list[float] = field(default_factory=list)


@dataclass
class RunResult:
    task_id: str
    status: Status
    meter: str
    unit: str
    isolation: str
    runtime: float | None = None  # sum over cases of the per-call median (meter unit)
    runtime_ci: tuple[float, float] | None = None
    error: str | None = None
    failed_case: int | None = None
    cases: list[CaseResult] = field(default_factory=list)
    load_cost: float | None = None
    window_overhead: float | None = None
    measure_cpu_seconds: float = 0.0
    stdout: str = ""
    stderr: str = ""
    output_dropped_bytes: int = 0
    machine_id: str = ""

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
    """Internal: ends a run early with a status."""

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
    return "error", str(exc)


def _encoded_size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


class _Run:
    def __init__(
        self,
        task: ProfileTask,
        code: str,
        meter: Meter,
        sandbox: SandboxConfig,
        measure: MeasureConfig,
        isolation: iso.Isolation,
    ) -> None:
        self.task = task
        self.code = code
        self.meter = meter
        self.sandbox = sandbox
        self.measure = measure
        self.isolation = isolation
        self.limits = sandbox.limits
        self.scale = LIMIT_SCALE[meter.name]
        self.session = SandboxSession(sandbox, meter, isolation, limit_scale=self.scale)
        self.encoded_inputs = [wire.encode(c.inputs) for c in task.cases]
        self.cases = [CaseResult(index=i) for i in range(len(task.cases))]
        self.cal_prep: list[int] = []
        self.cal_release: list[int] = []
        self.overhead = 0
        self.overhead_cpu = 0
        self.slack = int(measure.charge_slack_ms * 1e6)  # ns, or ~instructions (1/ns)
        self.idle_slack = int(measure.idle_slack_ms * 1e6)
        self.load_cost: int | None = None
        self.measure_cpu_ns = 0

    # -- helpers --------------------------------------------------------------------------------

    def req(self, op: str, **fields: Any) -> Exchange:
        fields.setdefault("wall_limit_s", self.limits.wall)
        return self.session.request(op, **fields)

    def ok(self, ex: Exchange, what: str, case: int | None = None) -> Exchange:
        if not ex.reply.get("ok"):
            raise _Verdict(_status_of_reply(ex.reply), f"{what}: {ex.reply.get('error')}", case)
        return ex

    # -- phases ---------------------------------------------------------------------------------

    def setup(self) -> None:
        limits = self.limits
        memory = limits.memory_mb << 20
        if self.meter.name == "callgrind":
            memory = memory * 4 + (1 << 30)  # valgrind's own shadow memory and code cache
        backstop = limits.cpu_seconds + self.measure.budget_seconds + 30
        ex = self.req(
            "setup",
            **solution_setup(
                self.sandbox,
                self.isolation,
                as_bytes=memory,
                cpu_seconds=math.ceil(backstop * self.scale),
            ),
            kind=self.task.kind,
            entry_point=self.task.entry_point,
            convert_offline=self.task.convert_offline,
            cases=self.encoded_inputs,
        )
        if not ex.reply.get("ok"):
            raise _Verdict("error", f"task setup failed (dataset problem): {ex.reply.get('error')}")

    def calibrate(self) -> None:
        """Measure honest untimed work and the empty window, before any solution code runs."""
        for i in range(len(self.task.cases)):
            preps, releases = [], []
            for _ in range(2):
                preps.append(
                    self.ok(self.req("prep", case=i, k=1), f"convert_offline on case {i}").cost
                )
                releases.append(self.req("release", collect=1).cost)
            self.cal_prep.append(max(preps))
            self.cal_release.append(max(releases))
        if self.task.cases:
            self.ok(self.req("prep", case=0, k=1), "prep")
            nulls = [self.req("go", null=True) for _ in range(15)]
            self.req("release")
            self.overhead = int(statistics.median(e.cost for e in nulls))
            self.overhead_cpu = int(statistics.median(e.cpu_ns for e in nulls))

    def load(self) -> None:
        try:
            ex = self.req("load", code=self.code, cpu_limit_s=self.limits.cpu_seconds)
        except LimitExceeded as exc:
            raise _Verdict("timeout", f"loading the solution: {exc}") from exc
        self.load_cost = ex.cost
        if not ex.reply.get("ok"):
            raise _Verdict(
                _status_of_reply(ex.reply), f"loading the solution: {ex.reply.get('error')}"
            )

    def verdict_pass(
        self, judge: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
    ) -> list[int]:
        """Run every case once within the pass limits; judge; return each case's CPU ns."""
        cpu_left = self.limits.cpu_seconds
        items, cpu_costs = [], []
        for i, case in enumerate(self.task.cases):
            self.ok(self.req("prep", case=i, k=1), f"case {i}: preparing the input", i)
            try:
                go = self.req("go", cpu_limit_s=max(cpu_left, 0.001))
            except LimitExceeded as exc:
                raise _Verdict(
                    "timeout", f"case {i}: {exc} (limit for all cases together)", i
                ) from exc
            cpu_left -= go.cpu_ns / 1e9
            if not go.reply.get("ok"):
                raise _Verdict(_status_of_reply(go.reply), f"case {i}: {go.reply.get('error')}", i)
            rep = self.ok(self.req("report"), f"case {i}", i)
            self.req("release")
            cpu_costs.append(go.cpu_ns)
            items.append(
                {
                    "inputs": self.encoded_inputs[i],
                    "expected": wire.encode(case.expected),
                    "inputs_after": rep.reply["inputs_after"],
                    "output": rep.reply["output"],
                }
            )
        verdicts = judge(items)
        for i, v in enumerate(verdicts):
            if not v.get("ok"):
                raise _Verdict("error", f"case {i}: evaluate_offline failed: {v.get('error')}", i)
            self.cases[i].passed = bool(v["passed"])
            if not v["passed"]:
                got = json.dumps(wire.to_plain(items[i]["output"]))[:200]
                want = json.dumps(wire.to_plain(items[i]["expected"]))[:200]
                msg = f"case {i}: wrong answer: got {got}, expected {want}"
                if items[i]["output"] is None:  # in-place problems are judged on the arguments
                    after = json.dumps(wire.to_plain(items[i]["inputs_after"]))[:200]
                    msg += f"; arguments after the call: {after}"
                raise _Verdict("failed", msg, i)
        return cpu_costs

    def _k_cap(self, i: int) -> int:
        per_copy = max(1, _encoded_size(self.encoded_inputs[i]) * 8)
        memory_cap = max(1, (self.measure.batch_memory_mb << 20) // per_copy)
        return min(self.measure.max_calls_per_window, memory_cap)

    def calls_per_window(self, i: int, cpu_ns: int) -> int:
        """Calls per timed window so that a window lasts about ``window_target_ms``.

        The first guess comes from the verdict run, whose single call is often slowed by cold
        caches; up to three probe windows (discarded) refine it.
        """
        target = self.measure.window_target_ms * 1e6
        if target <= 0:
            return 1
        cap = self._k_cap(i)
        call_ns = max(cpu_ns - self.overhead_cpu, 1_000)  # the empty window is not the call
        k = min(cap, max(1, math.ceil(target / call_ns)))
        for _ in range(3):
            self.ok(self.req("prep", case=i, k=k), f"case {i}: preparing", i)
            go = self.req("go", cpu_limit_s=self.limits.cpu_seconds * k)
            self.req("release", collect=1)
            if not go.reply.get("ok"):
                break  # the rounds will report it
            window = max(go.cpu_ns - self.overhead_cpu, 1)
            self.measure_cpu_ns += go.cpu_ns
            if window >= target / 2 or k >= cap:
                break
            k = min(cap, max(k + 1, math.ceil(k * target / window)))
        return k

    def measure_rounds(self, verdict_cpu: list[int]) -> None:
        m = self.measure
        tol = m.charge_tolerance
        ks = [self.calls_per_window(i, c) for i, c in enumerate(verdict_cpu)]
        raw: list[list[int]] = [[] for _ in self.cases]
        charged: list[int] = [0] * len(self.cases)
        budget = m.budget_seconds * 1e9
        done = [False] * len(self.cases)  # converged, or out of rounds
        for rnd in range(m.max_rounds):
            pending = [i for i in range(len(self.cases)) if not done[i]]
            if not pending:
                break
            for i in pending:
                k = ks[i]
                prep = self.ok(self.req("prep", case=i, k=k), f"case {i}: preparing", i)
                try:
                    go = self.req("go", cpu_limit_s=self.limits.cpu_seconds * k)
                except LimitExceeded as exc:
                    raise _Verdict("timeout", f"case {i}, round {rnd + 1}: {exc}", i) from exc
                if not go.reply.get("ok"):
                    raise _Verdict(
                        _status_of_reply(go.reply),
                        f"case {i}, round {rnd + 1}: {go.reply.get('error')} "
                        "(after passing the verdict run)",
                        i,
                    )
                rel = self.req("release", collect=1)
                excess = (
                    max(0, prep.cost - int(k * self.cal_prep[i] * tol) - self.slack)
                    + max(0, rel.cost - int(k * self.cal_release[i] * tol) - self.slack)
                    + sum(max(0, e.idle - self.idle_slack) for e in (prep, go, rel))
                )
                net = max(0, go.cost - self.overhead)
                raw[i].append(net + excess)
                charged[i] += excess
                self.measure_cpu_ns += prep.cpu_ns + go.cpu_ns + rel.cpu_ns
                n = len(raw[i])
                if n >= m.min_rounds:
                    ci = median_ci(raw[i])
                    if ci.rel_half_width <= m.target_rel_ci or self.meter.deterministic:
                        self.cases[i].converged = done[i] = True
                if n >= m.max_rounds:
                    done[i] = True  # stops, without claiming the CI target was met
            if self.measure_cpu_ns > budget:
                log.info("%s: measurement budget spent after %d rounds", self.task.task_id, rnd + 1)
                break
        for i, case in enumerate(self.cases):
            k = ks[i]
            per_call = [self.meter.to_unit(v / k) for v in raw[i]]
            ci = median_ci(per_call)
            case.rounds = len(per_call)
            case.calls_per_window = k
            case.median, case.ci_low, case.ci_high = ci.median, ci.low, ci.high
            case.ci_coverage = ci.coverage
            case.charged = self.meter.to_unit(charged[i] / (k * max(1, len(raw[i]))))
            case.samples = per_call
            if self.meter.deterministic:
                case.converged = True


def _judge_with_session(
    task: ProfileTask, sandbox: SandboxConfig, isolation: iso.Isolation
) -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
    def judge(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        with SandboxSession(sandbox, CpuMeter(), isolation) as session:
            limits = sandbox.limits
            setup = session.request(
                "setup",
                uid=sandbox.sandbox_uid if not isolation.weak else None,
                gid=sandbox.sandbox_uid if not isolation.weak else None,
                limits={
                    "as_bytes": limits.memory_mb << 20,
                    "nproc": 1,
                    "core": 0,
                    "cpu_seconds": math.ceil(limits.cpu_seconds) + 5,
                },
                kind="judge",
                entry_point="",
                convert_offline=task.convert_offline,
                cases=[],
                wall_limit_s=limits.wall,
            )
            if not setup.reply.get("ok"):
                raise _Verdict("error", f"judge setup failed: {setup.reply.get('error')}")
            js = session.request(
                "judge_setup",
                convert_offline=task.convert_offline,
                evaluate_offline=task.evaluate_offline,
                wall_limit_s=limits.wall,
            )
            if not js.reply.get("ok"):
                raise _Verdict("error", f"evaluate_offline does not load: {js.reply.get('error')}")
            out = session.request(
                "judge", items=items, cpu_limit_s=limits.cpu_seconds, wall_limit_s=limits.wall
            )
            verdicts = out.reply.get("verdicts")
            if not isinstance(verdicts, list) or len(verdicts) != len(items):
                raise _Verdict("error", "the judge answered with the wrong number of verdicts")
            return verdicts

    return judge


def profile_solution(
    task: ProfileTask,
    code: str,
    *,
    meter: MeterName | None = None,
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    isolation: iso.Isolation | None = None,
    measure_cost: bool = True,
) -> RunResult:
    """Judge ``code`` on ``task`` and, if it passes, measure its cost."""
    sandbox = sandbox or SandboxConfig()
    measure = measure or MeasureConfig()
    if meter is not None:
        measure = measure.model_copy(update={"meter": meter})
    measure = measure.for_meter()
    isolation = isolation or iso.resolve(sandbox)
    m = make_meter(measure.meter)
    result = RunResult(
        task_id=task.task_id,
        status="error",
        meter=m.name,
        unit=m.unit,
        isolation=isolation.mode,
        machine_id=str(machine_info()["machine_id"]),
    )
    run = _Run(task, code, m, sandbox, measure, isolation)
    try:
        run.session.start()
    except (MeterError, SandboxError, OSError) as exc:
        result.error = f"could not start the sandbox: {exc}"
        return result
    try:
        run.setup()
        run.calibrate()
        run.load()
        verdict_cpu = run.verdict_pass(_judge_with_session(task, sandbox, isolation))
        result.status = "passed"
        if measure_cost and task.cases:
            run.measure_rounds(verdict_cpu)
            result.runtime = sum(c.median or 0.0 for c in run.cases)
            result.runtime_ci = (
                sum(c.ci_low or 0.0 for c in run.cases),
                sum(c.ci_high or 0.0 for c in run.cases),
            )
    except _Verdict as v:
        result.status, result.error, result.failed_case = v.status, str(v), v.case
    except SandboxError as exc:
        result.status, result.error = _status_of_exception(exc)
    except MeterError as exc:
        result.status, result.error = "error", f"meter failed: {exc}"
    finally:
        run.session.close()
    result.cases = run.cases
    result.load_cost = None if run.load_cost is None else m.to_unit(run.load_cost)
    result.window_overhead = m.to_unit(run.overhead)
    result.measure_cpu_seconds = run.measure_cpu_ns / 1e9
    out = run.session.output.as_dict()
    result.stdout, result.stderr = out["stdout"], out["stderr"]
    result.output_dropped_bytes = out["dropped_bytes"]
    if result.status != "passed":
        result.runtime = None
        result.runtime_ci = None
    if isolation.weak:
        log.warning("%s: measured in the WEAK sandbox (no namespaces)", task.task_id)
    return result


@dataclass(frozen=True)
class Job:
    task: ProfileTask
    code: str
    key: str = ""


def profile_many(
    jobs: Sequence[Job],
    *,
    meter: MeterName | None = None,
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    workers: int | None = None,
    on_result: Callable[[Job, RunResult], None] | None = None,
    measure_cost: bool = True,
) -> list[RunResult]:
    """Profile independent solutions in parallel, one sandbox each, one per core by default."""
    import os

    sandbox = sandbox or SandboxConfig()
    measure = measure or MeasureConfig()
    isolation = iso.resolve(sandbox)
    n = workers or measure.workers or os.cpu_count() or 1

    def one(job: Job) -> RunResult:
        res = profile_solution(
            job.task,
            job.code,
            meter=meter,
            sandbox=sandbox,
            measure=measure,
            isolation=isolation,
            measure_cost=measure_cost,
        )
        if on_result is not None:
            on_result(job, res)
        return res

    if n == 1 or len(jobs) <= 1:
        return [one(j) for j in jobs]
    with ThreadPoolExecutor(max_workers=n, thread_name_prefix="qs-profile") as pool:
        return list(pool.map(one, jobs))
