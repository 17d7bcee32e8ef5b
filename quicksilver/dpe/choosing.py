"""The choice of the performance-exercising input (EvalPerf's DPE), among the candidates that
exponential sampling (:mod:`quicksilver.dpe.sampling`) kept.

Choosing (:func:`choose_pe_input`): candidates from all generators, most expensive for the
reference first; the first on which every solution finishes is the task's performance-exercising
input. The solutions' answers there are kept (digests, and the most common answer): the candidate
the pe_profile stage judges every solution against (:mod:`quicksilver.dpe.answers`).

The code runs only in the sandbox, through :mod:`quicksilver.execute`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from quicksilver.config import SandboxConfig
from quicksilver.dpe.answers import answer_digest, candidate
from quicksilver.dpe.sampling import (
    MEMORY_WALL,
    TIME_WALL,
    Candidate,
    SamplingError,
    Target,
    call_wall,
    load_wall,
)
from quicksilver.execute import run_calls
from quicksilver.sandbox.runtime import wire

log = logging.getLogger(__name__)


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
        wall = load_wall(run.load_error)
        if wall:
            return ("timeout" if wall == TIME_WALL else "memory"), run.load_error, 0.0, None
        if run.load_error.startswith("loading the code"):
            return "load-error", run.load_error, 0.0, None
        return "error", run.load_error, 0.0, None
    out = run.outcomes[0]
    wall = call_wall(out)
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
