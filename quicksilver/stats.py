"""Small statistics for repeated measurements: the median and its distribution-free CI, and the
fastest passes' band.

Runtimes are skewed (a scheduler hiccup only ever adds time), so we summarise rounds by the
median and give its 95% confidence interval from order statistics: for n sorted samples the
interval [x_(j), x_(n-j+1)] covers the true median with probability 1 - 2 P(Bin(n, 1/2) < j).
It needs no normality and at least 6 samples to reach 95%.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class MedianCI:
    n: int
    median: float
    low: float
    high: float
    coverage: float  # the interval's actual coverage probability (>= 0.95 when n >= 6)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def rel_half_width(self) -> float:
        return self.half_width / self.median if self.median > 0 else math.inf


def _binom_cdf_half(n: int, k: int) -> float:
    """P(Bin(n, 1/2) <= k)."""
    if k < 0:
        return 0.0
    return sum(math.comb(n, i) for i in range(min(k, n) + 1)) / 2**n


def median_ci(samples: Sequence[float], level: float = 0.95) -> MedianCI:
    """Median with its order-statistic confidence interval at ``level``."""
    if not samples:
        raise ValueError("median_ci of no samples")
    xs = sorted(samples)
    n = len(xs)
    med = statistics.median(xs)
    alpha = (1 - level) / 2
    j = 0  # 1-based rank of the lower bound; 0 means no interval reaches the level
    for cand in range(1, n // 2 + 1):
        if _binom_cdf_half(n, cand - 1) <= alpha:
            j = cand
        else:
            break
    if j == 0:
        return MedianCI(n, med, xs[0], xs[-1], 1 - 2 * _binom_cdf_half(n, 0) if n > 1 else 0.0)
    return MedianCI(n, med, xs[j - 1], xs[n - j], 1 - 2 * _binom_cdf_half(n, j - 1))


@dataclass(frozen=True)
class FastestBand:
    """The ``k`` fastest of ``n`` passes: their mean (the estimate) between the fastest (``low``)
    and the k-th fastest (``high``).

    Every pass of a solution does the same work (a fresh child of one zygote, the same seeds), and
    interference on a shared VM only ever adds CPU time, in phases of about 1.8x that last from
    milliseconds to seconds: pass costs are bimodal, and the median flips between the modes from
    one profile to the next (median CV 17-18% over five profiles even at 48 passes, against
    2.5-3% for this band; docs/performance.md). The band is not a confidence interval: it says how
    closely the fastest passes agree, and an estimate is taken once they agree.
    """

    n: int
    k: int
    estimate: float
    low: float
    high: float

    @property
    def rel_half_width(self) -> float:
        return (self.high - self.low) / 2 / self.estimate if self.estimate > 0 else math.inf


def fastest_band(samples: Sequence[float], k: int) -> FastestBand:
    """The band of the ``k`` fastest ``samples`` (fewer when there are fewer samples)."""
    if not samples:
        raise ValueError("fastest_band of no samples")
    xs = sorted(samples)[: max(1, k)]
    return FastestBand(len(samples), len(xs), statistics.fmean(xs), xs[0], xs[-1])


def coefficient_of_variation(samples: Sequence[float]) -> float:
    if len(samples) < 2:
        return 0.0
    mean = statistics.fmean(samples)
    return statistics.stdev(samples) / mean if mean > 0 else math.inf
