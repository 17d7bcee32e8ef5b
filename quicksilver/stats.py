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


@dataclass(frozen=True)
class ModeSplit:
    """Whether a profile's passes split into a cheap and an expensive mode (:func:`mode_split`)."""

    spread: float  # the median pass over the fastest pass
    gap: float  # the median pass minus the fastest pass (the passes' unit)
    threshold: float  # the spread above which the passes are split
    peers: float | None  # the median spread of the peers the threshold came from
    split: bool

    def describe(self) -> str:
        against = "" if self.peers is None else f", the other solutions' {self.peers:.2f}x"
        return (
            f"median pass {self.spread:.2f}x the fastest (split above {self.threshold:.2f}x"
            f"{against}; gap {self.gap:.3g})"
        )


def spread(samples: Sequence[float]) -> float:
    """The median of ``samples`` over their smallest (inf when the smallest is not positive)."""
    med, low = statistics.median(samples), min(samples)
    if low > 0:
        return med / low
    return math.inf if med > 0 else 1.0


def mode_split(
    samples: Sequence[float],
    *,
    ratio: float,
    floor: float,
    peers: Sequence[Sequence[float]] = (),
    peer_factor: float | None = None,
) -> ModeSplit:
    """Do ``samples`` (one solution's pass costs) split into a cheap and an expensive mode?

    Every pass does the same work, and interference only ever adds time: the machine spreads an
    honest profile's passes by its slow phases (about 1.8x), never below its fastest pass. A
    sample that takes a cheap path in some passes only (a coin drawn from the clock or the pid)
    shows a fastest pass far below its median; the fastest passes would credit it with its
    luckiest draws.

    Split: the median is more than ``floor`` above the fastest pass (a microsecond solution's
    passes spread by the noise of the empty calls subtracted from them) and more than a threshold
    times it. The threshold is ``ratio``; with ``peers`` (the pass costs of the task's other
    solutions, measured interleaved in the same rounds, so through the same machine phases) and
    ``peer_factor``, it is ``peer_factor`` times the peers' median spread when that is lower: a
    sample spread twice as far as the solutions measured beside it did not get there by the
    machine's phases. Peers whose fastest pass is below ``floor`` are left out (their spread is
    noise).
    """
    if not samples:
        raise ValueError("mode_split of no samples")
    med, low = statistics.median(samples), min(samples)
    gap = med - low
    ratio_here = spread(samples)
    threshold, peer_spread = ratio, None
    if peer_factor is not None:
        spreads = [spread(p) for p in peers if p and min(p) > floor]
        if spreads:
            peer_spread = statistics.median(spreads)
            threshold = min(ratio, peer_factor * peer_spread)
    split = gap > floor and ratio_here > threshold
    return ModeSplit(ratio_here, gap, threshold, peer_spread, split)
