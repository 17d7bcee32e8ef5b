"""Memory figures of scored samples: Beyond-memory, NMU and NTMU per sample, per task and over a
run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import TYPE_CHECKING, Any

from quicksilver.metrics import (
    UnscorableTaskError,
    beyond_memory,
    nmu,
    ntmu,
)
from quicksilver.profiler import RunResult
from quicksilver.scoring.runs import run_summary

if TYPE_CHECKING:
    from quicksilver.scoring.model import SampleScore, TaskScore


def process_peak(run: Mapping[str, Any]) -> int | None:
    """A passing run's whole-process peak (baseline + peak above it), EffiBench's MU."""
    peak, base = run.get("peak_memory_bytes"), run.get("memory_baseline_bytes")
    if run.get("status") != "passed" or peak is None or base is None:
        return None
    return int(peak) + int(base)


def run_tmu(run: Mapping[str, Any]) -> float | None:
    """A passing run's time-memory integral (None: failed, or not measured)."""
    tmu = run.get("tmu")
    if run.get("status") != "passed" or tmu is None or not tmu > 0:
        return None
    return float(tmu)


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


def task_memory(t: TaskScore) -> dict[str, float | None]:
    """One Mercury task's memory figures: the mean Beyond-memory of its samples (failed ones 0;
    None unless every sample has one), and the mean NMU and NTMU of its passing samples that
    have one (None when none has). All None for a DPE task or a task without samples."""
    out: dict[str, float | None] = {"beyond_memory": None, "nmu": None, "ntmu": None}
    if t.dpe or not t.samples:
        return out
    bm = [s.beyond_memory for s in t.samples]
    if all(b is not None for b in bm):
        out["beyond_memory"] = fmean(b for b in bm if b is not None)
    for key in ("nmu", "ntmu"):
        ratios = [v for v in (getattr(s, key) for s in t.samples) if v is not None]
        out[key] = fmean(ratios) if ratios else None
    return out


def memory_summary(tasks: Sequence[TaskScore]) -> dict[str, Any]:
    """Overall memory figures of the Mercury tasks (docs/metrics.md, "Memory").

    ``beyond_memory_at_1``: per task the mean Beyond-memory of its samples (failed ones 0),
    then the mean over tasks with at least one reference peak; ``nmu``: per task the mean NMU
    of its passing samples, then the mean over tasks that have one (EffiBench's mean of
    per-task ratios); ``ntmu`` likewise with NTMU; ``memory_tasks`` / ``nmu_tasks`` /
    ``ntmu_tasks`` say how many tasks each mean covers."""
    per_task_beyond: list[float] = []
    per_task_nmu: list[float] = []
    per_task_ntmu: list[float] = []
    for t in tasks:
        figures = task_memory(t)
        for key, into in (
            ("beyond_memory", per_task_beyond),
            ("nmu", per_task_nmu),
            ("ntmu", per_task_ntmu),
        ):
            if figures[key] is not None:
                into.append(figures[key])
    return {
        "beyond_memory_at_1": fmean(per_task_beyond) if per_task_beyond else None,
        "memory_tasks": len(per_task_beyond),
        "nmu": fmean(per_task_nmu) if per_task_nmu else None,
        "nmu_tasks": len(per_task_nmu),
        "ntmu": fmean(per_task_ntmu) if per_task_ntmu else None,
        "ntmu_tasks": len(per_task_ntmu),
    }
