"""DPE stage, pe_profile: every valid solution profiled on its task's performance-exercising input
(``pe_profile.measure``: one exact pass with icount, ``min_rounds`` or more with a time meter).

The sandbox's CPU limit is at least twice ``sampling.finish_cpu_seconds`` (every solution finished
the input within that when it was chosen) and its memory at least ``sampling.memory_mb``. A
solution that fails here is dropped (``profile-failed``) with the profiler's status and error; a
task left with none is dropped (``no-profiled-solution``).
"""

from __future__ import annotations

from quicksilver.config import PEProfileSection, SamplingSection
from quicksilver.pipeline.files import cpu_count
from quicksilver.pipeline.records import Cost, PEProfile, Solution, TaskRecord
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.profiler import Job, profile_many
from quicksilver.sources.convert import convert_offline_source, parse_signature
from quicksilver.stages.candidates import ordered


def pe_profile(
    ctx: Context,
    records: list[TaskRecord],
    *,
    pe_profile: PEProfileSection,
    sampling: SamplingSection,
    workers: int | None = None,
) -> list[TaskRecord]:
    """Each task of the shard with its solutions' costs on its input (``Solution.cost``)."""
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
        assert record.pe_input is not None, "pe_profile reads the sampling stage's records"
        sig = parse_signature(record.task.meta)
        ptask = pe_profile_task(
            record.slug,
            sig.name,
            record.pe_input.pe_input,
            convert_offline=convert_offline_source(sig),
            kind=record.task.kind,
            difficulty=record.task.difficulty,
        )
        for sol in ordered(record.solutions):
            weight = float(record.pe_input.finish_costs.get(str(sol.hash), 0.0))
            jobs.append(Job(ptask, sol.code, f"{record.slug}#{sol.hash}", weight))
    if workers is None:  # a count does not depend on what runs beside it; a CPU time does
        workers = cpu_count() if measure.deterministic else 1
    results = profile_many(jobs, sandbox=sandbox, measure=measure, workers=workers)
    result_of = {job.key: res for job, res in zip(jobs, results, strict=True)}
    out: list[TaskRecord] = []
    for record in records:
        profiled: list[Solution] = []
        meter = unit = ""
        for sol in ordered(record.solutions):
            res = result_of[f"{record.slug}#{sol.hash}"]
            meter, unit = res.meter, res.unit
            fig = figures(res, warmup_rounds=section.warmup_rounds) if res.passed else None
            if fig is None or fig["cost"] is None or fig["cost"] <= 0:
                ctx.drop(
                    sol,
                    "profile-failed",
                    f"{record.slug} solution #{sol.position}: {res.status}: {res.error}",
                )
                continue
            cost = Cost(**fig, isolation=res.isolation, peak_memory_bytes=res.peak_memory_bytes)
            profiled.append(sol.model_copy(update={"cost": cost}))
        if not profiled:
            # its solutions are in the rejects already, each with why it failed
            ctx.drop(
                record,
                "no-profiled-solution",
                f"{record.slug}: none of its solutions could be profiled on its input",
                lost=[],
            )
            continue
        how = PEProfile(meter=meter, unit=unit, machine_id=machine_id())
        out.append(record.with_solutions(profiled, pe_profile=how))
    return out


PE_PROFILE = Stage(
    "pe_profile",
    logic=pe_profile,
    reads=("pe_profile", "sampling"),
    sharded=True,
    heavy=True,
    alone=lambda cfg: not cfg.pe_profile.measure.deterministic,
)
