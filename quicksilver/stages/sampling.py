"""DPE stage, sampling: exponential input sampling, then the performance-exercising input.

Each of the task's generators runs in the sandbox at scale 2, 4, 8, ... until a wall (time, memory,
size, int64) or the input stops growing (:func:`quicksilver.dpe.sampling.sample_generator`); then
the most expensive input on which every valid solution finishes within
``sampling.finish_cpu_seconds`` is chosen (:func:`quicksilver.dpe.choosing.choose_pe_input`; near
the limit, decided by instruction counts so that rebuilds choose the same input). Every
solution answered on the chosen input: the record keeps each answer's digest and the answer most
of them gave, the candidate the pe_profile stage judges them against (quicksilver/dpe/answers.py).
Dropped with their solutions: tasks whose generators are all ill-defined
(``ill-defined-generators``), that gave no input the reference finishes (``no-input``), or no
input every solution finishes (``no-common-input``).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from typing import Any

from quicksilver.config import SamplingSection, SandboxConfig, SelectionSection
from quicksilver.meters import MeterError
from quicksilver.pipeline.records import PEInput, TaskRecord
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.pipeline.synthesis import ordered
from quicksilver.sandbox.session import SandboxError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Run:
    """What every task of a shard is sampled with."""

    section: SamplingSection
    sandbox: SandboxConfig
    budget: Any  # the InstructionBudget that decides near-limit finishes, or None
    separation: Any  # what the worst-case search ranks variants by, or None (no search)


@dataclass
class _Sampled:
    """One task's generators, sampled: each trace, every candidate input, the worst-case searches
    by generator index, and the code each generator was sampled with."""

    traces: list[Any] = field(default_factory=list)
    candidates: list[Any] = field(default_factory=list)
    searches: dict[int, Any] = field(default_factory=dict)
    code: dict[int, str] = field(default_factory=dict)


def sampling(
    ctx: Context,
    records: list[TaskRecord],
    *,
    sampling: SamplingSection,
    selection: SelectionSection,
    sandbox: SandboxConfig,
) -> list[TaskRecord]:
    """Per task: sample each generator with the scale doubling until a wall, then choose the most
    expensive input on which every valid solution finishes."""
    from quicksilver.dpe.choosing import InstructionBudget
    from quicksilver.dpe.worstcase import separation_for

    section = sampling
    budget = _finish_budget(section, sandbox, InstructionBudget)
    separation = (
        separation_for(selection, section.worst_case.meter, budget.rate if budget else None)
        if section.worst_case.enabled
        else None
    )
    run = _Run(section, sandbox, budget, separation)
    out: list[TaskRecord] = []
    for record in records:
        chosen = _sample_task(ctx, record, run)
        if chosen is not None:
            out.append(record.model_copy(update={"pe_input": chosen}))
    return out


def _sample_task(ctx: Context, record: TaskRecord, run: _Run) -> PEInput | None:
    """The task's performance-exercising input, or None with the task dropped (the reason and
    the traces recorded)."""
    from quicksilver.dpe.choosing import choose_pe_input
    from quicksilver.dpe.sampling import Target

    section, sandbox, budget = run.section, run.sandbox, run.budget
    slug = record.slug
    assert record.perf_generators is not None, "sampling reads the sas stage's records"
    generators = record.perf_generators.generators
    sols = ordered(record.solutions)
    target = Target.from_meta(record.task.meta, record.task.kind)
    reference = sols[0]
    got = _sample_generators(ctx, record, sols, target, run)
    traces, searches = got.traces, got.searches
    if not got.candidates:
        reason = "ill-defined-generators" if all(t.ill_defined for t in traces) else "no-input"
        detail = f"{slug}: no generator produced an input the reference finishes: " + "; ".join(
            f"#{t.generator}: {t.stop} ({t.reason})" for t in traces
        )
        ctx.drop(
            record,
            reason,
            detail,
            lost=sols,
            traces=[t.to_dict() for t in traces],
            worst_case=[w.to_dict() for w in searches.values()],
        )
        return None
    choice = choose_pe_input(
        got.candidates,
        {str(s.hash): s.code for s in sols},
        target=target,
        cpu_seconds=section.finish_cpu_seconds,
        memory_mb=section.memory_mb,
        sandbox=sandbox,
        task=slug,
        max_tries=section.max_candidates,
        budget=budget,
    )
    if choice.candidate is None:
        detail = f"{slug}: {choice.reason}"
        ctx.drop(record, "no-common-input", detail, lost=sols, tried=choice.tried)
        return None
    c = choice.candidate
    trace = next(t for t in traces if t.generator == c.generator)
    gen = next(g for g in generators if g["index"] == c.generator)
    chosen = PEInput(
        pe_input=[c.args],
        generator=c.generator,
        generator_path=gen["path"],
        generator_model=gen["model"],
        generator_code=got.code[c.generator],
        generators_tried=len(generators),
        scale=c.scale,
        input_sha256=c.input_sha256,
        input_bytes=c.input_bytes,
        reference_hash=reference.hash,
        reference_cost=c.reference_cost,
        stop=trace.stop,
        finish_costs=choice.costs,
        finish_rule=(
            f"CPU time, and near the limit: at most "
            f"{budget.describe(section.finish_cpu_seconds)} (icount)"
            if budget
            else "CPU time"
        ),
        tried=choice.tried,
        traces=[t.to_dict() for t in traces],
        worst_case=searches[c.generator].to_dict() if c.generator in searches else None,
        answers=choice.answers,
        expected=[choice.answer],
        expected_support=choice.support,
    )
    log.info(
        "%s: pe input from generator %d at scale %d (%d bytes; reference %.3g s); "
        "%d of %d solution(s) give the most common answer",
        slug,
        c.generator,
        c.scale,
        c.input_bytes,
        c.reference_cost,
        choice.support,
        len(sols),
    )
    return chosen


def _sample_generators(
    ctx: Context, record: TaskRecord, sols: list[Any], target: Any, run: _Run
) -> _Sampled:
    """Each generator, after the worst-case search where it applies, sampled with the scale
    doubling (the random input again when the search's pattern gave none)."""
    from quicksilver.dpe.sampling import sample_generator
    from quicksilver.dpe.worstcase import search_worst_case, searchable
    from quicksilver.synth.offline import OFFLINE_PERF_SYNTHESIZER
    from quicksilver.synth.offline.checker import spec_from_generator

    section, sandbox, slug = run.section, run.sandbox, record.slug
    assert record.perf_generators is not None, "sampling reads the sas stage's records"
    sample = functools.partial(
        sample_generator,
        reference_code=sols[0].code,
        target=target,
        limits=section,  # the walls and caps of the doubling (dpe/sampling.py)
        sandbox=sandbox,
        task=slug,
    )
    got = _Sampled()
    for g in record.perf_generators.generators:
        code, search = g["code"], None
        if section.worst_case.enabled and searchable(code):
            search = search_worst_case(
                code,
                index=g["index"],
                solutions={str(s.hash): s.code for s in sols},
                target=target,
                section=section.worst_case,
                seed=section.seed,
                memory_mb=section.memory_mb,
                sandbox=sandbox,
                task=slug,
                separation=run.separation,
            )
            got.searches[g["index"]] = search
            code = search.code
        # the offline synthesizer's inputs are checked against its spec (a second reading)
        spec = spec_from_generator(g["code"]) if g["model"] == OFFLINE_PERF_SYNTHESIZER else None
        trace = sample(code, index=g["index"], spec=spec)
        if search is not None and search.pattern is not None and not trace.candidates:
            # the pattern breaks something at a larger scale (a path-shaped tree deeper than
            # the recursion limit): the random input, as without the search
            search.fallback = (
                f"the pattern {search.label} gave no input ({trace.stop}: "
                f"{trace.reason or ''}); sampled the random input instead"
            )
            ctx.note(f"{slug}: {search.fallback}")
            code = g["code"]
            trace = sample(code, index=g["index"], spec=spec)
        got.code[g["index"]] = code
        got.traces.append(trace)
        if trace.ill_defined:
            ctx.note(f"{slug}: generator {g['index']} ill-defined: {trace.reason}")
        got.candidates += trace.candidates
    return got


def _finish_budget(section: SamplingSection, sandbox: SandboxConfig, cls: Any) -> Any:
    """The instruction budget that decides near-limit finishes, or None (CPU time alone)."""
    if not section.count_near_limit:
        return None
    from quicksilver.calibration import measure_instruction_rate

    try:
        rate = measure_instruction_rate(sandbox).rate
    except (MeterError, SandboxError, OSError) as exc:
        log.warning(
            "sampling: the icount meter is not available (%s); solutions near the finish limit "
            "are decided by CPU time alone, and a rebuild may choose other inputs",
            exc,
        )
        return None
    return cls(rate=rate)


SAMPLING = Stage(
    "sampling",
    logic=sampling,
    reads=("sampling", "selection", "pe_profile.sandbox"),
    sharded=True,
    heavy=True,
    needs=("perf_generators", "tests"),
    fills=("pe_input",),
)
