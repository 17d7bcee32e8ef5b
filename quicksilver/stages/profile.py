"""Stage 7, reference profiling: every kept solution on its task's test cases, with the bundled
profiler (sandbox, meter, adaptive rounds), giving each task its runtime distribution.

A solution that does not pass its own task's test cases here (a flaky timeout, a memory limit the
answer-collection stage did not hit) is dropped as ``profile-failed`` with the profiler's status
and error; the minimum-solutions filter is applied again afterwards.
"""

from __future__ import annotations

import logging
from typing import Any

from quicksilver.config import ProfileSection
from quicksilver.machine import machine_id
from quicksilver.profiler import Case, Job, ProfileTask, profile_many
from quicksilver.sources.convert import (
    convert_offline_source,
    evaluate_offline_source,
    parse_signature,
)
from quicksilver.stages.base import StageCounts, cpu_count, group_by_slug, reject
from quicksilver.stages.filters import min_solutions

log = logging.getLogger(__name__)


def profile_task_for(task: dict[str, Any], record: dict[str, Any]) -> ProfileTask:
    sig = parse_signature(task["meta"])
    return ProfileTask(
        task_id=task["slug"],
        entry_point=sig.name,
        cases=tuple(Case(list(c["input"]), c["expected"]) for c in record["test_cases"]),
        kind="class",
        convert_offline=convert_offline_source(sig),
        evaluate_offline=evaluate_offline_source(sig, any_order=bool(record["any_order"])),
        difficulty=task.get("difficulty"),
    )


def profile_shard(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    records: list[dict[str, Any]],
    section: ProfileSection,
    *,
    min_solutions_: int,
    workers: int | None = None,
) -> dict[str, Any]:
    """Profile a shard's kept solutions. ``workers``: zygotes in parallel; by default one per
    core with a deterministic meter (a count does not depend on what runs beside it), else one
    (the cpu meter measures alone)."""
    if workers is None:
        workers = cpu_count() if section.measure.deterministic else 1
    counts = StageCounts("profile", tasks_in=len(records))
    rejects: list[dict[str, Any]] = []
    tasks_by_slug = {t["slug"]: t for t in tasks}
    by_slug = group_by_slug(solutions)
    jobs: list[Job] = []
    sol_of: dict[str, dict[str, Any]] = {}
    for rec in records:
        ptask = profile_task_for(tasks_by_slug[rec["slug"]], rec)
        wanted = set(rec["solutions"])
        for sol in by_slug.get(rec["slug"], []):
            if sol["hash"] in wanted:
                key = f"{rec['slug']}#{sol['hash']}"
                weight = float(rec.get("native_seconds", {}).get(str(sol["hash"]), 0.0))
                jobs.append(Job(ptask, sol["code"], key, weight))
                sol_of[key] = sol
    counts.solutions_in = len(jobs)
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
    runtimes: dict[str, list[dict[str, Any]]] = {}
    passed: list[dict[str, Any]] = []
    meter = unit = None
    for job, res in zip(jobs, results, strict=True):
        sol = sol_of[job.key]
        meter, unit = res.meter, res.unit
        if not res.passed or res.runtime is None:
            counts.drops["profile-failed"] += 1
            rejects.append(
                reject(
                    sol,
                    "profile-failed",
                    f"{sol['slug']} solution #{sol['position']}: {res.status}: {res.error}",
                )
            )
            continue
        passed.append(sol)
        runtimes.setdefault(sol["slug"], []).append(
            {
                "hash": sol["hash"],
                "runtime": res.runtime,
                "ci_low": res.runtime_ci[0] if res.runtime_ci else res.runtime,
                "ci_high": res.runtime_ci[1] if res.runtime_ci else res.runtime,
                "rounds": res.rounds,
                "converged": res.converged,
                "flags": res.flags,
                "isolation": res.isolation,
            }
        )
    kept_tasks, kept_solutions = min_solutions(
        [tasks_by_slug[r["slug"]] for r in records],
        passed,
        min_solutions_,
        counts,
        rejects,
        when="after profiling",
    )
    keep = {t["slug"] for t in kept_tasks}
    rate = None
    if unit == "instructions" and kept_tasks:
        # the judge-format runtime strings of the rows ("1.23ms") need this machine's rate
        from quicksilver.calibration import measure_instruction_rate

        rate = measure_instruction_rate(section.sandbox).rate
    out = []
    for rec in records:
        if rec["slug"] not in keep:
            continue
        out.append(
            {
                **rec,
                "solutions": [s["hash"] for s in kept_solutions if s["slug"] == rec["slug"]],
                "runtimes": runtimes[rec["slug"]],
                "meter": meter,
                "unit": unit,
                "machine_id": machine_id(),
                "instruction_rate": rate,
            }
        )
    counts.tasks_out, counts.solutions_out = len(out), len(kept_solutions)
    return {"records": out, "solutions": kept_solutions, "rejects": rejects, "counts": counts}
