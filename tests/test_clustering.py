"""Adaptive clustering on worked examples, the paper's definitions at the boundaries."""

from __future__ import annotations

import math

import pytest

from quicksilver.clustering import adaptive_clusters, w_for_unit


def test_worked_example_without_w():
    # slowest first: 100, 90 | 50, 49 | 10
    # gaps: 0.10 (no), 0.444 (cut), 0.02 (no), 0.796 (cut)
    costs = [49.0, 100.0, 10.0, 90.0, 50.0]
    c = adaptive_clusters(costs, w=0.0)
    assert [cl.members for cl in c.clusters] == [(1, 3), (4, 0), (2,)]
    assert c.references == [1, 4, 2]  # the slowest member of each cluster
    assert [cl.reference_cost for cl in c.clusters] == [100.0, 50.0, 10.0]
    assert c.scores == (40.0, 80.0, 100.0)


def test_gap_equal_to_the_threshold_does_not_cut():
    # (100 - 80) / 100 = 0.2 == bias: strictly greater is needed
    assert len(adaptive_clusters([100.0, 80.0], w=0.0).clusters) == 1
    assert len(adaptive_clusters([100.0, 79.9], w=0.0).clusters) == 2


def test_w_raises_the_bar_for_cheap_solutions():
    # the same 50% step: kept apart when expensive, merged when cheap
    w = 10_000.0
    assert len(adaptive_clusters([1e8, 5e7], w=w).clusters) == 2  # 0.5 > 0.2 + 0.01
    # at t = 40,000 instructions: threshold 0.2 + sqrt(0.25) = 0.7 > 0.5
    assert len(adaptive_clusters([40_000.0, 20_000.0], w=w).clusters) == 1
    threshold = 0.2 + math.sqrt(w / 40_000.0)
    assert threshold == pytest.approx(0.7)


def test_single_and_equal_costs_make_one_cluster_scoring_100():
    assert adaptive_clusters([5.0], w=1.0).scores == (100.0,)
    c = adaptive_clusters([3.0, 3.0, 3.0], w=0.0)
    assert len(c.clusters) == 1 and c.scores == (100.0,) and c.references == [0]


def test_bad_costs_are_errors_not_values():
    for bad in ([], [1.0, 0.0], [1.0, -2.0], [float("nan")], [float("inf")]):
        with pytest.raises(ValueError):
            adaptive_clusters(bad, w=0.0)


def test_w_in_the_meters_unit():
    assert w_for_unit("instructions") == 10_000.0
    assert w_for_unit("s", instruction_rate=1e10) == pytest.approx(1e-6)
    assert w_for_unit("ms", instruction_rate=1e10) == pytest.approx(1e-3)
    assert w_for_unit("s", instruction_rate=1e9) == pytest.approx(1e-5)
    with pytest.raises(ValueError, match="measured instruction rate"):
        w_for_unit("s")  # never assumed
    with pytest.raises(ValueError):
        w_for_unit("parsecs")
