"""What scoring produces: a sample's and a task's figures, the release window, the report."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from quicksilver.metrics import (
    Summary,
)
from quicksilver.scoring.summary import summary_lines
from quicksilver.significance import interval_settings, mean_interval


@dataclass
class SampleScore:
    """One sample's figures.

    ``status`` is the verdict on the task's test cases. For Mercury rows ``runtime`` is the cost on
    the test cases and ``beyond`` / ``percentile`` place it among the references. For DPE rows the
    test cases give the verdict only (``runtime`` is None); ``pe_status`` / ``pe_cost`` come from
    the profile on the performance-exercising input, ``cluster`` is the matched cluster (0 = the
    slowest; None when the sample matched none) and ``dps`` / ``dps_norm`` its scores. An
    incorrect sample has no DPS (None): it is not a correct sample and enters no DPS mean.
    """

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
    pe_status: str | None = None
    pe_cost: float | None = None
    pe_error: str | None = None
    cluster: int | None = None
    # Mercury rows, memory (docs/metrics.md): the largest per-case peak above the post-load
    # baseline (bytes), Beyond with memory in place of runtime, and EffiBench's NMU against the
    # task's canonical solution (the row's first), on whole-process peaks
    peak_memory_bytes: int | None = None
    beyond_memory: float | None = None
    nmu: float | None = None
    # EffiBench's TMU (whole-process memory integrated over the sampled pass, bytes x the
    # meter's unit), the readings it rests on, and NTMU against the canonical solution's TMU
    tmu: float | None = None
    tmu_samples: int | None = None
    ntmu: float | None = None
    # why the profile this sample is scored from (Mercury: the test cases; DPE: the performance
    # input) is not to be trusted: not converged, or its passes split into modes (RunResult.flags;
    # counted in the report, see unconverged_summary)
    flags: list[str] = field(default_factory=list)
    # import lines put before a LeetCode sample for names LeetCode's judge provides unimported
    # (``pairwise``, ``Counter``: quicksilver/selfcontained.py), as the build does for references
    imports_added: list[str] = field(default_factory=list)


@dataclass
class TaskScore:
    """One task's figures.

    Mercury rows: ``reference_runtimes`` of the dataset's solutions on the test cases. DPE rows
    (``dpe``): ``reference_costs[j]`` is cluster j's reference on the performance input (slowest
    first), None where the lazy scan never needed it or its profile failed (``reference_status``
    tells which); ``dps`` / ``dps_norm`` are the means over the first 10 correct samples, None
    when no sample is correct or when the task cannot be scored (``dps_error`` says why).
    """

    task: str
    difficulty: str | None
    reference_runtimes: list[float | None]
    reference_errors: list[str]
    samples: list[SampleScore] = field(default_factory=list)
    dps: float | None = None
    dps_norm: float | None = None
    dpe: bool = False
    n_correct: int = 0
    reference_costs: list[float | None] | None = None
    reference_status: list[str | None] | None = None
    dps_error: str | None = None
    reference_peak_memory: list[int | None] | None = None  # bytes, as reference_runtimes
    # the canonical solution's (the row's first) TMU, which NTMU divides by, and its readings
    reference_tmu: float | None = None
    reference_tmu_samples: int | None = None
    # DPE rows: where the expected answer on the performance input came from ("dataset": the
    # row's pe_expected; "references": the answer the cluster references agree on; None: not
    # established, ``dps_error`` says why) and how
    pe_expected_source: str | None = None
    pe_expected_detail: str | None = None
    # per reference (as reference_runtimes, or reference_costs for DPE): its profile's flags
    reference_flags: list[list[str]] | None = None
    # the CPU limits its samples ran under and where each came from (profiler.applied_limits):
    # the whole pass's, and the row's per call when the row carries them (judge_limits)
    cpu_limits: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReleaseWindow:
    """``--released-after``: the dataset's tasks released after a date (a model's training
    cutoff) are scored; the others are left out, the undated ones counted apart (a task whose
    date is unknown may predate the cutoff, so it is never scored as unseen)."""

    after: dt.date
    tasks: int
    """Tasks of the dataset released strictly after ``after``: the subset."""
    earlier: int
    """Dated tasks released on or before ``after``, left out."""
    undated: int
    """Tasks without a release date, left out."""
    samples_left_out: int = 0
    """Samples naming a task left out (not scored, not counted as missing)."""
    in_training_views: int | None = None
    """Tasks of the subset that the dataset's training views (sft, dpo) hold: a model tuned on
    those views was trained on them. None: the dataset has no training view."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "after": self.after.isoformat(),
            "tasks": self.tasks,
            "earlier_left_out": self.earlier,
            "undated_left_out": self.undated,
            "samples_left_out": self.samples_left_out,
            "in_training_views": self.in_training_views,
        }


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
    window: ReleaseWindow | None = None
    dps_tolerance: float = 0.0
    # LeetCode samples that were only a method's body: completed from the prompt, or not
    bodies: dict[str, Any] = field(default_factory=dict)
    # what scoring did with the counts the rows shipped (scoring/shipped.py); {}: none shipped
    shipped: dict[str, Any] = field(default_factory=dict)

    def summary_lines(self, data: dict[str, Any] | None = None) -> list[str]:
        """The summary ``quicksilver score`` prints (rich markup), one figure group a line.
        ``data``: this report's :meth:`to_dict`, when the caller has it already."""
        return summary_lines(self.to_dict() if data is None else data, self.summary.k)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report ``quicksilver score --json`` writes (and ``quicksilver compare`` reads).

        With DPE tasks present it also holds ``dps`` / ``dps_norm`` (means over the DPE tasks with
        at least one correct sample and a score; None if there is none), ``dps_tasks`` (how many
        tasks those means cover), ``dpe_tasks`` and ``dps_unscorable`` ({task: reason}).
        ``pass_at_K_ci``, ``beyond_at_K_ci`` and ``dps_ci`` are 95% intervals over tasks
        (``[low, high]``, None with fewer than two tasks), made as ``intervals`` says.
        """
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
        # intervals over tasks (another draw of tasks gives another mean): quicksilver.significance
        k = self.summary.k
        rows = list(tasks_by_id.values())
        out[f"pass_at_{k}_ci"] = mean_interval([r["pass_at_k"] for r in rows])
        out[f"beyond_at_{k}_ci"] = mean_interval(
            [r["beyond"] for r in rows if r.get("beyond") is not None and not r.get("unscorable")]
        )
        out["intervals"] = interval_settings()
        if self.bodies:
            out["method_bodies"] = self.bodies
        if self.shipped:
            out["shipped_counts"] = self.shipped
        if self.window is not None:
            out["released_after"] = self.window.to_dict()
        dpe_tasks = [t for t in self.tasks if t.dpe]
        if dpe_tasks:
            counted = [t for t in dpe_tasks if t.n_correct > 0 and t.dps is not None]
            out["dps"] = fmean(t.dps or 0.0 for t in counted) if counted else None
            out["dps_norm"] = fmean(t.dps_norm or 0.0 for t in counted) if counted else None
            out["dps_ci"] = mean_interval([t.dps or 0.0 for t in counted])
            out["dps_tolerance"] = self.dps_tolerance
            out["dps_tasks"] = len(counted)
            out["dpe_tasks"] = len(dpe_tasks)
            out["dps_unscorable"] = {t.task: t.dps_error for t in dpe_tasks if t.dps_error}
        # tasks whose samples ran under their row's per-call limit (docs/profiler.md)
        out["row_call_limits"] = sum(1 for t in self.tasks if t.cpu_limits.get("call_seconds"))
        out.update(memory_summary(self.tasks))
        out.update(unconverged_summary(self.tasks))
        out["tmu_unit"] = f"bytes*{self.unit}"
        out["tasks"] = []
        for t in self.tasks:
            row = dict(tasks_by_id.get(t.task, {"task_id": t.task}))
            row.update(
                {
                    "difficulty": t.difficulty,
                    "reference_runtimes": t.reference_runtimes,
                    "reference_peak_memory": t.reference_peak_memory,
                    **task_memory(t),
                    "reference_tmu": t.reference_tmu,
                    "reference_tmu_samples": t.reference_tmu_samples,
                    "reference_errors": t.reference_errors,
                    "reference_flags": t.reference_flags,
                    "dps": t.dps,
                    "dps_norm": t.dps_norm,
                    "dpe": t.dpe,
                    "n_correct": t.n_correct,
                    "reference_costs": t.reference_costs,
                    "reference_status": t.reference_status,
                    "pe_expected_source": t.pe_expected_source,
                    "pe_expected_detail": t.pe_expected_detail,
                    "dps_error": t.dps_error,
                    "cpu_limits": t.cpu_limits,
                    "samples": [vars(x) for x in t.samples],
                }
            )
            out["tasks"].append(row)
        return out


def unconverged_summary(tasks: Sequence[TaskScore]) -> dict[str, Any]:
    """The samples and references scored from a profile that is not to be trusted (a time
    meter's: not converged, or its passes split into modes; RunResult.flags), counted and
    listed: ``unconverged_samples``, ``unconverged_references`` and ``unconverged`` (one entry
    each: task, sample or reference index, flags). A mode-split profile is scored by its median
    pass (docs/profiler.md, "The mode check"); the others by the fastest passes they have."""
    listed: list[dict[str, Any]] = []
    for t in tasks:
        for j, flags in enumerate(t.reference_flags or []):
            if flags:
                listed.append({"task": t.task, "reference": j, "flags": list(flags)})
        for sc in t.samples:
            if sc.flags:
                listed.append({"task": t.task, "sample": sc.index, "flags": list(sc.flags)})
    return {
        "unconverged_samples": sum("sample" in x for x in listed),
        "unconverged_references": sum("reference" in x for x in listed),
        "unconverged": listed,
    }


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
