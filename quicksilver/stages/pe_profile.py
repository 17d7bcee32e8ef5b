"""DPE stage, pe_profile: every valid solution profiled on its task's performance-exercising input
(``pe_profile.measure``: one exact pass with icount, ``min_rounds`` or more with a time meter),
its answer there judged.

The sandbox's CPU limit is at least twice ``sampling.finish_cpu_seconds`` (every solution finished
the input within that when it was chosen) and its memory at least ``sampling.memory_mb``. A
solution that fails here (a crash, a limit) is dropped (``profile-failed``) with the profiler's
status and error; a task left with none is dropped (``no-profiled-solution``).

Answers: the profiler judges each solution's answer against the candidate the sampling stage
recorded (the answer most solutions gave) with the task's own ``evaluate_offline``, in its judge
sandbox, as on the test cases. The candidate is the accepted answer when the solutions it accepts
win the uniqueness stage's vote (a strict majority of those that answered, or a clear plurality:
``uniqueness.plurality_min_support`` and ``plurality_margin``; quicksilver/dpe/answers.py); the
solutions it rejects are wrong on the performance input and never become cluster references
(``pe-wrong-answer``, the answer they gave and the expected one in the detail). With no winner the
task is dropped (``ambiguous-pe-answer``): one expected answer would fail correct solutions, and
none would let a wrong one be measured.
"""

from __future__ import annotations

import logging

from quicksilver.config import PEProfileSection, SamplingSection
from quicksilver.dpe.answers import AnswerVote, vote
from quicksilver.pipeline.files import cpu_count
from quicksilver.pipeline.judging import evaluate_offline_for
from quicksilver.pipeline.records import Cost, PEProfile, Solution, TaskRecord
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.pipeline.synthesis import ordered
from quicksilver.profiler import Job, RunResult, profile_many
from quicksilver.sources.convert import convert_offline_source, parse_signature

log = logging.getLogger(__name__)


def pe_profile(
    ctx: Context,
    records: list[TaskRecord],
    *,
    pe_profile: PEProfileSection,
    sampling: SamplingSection,
    plurality_margin: float = 2.0,
    plurality_min_support: int = 2,
    workers: int | None = None,
) -> list[TaskRecord]:
    """Each task of the shard with its solutions' costs on its input (``Solution.cost``), the
    solutions wrong there dropped, and the vote that accepted the answer (``PEProfile``)."""
    from quicksilver.dpe.select import figures, pe_profile_task
    from quicksilver.machine import machine_id

    section = pe_profile
    # every solution finished the input within finish_cpu_seconds when it was chosen: allow the
    # verdict run twice that, and a budget that leaves room for min_rounds rounds of the slowest
    limits = section.sandbox.limits
    sandbox = section.sandbox.model_copy(
        update={
            "limits": limits.model_copy(
                update={
                    "cpu_seconds": max(limits.cpu_seconds, 2 * sampling.finish_cpu_seconds),
                    "memory_mb": max(limits.memory_mb, sampling.memory_mb),
                }
            )
        }
    )
    measure = section.measure.model_copy(
        update={
            "budget_seconds": max(
                section.measure.budget_seconds,
                (section.measure.min_rounds + 1) * sampling.finish_cpu_seconds,
            )
        }
    )
    jobs: list[Job] = []
    for record in records:
        smp = record.pe_input
        assert smp is not None and smp.expected is not None, (
            "pe_profile reads the sampling stage's records (the input and its candidate answer)"
        )
        sig = parse_signature(record.task.meta)
        ptask = pe_profile_task(
            record.slug,
            sig.name,
            smp.pe_input,
            expected=smp.expected,
            convert_offline=convert_offline_source(sig),
            evaluate_offline=evaluate_offline_for(record),
            kind=record.task.kind,
            difficulty=record.task.difficulty,
        )
        for sol in ordered(record.solutions):
            weight = float(smp.finish_costs.get(str(sol.hash), 0.0))
            jobs.append(Job(ptask, sol.code, f"{record.slug}#{sol.hash}", weight))
    if workers is None:  # a count does not depend on what runs beside it; a CPU time does
        workers = cpu_count() if measure.deterministic else 1
    results = profile_many(jobs, sandbox=sandbox, measure=measure, workers=workers)
    result_of = {job.key: res for job, res in zip(jobs, results, strict=True)}
    out: list[TaskRecord] = []
    for record in records:
        by_hash = {sol.hash: result_of[f"{record.slug}#{sol.hash}"] for sol in record.solutions}
        decided = _judged(
            ctx, record, by_hash, margin=plurality_margin, min_support=plurality_min_support
        )
        if decided is None:
            continue
        right, answer_vote = decided
        profiled: list[Solution] = []
        meter = unit = ""
        for sol in right:
            res = by_hash[sol.hash]
            meter, unit = res.meter, res.unit
            fig = figures(res, warmup_rounds=section.warmup_rounds)
            if fig["cost"] is None or fig["cost"] <= 0:
                _profile_failed(ctx, record, sol, res)
                continue
            cost = Cost(**fig, isolation=res.isolation, peak_memory_bytes=res.peak_memory_bytes)
            profiled.append(sol.model_copy(update={"cost": cost}))
        if not profiled:
            _none_profiled(ctx, record)
            continue
        how = PEProfile(
            meter=meter, unit=unit, machine_id=machine_id(), answer_vote=answer_vote.to_dict()
        )
        out.append(record.with_solutions(profiled, pe_profile=how))
    return out


def _profile_failed(ctx: Context, record: TaskRecord, sol: Solution, res: RunResult) -> None:
    ctx.drop(
        sol, "profile-failed", f"{record.slug} solution #{sol.position}: {res.status}: {res.error}"
    )


def _none_profiled(ctx: Context, record: TaskRecord) -> None:
    # its solutions are in the rejects already, each with why it failed
    ctx.drop(
        record,
        "no-profiled-solution",
        f"{record.slug}: none of its solutions could be profiled on its input",
        lost=[],
    )


def _judged(
    ctx: Context,
    record: TaskRecord,
    results: dict[int, RunResult],
    *,
    margin: float,
    min_support: int,
) -> tuple[list[Solution], AnswerVote] | None:
    """The solutions whose answers on the input the task's judge accepted, when the candidate
    answer wins the vote (see the module docstring), and the vote; the others dropped here with
    why. None: the task was dropped (nobody answered, or the answer is undecided)."""
    smp = record.pe_input
    assert smp is not None
    answered: list[Solution] = []
    for sol in ordered(record.solutions):
        res = results[sol.hash]
        if res.status in ("passed", "failed"):  # an answer, accepted or not
            answered.append(sol)
        else:  # a crash or a limit: no claim about the answer
            _profile_failed(ctx, record, sol, res)
    if not answered:
        _none_profiled(ctx, record)
        return None
    wrong = [s for s in answered if results[s.hash].status == "failed"]
    right = [s for s in answered if results[s.hash].status == "passed"]
    # a rejected answer supports the others equal to it (the sampling stage's digests)
    decision = vote(
        len(right),
        [smp.answers.get(str(s.hash), f"unknown #{s.hash}") for s in wrong],
        margin=margin,
        min_support=min_support,
    )
    if not decision.accepted:
        example = results[wrong[0].hash].error if wrong else None
        ctx.drop(
            record,
            "ambiguous-pe-answer",
            f"{record.slug}: the solutions do not agree on the performance input's answer: the "
            f"judge accepts the most common one ({smp.expected_support} gave it exactly) from "
            f"{decision.agree} of {decision.voters}, the other answers come from "
            f"{' + '.join(map(str, decision.disagree))}: neither a majority nor a clear "
            f"plurality (at least {min_support} and {margin:g}x the next answer); first "
            f"rejected: {example}",
            lost=answered,
            answer_vote=decision.to_dict(),
        )
        return None
    for sol in wrong:
        # the profiler's "case 0: wrong answer: got ..., expected ..." without the repetition
        error = str(results[sol.hash].error).replace(": wrong answer: ", ": ", 1)
        ctx.drop(
            sol,
            "pe-wrong-answer",
            f"{record.slug} solution #{sol.position}: wrong answer on the performance input "
            f"({error}); the answer accepted there is the one {decision.agree} of "
            f"{decision.voters} solutions give ({decision.rule})",
        )
    if wrong:
        log.info(
            "%s: %d solution(s) wrong on the performance input; the answer of %s accepted",
            record.slug,
            len(wrong),
            decision.describe(),
        )
    return right, decision


PE_PROFILE = Stage(
    "pe_profile",
    logic=pe_profile,
    reads=(
        "pe_profile",
        "sampling",
        "uniqueness.plurality_margin",
        "uniqueness.plurality_min_support",
    ),
    sharded=True,
    heavy=True,
    alone=lambda cfg: not cfg.pe_profile.measure.deterministic,
    needs=("pe_input",),
    fills=("pe_profile", "solutions.cost"),
)
