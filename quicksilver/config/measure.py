"""The sandbox and the meters: limits for one sandboxed process, and how a solution is measured."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    model_validator,
)

MeterName = Literal["icount", "cpu", "instructions"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


LEETCODE_RECURSION_LIMIT = 500_000
"""How deep a solution may recurse, as LeetCode's judge lets accepted solutions (a memoised
search per element at n = 10^5, ``functools.cache`` counting twice a level; none of the public
corpora's accepted solutions raises the limit itself: docs/real-leetcode.md). configs/mercury.yaml
and ``quicksilver profile`` / ``score`` use it."""

LEETCODE_STACK_MB = 256
"""The stack that recursion takes (about 0.5 KB of C stack a ``functools.cache`` level)."""


class SandboxLimits(_Strict):
    """Resource limits for one sandboxed solution process."""

    memory_mb: int = Field(2048, ge=16, description="address-space limit (RLIMIT_AS)")
    cpu_seconds: float = Field(
        30.0, gt=0, description="CPU time for one pass over all test cases (the verdict run)"
    )
    wall_seconds: float | None = Field(
        None, gt=0, description="wall time for one pass; default 2 x cpu_seconds + 5"
    )
    processes: int = Field(
        1, ge=1, description="RLIMIT_NPROC for the sandbox user; 1 forbids fork and threads"
    )
    file_size_mb: int = Field(16, ge=0, description="largest file the solution may write")
    open_files: int = Field(64, ge=16, description="RLIMIT_NOFILE")
    output_bytes: int = Field(
        64 * 1024, ge=0, description="stdout/stderr kept per solution; the rest is counted"
    )
    output_kill_bytes: int | None = Field(
        16 * 1024 * 1024,
        ge=0,
        description="the solution is killed (status error, 'output limit') once it has written "
        "more than this to stdout and stderr together, kept or not; None: never",
    )
    recursion_limit: int | None = Field(
        None, ge=100, description="sys.setrecursionlimit in the sandbox; None keeps Python's"
    )
    stack_mb: int | None = Field(
        None,
        ge=8,
        description="RLIMIT_STACK of the sandbox, set before it starts (the emulator sizes its "
        "guest's stack from it): recursion through C calls such as functools.cache takes about "
        "0.5 KB of C stack a level, so 8 MB ends near 16,000 levels; None keeps the host's",
    )

    @property
    def wall(self) -> float:
        return self.wall_seconds if self.wall_seconds is not None else 2 * self.cpu_seconds + 5


class SandboxConfig(_Strict):
    """How solutions are isolated."""

    isolation: Literal["auto", "bwrap", "weak"] = Field(
        "auto", description="auto uses bubblewrap and refuses to run without it unless allow_weak"
    )
    allow_weak: bool = Field(
        False, description="permit the weak mode (rlimits and a scrubbed env, no namespaces)"
    )
    sandbox_uid: int = Field(
        61_234, ge=1, description="unprivileged uid/gid the solution runs as when started by root"
    )
    limits: SandboxLimits = SandboxLimits()


class MeasureConfig(_Strict):
    """How cost is measured (see docs/profiler.md).

    Every pass over a task's cases runs in a fresh child of the task's zygote, so passes share no
    state. A deterministic meter (``icount``) needs one pass; the others repeat passes (rounds),
    interleaved over the solutions of a task, until the estimate is tight enough (the
    ``fastest_k`` fastest passes agree within ``target_rel_ci``, or the median's CI95 is that
    narrow), or ``max_rounds``, or the CPU budget.
    """

    meter: MeterName = Field(
        "icount", description="icount (deterministic, default) | cpu (seconds) | instructions"
    )
    estimator: Literal["fastest", "median"] = Field(
        "fastest",
        description="a time meter's cost from its passes: fastest = the mean of the "
        "`fastest_k` fastest passes, once they agree (interference only adds time); median = the "
        "median with its CI95 (stats.py)",
    )
    fastest_k: int = Field(3, ge=1, description="estimator fastest: passes that must agree")
    min_rounds: int = Field(8, ge=1, description="passes per solution before stopping early")
    max_rounds: int = Field(64, ge=1, description="passes per solution at most")
    target_rel_ci: float = Field(
        0.02,
        gt=0,
        description="stop when the half-width of the fastest passes' band (estimator fastest) "
        "or of the median's CI95 (median) <= this share of the estimate",
    )
    budget_seconds: float = Field(
        20.0,
        gt=0,
        description="CPU spent on repeated passes of one solution beyond min_rounds, at most",
    )
    charge_tolerance: float = Field(
        1.5,
        ge=1,
        description="cpu meter: a serialisation may cost this many times its calibration (the "
        "cheapest of 3 trusted serialisations of the same values)",
    )
    charge_slack_ms: float = Field(
        0.1, ge=0, description="cpu meter: ...plus this much, before the excess is charged"
    )
    idle_slack_ms: float = Field(
        0.1, ge=0, description="cpu meter: CPU a blocked harness may use between two commands"
    )
    modes_ratio: float = Field(
        3.0,
        gt=1,
        description="time meter: a profile whose median pass costs more than this many times its "
        "fastest pass is split into modes (a cheap path in some passes only): flagged `modes` "
        "and scored by its median pass. The machine alone spreads honest passes by up to ~1.9x "
        '(docs/profiler.md, "The mode check")',
    )
    modes_peer_factor: float | None = Field(
        2.0,
        gt=1,
        description="time meter: ...or more than this many times the median spread of the task's "
        "other solutions, measured in the same rounds, when that is lower (honest solutions: up "
        "to ~1.4x their peers'); None: `modes_ratio` only",
    )
    modes_floor_ms: float = Field(
        0.3,
        ge=0,
        description="time meter: ...and only when the median pass is more than this above the "
        "fastest (a sub-millisecond solution's passes spread by the noise of the empty calls "
        "subtracted from them)",
    )
    workers: int | None = Field(
        None, ge=1, description="tasks profiled in parallel; default one per core"
    )
    native_first: bool = Field(
        False,
        description="icount: judge each solution natively first (same sandbox, same CPU limit, "
        "no emulator); one that fails there gets that verdict without being counted, in native "
        "time instead of up to slowdown x the limit under the emulator. The counted pass is "
        "judged again and may take at most native_margin x its native CPU time (docs/profiler.md, "
        "'Native first'). On for `quicksilver score` and `quicksilver run` (samples nobody has "
        "run yet); off in the builds, whose solutions the testcases stage has run natively",
    )
    native_margin: float = Field(
        4.0,
        ge=1,
        description="icount with native_first: the counted pass's CPU limit is this many times "
        "the native pass's CPU, in native seconds (the emulator's own slowdown is on top), at "
        "least native_floor_seconds and at most the sandbox's limit",
    )
    native_floor_seconds: float = Field(
        1.0, gt=0, description="icount with native_first: the counted pass's CPU limit, at least"
    )
    split_above_seconds: float | None = Field(
        None,
        gt=0,
        description="deterministic meter: a task whose solutions are expected to cost more than "
        "this many native CPU seconds together (Job.weight) is profiled one zygote per solution, "
        "in parallel; None: one zygote per task. The cpu meter always measures a task's "
        "solutions together (paired)",
    )

    @model_validator(mode="after")
    def _rounds(self) -> MeasureConfig:
        if self.min_rounds > self.max_rounds:
            raise ValueError(f"min_rounds ({self.min_rounds}) > max_rounds ({self.max_rounds})")
        return self

    @property
    def deterministic(self) -> bool:
        """The meter gives the same reading for the same work: one pass is the measurement."""
        return self.meter == "icount"
