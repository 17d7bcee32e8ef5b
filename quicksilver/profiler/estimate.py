"""A time meter's figure from its passes: the estimators and the mode check (docs/profiler.md)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from quicksilver.config import MeasureConfig
from quicksilver.stats import ModeSplit, fastest_band, median_ci, mode_split


def mode_check(
    measure: MeasureConfig,
    costs: Sequence[float],
    peers: Sequence[Sequence[float]] = (),
    *,
    unit: str = "s",
) -> ModeSplit:
    """Do a time meter's pass ``costs`` (in ``unit``) split into a cheap and an expensive mode?
    ``peers``: the pass costs of the task's other solutions, measured in the same rounds
    (``measure.modes_*``, :func:`quicksilver.stats.mode_split`; docs/profiler.md, "The mode
    check")."""
    return mode_split(
        costs,
        ratio=measure.modes_ratio,
        floor=measure.modes_floor_ms / 1e3 if unit == "s" else 0.0,
        peers=peers,
        peer_factor=measure.modes_peer_factor,
    )


@dataclass(frozen=True)
class _Estimate:
    estimate: float
    low: float
    high: float
    coverage: float | None  # the median's CI95 coverage; None for the fastest passes' band

    @property
    def rel_half_width(self) -> float:
        return (self.high - self.low) / 2 / self.estimate if self.estimate > 0 else math.inf


def estimator_name(measure: MeasureConfig, deterministic: bool) -> str:
    """What :attr:`RunResult.estimator` records."""
    if deterministic:
        return "exact"
    return "median" if measure.estimator == "median" else f"fastest-{measure.fastest_k}"


def estimate_of(estimator: str, costs: Sequence[float]) -> float:
    """The figure ``estimator`` (a :attr:`RunResult.estimator`) takes from pass costs."""
    if estimator.startswith("fastest-"):
        return fastest_band(costs, int(estimator.removeprefix("fastest-"))).estimate
    return statistics.median(costs) if estimator == "median" else costs[0]


def _estimate(measure: MeasureConfig, costs: Sequence[float]) -> _Estimate:
    """A time meter's cost from its passes, by ``measure.estimator`` (stats.py says why the
    fastest passes, by default)."""
    if measure.estimator == "median":
        ci = median_ci(costs)
        return _Estimate(ci.median, ci.low, ci.high, ci.coverage)
    band = fastest_band(costs, measure.fastest_k)
    return _Estimate(band.estimate, band.low, band.high, None)
