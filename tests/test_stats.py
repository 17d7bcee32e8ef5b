"""Tests for quicksilver.stats: the order-statistic CI of the median, checked by hand."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from quicksilver.stats import (
    MedianCI,
    coefficient_of_variation,
    fastest_band,
    median_ci,
    mode_split,
)


def ranks(n: int) -> list[float]:
    """Samples whose values are their 1-based ranks, so bounds read as ranks."""
    return [float(i) for i in range(1, n + 1)]


def test_n6_uses_ranks_1_and_6() -> None:
    ci = median_ci(ranks(6))
    assert ci == MedianCI(n=6, median=3.5, low=1.0, high=6.0, coverage=1 - 2 / 64)
    assert ci.coverage == pytest.approx(0.96875, abs=1e-15)
    assert ci.coverage >= 0.95


def test_n10_uses_ranks_2_and_9() -> None:
    # P(Bin(10, 1/2) <= 1) = 11/1024 <= 0.025 ; P(<= 2) = 56/1024 > 0.025
    ci = median_ci(ranks(10))
    assert (ci.n, ci.median, ci.low, ci.high) == (10, 5.5, 2.0, 9.0)
    assert ci.coverage == pytest.approx(1 - 22 / 1024, abs=1e-15)


def test_n20_uses_ranks_6_and_15() -> None:
    # P(Bin(20, 1/2) <= 5) = 21700 / 2**20 = 0.0207 ; P(<= 6) = 60460 / 2**20 = 0.0577
    ci = median_ci(ranks(20))
    assert (ci.n, ci.median, ci.low, ci.high) == (20, 10.5, 6.0, 15.0)
    assert ci.coverage == pytest.approx(1 - 2 * 21700 / 2**20, abs=1e-15)


def test_n5_cannot_reach_95_and_returns_min_max() -> None:
    ci = median_ci([5.0, 1.0, 4.0, 2.0, 3.0])
    assert ci == MedianCI(n=5, median=3.0, low=1.0, high=5.0, coverage=1 - 2 / 32)
    assert ci.coverage < 0.95


def test_n1_and_n2() -> None:
    one = median_ci([7.0])
    assert (one.n, one.median, one.low, one.high, one.coverage) == (1, 7.0, 7.0, 7.0, 0.0)
    two = median_ci([3.0, 1.0])
    assert (two.n, two.median, two.low, two.high) == (2, 2.0, 1.0, 3.0)
    assert two.coverage == pytest.approx(0.5, abs=1e-15)


def test_other_level() -> None:
    # At 99% (alpha = 0.005) n=10 only reaches rank 1: P(<= 0) = 1/1024, P(<= 1) = 11/1024.
    ci = median_ci(ranks(10), level=0.99)
    assert (ci.low, ci.high) == (1.0, 10.0)
    assert ci.coverage == pytest.approx(1 - 2 / 1024, abs=1e-15)


def test_half_widths() -> None:
    ci = median_ci([10.0, 12.0, 11.0, 13.0, 14.0, 9.0])  # n=6: [9, 14], median 11.5
    assert ci.low == 9.0 and ci.high == 14.0
    assert ci.median == 11.5
    assert ci.half_width == 2.5
    assert ci.rel_half_width == pytest.approx(2.5 / 11.5)


def test_rel_half_width_without_a_positive_median_is_inf() -> None:
    assert median_ci([0.0] * 6).rel_half_width == math.inf
    assert median_ci([-3.0, -2.0, -1.0, -1.0, -2.0, -3.0]).rel_half_width == math.inf


def test_empty_input_raises() -> None:
    with pytest.raises(ValueError, match="no samples"):
        median_ci([])


def test_unsorted_equals_sorted() -> None:
    rng = random.Random(1234)
    for n in (3, 6, 10, 17, 20, 31):
        xs = [rng.uniform(0.5, 2.0) for _ in range(n)]
        shuffled = xs[:]
        rng.shuffle(shuffled)
        assert median_ci(shuffled) == median_ci(sorted(xs))
    assert median_ci([9.0, 1.0, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0, 5.0, 10.0]) == median_ci(ranks(10))


def test_input_is_not_mutated() -> None:
    xs = [3.0, 1.0, 2.0, 6.0, 5.0, 4.0]
    median_ci(xs)
    assert xs == [3.0, 1.0, 2.0, 6.0, 5.0, 4.0]


def test_coverage_reaches_level_from_six_samples() -> None:
    for n in range(6, 60):
        ci = median_ci(ranks(n))
        assert ci.coverage >= 0.95, n
        assert ci.low <= ci.median <= ci.high
        # symmetric ranks: j and n - j + 1
        assert ci.low + ci.high == n + 1


def test_coefficient_of_variation() -> None:
    assert coefficient_of_variation([1.0, 2.0, 3.0]) == pytest.approx(0.5)
    assert coefficient_of_variation([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == pytest.approx(
        math.sqrt(32 / 7) / 5
    )
    assert coefficient_of_variation([4.0, 4.0]) == 0.0
    assert coefficient_of_variation([5.0]) == 0.0
    assert coefficient_of_variation([]) == 0.0
    assert coefficient_of_variation([-1.0, 1.0]) == math.inf


def test_fastest_band_is_the_mean_of_the_k_fastest_between_the_fastest_and_the_kth() -> None:
    band = fastest_band([5.0, 1.0, 9.0, 2.0, 3.0, 1.5], 3)
    assert (band.n, band.k, band.low, band.high) == (6, 3, 1.0, 2.0)
    assert band.estimate == pytest.approx(1.5)
    assert band.rel_half_width == pytest.approx(0.5 / 1.5)
    assert fastest_band([4.0, 2.0], 3).k == 2  # fewer passes than k: all of them
    with pytest.raises(ValueError):
        fastest_band([], 3)


def test_fastest_band_is_stable_where_the_median_flips_between_modes() -> None:
    """Bimodal passes (a fast mode and a 1.8x slow one, as on a shared VM): profiles that caught
    more or fewer slow phases move the median by most of the gap, the fastest passes not at all."""
    rng = random.Random(7)
    medians, fastest = [], []
    for slow_share in (0.3, 0.45, 0.55, 0.7):
        passes = [
            (1.8 if rng.random() < slow_share else 1.0) * rng.uniform(1.0, 1.01) for _ in range(24)
        ]
        medians.append(median_ci(passes).median)
        fastest.append(fastest_band(passes, 3).estimate)
    assert coefficient_of_variation(fastest) < 0.005
    assert coefficient_of_variation(medians) > 0.2


# -- the mode check -------------------------------------------------------------------------------

RATIO, FLOOR = 3.0, 0.0003  # MeasureConfig's defaults (seconds)


def _phases(rng: random.Random, n: int, base: float) -> list[float]:
    """Honest passes on a shared VM: the same work, 1.8x slower in a slow phase (docs/profiler.md)."""
    return [base * (1.8 if rng.random() < 0.5 else 1.0) * rng.uniform(1.0, 1.05) for _ in range(n)]


def test_the_machines_phases_are_not_a_mode_split() -> None:
    rng = random.Random(3)
    for _ in range(200):
        passes = _phases(rng, 8, 0.01)
        check = mode_split(passes, ratio=RATIO, floor=FLOOR)
        assert not check.split, check.describe()
        assert check.threshold == RATIO and check.peers is None


def test_a_coin_is_a_mode_split() -> None:
    # ten times cheaper in a quarter of the passes: the fastest passes would credit the cheap path
    passes = [0.010, 0.011, 0.001, 0.018, 0.010, 0.0011, 0.017, 0.010]
    check = mode_split(passes, ratio=RATIO, floor=FLOOR)
    assert check.split
    assert check.spread == pytest.approx(0.010 / 0.001)
    assert check.gap == pytest.approx(0.010 - 0.001)
    assert "10.00x the fastest" in check.describe()


def test_a_split_within_the_noise_floor_is_not_one() -> None:
    # a microsecond solution: its passes spread by the noise of the empty calls subtracted
    passes = [0.00002, 0.00015, 0.00016, 0.00014, 0.00002, 0.00015]
    check = mode_split(passes, ratio=RATIO, floor=FLOOR)
    assert check.spread > RATIO and not check.split
    assert mode_split([0.0, 0.0, 0.0], ratio=RATIO, floor=FLOOR).spread == 1.0
    assert mode_split([0.0, 0.01, 0.01], ratio=RATIO, floor=FLOOR).spread == math.inf


def test_peers_lower_the_threshold_to_twice_their_spread() -> None:
    # a 2.5x spread: within the ratio, but the solutions measured beside it spread 1.1x
    passes = [0.004, 0.010, 0.010, 0.0105, 0.010, 0.004, 0.011, 0.010]
    peers = [[0.020, 0.022, 0.021, 0.020, 0.023, 0.022, 0.020, 0.021], [0.005, 0.0055] * 4]
    alone = mode_split(passes, ratio=RATIO, floor=FLOOR)
    beside = mode_split(passes, ratio=RATIO, floor=FLOOR, peers=peers, peer_factor=2.0)
    assert not alone.split and beside.split
    assert beside.peers == pytest.approx(statistics.median([0.021 / 0.020, 0.00525 / 0.005]))
    assert beside.threshold == pytest.approx(2.0 * beside.peers)
    # a machine spreading every solution widely: the ratio is the most the threshold rises to
    wide = [[0.010, 0.030, 0.031, 0.032]] * 2
    assert (
        mode_split(passes, ratio=RATIO, floor=FLOOR, peers=wide, peer_factor=2.0).threshold == RATIO
    )
    # peers below the floor are noise, and left out
    tiny = [[0.00001, 0.0002, 0.0002]]
    assert mode_split(passes, ratio=RATIO, floor=FLOOR, peers=tiny, peer_factor=2.0).peers is None


def test_mode_split_of_nothing_raises() -> None:
    with pytest.raises(ValueError):
        mode_split([], ratio=RATIO, floor=FLOOR)
