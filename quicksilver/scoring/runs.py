"""Profiling for scoring: jobs run under their keys, reference runs read from and written to the
:class:`~quicksilver.scoring.cache.ReferenceCache`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from quicksilver.config import MeasureConfig, MeterName, SandboxConfig
from quicksilver.profiler import Job, ProfileTask, RunResult, profile_many
from quicksilver.scoring.cache import UNCACHED_STATUSES, ReferenceCache

if TYPE_CHECKING:
    from quicksilver.scoring.model import SampleScore, TaskScore


def cached_or_profile(
    items: list[tuple[str, ProfileTask, str, float]],  # (cache key, task, code, weight)
    cache: ReferenceCache,
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    todo: list[Job] = []
    for key, task, code, weight in items:
        hit = cache.get(key, meter)
        if hit is not None:
            found[key] = hit
        elif key not in {j.key for j in todo}:
            todo.append(Job(task, code, key, weight))

    def store(job: Job, res: RunResult) -> None:
        # A timeout may come from a busy machine: profile it again next time.
        if res.status != "timeout":
            cache.put(job.key, meter, res)

    results = profile_many(
        todo,
        meter=cast(MeterName, meter),
        sandbox=sandbox,
        measure=measure,
        workers=workers,
        on_result=store,
    )
    for job, res in zip(todo, results, strict=True):
        found[job.key] = run_summary(res)
    return found


def cached_samples(
    jobs: list[Job],
    cache: ReferenceCache,
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
) -> dict[str, RunResult]:
    """Samples measured with a deterministic meter: a count does not depend on when it was
    taken, so a sample scored before (same code, same cases, same meter, same machine) gets
    its recorded result, and scoring twice gives the same numbers; ``--recollect`` measures
    again. Results are keyed by the jobs' keys."""
    out: dict[str, RunResult] = {}
    todo: list[Job] = []
    keys: dict[str, str] = {}
    for job in jobs:
        ck = cache.key(job.code, job.task, meter)
        keys[job.key] = ck
        # a sample that is a reference's code gets the reference's figures, shipped or counted
        # here: with a deterministic meter the same code counts the same
        hit = cache.get(ck, meter)
        if hit is not None and hit.get("status") not in UNCACHED_STATUSES:
            out[job.key] = RunResult(
                task_id=job.task.task_id,
                status=hit["status"],
                meter=hit.get("meter", meter),
                unit=hit.get("unit", ""),
                isolation=hit.get("isolation", ""),
                runtime=hit.get("runtime"),
                runtime_ci=tuple(hit["runtime_ci"]) if hit.get("runtime_ci") else None,
                error=hit.get("error"),
                machine_id=hit.get("machine_id", ""),
                rounds=1,
                converged=not hit.get("flags"),
                flags=list(hit.get("flags") or []),
                peak_memory_bytes=hit.get("peak_memory_bytes"),
                memory_baseline_bytes=hit.get("memory_baseline_bytes"),
                tmu=hit.get("tmu"),
                tmu_samples=hit.get("tmu_samples"),
                memory_source=hit.get("memory_source"),
            )
        else:
            todo.append(job)
    measured = profile_keyed(todo, meter, sandbox, measure, workers)
    for job in todo:
        res = measured[job.key]
        if res.status not in UNCACHED_STATUSES:
            cache.put(keys[job.key], meter, res)
        out[job.key] = res
    return out


def run_summary(res: RunResult) -> dict[str, Any]:
    return {
        "status": res.status,
        "runtime": res.runtime,
        "flags": list(res.flags),
        "error": res.error,
        "runtime_ci": list(res.runtime_ci) if res.runtime_ci else None,
        "peak_memory_bytes": res.peak_memory_bytes,
        "memory_baseline_bytes": res.memory_baseline_bytes,
        "tmu": res.tmu,
        "tmu_samples": res.tmu_samples,
    }


def profile_keyed(
    jobs: list[Job],
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
    *,
    measure_cost: bool = True,
) -> dict[str, RunResult]:
    """``profile_many`` over ``jobs``, each result under its job's key."""
    results = profile_many(
        jobs,
        meter=cast(MeterName, meter),
        sandbox=sandbox,
        measure=measure,
        workers=workers,
        measure_cost=measure_cost,
    )
    return {j.key: r for j, r in zip(jobs, results, strict=True)}


@dataclass(frozen=True)
class ScoringRun:
    """How one ``score()`` call profiles: the settings every kind of row shares."""

    meter: str
    sandbox: SandboxConfig
    measure: MeasureConfig
    cache: ReferenceCache
    workers: int | None
    on_sample: Callable[[TaskScore, SampleScore], None] | None = None

    @property
    def paired(self) -> bool:
        """With a time meter a task's references and samples are measured together, interleaved
        in one time window (paired), never cached; a count does not depend on when it was
        taken, so with a deterministic meter references come from the per-machine cache."""
        return not self.measure.deterministic
