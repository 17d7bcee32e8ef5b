"""Scoring metrics: pass@k, Mercury's Beyond and percentile, EvalPerf's DPS, and aggregation.

Pure functions over runtimes (or costs) that were measured elsewhere; nothing here runs code.

Decisions taken where the published systems are silent or broken:

* **Beyond follows the paper, not the released code.** Mercury's equation 1 clips the runtime to
  ``[min(R), max(R)]`` on both sides, so every per-sample score lies in ``[0, 1]``. The released
  code clipped only at ``max(R)`` and produced scores above 1 for solutions faster than every
  reference; we do not reproduce that.
* **Degenerate reference distribution** (``max(R) == min(R)``, e.g. a single passing reference or
  references that all measured the same): the formula divides by zero. A solution as fast as the
  references (``r <= max(R)``) scores 1.0, a slower one 0.0. "At least as fast as every reference"
  is the top of the scale for a non-degenerate distribution too, so this is the limit that keeps
  the score's meaning.
* **No passing reference** (every reference failed or none was given): a correct solution cannot
  be placed on a runtime distribution that does not exist, so :func:`beyond` raises
  :class:`UnscorableTaskError` rather than inventing a score (the released code divides by zero).
  A *failed* solution still scores 0.0, since failure needs no distribution. :func:`summarize`
  marks such tasks ``unscorable``, leaves them out of Beyond averages and counts them.
* **Percentile ties** count half (mid-rank): a solution whose runtime equals a reference's beats
  half of that reference. A solution identical to every reference thus sits at 50, not 0 or 100.
* **Runtimes** must be non-negative and not NaN (``ValueError``). An infinite solution runtime is
  accepted and means "never finishes" (the paper's ``r -> +inf`` for failures); reference runtimes
  must be finite.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

__all__ = [
    "DPSResult",
    "GroupSummary",
    "SampleOutcome",
    "Summary",
    "TaskSummary",
    "UnscorableTaskError",
    "beyond",
    "cumulative_scores",
    "dps",
    "dps_task_score",
    "ntmu",
    "pass_at_k",
    "percentile",
    "summarize",
    "time_memory_integral",
]

UNKNOWN_DIFFICULTY = "Unknown"
_DIFFICULTY_ORDER = {"Easy": 0, "Medium": 1, "Hard": 2}


class UnscorableTaskError(ValueError):
    """A correct solution cannot be scored because the task has no passing reference runtime."""


# --------------------------------------------------------------------------------------------
# pass@k


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k estimator of Chen et al. (2021): ``1 - C(n-c, k) / C(n, k)``.

    ``n`` samples were drawn, ``c`` of them passed. Computed as the product
    ``1 - prod_{i=n-c+1}^{n} (1 - k/i)``, which avoids the huge binomials of the direct form.
    Returns 1.0 when ``n - c < k`` (every k-subset contains a passing sample).
    """
    if n < 1:
        raise ValueError(f"pass_at_k: n must be >= 1, got n={n}")
    if c < 0:
        raise ValueError(f"pass_at_k: c must be >= 0, got c={c}")
    if c > n:
        raise ValueError(f"pass_at_k: c must be <= n, got c={c}, n={n}")
    if k < 1:
        raise ValueError(f"pass_at_k: k must be >= 1, got k={k}")
    if k > n:
        raise ValueError(f"pass_at_k: k must be <= n, got k={k}, n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


# --------------------------------------------------------------------------------------------
# Mercury: Beyond and percentile


def _check_runtime(value: float, what: str) -> None:
    if math.isnan(value):
        raise ValueError(f"{what} is NaN")
    if value < 0:
        raise ValueError(f"{what} is negative: {value!r}")


def _passing_references(reference_runtimes: Sequence[float | None]) -> list[float]:
    """Drop failed references (None) and validate the rest."""
    passing: list[float] = []
    for i, ref in enumerate(reference_runtimes):
        if ref is None:
            continue
        _check_runtime(ref, f"reference runtime #{i}")
        if math.isinf(ref):
            raise ValueError(f"reference runtime #{i} is infinite; a passing reference is finite")
        passing.append(float(ref))
    return passing


def beyond(runtime: float | None, reference_runtimes: Sequence[float | None]) -> float:
    """Mercury's per-sample Beyond score (paper, equation 1), always in ``[0, 1]``.

    ``p = (max(R) - clip(r, min(R), max(R))) / (max(R) - min(R))`` where ``R`` are the passing
    reference runtimes (None entries are references that failed and are ignored).

    * ``runtime is None`` (the solution failed): 0.0, even when there are no references.
    * Faster than every reference: 1.0; slower than every reference: 0.0 (clipped on both sides,
      as in the paper; the released code clipped only the max side and exceeded 1).
    * ``max(R) == min(R)``: 1.0 if ``runtime <= max(R)`` else 0.0.
    * No passing reference and a non-None runtime: :class:`UnscorableTaskError`.
    * Negative or NaN runtimes (solution or reference): ``ValueError``.
    """
    if runtime is not None:
        _check_runtime(runtime, "runtime")
    refs = _passing_references(reference_runtimes)
    if runtime is None:
        return 0.0
    if not refs:
        raise UnscorableTaskError(
            "cannot compute Beyond: no reference solution passed, so there is no runtime "
            f"distribution to place the runtime {runtime!r} on"
        )
    lo, hi = min(refs), max(refs)
    if hi == lo:
        return 1.0 if runtime <= hi else 0.0
    clipped = min(max(runtime, lo), hi)
    return (hi - clipped) / (hi - lo)


def beyond_memory(peak: float | None, reference_peaks: Sequence[float | None]) -> float:
    """Beyond with peak memory in place of runtime: the same formula and the same decisions
    (:func:`beyond`), on the sample's peak memory against the references' peaks (bytes above
    the post-load baseline; a constant baseline would not change the score, the formula being
    invariant under a shift). ``peak is None``: the sample failed (0.0)."""
    return beyond(peak, reference_peaks)


def nmu(peak: float, canonical_peak: float) -> float:
    """EffiBench's normalised max memory usage of one sample: its peak memory over the
    canonical solution's, both whole-process peaks as EffiBench measures them (the interpreter's
    baseline included, which also keeps the ratio finite). ``ValueError`` unless both are
    positive and finite."""
    for value, what in ((peak, "peak"), (canonical_peak, "canonical peak")):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"NMU needs a positive, finite {what}, got {value!r}")
    return peak / canonical_peak


def time_memory_integral(
    clock: Sequence[float], rss: Sequence[float], marks: Sequence[float] | None = None
) -> float:
    """EffiBench's TMU of one measured window: memory integrated over time, by trapezoids.

    ``clock[i]`` is when reading ``i`` was taken (any monotone unit: seconds, instructions),
    ``rss[i]`` the resident size then (bytes); the first and last readings are the window's ends,
    so two readings (a call shorter than the sampling interval) give one trapezoid over the whole
    window. ``marks[i]`` (optional) is the process's high-water mark at reading ``i``, never reset
    within the window: when it rose in an interval above both of the interval's readings, memory
    went higher between them than either shows, so that interval is taken as two trapezoids
    through the mark, placed at its middle (``(a + 2 * mark + b) / 4 * dt``). A peak shorter than
    an interval is thus counted once it raises the mark; a later one of the same height is not.

    Returns bytes x the clock's unit. ``ValueError`` on fewer than two readings, sequences of
    different lengths, a clock that runs backwards, or a negative or non-finite figure.
    """
    n = len(clock)
    if n < 2:
        raise ValueError(f"a time-memory integral needs at least two readings, got {n}")
    if len(rss) != n or (marks is not None and len(marks) != n):
        raise ValueError("clock, rss and marks must have the same length")
    for seq in (clock, rss, marks or ()):
        for v in seq:
            if not (math.isfinite(v) and v >= 0):
                raise ValueError(f"readings must be non-negative and finite, got {v!r}")
    total = 0.0
    for i in range(1, n):
        dt = clock[i] - clock[i - 1]
        if dt < 0:
            raise ValueError(f"the clock runs backwards at reading {i}")
        a, b = rss[i - 1], rss[i]
        if marks is not None and marks[i] > marks[i - 1] and marks[i] > max(a, b):
            total += (a + 2 * marks[i] + b) / 4 * dt
        else:
            total += (a + b) / 2 * dt
    return total


def ntmu(tmu: float, canonical_tmu: float) -> float:
    """EffiBench's normalised total memory usage of one sample: its time-memory integral over
    the canonical solution's, both measured the same way (whole-process memory, the same clock).
    ``ValueError`` unless both are positive and finite."""
    for value, what in ((tmu, "TMU"), (canonical_tmu, "canonical TMU")):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"NTMU needs a positive, finite {what}, got {value!r}")
    return tmu / canonical_tmu


def percentile(runtime: float | None, reference_runtimes: Sequence[float | None]) -> float | None:
    """Percentage (0 to 100) of passing references the solution is faster than.

    This is the Mercury evaluator's percentile ("P85 = faster than 85% of references"). A
    reference with exactly the same runtime counts half (mid-rank), so ties neither reward nor
    punish. ``runtime is None`` (failed) gives 0.0; no passing reference gives None (undefined).
    None entries in ``reference_runtimes`` are failed references and are ignored.
    """
    if runtime is not None:
        _check_runtime(runtime, "runtime")
    refs = _passing_references(reference_runtimes)
    if runtime is None:
        return 0.0
    if not refs:
        return None
    slower = sum(1 for ref in refs if ref > runtime)
    ties = sum(1 for ref in refs if ref == runtime)
    return 100.0 * (slower + 0.5 * ties) / len(refs)


# --------------------------------------------------------------------------------------------
# EvalPerf: Differential Performance Score


@dataclass(frozen=True)
class DPSResult:
    """DPS of one solution: ``cluster`` is the matched cluster index (0 = slowest) or None."""

    dps: float
    dps_norm: float
    cluster: int | None


def dps(
    cost: float | None,
    reference_costs: Sequence[float],
    scores: Sequence[float],
    *,
    tolerance: float = 0.0,
) -> DPSResult:
    """Differential Performance Score of one correct solution (EvalPerf / DPE).

    ``reference_costs[i]`` is the cost of cluster i's reference, ordered slowest first (index 0 is
    the slowest cluster); ``scores[i]`` is the cumulative percentage of solutions in clusters
    ``0..i`` (see :func:`cumulative_scores`). Clusters are scanned from the fastest; the first
    ``j`` with ``matches(cost, reference_costs[j], tolerance)`` gives ``DPS = scores[j]`` and
    ``DPS_norm = 100 * (j + 1) / m``. A failed profile (``cost is None``) or a cost above every
    reference gives ``DPSResult(0.0, 0.0, None)``.
    """
    check_dps_tolerance(tolerance)
    m = len(reference_costs)
    if m < 1:
        raise ValueError("dps: need at least one cluster (reference_costs is empty)")
    if len(scores) != m:
        raise ValueError(f"dps: reference_costs and scores differ in length ({m} != {len(scores)})")
    for i, ref in enumerate(reference_costs):
        _check_runtime(ref, f"dps: reference cost #{i}")
    for i in range(1, m):
        if reference_costs[i] > reference_costs[i - 1]:
            raise ValueError(
                "dps: reference_costs must be ordered slowest first (non-increasing), but "
                f"#{i} ({reference_costs[i]!r}) > #{i - 1} ({reference_costs[i - 1]!r})"
            )
    for i, score in enumerate(scores):
        if math.isnan(score) or not 0.0 <= score <= 100.0:
            raise ValueError(f"dps: score #{i} ({score!r}) is outside [0, 100]")
        if i and score < scores[i - 1]:
            raise ValueError(
                f"dps: scores must be non-decreasing, but #{i} ({score!r}) < "
                f"#{i - 1} ({scores[i - 1]!r})"
            )
    if cost is None:
        return DPSResult(0.0, 0.0, None)
    _check_runtime(cost, "dps: cost")
    for j in range(m - 1, -1, -1):
        if matches(cost, reference_costs[j], tolerance):
            return DPSResult(float(scores[j]), 100.0 * (j + 1) / m, j)
    return DPSResult(0.0, 0.0, None)


# The clustering starts a new cluster only across a relative gap above its bias (0.2): a
# reference is at most 0.8x the fastest member of the next slower cluster, 1.25x below it. A
# tolerance under that gap never lets a sample reach past the gap into a faster cluster.
MAX_DPS_TOLERANCE = 0.25


def check_dps_tolerance(tolerance: float) -> None:
    if math.isnan(tolerance) or not 0.0 <= tolerance < MAX_DPS_TOLERANCE:
        raise ValueError(
            f"dps tolerance must be in [0, {MAX_DPS_TOLERANCE}) (below the clusters' gap), "
            f"got {tolerance!r}"
        )


def matches(cost: float, reference_cost: float, tolerance: float = 0.0) -> bool:
    """Does a sample of ``cost`` match (is it as fast as) a cluster reference of
    ``reference_cost``? EvalPerf's rule is ``cost <= reference_cost``, right for an exact meter
    (instructions: a sample that is the reference's algorithm counts the same). With a time meter
    the same code measures a little above or below its reference from run to run, and the rule
    would hand it the reference's cluster or the next slower one by chance: ``tolerance`` (a
    share of the reference's cost) is how far above it still counts as a match."""
    return cost <= reference_cost * (1.0 + tolerance)


def cumulative_scores(cluster_sizes: Sequence[int]) -> list[float]:
    """Cluster scores from cluster sizes ordered slowest first.

    ``scores[i]`` is the percentage of all solutions that lie in clusters ``0..i``; the fastest
    cluster scores exactly 100.0. Example: sizes ``[2, 3, 1, 4]`` give ``[20, 50, 60, 100]``.
    """
    if not cluster_sizes:
        raise ValueError("cumulative_scores: need at least one cluster")
    for i, size in enumerate(cluster_sizes):
        if size < 1:
            raise ValueError(f"cumulative_scores: cluster #{i} has size {size}; sizes must be >= 1")
    total = sum(cluster_sizes)
    scores: list[float] = []
    running = 0
    for size in cluster_sizes:
        running += size
        scores.append(100.0 * running / total)
    return scores


def dps_task_score(dps_values: Sequence[float], limit: int = 10) -> float:
    """Task score: mean DPS over the first ``limit`` correct samples (EvalPerf uses 10).

    ``dps_values`` are the DPS of the task's correct samples in sampling order; an empty sequence
    (no correct sample) scores 0.0.
    """
    if limit < 1:
        raise ValueError(f"dps_task_score: limit must be >= 1, got {limit}")
    head = list(dps_values[:limit])
    return fmean(head) if head else 0.0


# --------------------------------------------------------------------------------------------
# Aggregation


@dataclass
class SampleOutcome:
    """One generated sample of one task. ``runtime`` is None when the sample failed."""

    task_id: str
    difficulty: str | None
    passed: bool
    runtime: float | None
    reference_runtimes: list[float | None]


@dataclass
class TaskSummary:
    """Figures for one task.

    ``beyond`` is the mean per-sample Beyond (failed samples count 0); it is None when the task is
    ``unscorable``. ``percentile`` is the mean over passed samples, None if none passed or the task
    is unscorable.
    """

    task_id: str
    difficulty: str
    n: int
    c: int
    pass_at_k: float
    beyond: float | None
    percentile: float | None
    unscorable: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "difficulty": self.difficulty,
            "n": self.n,
            "c": self.c,
            "pass_at_k": self.pass_at_k,
            "beyond": self.beyond,
            "percentile": self.percentile,
            "unscorable": self.unscorable,
        }


@dataclass
class GroupSummary:
    """Figures over a set of tasks (all tasks, or one difficulty).

    ``pass_at_k`` is the mean over all tasks of the group; ``beyond`` the mean over its scorable
    tasks; ``gap`` is ``pass - beyond`` where both are averaged over the *same* scorable tasks, so
    an unscorable task does not widen the gap. ``beyond`` and ``gap`` are None when no task of the
    group is scorable.
    """

    pass_at_k: float
    beyond: float | None
    gap: float | None
    n_tasks: int
    n_unscorable: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "pass_at_k": self.pass_at_k,
            "beyond_at_k": self.beyond,
            "gap": self.gap,
            "n_tasks": self.n_tasks,
            "n_unscorable": self.n_unscorable,
        }


@dataclass
class Summary:
    """Overall figures (see :class:`GroupSummary` for their meaning), per difficulty and per task.

    ``by_difficulty`` maps each difficulty string (None grouped as "Unknown") to its figures.
    """

    pass_at_k: float
    beyond: float | None
    gap: float | None
    n_tasks: int
    n_unscorable: int
    k: int
    by_difficulty: dict[str, GroupSummary] = field(default_factory=dict)
    tasks: list[TaskSummary] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict; Beyond is reported under the key ``beyond_at_k``."""
        return {
            "pass_at_k": self.pass_at_k,
            "beyond_at_k": self.beyond,
            "gap": self.gap,
            "n_tasks": self.n_tasks,
            "n_unscorable": self.n_unscorable,
            "by_difficulty": {name: g.to_dict() for name, g in self.by_difficulty.items()},
            "tasks": [t.to_dict() for t in self.tasks],
        }


def _summarize_task(task_id: str, samples: list[SampleOutcome], k: int) -> TaskSummary:
    difficulties = {s.difficulty for s in samples}
    if len(difficulties) > 1:
        raise ValueError(
            f"task {task_id!r}: samples disagree on difficulty {sorted(map(str, difficulties))}"
        )
    difficulty = samples[0].difficulty or UNKNOWN_DIFFICULTY
    n = len(samples)
    c = sum(1 for s in samples if s.passed)
    if k > n:
        raise ValueError(f"task {task_id!r}: k={k} exceeds its number of samples n={n}")
    for s in samples:
        if s.passed and s.runtime is None:
            raise ValueError(f"task {task_id!r}: a passed sample has no runtime")
    # Samples of a task normally share one reference set; if any sample lacks a passing
    # reference, scoring only the others would bias the task's Beyond, so the task is unscorable.
    unscorable = any(not _passing_references(s.reference_runtimes) for s in samples)
    task_beyond: float | None = None
    task_percentile: float | None = None
    if not unscorable:
        task_beyond = fmean(
            beyond(s.runtime if s.passed else None, s.reference_runtimes) for s in samples
        )
        passed_percentiles = [
            p
            for s in samples
            if s.passed
            if (p := percentile(s.runtime, s.reference_runtimes)) is not None
        ]
        task_percentile = fmean(passed_percentiles) if passed_percentiles else None
    return TaskSummary(
        task_id=task_id,
        difficulty=difficulty,
        n=n,
        c=c,
        pass_at_k=pass_at_k(n, c, k),
        beyond=task_beyond,
        percentile=task_percentile,
        unscorable=unscorable,
    )


def _group(tasks: Sequence[TaskSummary]) -> GroupSummary:
    scorable = [t for t in tasks if not t.unscorable]
    group_beyond: float | None = None
    gap: float | None = None
    if scorable:
        group_beyond = fmean(t.beyond for t in scorable if t.beyond is not None)
        gap = fmean(t.pass_at_k for t in scorable) - group_beyond
    return GroupSummary(
        pass_at_k=fmean(t.pass_at_k for t in tasks),
        beyond=group_beyond,
        gap=gap,
        n_tasks=len(tasks),
        n_unscorable=len(tasks) - len(scorable),
    )


def summarize(outcomes: Sequence[SampleOutcome], k: int = 1) -> Summary:
    """Aggregate sample outcomes into per-task, per-difficulty and overall figures.

    Per task: ``n`` samples, ``c`` passed, pass@k, Beyond (mean over samples, failed = 0),
    percentile (mean over passed samples). A task is unscorable when a sample of it has no passing
    reference runtime: its Beyond is None, it is left out of Beyond averages and of the gap, but it
    still counts in pass@k averages. Overall and per difficulty: pass@k is the mean over all
    tasks, Beyond the mean over scorable tasks, and ``gap = pass@k - Beyond`` with both taken
    over the same scorable tasks. Tasks keep their first-appearance order.
    """
    if k < 1:
        raise ValueError(f"summarize: k must be >= 1, got {k}")
    if not outcomes:
        raise ValueError("summarize: no outcomes to summarize")
    by_task: dict[str, list[SampleOutcome]] = {}
    for outcome in outcomes:
        by_task.setdefault(outcome.task_id, []).append(outcome)
    tasks = [_summarize_task(task_id, samples, k) for task_id, samples in by_task.items()]

    groups: dict[str, list[TaskSummary]] = {}
    for task in tasks:
        groups.setdefault(task.difficulty, []).append(task)
    # Easy, Medium, Hard first, then other labels alphabetically, "Unknown" last.
    ordered = sorted(
        groups,
        key=lambda d: (
            d == UNKNOWN_DIFFICULTY,
            _DIFFICULTY_ORDER.get(d, len(_DIFFICULTY_ORDER)),
            d,
        ),
    )
    overall = _group(tasks)
    return Summary(
        pass_at_k=overall.pass_at_k,
        beyond=overall.beyond,
        gap=overall.gap,
        n_tasks=overall.n_tasks,
        n_unscorable=overall.n_unscorable,
        k=k,
        by_difficulty={d: _group(groups[d]) for d in ordered},
        tasks=tasks,
    )
