"""What the profiler is given and what it returns: tasks, cases, jobs and results."""

from __future__ import annotations

import ast
import functools
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from quicksilver import astparse
from quicksilver.sandbox.runtime import wire

Status = Literal["passed", "failed", "error", "timeout", "memory"]
TaskKind = Literal["class", "function"]


@dataclass(frozen=True)
class Case:
    inputs: list[Any]
    expected: Any


@dataclass(frozen=True)
class CallLimits:
    """The CPU limits a task's row says its build's judge set (the row's ``judge_limits``,
    docs/profiler.md "Limits from the row"), in native CPU seconds: each command of solution
    code (the load, each call) within ``call_seconds``, the whole pass within
    ``test_set_seconds``. Scoring takes them where they are tighter than its own."""

    call_seconds: float
    test_set_seconds: float | None = None
    source: str = "row"


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
    limits: CallLimits | None = None  # None: the sandbox's limit for the whole pass, alone

    @classmethod
    def from_record(cls, record: Any) -> ProfileTask:
        """Build from a :class:`quicksilver.rows.TaskRow`."""
        cases = tuple(Case(list(c.inputs), c.expected) for c in record.cases())
        return cls(
            task_id=record.task_key,
            entry_point=record.entry_point,
            cases=cases,
            kind=record.task_kind,
            convert_offline=record.effective_convert_offline(),
            evaluate_offline=record.effective_evaluate_offline(),
            difficulty=record.difficulty,
            limits=row_limits(record),
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
                # only when set: the blob of a task without them is what it always was
                *([asdict(self.limits)] if self.limits is not None else []),
            ],
            sort_keys=True,
        )
        return blob


def row_limits(record: Any) -> CallLimits | None:
    """The per-call limits a published row carries (``judge_limits``, written by the Mercury
    build's publish stage from its testcases stage's record), or None: a row without them (the
    original Mercury release, DPE rows, rows built before the column) or with them null."""
    extra = getattr(record, "model_extra", None) or {}
    limits = extra.get("judge_limits")
    if not isinstance(limits, dict):
        return None
    call, whole = limits.get("call_seconds"), limits.get("test_set_seconds")
    if not isinstance(call, int | float) or isinstance(call, bool) or not call > 0:
        return None
    if not isinstance(whole, int | float) or isinstance(whole, bool) or not whole > 0:
        whole = None
    return CallLimits(float(call), None if whole is None else float(whole), "row judge_limits")


def applied_limits(task: ProfileTask, cpu_seconds: float) -> dict[str, Any]:
    """The CPU limits a pass of ``task`` runs under, native seconds, and where each came from:
    the whole pass within the sandbox's ``cpu_seconds`` (scoring's ``--timeout``), or the row's
    ``test_set_seconds`` when tighter; each command of solution code (the load, each call)
    within the row's ``call_seconds`` (None: no limit per call, only what is left of the
    pass's)."""
    out: dict[str, Any] = {
        "pass_seconds": cpu_seconds,
        "pass_from": "sandbox cpu_seconds",
        "call_seconds": None,
        "call_from": None,
    }
    lim = task.limits
    if lim is None:
        return out
    if lim.test_set_seconds is not None and lim.test_set_seconds < cpu_seconds:
        out["pass_seconds"] = lim.test_set_seconds
        out["pass_from"] = f"{lim.source}.test_set_seconds"
    out["call_seconds"] = min(lim.call_seconds, out["pass_seconds"])
    out["call_from"] = f"{lim.source}.call_seconds"
    return out


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
    # the CPU limits the passes ran under and where each came from (applied_limits): the
    # sandbox's for the whole pass, and a row's per call (docs/profiler.md "Limits from the row")
    cpu_limits: dict[str, Any] = field(default_factory=dict)

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


@dataclass(frozen=True)
class Job:
    task: ProfileTask
    code: str
    key: str = ""
    weight: float = 0.0  # expected cost (any unit): heavier batches start first
