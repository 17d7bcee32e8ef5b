"""Uncertainty over tasks, for the score report and ``quicksilver compare``.

A benchmark's figure (Beyond@1, DPS) is a mean over a sample of tasks: another draw of tasks
would give another mean. The report gives a percentile bootstrap interval over tasks
(:func:`mean_interval`: tasks resampled with replacement, ``RESAMPLES`` times, a fixed seed so
that a report reproduces), and ``compare`` a paired test over the tasks both sides passed
(:func:`paired_test`: Wilcoxon's signed-rank test on the per-task differences, which assumes no
normality, and a bootstrap interval on their mean). scipy does the work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from scipy import stats

CONFIDENCE = 0.95
RESAMPLES = 4000
SEED = 20_261_128
METHOD = "percentile bootstrap over tasks"


def interval_settings() -> dict[str, Any]:
    """How every interval of a report was made (recorded beside them)."""
    return {"method": METHOD, "confidence": CONFIDENCE, "resamples": RESAMPLES, "seed": SEED}


def mean_interval(values: Sequence[float]) -> list[float] | None:
    """The ``CONFIDENCE`` interval of the mean of ``values`` (one per task), as ``[low, high]``;
    None for fewer than two tasks (a single task says nothing about another draw)."""
    xs = np.asarray([float(v) for v in values if v is not None and math.isfinite(v)])
    if len(xs) < 2:
        return None
    if np.all(xs == xs[0]):
        return [float(xs[0]), float(xs[0])]
    res = stats.bootstrap(
        (xs,),
        np.mean,
        confidence_level=CONFIDENCE,
        n_resamples=RESAMPLES,
        method="percentile",
        rng=np.random.default_rng(SEED),
    )
    return [float(res.confidence_interval.low), float(res.confidence_interval.high)]


@dataclass(frozen=True)
class PairedTest:
    """A over B on the tasks both passed: the per-task differences A - B."""

    n: int  # tasks with a difference
    mean_delta: float | None
    delta_interval: list[float] | None  # CONFIDENCE interval of the mean difference
    statistic: float | None  # Wilcoxon's W
    p_value: float | None  # two-sided; None when it cannot be computed (see ``note``)
    test: str = "Wilcoxon signed-rank, two-sided, zero differences split (zsplit)"
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def paired_test(deltas: Sequence[float]) -> PairedTest:
    """Whether the per-task differences ``deltas`` (A - B) are centred away from zero."""
    xs = [float(d) for d in deltas if d is not None and math.isfinite(d)]
    n = len(xs)
    if n == 0:
        return PairedTest(0, None, None, None, None, note="no task both sides passed")
    mean = float(np.mean(xs))
    ci = mean_interval(xs)
    if all(x == 0 for x in xs):
        return PairedTest(n, mean, ci, None, 1.0, note="every difference is zero")
    if n < 2:
        return PairedTest(n, mean, ci, None, None, note="one task: no test")
    res = stats.wilcoxon(xs, zero_method="zsplit", alternative="two-sided")
    return PairedTest(n, mean, ci, float(res.statistic), float(res.pvalue))
