"""Mercury rows: Beyond and percentile against the row's reference solutions re-profiled here."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any

from quicksilver.metrics import (
    SampleOutcome,
    UnscorableTaskError,
    beyond,
    beyond_memory,
    nmu,
    ntmu,
    percentile,
)
from quicksilver.profiler import Job, ProfileTask, RunResult, applied_limits
from quicksilver.rows import TaskRow
from quicksilver.samples import Sample
from quicksilver.scoring.memory import process_peak, run_tmu
from quicksilver.scoring.model import SampleScore, TaskScore
from quicksilver.scoring.runs import (
    ScoringRun,
    cached_or_profile,
    cached_samples,
    profile_keyed,
    run_summary,
)

# With a deterministic meter, a task whose references are expected to cost more than this many
# native CPU seconds together is profiled one zygote per solution, in parallel (as the builds do:
# configs/*.yaml, profile.measure.split_above_seconds).
SPLIT_ABOVE_SECONDS = 5.0
_SECONDS_PER_UNIT = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def expected_seconds(rec: TaskRow) -> dict[int, float]:
    """Each reference's native CPU seconds as the build measured them (solution hash ->
    seconds), from the row's ``reference_runtimes`` in its ``runtime_unit`` (instructions over
    the row's measured ``instruction_rate``). Only the order and spread of the scoring work use
    it (``Job.weight``): heavy tasks first, and split with a deterministic meter. A row without
    those fields (Mercury's own, a DPE row) gives {}."""
    extra = rec.model_extra or {}
    unit = extra.get("runtime_unit")
    rate = extra.get("instruction_rate")
    if unit == "instructions":
        per_unit = 1.0 / float(rate) if rate else None
    else:
        per_unit = _SECONDS_PER_UNIT.get(str(unit))
    if per_unit is None:
        return {}
    out: dict[int, float] = {}
    for run in extra.get("reference_runtimes") or []:
        if not isinstance(run, dict):
            continue
        try:
            out[int(run["hash"])] = float(run["runtime"]) * per_unit
        except (KeyError, TypeError, ValueError):
            continue  # a weight only orders work: an unreadable one weighs nothing
    return out


def score_mercury(
    rows: Mapping[str, tuple[TaskRow, list[Sample]]],
    tasks: Mapping[str, ProfileTask],
    run: ScoringRun,
) -> tuple[dict[str, TaskScore], dict[str, list[SampleOutcome]], str | None]:
    """The Mercury rows' scores: 1. references, 2. samples (all of them: pass@k's estimator
    uses every sample of a task), 3. metrics. Returns (scores, outcomes, the isolation of the
    last sample profiled, None without any)."""
    refs, ref_keys, results = _profile_mercury(rows, tasks, run)
    scored: dict[str, TaskScore] = {}
    outcomes: dict[str, list[SampleOutcome]] = {}
    isolation: str | None = None
    for key, (rec, group) in rows.items():
        ref_runs = [refs[ck] for ck in ref_keys[key]]
        ts = _reference_figures(key, rec, ref_runs)
        ts.cpu_limits = applied_limits(tasks[key], run.sandbox.limits.cpu_seconds)
        ref_rt = ts.reference_runtimes
        ref_mem = ts.reference_peak_memory or []
        canonical = process_peak(ref_runs[0]) if ref_runs else None
        outcomes[key] = []
        for s in sorted(group, key=lambda x: x.index):
            res = results[f"{key}\0{s.index}"]
            isolation = res.isolation
            rt = res.runtime if res.passed else None
            try:
                b: float | None = beyond(rt, ref_rt)
            except UnscorableTaskError:
                b = None
            sc = SampleScore(
                task=key,
                index=s.index,
                status=res.status,
                runtime=rt,
                runtime_ci=list(res.runtime_ci) if res.runtime_ci else None,
                beyond=b,
                percentile=percentile(rt, ref_rt),
                error=res.error,
                flags=list(res.flags) if res.passed else [],
                imports_added=list(s.extra.get("imports_added", [])),
            )
            score_memory(sc, res, ref_mem, canonical, ts.reference_tmu)
            ts.n_correct += res.passed
            ts.samples.append(sc)
            outcomes[key].append(SampleOutcome(key, rec.difficulty or None, res.passed, rt, ref_rt))
            if run.on_sample is not None:
                run.on_sample(ts, sc)
        scored[key] = ts
    return scored, outcomes, isolation


def _profile_mercury(
    rows: Mapping[str, tuple[TaskRow, list[Sample]]],
    tasks: Mapping[str, ProfileTask],
    run: ScoringRun,
) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]], dict[str, RunResult]]:
    """(reference runs by cache key, each task's reference cache keys, sample results by
    ``task\\0index``). With a deterministic meter the references come from the per-machine
    cache; with the cpu meter a task's references and samples are measured together (paired)."""
    # weights (the build's native seconds): heavy tasks start first and, with a deterministic
    # meter, a heavy task's solutions get a zygote each (SPLIT_ABOVE_SECONDS)
    meter, sandbox, measure, workers = run.meter, run.sandbox, run.measure, run.workers
    ref_items: list[tuple[str, ProfileTask, str, float]] = []
    ref_keys: dict[str, list[str]] = {}
    sample_weight: dict[str, float] = {}
    for key, (rec, _) in rows.items():
        pt = tasks[key]
        ref_keys[key] = []
        seconds = expected_seconds(rec)
        weights = [seconds.get(sol.hash, 0.0) for sol in rec.solutions]
        sample_weight[key] = statistics.median(weights) if weights else 0.0
        for sol, weight in zip(rec.solutions, weights, strict=True):
            ck = run.cache.key(sol.solution, pt, meter)
            ref_keys[key].append(ck)
            ref_items.append((ck, pt, sol.solution, weight))
    jobs: list[Job] = []
    for key, (_rec, group) in rows.items():
        for s in sorted(group, key=lambda x: x.index):
            jobs.append(Job(tasks[key], s.code, f"{key}\0{s.index}", sample_weight[key]))
    if run.paired:
        ref_jobs = [Job(pt, code, ck, w) for ck, pt, code, w in ref_items]
        results = profile_keyed(ref_jobs + jobs, meter, sandbox, measure, workers)
        refs = {ck: run_summary(results[ck]) for ck, _, _, _ in ref_items}
    else:
        results = cached_samples(jobs, run.cache, meter, sandbox, measure, workers)
        refs = cached_or_profile(ref_items, run.cache, meter, sandbox, measure, workers)
    return refs, ref_keys, results


def _reference_figures(key: str, rec: TaskRow, ref_runs: list[dict[str, Any]]) -> TaskScore:
    """A Mercury task's score before its samples: its references' runtimes, memory and TMU."""
    ref_rt = [r["runtime"] if r["status"] == "passed" else None for r in ref_runs]
    ref_mem = [r.get("peak_memory_bytes") if r["status"] == "passed" else None for r in ref_runs]
    canonical_tmu = run_tmu(ref_runs[0]) if ref_runs else None
    return TaskScore(
        task=key,
        difficulty=rec.difficulty or None,
        reference_runtimes=ref_rt,
        reference_peak_memory=ref_mem,
        reference_tmu=canonical_tmu,
        reference_tmu_samples=ref_runs[0].get("tmu_samples") if canonical_tmu else None,
        reference_errors=[
            f"{r['status']}: {r['error']}" for r in ref_runs if r["status"] != "passed"
        ],
        reference_flags=[
            list(r.get("flags") or []) if r["status"] == "passed" else [] for r in ref_runs
        ],
    )


def score_memory(
    sc: SampleScore,
    res: RunResult,
    ref_mem: list[int | None],
    canonical: int | None,
    canonical_tmu: float | None = None,
) -> None:
    """The memory figures of one Mercury sample: Beyond-memory against the references' peaks
    (a failed sample 0; None when no reference has a measured peak), NMU against the
    canonical solution's peak and NTMU against its TMU (each None unless both passed and were
    measured)."""
    mem = res.peak_memory_bytes if res.passed else None
    sc.peak_memory_bytes = mem
    if res.passed and mem is None:
        sc.beyond_memory = None  # passed, but not measured: nothing to place
    else:
        try:
            sc.beyond_memory = beyond_memory(mem, ref_mem)
        except UnscorableTaskError:
            sc.beyond_memory = None
    own = process_peak(run_summary(res))
    sc.nmu = nmu(own, canonical) if own is not None and canonical is not None else None
    if res.passed and res.tmu is not None and res.tmu > 0:
        sc.tmu, sc.tmu_samples = res.tmu, res.tmu_samples
        sc.ntmu = ntmu(res.tmu, canonical_tmu) if canonical_tmu is not None else None
