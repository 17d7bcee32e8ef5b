"""Scoring model samples against a dataset: Pass@k, Beyond, percentile, and DPS where present.

Reference solutions are re-profiled on the user's machine (their stored runtimes were measured
elsewhere and are never trusted) and cached per machine, keyed by the solution's hash, the test
cases' hash, the meter and the profiler's version, so a second run only profiles the samples.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver import __version__
from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.fsutil import write_text_atomic
from quicksilver.machine import machine_info
from quicksilver.metrics import (
    SampleOutcome,
    Summary,
    UnscorableTaskError,
    beyond,
    dps,
    dps_task_score,
    percentile,
    summarize,
)
from quicksilver.profiler import Job, ProfileTask, RunResult, profile_many
from quicksilver.records import TaskRecord
from quicksilver.samples import Sample

log = logging.getLogger(__name__)

PROFILER_VERSION = f"{__version__}/1"


def default_cache_dir() -> Path:
    env = os.environ.get("QUICKSILVER_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quicksilver" / "references"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cases_hash(task: ProfileTask) -> str:
    blob = json.dumps(
        {
            "cases": [[c.inputs, c.expected] for c in task.cases],
            "convert": task.convert_offline,
            "evaluate": task.evaluate_offline,
            "entry": task.entry_point,
            "kind": task.kind,
        },
        sort_keys=True,
        default=repr,
    )
    return _sha(blob)[:24]


class ReferenceCache:
    """Reference results on this machine: <dir>/<machine_id>/<meter>/<key>.json."""

    def __init__(self, root: Path | None = None, *, enabled: bool = True) -> None:
        self.root = (root or default_cache_dir()) / str(machine_info()["machine_id"])
        self.enabled = enabled

    def key(self, code: str, task: ProfileTask, meter: str) -> str:
        return _sha(f"{PROFILER_VERSION}\0{meter}\0{cases_hash(task)}\0{code}")[:32]

    def _path(self, key: str, meter: str) -> Path:
        return self.root / meter / f"{key}.json"

    def get(self, key: str, meter: str) -> dict[str, Any] | None:
        if not self.enabled:
            return None
        try:
            return json.loads(self._path(key, meter).read_text())
        except (OSError, ValueError):
            return None

    def put(self, key: str, meter: str, result: RunResult) -> None:
        path = self._path(key, meter)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "status": result.status,
            "runtime": result.runtime,
            "runtime_ci": list(result.runtime_ci) if result.runtime_ci else None,
            "error": result.error,
            "unit": result.unit,
            "meter": result.meter,
            "isolation": result.isolation,
            "machine_id": result.machine_id,
            "profiler": PROFILER_VERSION,
        }
        write_text_atomic(path, json.dumps(data))


@dataclass
class SampleScore:
    task: str
    index: int
    status: str
    runtime: float | None
    runtime_ci: list[float] | None
    beyond: float | None
    percentile: float | None
    dps: float | None = None
    dps_norm: float | None = None
    error: str | None = None


@dataclass
class TaskScore:
    task: str
    difficulty: str | None
    reference_runtimes: list[float | None]
    reference_errors: list[str]
    samples: list[SampleScore] = field(default_factory=list)
    dps: float | None = None
    dps_norm: float | None = None


@dataclass
class ScoreReport:
    summary: Summary
    tasks: list[TaskScore]
    meter: str
    unit: str
    isolation: str
    machine: dict[str, Any]
    missing_tasks: list[str]
    sample_rejects: list[tuple[str, str]]

    def to_dict(self) -> dict[str, Any]:
        s = self.summary.to_dict()
        tasks_by_id = {t["task_id"]: t for t in s.pop("tasks")}
        out: dict[str, Any] = {
            "pass_at_1" if self.summary.k == 1 else f"pass_at_{self.summary.k}": s["pass_at_k"],
            "beyond_at_1" if self.summary.k == 1 else f"beyond_at_{self.summary.k}": s[
                "beyond_at_k"
            ],
            **s,
            "meter": self.meter,
            "unit": self.unit,
            "isolation": self.isolation,
            "machine": self.machine,
            "missing_tasks": self.missing_tasks,
            "sample_rejects": [{"source": a, "reason": b} for a, b in self.sample_rejects],
        }
        dps_tasks = [t for t in self.tasks if t.dps is not None]
        if dps_tasks:
            out["dps"] = sum(t.dps or 0.0 for t in dps_tasks) / len(dps_tasks)
            out["dps_norm"] = sum(t.dps_norm or 0.0 for t in dps_tasks) / len(dps_tasks)
        out["tasks"] = []
        for t in self.tasks:
            row = dict(tasks_by_id.get(t.task, {"task_id": t.task}))
            row.update(
                {
                    "difficulty": t.difficulty,
                    "reference_runtimes": t.reference_runtimes,
                    "reference_errors": t.reference_errors,
                    "dps": t.dps,
                    "dps_norm": t.dps_norm,
                    "samples": [vars(x) for x in t.samples],
                }
            )
            out["tasks"].append(row)
        return out


def _cached_or_profile(
    items: list[tuple[str, ProfileTask, str]],  # (cache key, task, code)
    cache: ReferenceCache,
    meter: str,
    sandbox: SandboxConfig,
    measure: MeasureConfig,
    workers: int | None,
) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    todo: list[Job] = []
    for key, task, code in items:
        hit = cache.get(key, meter)
        if hit is not None:
            found[key] = hit
        elif key not in {j.key for j in todo}:
            todo.append(Job(task, code, key))

    def store(job: Job, res: RunResult) -> None:
        # A timeout may come from a busy machine: profile it again next time.
        if res.status != "timeout":
            cache.put(job.key, meter, res)

    results = profile_many(
        todo,
        meter=meter,
        sandbox=sandbox,
        measure=measure,
        workers=workers,  # type: ignore[arg-type]
        on_result=store,
    )
    for job, res in zip(todo, results, strict=True):
        found[job.key] = {
            "status": res.status,
            "runtime": res.runtime,
            "error": res.error,
            "runtime_ci": list(res.runtime_ci) if res.runtime_ci else None,
        }
    return found


def score(
    records: Sequence[TaskRecord],
    samples: dict[str, list[Sample]],
    *,
    k: int = 1,
    meter: str = "cpu",
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    cache: ReferenceCache | None = None,
    workers: int | None = None,
    on_sample: Callable[[TaskScore, SampleScore], None] | None = None,
    sample_rejects: list[tuple[str, str]] | None = None,
) -> ScoreReport:
    """Score ``samples`` (keyed by task_id or slug_name) against ``records``."""
    sandbox = sandbox or SandboxConfig()
    measure = (measure or MeasureConfig()).model_copy(update={"meter": meter})
    cache = cache or ReferenceCache()
    index: dict[str, TaskRecord] = {}
    for rec in records:
        for name in {rec.task_key, rec.slug_name, rec.id, rec.task_id or ""} - {""}:
            index.setdefault(str(name), rec)
    wanted: dict[str, tuple[TaskRecord, list[Sample]]] = {}
    missing = []
    for name, group in samples.items():
        rec = index.get(name)
        if rec is None:
            missing.append(name)
            continue
        wanted.setdefault(rec.task_key, (rec, []))[1].extend(group)
    # One task may be named by its slug in some samples and its id in others: number its
    # samples afresh so that every sample keeps its own identity.
    for key, (_rec, group) in wanted.items():
        group.sort(key=lambda x: x.position)
        group[:] = [dataclasses.replace(s, task=key, index=i) for i, s in enumerate(group)]
    if missing:
        log.warning(
            "%d sample task(s) not in the dataset: %s", len(missing), ", ".join(missing[:10])
        )

    tasks: dict[str, ProfileTask] = {
        key: ProfileTask.from_record(rec) for key, (rec, _) in wanted.items()
    }
    # 1. references (cached per machine); DPE cluster references too, where present
    ref_items: list[tuple[str, ProfileTask, str]] = []
    ref_keys: dict[str, list[str]] = {}
    dpe_keys: dict[str, list[str]] = {}
    for key, (rec, _) in wanted.items():
        pt = tasks[key]
        ref_keys[key] = []
        for sol in rec.solutions:
            ck = cache.key(sol.solution, pt, meter)
            ref_keys[key].append(ck)
            ref_items.append((ck, pt, sol.solution))
        if rec.reference and rec.scores:
            dpe_keys[key] = []
            for code in rec.reference:
                ck = cache.key(code, pt, meter)
                dpe_keys[key].append(ck)
                ref_items.append((ck, pt, code))
    refs = _cached_or_profile(ref_items, cache, meter, sandbox, measure, workers)

    # 2. samples (all of them: pass@k's estimator uses every sample of a task)
    jobs: list[Job] = []
    for key, (_rec, group) in wanted.items():
        for s in sorted(group, key=lambda x: x.index):
            jobs.append(Job(tasks[key], s.code, f"{key}\0{s.index}"))
    results: dict[str, RunResult] = {}
    for job, res in zip(
        jobs,
        profile_many(
            jobs,
            meter=meter,
            sandbox=sandbox,  # type: ignore[arg-type]
            measure=measure,
            workers=workers,
        ),
        strict=True,
    ):
        results[job.key] = res

    # 3. metrics
    task_scores: list[TaskScore] = []
    outcomes: list[SampleOutcome] = []
    unit = "s" if meter == "cpu" else "instructions"
    isolation = "bwrap"
    for key, (rec, group) in wanted.items():
        ref_runs = [refs[ck] for ck in ref_keys[key]]
        ref_rt = [r["runtime"] if r["status"] == "passed" else None for r in ref_runs]
        ts = TaskScore(
            task=key,
            difficulty=rec.difficulty or None,
            reference_runtimes=ref_rt,
            reference_errors=[
                f"{r['status']}: {r['error']}" for r in ref_runs if r["status"] != "passed"
            ],
        )
        dpe_costs: list[float] | None = None
        if key in dpe_keys:
            dpe_runs = [refs[ck] for ck in dpe_keys[key]]
            if all(r["status"] == "passed" for r in dpe_runs):
                dpe_costs = [float(r["runtime"]) for r in dpe_runs]
            else:
                ts.reference_errors += [
                    f"DPE reference {r['status']}: {r['error']}"
                    for r in dpe_runs
                    if r["status"] != "passed"
                ]
        dps_values, dps_norms = [], []
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
            )
            if dpe_costs is not None and rec.scores is not None:
                d = dps(rt, _monotone_slow_first(dpe_costs), rec.scores)
                sc.dps, sc.dps_norm = d.dps, d.dps_norm
                if res.passed:  # task score: the first 10 correct samples (dps_task_score)
                    dps_values.append(d.dps)
                    dps_norms.append(d.dps_norm)
            ts.samples.append(sc)
            outcomes.append(SampleOutcome(key, rec.difficulty or None, res.passed, rt, ref_rt))
            if on_sample is not None:
                on_sample(ts, sc)
        if dpe_costs is not None:
            ts.dps = dps_task_score(dps_values)
            ts.dps_norm = dps_task_score(dps_norms)
        task_scores.append(ts)
    if not outcomes:
        raise ValueError("no sample matches a task of the dataset")
    summary = summarize(outcomes, k=k)
    return ScoreReport(
        summary,
        task_scores,
        meter,
        unit,
        isolation,
        dict(machine_info()),
        missing,
        list(sample_rejects or []),
    )


def _monotone_slow_first(costs: list[float]) -> list[float]:
    """Re-profiled cluster references may swap neighbours by noise; keep them non-increasing."""
    out: list[float] = []
    for c in costs:
        out.append(min(c, out[-1]) if out else c)
    return out
