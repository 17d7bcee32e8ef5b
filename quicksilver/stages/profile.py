"""Stage 7, reference profiling: every kept solution on its task's test cases, with the bundled
profiler (sandbox, meter, adaptive rounds), giving each task its runtime distribution.

A solution that does not pass its own task's test cases here (a flaky timeout, a memory limit the
answer-collection stage did not hit) is dropped as ``profile-failed`` with the profiler's status
and error; the minimum-solutions filter is applied again afterwards.
"""

from __future__ import annotations

import logging

from quicksilver.config import ProfileSection
from quicksilver.count_fingerprint import count_environment
from quicksilver.machine import machine_id
from quicksilver.pipeline.files import cpu_count
from quicksilver.pipeline.judging import evaluate_offline_for
from quicksilver.pipeline.records import Profile, Runtime, Solution, TaskRecord
from quicksilver.pipeline.stage import Context, Stage, enough_solutions, keep_or_drop
from quicksilver.profiler import Case, Job, ProfileTask, profile_many
from quicksilver.sources.convert import convert_offline_source, parse_signature

log = logging.getLogger(__name__)


def profile_task_for(record: TaskRecord) -> ProfileTask:
    """The profiler's task: the record's test cases with their expected outputs."""
    assert record.tests is not None and record.verdict is not None
    sig = parse_signature(record.task.meta)
    return ProfileTask(
        task_id=record.slug,
        entry_point=sig.name,
        cases=tuple(
            Case(list(c.input), expected)
            for c, expected in zip(record.tests.cases, record.verdict.expected, strict=True)
        ),
        kind=record.task.kind,
        convert_offline=convert_offline_source(sig),
        evaluate_offline=evaluate_offline_for(record),
        difficulty=record.task.difficulty,
    )


def profile(
    ctx: Context,
    records: list[TaskRecord],
    *,
    profile: ProfileSection,
    min_solutions: int,
    workers: int | None = None,
) -> list[TaskRecord]:
    """Profile a shard's solutions on their tasks' test cases. ``workers``: zygotes in parallel;
    by default one per core with a deterministic meter (a count does not depend on what runs
    beside it), else one (the cpu meter measures alone)."""
    section = profile
    if workers is None:
        workers = cpu_count() if section.measure.deterministic else 1
    jobs: list[Job] = []
    for rec in records:
        ptask = profile_task_for(rec)
        for sol in rec.solutions:
            key = f"{rec.slug}#{sol.hash}"
            jobs.append(Job(ptask, sol.code, key, float(sol.native_seconds or 0.0)))
    results = profile_many(jobs, sandbox=section.sandbox, measure=section.measure, workers=workers)
    measure = section.measure
    for attempt in range(section.remeasure_flagged):
        again = [i for i, r in enumerate(results) if r.passed and r.flags]
        if not again:
            break
        measure = measure.model_copy(update={"budget_seconds": 2 * measure.budget_seconds})
        log.info(
            "measuring %d flagged profile(s) again (%d of %d), budget %g s",
            len(again),
            attempt + 1,
            section.remeasure_flagged,
            measure.budget_seconds,
        )
        redone = profile_many(
            [jobs[i] for i in again], sandbox=section.sandbox, measure=measure, workers=workers
        )
        for i, res in zip(again, redone, strict=True):
            results[i] = res
    result_of = {job.key: res for job, res in zip(jobs, results, strict=True)}
    meter = unit = ""
    measured: list[TaskRecord] = []
    for rec in records:
        passed: list[Solution] = []
        for sol in rec.solutions:
            res = result_of[f"{rec.slug}#{sol.hash}"]
            meter, unit = res.meter, res.unit
            if not res.passed or res.runtime is None:
                ctx.drop(
                    sol,
                    "profile-failed",
                    f"{sol.slug} solution #{sol.position}: {res.status}: {res.error}",
                )
                continue
            low, high = res.runtime_ci if res.runtime_ci else (res.runtime, res.runtime)
            runtime = Runtime(
                runtime=res.runtime,
                ci_low=low,
                ci_high=high,
                rounds=res.rounds,
                converged=res.converged,
                flags=res.flags,
                isolation=res.isolation,
                peak_memory_bytes=res.peak_memory_bytes,
                case_peak_memory_bytes=[c.peak_memory_bytes for c in res.cases],
                memory_baseline_bytes=res.memory_baseline_bytes,
                tmu=res.tmu,
                tmu_samples=res.tmu_samples,
            )
            passed.append(sol.model_copy(update={"runtime": runtime}))
        measured.append(rec.with_solutions(passed))
    kept = keep_or_drop(ctx, measured, enough_solutions(min_solutions, when="after profiling"))
    rate = None
    if unit == "instructions" and kept:
        # the judge-format runtime strings of the rows ("1.23ms") need this machine's rate
        from quicksilver.calibration import measure_instruction_rate

        rate = measure_instruction_rate(section.sandbox).rate
    modes = {r.isolation for r in results if r.passed and r.isolation}
    counts = count_environment(modes.pop()) if meter == "icount" and len(modes) == 1 else None
    how = Profile(
        meter=meter,
        unit=unit,
        machine_id=machine_id(),
        instruction_rate=rate,
        count_environment=counts,
    )
    return [rec.model_copy(update={"profile": how}) for rec in kept]


SOLUTION_START_SECONDS = 0.05
"""What profiling a solution costs beside its test set's CPU, in the same native seconds (a
zygote's start and the harness's calls): only so that tasks whose solutions cost nothing
measurable still spread over the shards."""


def native_work(solutions: list[Solution]) -> float:
    """The work profiling ``solutions`` will take, in native CPU seconds: their CPU on the test
    set as the uniqueness stage recorded it (``native_seconds``). Under icount the count costs
    the emulator's slowdown times this, about 9 to 40x on the bundled build (docs/performance.md),
    so it ranks tasks well enough to pack the profile stage's shards by
    (:attr:`~quicksilver.pipeline.stage.Stage.packs`)."""
    return sum((s.native_seconds or 0.0) + SOLUTION_START_SECONDS for s in solutions)


PROFILE = Stage(
    "profile",
    logic=profile,
    reads=("profile", "filters.min_solutions"),
    sharded=True,
    heavy=True,
    packs=native_work,
    # a time meter measures alone (shard after shard, nothing beside it), as DPE's pe_profile
    alone=lambda cfg: not cfg.profile.measure.deterministic,
    needs=("tests", "verdict"),
    fills=("profile", "solutions.runtime"),
)
