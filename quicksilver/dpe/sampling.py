"""Exponential input sampling (EvalPerf's DPE) and the choice of the performance-exercising input.

Sampling (:func:`sample_generator`): a SaS generator's ``perf_input_gen(scale)`` is called at
``scale = 2**k`` for ``k = min_scale_exp .. max_scale_exp``, each call seeded with the recorded
``generator_seed``. Each input is checked (JSON size, int64 range, saturation) and then run through
the reference solution, both calls under the same CPU and memory walls. Sampling stops at the first
wall, cap or repeat; every input that passed is kept as a candidate, the last one being the paper's
"last input that passed". An exception of any other kind (in the generator, or the reference
rejecting the input: it breaks the task's contract) makes the generator ILL-DEFINED and its inputs
are discarded.

Choosing (:func:`choose_pe_input`): candidates from all generators, most expensive for the
reference first; the first on which every solution finishes is the task's performance-exercising
input. The solutions' answers there are kept (digests, and the most common answer): the candidate
the pe_profile stage judges every solution against (:mod:`quicksilver.dpe.answers`).

Both run the code only in the sandbox, through :mod:`quicksilver.execute`. Values come back as
plain data (``wire.to_plain``): tuples become lists, sets sorted lists, trees and linked lists their
LeetCode lists; inputs are stored and hashed in that form.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from quicksilver.config import SandboxConfig
from quicksilver.dpe.answers import answer_digest, candidate
from quicksilver.execute import IDENTITY_CONVERT, CallOutcome, run_calls, run_generator
from quicksilver.sandbox.runtime import wire
from quicksilver.sources.convert import convert_offline_source, parse_signature

log = logging.getLogger(__name__)

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

GENERATOR_ENTRY = "perf_input_gen"

# Stop reasons of a generator's sampling (Step.status for the step that stopped it).
TIME_WALL = "time-wall"
MEMORY_WALL = "memory-wall"
SIZE_CAP = "size-cap"
INT64 = "int64"
SATURATED = "saturated"
MAX_SCALE = "max-scale"
ILL_DEFINED = "ill-defined"

# Appended to the generator's code (inside the sandbox): the JSON size is measured where the value
# was made, so that an input over the cap never crosses the boundary (a huge value would cost the
# host gigabytes to decode, and one over the wire's frame limit would kill the harness). Values
# json cannot size (node objects, huge ints, odd keys) cross as they are and are checked on the
# host. A generator that tampers with this only stops its own sampling. Its CPU time counts
# towards the generator's wall (json.dumps of 64 MB takes a fraction of a second).
_SIZED_ENTRY = "__quicksilver_sized_input"
_SIZED_WRAPPER = f"""

def {_SIZED_ENTRY}(__scale, __cap):
    import json as __json
    __value = {GENERATOR_ENTRY}(__scale)

    def __plain(x):
        if isinstance(x, (set, frozenset)):
            return list(x)
        if isinstance(x, bytes):
            return x.hex()
        raise TypeError(type(x).__name__)

    __type = type(__value).__name__
    try:
        __size = len(__json.dumps(__value, separators=(",", ":"), default=__plain))
    except (TypeError, ValueError, RecursionError):
        return ["value", __value, __type]
    if __size > __cap:
        return ["oversize", __size, __type]
    return ["value", __value, __type]
"""

# Errors that mean "the value is too large for the sandbox's wire", not "the code is wrong": the
# wire's item budget (wire.encode's max_items) and its frame limit (wire.MAX_FRAME).
_WIRE_SIZE_ERROR = re.compile(r"more than \d+ items|frame of \d+ bytes exceeds")


class SamplingError(RuntimeError):
    """The sandbox could not run the code at all, or the reference solution does not load:
    nothing to do with the generator being sampled, so it is not marked ill-defined."""


@dataclass(frozen=True)
class Target:
    """How to call a task's solutions: entry point, class|function, convert_offline source,
    output_param (in-place problems), number of parameters (None: not checked)."""

    entry_point: str
    kind: Literal["class", "function"] = "class"
    convert_offline: str = IDENTITY_CONVERT
    output_param: int | None = None
    n_params: int | None = None

    @classmethod
    def from_meta(
        cls, meta: dict[str, Any] | str, kind: Literal["class", "function"] = "class"
    ) -> Target:
        """A LeetCode question's metaData (dict or JSON string): a ``class Solution`` method (or,
        ``kind="function"``, a plain function), TreeNode / ListNode parameters converted from
        their LeetCode lists."""
        sig = parse_signature(meta)
        return cls(
            entry_point=sig.name,
            kind=kind,
            convert_offline=convert_offline_source(sig),
            output_param=sig.output_param,
            n_params=len(sig.params),
        )


class SamplingLimits(BaseModel):
    """Walls and caps of exponential sampling; the defaults are the EvalPerf paper's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    time_wall_seconds: float = Field(
        20.0, gt=0, description="CPU limit per step, for the generator and the reference call each"
    )
    memory_mb: int = Field(
        16384,
        ge=16,
        description="memory wall: the reference call's peak memory above its starting size, "
        "measured by the host (polled during the call and read at its end); the generator's "
        "RLIMIT_AS",
    )
    address_space_mb: int | None = Field(
        None, ge=16, description="the reference's RLIMIT_AS, a backstop; default 2 x memory_mb"
    )
    min_scale_exp: int = Field(1, ge=0, description="first scale is 2**min_scale_exp")
    max_scale_exp: int = Field(26, ge=0, description="last scale is 2**max_scale_exp")
    max_input_bytes: int = Field(
        64 * 2**20, ge=1, description="JSON-encoded size of one input, at most"
    )
    generator_seed: int = Field(0, description="random.seed before each generator call")

    @property
    def reference_address_space_mb(self) -> int:
        """Address space is not memory: CPython and glibc reserve more than they touch, so the
        backstop sits above the measured wall, which is what stops the doubling."""
        return self.address_space_mb or 2 * self.memory_mb

    @model_validator(mode="after")
    def _exps(self) -> SamplingLimits:
        if self.min_scale_exp > self.max_scale_exp:
            raise ValueError(
                f"min_scale_exp ({self.min_scale_exp}) > max_scale_exp ({self.max_scale_exp})"
            )
        return self


@dataclass
class Step:
    """One scale tried. ``status`` is "ok" or the reason the sampling stopped at this scale."""

    scale: int
    status: str  # "ok" | TIME_WALL | MEMORY_WALL | SIZE_CAP | INT64 | SATURATED | ILL_DEFINED
    detail: str | None = None
    input_bytes: int | None = None
    input_sha256: str | None = None
    generator_cpu_seconds: float | None = None
    reference_cpu_seconds: float | None = None
    reference_peak_memory_bytes: int | None = None  # measured by the host (memory wall)


@dataclass
class Candidate:
    """An input that passed: the generator ran, the reference finished within the walls."""

    generator: int
    scale: int
    args: list[Any]
    input_sha256: str
    input_bytes: int
    reference_cost: float  # the reference's CPU seconds on this input

    def to_dict(self, with_args: bool = False) -> dict[str, Any]:
        out = asdict(self)
        if not with_args:
            del out["args"]
        return out


@dataclass
class GeneratorTrace:
    """What sampling one generator did. ``candidates`` are every passed step in scale order
    (``[-1]`` is the paper's "last input that passed"); empty when the generator is ill-defined."""

    generator: int
    steps: list[Step] = field(default_factory=list)
    stop: str = MAX_SCALE
    ill_defined: bool = False
    reason: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    seed: int = 0

    @property
    def last(self) -> Candidate | None:
        return self.candidates[-1] if self.candidates else None

    def to_dict(self, with_args: bool = False) -> dict[str, Any]:
        return {
            "generator": self.generator,
            "seed": self.seed,
            "stop": self.stop,
            "ill_defined": self.ill_defined,
            "reason": self.reason,
            "steps": [asdict(s) for s in self.steps],
            "candidates": [c.to_dict(with_args) for c in self.candidates],
        }


# ------------------------------------------------------------------------------- value checks


def int64_violation(value: Any) -> str | None:
    """Where ``value`` (nested lists, tuples, sets, dict keys and values) holds an integer outside
    int64, described; None when it holds none. Iterative: deep nesting is fine."""
    stack: list[tuple[Any, str]] = [(value, "value")]
    while stack:
        x, path = stack.pop()
        if isinstance(x, int) and not isinstance(x, bool):
            if not INT64_MIN <= x <= INT64_MAX:
                # no repr: a huge int's decimal form may exceed Python's digit limit
                return f"{path} is an integer of {x.bit_length()} bits, outside int64"
        elif isinstance(x, list | tuple):
            for i, v in enumerate(x):
                if isinstance(v, int) and not isinstance(v, bool):
                    if not INT64_MIN <= v <= INT64_MAX:
                        stack.append((v, f"{path}[{i}]"))
                elif isinstance(v, list | tuple | dict | set | frozenset):
                    stack.append((v, f"{path}[{i}]"))
        elif isinstance(x, set | frozenset):
            stack.extend((v, f"{path}{{}}") for v in x)
        elif isinstance(x, dict):
            for k, v in x.items():
                stack.append((k, f"{path}.key"))
                stack.append((v, f"{path}[{k!r}]"))
    return None


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys, ASCII only: one text per plain value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_sha256(value: Any) -> tuple[str, int]:
    """(sha256 hex digest, size in bytes) of ``value``'s canonical JSON. ``value`` is plain JSON
    data; check :func:`int64_violation` first (integers over 4300 digits cannot be encoded)."""
    data = canonical_json(value).encode("ascii")
    return hashlib.sha256(data).hexdigest(), len(data)


# ------------------------------------------------------------------------------- classification


def _wall(outcome: CallOutcome) -> str | None:
    """The wall a call hit, if any."""
    if outcome.status == "timeout":
        return TIME_WALL
    if outcome.status == "memory" or "MemoryError" in (outcome.error or ""):
        return MEMORY_WALL
    return None


def _load_wall(load_error: str) -> str | None:
    if "MemoryError" in load_error:
        return MEMORY_WALL
    if "time limit" in load_error or "timed out" in load_error:
        return TIME_WALL
    return None


def _infrastructure(load_error: str) -> bool:
    """The sandbox itself failed (not the code): it did not start, or our setup was refused."""
    return "did not start" in load_error or (
        load_error.startswith("setup failed") and _load_wall(load_error) is None
    )


# ------------------------------------------------------------------------------- sampling


def sample_generator(
    code: str,
    *,
    index: int,
    reference_code: str,
    target: Target,
    limits: SamplingLimits,
    sandbox: SandboxConfig | None = None,
    task: str = "",
) -> GeneratorTrace:
    """Exponential sampling of one generator (see the module docstring).

    Raises :class:`SamplingError` when the sandbox does not start or the reference solution does
    not load: those say nothing about the generator.
    """
    trace = GeneratorTrace(generator=index, seed=limits.generator_seed)
    sampler = _Sampler(code, index, reference_code, target, limits, sandbox, task, trace)
    for exp in range(limits.min_scale_exp, limits.max_scale_exp + 1):
        step = sampler.step(2**exp)
        trace.steps.append(step)
        if step.status != "ok":
            trace.stop = step.status
            break
    else:
        trace.stop = MAX_SCALE
    if trace.stop == ILL_DEFINED:
        trace.ill_defined = True
        trace.candidates = []
    last, final = trace.last, trace.steps[-1]
    log.info(
        "%s generator %d: stop=%s at scale %d; last passed scale=%s, reference cost=%s%s",
        task or "?",
        index,
        trace.stop,
        final.scale,
        last.scale if last else None,
        f"{last.reference_cost:.4g}s" if last else None,
        f" ({final.detail[:200]})" if final.detail and trace.stop != MAX_SCALE else "",
    )
    return trace


@dataclass
class _Sampler:
    """One generator's sampling state: :meth:`step` tries one scale and records what passed."""

    code: str
    index: int
    reference_code: str
    target: Target
    limits: SamplingLimits
    sandbox: SandboxConfig | None
    task: str
    trace: GeneratorTrace

    def _ill(self, step: Step, error: str) -> Step:
        step.status = ILL_DEFINED
        step.detail = error
        self.trace.reason = (
            f"{self.task or '?'}: generator {self.index} is ill-defined at scale {step.scale}: "
            f"{error}"
        )
        return step

    def _stop(self, step: Step, status: str, detail: str | None) -> Step:
        step.status = status
        step.detail = detail
        return step

    def step(self, scale: int) -> Step:
        step = Step(scale=scale, status="ok")
        gen = run_generator(
            self.code + _SIZED_WRAPPER,
            seeds=[self.limits.generator_seed],
            entry=_SIZED_ENTRY,
            args=(scale, self.limits.max_input_bytes),
            cpu_seconds=self.limits.time_wall_seconds,
            memory_mb=self.limits.memory_mb,
            sandbox=self.sandbox,
        )
        if gen.load_error is not None:
            if _infrastructure(gen.load_error):
                raise SamplingError(f"{self.task}: generator {self.index}: {gen.load_error}")
            wall = _load_wall(gen.load_error)
            if wall:
                return self._stop(step, wall, gen.load_error)
            return self._ill(step, gen.load_error)
        out = gen.outcomes[0]
        step.generator_cpu_seconds = out.cpu_seconds
        wall = _wall(out)
        if wall:
            return self._stop(step, wall, out.error)
        if not out.ok:
            error = out.error or out.status
            if _WIRE_SIZE_ERROR.search(error):
                return self._stop(step, SIZE_CAP, f"too large for the sandbox's wire: {error}")
            return self._ill(step, f"perf_input_gen({scale}) failed: {error}")

        reply = out.value
        if not (isinstance(reply, list) and len(reply) == 3 and reply[0] in ("value", "oversize")):
            return self._ill(step, f"malformed answer from the sizing wrapper: {str(reply)[:200]}")
        made = reply[2]
        if made not in ("tuple", "list"):
            return self._ill(
                step,
                f"perf_input_gen({scale}) returned a {made}, not a tuple or list of arguments",
            )
        if reply[0] == "oversize":
            if isinstance(reply[1], int):
                step.input_bytes = reply[1]
            return self._stop(
                step, SIZE_CAP, f"{reply[1]} bytes of JSON > {self.limits.max_input_bytes}"
            )
        args = reply[1]
        if not isinstance(args, list):
            return self._ill(step, f"malformed answer from the sizing wrapper: {str(reply)[:200]}")
        n = self.target.n_params
        if n is not None and len(args) != n:
            return self._ill(
                step,
                f"perf_input_gen({scale}) returned {len(args)} argument(s), "
                f"{self.target.entry_point} takes {n}",
            )

        violation = int64_violation(args)
        if violation:
            return self._stop(step, INT64, violation)
        sha, size = canonical_sha256(args)
        step.input_sha256, step.input_bytes = sha, size
        if size > self.limits.max_input_bytes:
            return self._stop(
                step, SIZE_CAP, f"{size} bytes of JSON > {self.limits.max_input_bytes}"
            )
        prev = self.trace.last
        if prev is not None and prev.input_sha256 == sha:
            return self._stop(
                step,
                SATURATED,
                f"the same input as at scale {prev.scale}: the generator stopped growing",
            )

        return self._reference(step, args, sha, size)

    def _reference(self, step: Step, args: list[Any], sha: str, size: int) -> Step:
        t = self.target
        try:
            ref = run_calls(
                self.reference_code,
                entry_point=t.entry_point,
                inputs=[args],
                kind=t.kind,
                convert_offline=t.convert_offline,
                output_param=t.output_param,
                cpu_seconds=self.limits.time_wall_seconds,
                memory_mb=self.limits.reference_address_space_mb,
                memory_wall_mb=self.limits.memory_mb,
                sandbox=self.sandbox,
            )
        except wire.WireError as exc:  # the input is too large for a frame or the item budget
            return self._stop(step, SIZE_CAP, f"too large for the sandbox's wire: {exc}")
        if ref.load_error is not None:
            wall = _load_wall(ref.load_error)
            if wall:
                return self._stop(step, wall, f"reference: {ref.load_error}")
            if _infrastructure(ref.load_error) or ref.load_error.startswith("loading the code"):
                raise SamplingError(f"{self.task}: the reference solution: {ref.load_error}")
            return self._ill(step, f"the reference could not take the input: {ref.load_error}")
        out = ref.outcomes[0]
        step.reference_cpu_seconds = out.cpu_seconds
        step.reference_peak_memory_bytes = out.peak_memory_bytes
        wall = _wall(out)
        if wall:
            return self._stop(step, wall, f"reference: {out.error}")
        if not out.ok:
            return self._ill(step, f"the reference rejects the input: {out.error or out.status}")
        self.trace.candidates.append(
            Candidate(
                generator=self.index,
                scale=step.scale,
                args=args,
                input_sha256=sha,
                input_bytes=size,
                reference_cost=out.cpu_seconds,
            )
        )
        return step


# ------------------------------------------------------------------------------- choosing


@dataclass
class Choice:
    """The performance-exercising input, or why there is none.

    ``tried``: per candidate tried, {"generator", "scale", "reference_cost", "input_sha256",
    "ran" (the solutions run on it, in order), "failed" (solution key or None), "status",
    "detail"}. ``answers``: each solution's answer on the chosen input, as a digest
    (:func:`quicksilver.dpe.answers.answer_digest`), in the order of ``solutions``; ``answer``:
    the candidate answer (:func:`quicksilver.dpe.answers.candidate`), ``support`` how many gave
    it exactly.
    """

    candidate: Candidate | None
    costs: dict[str, float] = field(default_factory=dict)  # solution key -> CPU seconds
    tried: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None
    answers: dict[str, str] = field(default_factory=dict)  # solution key -> answer digest
    answer: Any = None
    support: int = 0


RANK_NOISE_FACTOR = 3.0
RANK_NOISE_SECONDS = 1e-3


def _ranked(candidates: list[Candidate]) -> list[Candidate]:
    """The most expensive candidates first, one per distinct input, in an order that does not
    move with the noise of the CPU times it is based on.

    A candidate's cost is the dearest of its generator's inputs up to its scale (a generator's
    input grows with its scale: a slow phase on a small input must not put it before the
    generator's larger ones, the paper's "last input that passed" first). Costs within a factor
    of RANK_NOISE_FACTOR of the most expensive, or within RANK_NOISE_SECONDS of it (microsecond
    inputs), count as equally expensive: among them the larger scale comes first (then the lower
    generator index); the others follow, ranked the same way among themselves. A cost order on
    raw CPU times would let a rebuild pick another of two near-equal inputs (a saturated
    generator gives many), and a deterministic meter would then measure a different task.
    """
    cost: dict[int, float] = {}
    by_gen: dict[int, list[Candidate]] = {}
    for c in candidates:
        by_gen.setdefault(c.generator, []).append(c)
    for cands in by_gen.values():
        dearest = 0.0
        for c in sorted(cands, key=lambda c: c.scale):
            dearest = max(dearest, c.reference_cost)
            cost[id(c)] = dearest
    rest = list(candidates)
    ordered: list[Candidate] = []
    while rest:
        top = max(cost[id(c)] for c in rest)
        cut = min(top / RANK_NOISE_FACTOR, top - RANK_NOISE_SECONDS)
        tier = [c for c in rest if cost[id(c)] >= cut]
        rest = [c for c in rest if cost[id(c)] < cut]
        ordered += sorted(tier, key=lambda c: (-c.scale, c.generator))
    seen: set[str] = set()
    out = []
    for c in ordered:
        if c.input_sha256 not in seen:
            seen.add(c.input_sha256)
            out.append(c)
    return out


@dataclass(frozen=True)
class InstructionBudget:
    """Decides by counting, not by the clock, whether a solution finishes within a CPU limit.

    CPU time on these machines moves by 10-30% from run to run (more under load), so a solution
    that takes about the limit finishes in one build and not in the next, and the build then
    chooses another input. A call whose CPU time falls within a factor ``band`` of the limit is
    run again under the icount meter, and it finishes if it counts at most ``limit x rate``
    instructions (``rate``: this machine's instructions per CPU second, measured by
    :mod:`quicksilver.calibration`). Calls far from the limit keep the clock's answer.
    """

    rate: float
    band: float = 3.0

    def instructions(self, cpu_seconds: float) -> float:
        return cpu_seconds * self.rate

    def describe(self, cpu_seconds: float) -> str:
        return (
            f"{self.instructions(cpu_seconds):.4g} instructions ({cpu_seconds:g} s at "
            f"{self.rate:.3g} instructions per CPU second)"
        )


def _count_call(
    code: str,
    args: list[Any],
    target: Target,
    cpu_seconds: float,
    memory_mb: int,
    sandbox: SandboxConfig | None,
) -> tuple[str, float | None, str | None]:
    """(status, instructions of the call, error) of one call under the icount meter."""
    from quicksilver.dpe.select import pe_cost_task
    from quicksilver.profiler import profile_solution

    # cost only: the answer is judged elsewhere
    task = pe_cost_task(
        "finish-check",
        target.entry_point,
        [args],
        convert_offline=target.convert_offline,
        kind=target.kind,
    )
    base = sandbox or SandboxConfig()
    # twice the limit's worth of emulated time: a call still running then is over any budget
    sb = base.model_copy(
        update={
            "limits": base.limits.model_copy(
                update={"cpu_seconds": cpu_seconds * 2, "memory_mb": memory_mb}
            )
        }
    )
    res = profile_solution(task, code, meter="icount", sandbox=sb)
    if res.passed and res.cases:
        return "ok", float(res.cases[0].median or 0), None
    return res.status, None, res.error


def choose_pe_input(
    candidates: list[Candidate],
    solutions: dict[str, str],
    *,
    target: Target,
    cpu_seconds: float,
    memory_mb: int,
    sandbox: SandboxConfig | None = None,
    task: str = "",
    max_tries: int | None = None,
    budget: InstructionBudget | None = None,
) -> Choice:
    """The most expensive candidate on which every solution finishes (status ok) within
    ``cpu_seconds`` and ``memory_mb``; ``costs`` are each solution's CPU seconds on it.

    With a ``budget``, a solution whose CPU time is near ``cpu_seconds`` is decided by its
    instruction count (:class:`InstructionBudget`). A candidate is abandoned at its first
    failing solution; solutions that failed before run first
    on later candidates (most recent failure first), as they are the likeliest to fail again. A
    solution that does not load fails on every input: the search stops there. On the chosen
    input every solution has answered: the answers come back with the choice (only one value
    per distinct answer is held meanwhile; they can be as large as the input).
    """
    order = list(solutions)
    tried: list[dict[str, Any]] = []
    ranked = _ranked(candidates)
    if max_tries is not None:
        ranked = ranked[:max_tries]
    name = task or "?"
    for cand in ranked:
        record: dict[str, Any] = {
            "generator": cand.generator,
            "scale": cand.scale,
            "reference_cost": cand.reference_cost,
            "input_sha256": cand.input_sha256,
            "ran": [],
            "failed": None,
            "status": "ok",
            "detail": None,
        }
        tried.append(record)
        costs: dict[str, float] = {}
        digests: dict[str, str] = {}
        values: dict[str, Any] = {}  # digest -> the answer
        fatal = False
        for key in order:
            record["ran"].append(key)
            status, detail, cpu, value = _run_one(
                solutions[key], cand, target, cpu_seconds, memory_mb, sandbox, name, key, budget
            )
            if status == "ok":
                costs[key] = cpu
                digests[key] = answer_digest(value)
                values.setdefault(digests[key], value)
                continue
            record.update(failed=key, status=status, detail=detail)
            fatal = status == "load-error"
            order.remove(key)
            order.insert(0, key)
            break
        if record["failed"] is None:
            log.info(
                "%s: performance-exercising input from generator %d at scale %d (reference %.4gs)"
                " after %d candidate(s)",
                name,
                cand.generator,
                cand.scale,
                cand.reference_cost,
                len(tried),
            )
            answers = {k: digests[k] for k in solutions}
            top = candidate(answers)  # None only without solutions
            return Choice(
                cand,
                {k: costs[k] for k in solutions},
                tried,
                None,
                answers=answers,
                answer=values[top[0]] if top else None,
                support=top[1] if top else 0,
            )
        if fatal:
            break
    reason = _no_choice_reason(name, tried, len(ranked))
    log.info("%s", reason)
    return Choice(None, {}, tried, reason)


def _run_one(
    code: str,
    cand: Candidate,
    target: Target,
    cpu_seconds: float,
    memory_mb: int,
    sandbox: SandboxConfig | None,
    task: str,
    key: str,
    budget: InstructionBudget | None = None,
) -> tuple[str, str | None, float, Any]:
    """(status, detail, cpu seconds, answer) of one solution on one candidate; status is a
    CallStatus, "size" (the input does not fit the wire) or "load-error" (the code does not load
    at all); the answer is plain data (None unless the status is "ok")."""
    status, detail, cpu, value = _run_native(
        code,
        cand,
        target,
        cpu_seconds * (budget.band if budget else 1),
        memory_mb,
        sandbox,
        task,
        key,
    )
    # no budget, a failure (a timeout is past band x the limit: no count changes that), or
    # clearly within the limit: the clock's answer stands
    if budget is None or status != "ok" or cpu < cpu_seconds / budget.band:
        return status, detail, cpu, value
    counted, instructions, error = _count_call(
        code, cand.args, target, cpu_seconds, memory_mb, sandbox
    )
    if counted == "ok" and instructions is not None:
        if instructions <= budget.instructions(cpu_seconds):
            log.info(
                "%s: solution %s took %.3gs of CPU on scale %d; counted %.4g instructions, "
                "within %s",
                task,
                key,
                cpu,
                cand.scale,
                instructions,
                budget.describe(cpu_seconds),
            )
            return "ok", None, cpu, value
        return (
            "timeout",
            f"counted {instructions:.4g} instructions, over the limit of "
            f"{budget.describe(cpu_seconds)} (CPU time {cpu:.3g}s)",
            cpu,
            None,
        )
    if counted == "timeout":
        return "timeout", f"over the limit of {budget.describe(cpu_seconds)}: {error}", cpu, None
    return counted, f"under the icount meter: {error}", cpu, None


def _run_native(
    code: str,
    cand: Candidate,
    target: Target,
    cpu_seconds: float,
    memory_mb: int,
    sandbox: SandboxConfig | None,
    task: str,
    key: str,
) -> tuple[str, str | None, float, Any]:
    try:
        run = run_calls(
            code,
            entry_point=target.entry_point,
            inputs=[cand.args],
            kind=target.kind,
            convert_offline=target.convert_offline,
            output_param=target.output_param,
            cpu_seconds=cpu_seconds,
            memory_mb=memory_mb,
            sandbox=sandbox,
        )
    except wire.WireError as exc:
        return "size", f"too large for the sandbox's wire: {exc}", 0.0, None
    if run.load_error is not None:
        if "did not start" in run.load_error:
            raise SamplingError(f"{task}: solution {key}: {run.load_error}")
        wall = _load_wall(run.load_error)
        if wall:
            return ("timeout" if wall == TIME_WALL else "memory"), run.load_error, 0.0, None
        if run.load_error.startswith("loading the code"):
            return "load-error", run.load_error, 0.0, None
        return "error", run.load_error, 0.0, None
    out = run.outcomes[0]
    wall = _wall(out)
    if wall == MEMORY_WALL:
        return "memory", out.error, out.cpu_seconds, None
    return out.status, out.error, out.cpu_seconds, out.value if out.ok else None


def _no_choice_reason(task: str, tried: list[dict[str, Any]], available: int) -> str:
    if not tried:
        return f"{task}: no candidate input to choose from"
    slowest = "; ".join(
        f"generator {r['generator']} scale {r['scale']} (reference {r['reference_cost']:.4g}s): "
        f"{r['failed']} {r['status']}" + (f" ({str(r['detail'])[:120]})" if r["detail"] else "")
        for r in tried[:3]
    )
    return (
        f"{task}: no candidate input on which every solution finishes "
        f"({len(tried)} of {available} tried); slowest: {slowest}"
    )
