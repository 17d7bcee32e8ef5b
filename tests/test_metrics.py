"""Worked examples for quicksilver.metrics; every expected value is derived by hand in comments."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest

from quicksilver.metrics import (
    DPSResult,
    SampleOutcome,
    UnscorableTaskError,
    beyond,
    cumulative_scores,
    dps,
    dps_task_score,
    matches,
    pass_at_k,
    percentile,
    summarize,
)

# --------------------------------------------------------------------------------------------
# pass@k


def _brute_pass_at_k(n: int, c: int, k: int) -> float:
    """Share of k-subsets of n samples (the first c passing) that contain a passing sample."""
    subsets = list(itertools.combinations(range(n), k))
    hits = sum(1 for s in subsets if any(i < c for i in s))
    return hits / len(subsets)


@pytest.mark.parametrize("n", range(1, 8))
def test_pass_at_k_matches_brute_force(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(_brute_pass_at_k(n, c, k), abs=1e-12)


def test_pass_at_k_worked_examples():
    # n=10, c=3, k=1: 1 - C(7,1)/C(10,1) = 1 - 7/10 = 0.3
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    # n=4, c=2, k=2: 1 - C(2,2)/C(4,2) = 1 - 1/6 = 5/6
    assert pass_at_k(4, 2, 2) == pytest.approx(5 / 6)
    # no pass -> 0; all pass -> 1
    assert pass_at_k(5, 0, 1) == 0.0
    assert pass_at_k(5, 5, 3) == 1.0
    # n - c = 2 < k = 3: every 3-subset holds a pass
    assert pass_at_k(5, 3, 3) == 1.0


def test_pass_at_k_large_n_is_stable():
    # n=200, c=100, k=50: 1 - C(100,50)/C(200,50), checked against exact integer binomials
    exact = 1 - Fraction(math.comb(100, 50), math.comb(200, 50))
    assert pass_at_k(200, 100, 50) == pytest.approx(float(exact), rel=1e-12)
    # k=100: 1 - 1/C(200,100) ~ 1 - 1e-59, i.e. 1.0 in floating point
    assert pass_at_k(200, 100, 100) == pytest.approx(1.0)
    # n=1000, c=1, k=1: 1 - 999/1000 = 0.001
    assert pass_at_k(1000, 1, 1) == pytest.approx(0.001, rel=1e-12)


@pytest.mark.parametrize(
    ("n", "c", "k", "match"),
    [
        (0, 0, 1, "n must be >= 1"),
        (5, -1, 1, "c must be >= 0"),
        (5, 6, 1, "c must be <= n"),
        (5, 2, 0, "k must be >= 1"),
        (5, 2, 6, "k must be <= n"),
    ],
)
def test_pass_at_k_validation(n, c, k, match):
    with pytest.raises(ValueError, match=match):
        pass_at_k(n, c, k)


# --------------------------------------------------------------------------------------------
# Beyond

REFS = [10.0, 20.0, 30.0]  # min 10, max 30, spread 20


@pytest.mark.parametrize(
    ("runtime", "expected"),
    [
        (10.0, 1.0),  # at min: (30 - 10) / 20 = 1
        (30.0, 0.0),  # at max: (30 - 30) / 20 = 0
        (20.0, 0.5),  # midpoint: (30 - 20) / 20 = 0.5
        (25.0, 0.25),  # (30 - 25) / 20
        (5.0, 1.0),  # faster than min: clipped to 10 -> 1 (released code: 25/20 = 1.25)
        (0.0, 1.0),  # zero runtime is valid, clipped to 10 -> 1
        (40.0, 0.0),  # slower than max: clipped to 30 -> 0
        (math.inf, 0.0),  # never finishes: clipped to 30 -> 0
        (None, 0.0),  # failed
    ],
)
def test_beyond_on_three_references(runtime, expected):
    assert beyond(runtime, REFS) == pytest.approx(expected, abs=0)


def test_beyond_ignores_failed_references():
    # passing refs are 10 and 30: (30 - 25) / 20 = 0.25; with the Nones counted as 0 it would differ
    assert beyond(25.0, [None, 10.0, None, 30.0]) == pytest.approx(0.25)
    # dropping None changes min: passing refs 20, 30 -> (30 - 25) / 10 = 0.5
    assert beyond(25.0, [None, 20.0, 30.0]) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("runtime", "refs", "expected"),
    [
        (7.0, [7.0], 1.0),  # single reference, equal -> full marks
        (6.0, [7.0], 1.0),  # faster than the single reference
        (7.5, [7.0], 0.0),  # slower than the single reference
        (7.0, [7.0, 7.0, None], 1.0),  # all equal, one failed
        (7.0000001, [7.0, 7.0], 0.0),  # barely slower
        (None, [7.0], 0.0),  # failed
    ],
)
def test_beyond_degenerate_distribution(runtime, refs, expected):
    assert beyond(runtime, refs) == expected


@pytest.mark.parametrize("refs", [[], [None], [None, None]])
def test_beyond_without_passing_reference_is_unscorable(refs):
    with pytest.raises(UnscorableTaskError, match="no reference solution passed"):
        beyond(1.0, refs)
    # it is a ValueError, so generic handlers catch it
    assert issubclass(UnscorableTaskError, ValueError)


@pytest.mark.parametrize("refs", [[], [None]])
def test_beyond_failed_without_reference_is_zero(refs):
    assert beyond(None, refs) == 0.0


@pytest.mark.parametrize(
    ("runtime", "refs", "match"),
    [
        (-1.0, REFS, "runtime is negative"),
        (math.nan, REFS, "runtime is NaN"),
        (1.0, [10.0, -2.0], "reference runtime #1 is negative"),
        (1.0, [math.nan, 2.0], "reference runtime #0 is NaN"),
        (1.0, [1.0, math.inf], "reference runtime #1 is infinite"),
        (None, [1.0, -1.0], "reference runtime #1 is negative"),
    ],
)
def test_beyond_validation(runtime, refs, match):
    with pytest.raises(ValueError, match=match):
        beyond(runtime, refs)


# --------------------------------------------------------------------------------------------
# percentile

TIED = [10.0, 20.0, 20.0, 30.0]


@pytest.mark.parametrize(
    ("runtime", "expected"),
    [
        # 20: strictly faster than 30 (1), ties with two 20s (2 * 0.5) -> 2/4 = 50
        (20.0, 50.0),
        # 10: faster than 20, 20, 30 (3), ties with 10 (0.5) -> 3.5/4 = 87.5
        (10.0, 87.5),
        # 30: faster than none, ties with 30 (0.5) -> 0.5/4 = 12.5
        (30.0, 12.5),
        (15.0, 75.0),  # faster than 20, 20, 30 -> 3/4
        (5.0, 100.0),
        (35.0, 0.0),
        (None, 0.0),  # failed
    ],
)
def test_percentile_with_ties(runtime, expected):
    assert percentile(runtime, TIED) == pytest.approx(expected)


def test_percentile_ignores_failed_references_and_handles_none():
    # passing refs 10, 30: 20 beats 30 only -> 50
    assert percentile(20.0, [None, 10.0, 30.0, None]) == pytest.approx(50.0)
    # identical to the only reference: one tie -> 50
    assert percentile(7.0, [7.0]) == pytest.approx(50.0)
    assert percentile(1.0, []) is None
    assert percentile(1.0, [None]) is None
    assert percentile(None, [None]) == 0.0


def test_percentile_validation():
    with pytest.raises(ValueError, match="runtime is negative"):
        percentile(-0.5, TIED)
    with pytest.raises(ValueError, match="NaN"):
        percentile(1.0, [math.nan])


# --------------------------------------------------------------------------------------------
# DPS

# Four clusters, slowest first, sizes [2, 3, 1, 4] of 10 solutions:
# cumulative 2, 5, 6, 10 -> scores 20, 50, 60, 100.
COSTS = [400.0, 200.0, 100.0, 50.0]
SCORES = [20.0, 50.0, 60.0, 100.0]


def test_cumulative_scores_worked_example():
    assert cumulative_scores([2, 3, 1, 4]) == pytest.approx(SCORES)
    assert cumulative_scores([5]) == [100.0]
    thirds = cumulative_scores([1, 1, 1])
    assert thirds == pytest.approx([100 / 3, 200 / 3, 100.0])
    assert thirds[-1] == 100.0  # exactly, not 99.999...


@pytest.mark.parametrize(
    ("sizes", "match"),
    [([], "at least one cluster"), ([2, 0, 1], "cluster #1 has size 0"), ([-1], "size -1")],
)
def test_cumulative_scores_validation(sizes, match):
    with pytest.raises(ValueError, match=match):
        cumulative_scores(sizes)


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        (50.0, DPSResult(100.0, 100.0, 3)),  # equal to the fastest reference: cluster 3
        (30.0, DPSResult(100.0, 100.0, 3)),  # faster than the fastest reference
        # slightly above the fastest reference falls to cluster 2: DPS 60, norm 100 * 3/4 = 75
        (50.001, DPSResult(60.0, 75.0, 2)),
        (100.0, DPSResult(60.0, 75.0, 2)),  # exactly cluster 2's reference
        (150.0, DPSResult(50.0, 50.0, 1)),  # cluster 1: norm 100 * 2/4
        (400.0, DPSResult(20.0, 25.0, 0)),  # exactly the slowest reference: norm 100 * 1/4
        (400.5, DPSResult(0.0, 0.0, None)),  # slower than every reference
        (None, DPSResult(0.0, 0.0, None)),  # failed profile
    ],
)
def test_dps_four_clusters(cost, expected):
    result = dps(cost, COSTS, SCORES)
    assert result.cluster == expected.cluster
    assert result.dps == pytest.approx(expected.dps)
    assert result.dps_norm == pytest.approx(expected.dps_norm)


def test_dps_single_cluster_and_frozen():
    assert dps(5.0, [5.0], [100.0]) == DPSResult(100.0, 100.0, 0)
    assert dps(6.0, [5.0], [100.0]) == DPSResult(0.0, 0.0, None)
    with pytest.raises(AttributeError):
        dps(5.0, [5.0], [100.0]).dps = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("cost", "tolerance", "cluster"),
    [
        (54.0, 0.1, 3),  # 8% above the fastest reference: a match within 10%
        (55.0, 0.1, 3),  # exactly 10% above
        (55.1, 0.1, 2),  # past it: cluster 2 (reference 100)
        (54.0, 0.0, 2),  # EvalPerf's exact rule
        (109.0, 0.1, 2),
        (111.0, 0.1, 1),
    ],
)
def test_dps_tolerance(cost, tolerance, cluster):
    assert dps(cost, COSTS, SCORES, tolerance=tolerance).cluster == cluster
    assert matches(cost, 50.0, tolerance) is (cost <= 50.0 * (1 + tolerance))


@pytest.mark.parametrize("tolerance", [-0.01, 0.25, 1.0, math.nan])
def test_dps_tolerance_outside_the_gap_is_refused(tolerance):
    with pytest.raises(ValueError, match="below the clusters' gap"):
        dps(50.0, COSTS, SCORES, tolerance=tolerance)


def test_dps_equal_reference_costs_match_the_faster_cluster():
    # non-increasing allows a tie; the scan from the fastest end takes index 1
    assert dps(10.0, [10.0, 10.0], [40.0, 100.0]) == DPSResult(100.0, 100.0, 1)


@pytest.mark.parametrize(
    ("cost", "costs", "scores", "match"),
    [
        (1.0, [], [], "at least one cluster"),
        (1.0, [2.0, 1.0], [100.0], "differ in length"),
        (1.0, [1.0, 2.0], [50.0, 100.0], "slowest first"),
        (1.0, [2.0, 1.0], [60.0, 50.0], "non-decreasing"),
        (1.0, [2.0, 1.0], [50.0, 100.5], "outside \\[0, 100\\]"),
        (1.0, [2.0, 1.0], [-1.0, 100.0], "outside \\[0, 100\\]"),
        (1.0, [2.0, 1.0], [math.nan, 100.0], "outside \\[0, 100\\]"),
        (1.0, [2.0, -1.0], [50.0, 100.0], "reference cost #1 is negative"),
        (-1.0, [2.0, 1.0], [50.0, 100.0], "cost is negative"),
        (math.nan, [2.0, 1.0], [50.0, 100.0], "cost is NaN"),
        (None, [1.0, 2.0], [50.0, 100.0], "slowest first"),  # validated even when failed
    ],
)
def test_dps_validation(cost, costs, scores, match):
    with pytest.raises(ValueError, match=match):
        dps(cost, costs, scores)


def test_dps_task_score():
    assert dps_task_score([]) == 0.0
    assert dps_task_score([100.0, 50.0]) == pytest.approx(75.0)
    # only the first 10 correct samples count: ten 100s, then two 0s ignored
    assert dps_task_score([100.0] * 10 + [0.0, 0.0]) == pytest.approx(100.0)
    # limit 2: (10 + 20) / 2 = 15
    assert dps_task_score([10.0, 20.0, 90.0], limit=2) == pytest.approx(15.0)
    with pytest.raises(ValueError, match="limit must be >= 1"):
        dps_task_score([1.0], limit=0)


# --------------------------------------------------------------------------------------------
# summarize


def _s(task_id, difficulty, passed, runtime, refs):
    return SampleOutcome(task_id, difficulty, passed, runtime, refs)


E1_REFS = [10.0, 20.0, 30.0, None]
OUTCOMES = [
    # e1 (Easy), passing refs 10, 20, 30. n=3, c=2, pass@1 = 2/3.
    #   15 -> Beyond (30-15)/20 = 0.75, percentile beats 20, 30 -> 2/3 -> 66.667
    #   30 -> Beyond 0, percentile ties 30 -> 0.5/3 -> 16.667
    #   failed -> Beyond 0
    #   Beyond = 0.75/3 = 0.25; percentile = (200/3 + 50/3)/2 = 125/3
    _s("e1", "Easy", True, 15.0, E1_REFS),
    _s("e1", "Easy", True, 30.0, E1_REFS),
    _s("e1", "Easy", False, None, E1_REFS),
    # e2 (Easy), degenerate refs [5, 5]. n=2, c=2, pass@1 = 1.
    #   5 -> Beyond 1 (as fast), percentile two ties -> 50
    #   6 -> Beyond 0 (slower), percentile 0
    #   Beyond 0.5, percentile 25
    _s("e2", "Easy", True, 5.0, [5.0, 5.0]),
    _s("e2", "Easy", True, 6.0, [5.0, 5.0]),
    # h1 (Hard), refs 100, 200. n=2, c=1, pass@1 = 0.5.
    #   50 -> clipped to 100 -> Beyond 1, percentile 100; failed -> 0. Beyond 0.5, percentile 100
    _s("h1", "Hard", True, 50.0, [100.0, 200.0]),
    _s("h1", "Hard", False, 75.0, [100.0, 200.0]),  # failed: its runtime is disregarded
    # h2 (Hard), no passing reference -> unscorable. n=2, c=2, pass@1 = 1.
    _s("h2", "Hard", True, 10.0, [None, None]),
    _s("h2", "Hard", True, 12.0, [None, None]),
    # u1 (difficulty None -> "Unknown"), refs 1, 3. n=1, c=1, pass@1 = 1.
    #   2 -> Beyond (3-2)/2 = 0.5, percentile 50
    _s("u1", None, True, 2.0, [1.0, 3.0]),
]


def test_summarize_tasks():
    summary = summarize(OUTCOMES, k=1)
    tasks = {t.task_id: t for t in summary.tasks}
    assert [t.task_id for t in summary.tasks] == ["e1", "e2", "h1", "h2", "u1"]

    e1 = tasks["e1"]
    assert (e1.difficulty, e1.n, e1.c, e1.unscorable) == ("Easy", 3, 2, False)
    assert e1.pass_at_k == pytest.approx(2 / 3)
    assert e1.beyond == pytest.approx(0.25)
    assert e1.percentile == pytest.approx(125 / 3)

    e2 = tasks["e2"]
    assert (e2.n, e2.c, e2.unscorable) == (2, 2, False)
    assert e2.pass_at_k == pytest.approx(1.0)
    assert e2.beyond == pytest.approx(0.5)
    assert e2.percentile == pytest.approx(25.0)

    h1 = tasks["h1"]
    assert (h1.difficulty, h1.n, h1.c, h1.unscorable) == ("Hard", 2, 1, False)
    assert h1.pass_at_k == pytest.approx(0.5)
    assert h1.beyond == pytest.approx(0.5)
    assert h1.percentile == pytest.approx(100.0)

    h2 = tasks["h2"]
    assert (h2.n, h2.c, h2.unscorable) == (2, 2, True)
    assert h2.pass_at_k == pytest.approx(1.0)
    assert h2.beyond is None
    assert h2.percentile is None

    u1 = tasks["u1"]
    assert (u1.difficulty, u1.n, u1.c, u1.unscorable) == ("Unknown", 1, 1, False)
    assert u1.pass_at_k == pytest.approx(1.0)
    assert u1.beyond == pytest.approx(0.5)
    assert u1.percentile == pytest.approx(50.0)


def test_summarize_overall_and_by_difficulty():
    summary = summarize(OUTCOMES, k=1)
    # pass over all 5 tasks: (2/3 + 1 + 1/2 + 1 + 1) / 5 = (25/6) / 5 = 5/6
    assert summary.pass_at_k == pytest.approx(5 / 6)
    # Beyond over the 4 scorable tasks: (0.25 + 0.5 + 0.5 + 0.5) / 4 = 0.4375
    assert summary.beyond == pytest.approx(0.4375)
    # gap on the same scorable tasks: pass (2/3 + 1 + 1/2 + 1) / 4 = 19/24; 19/24 - 7/16 = 17/48
    # (taking pass over all tasks would give 5/6 - 7/16 = 19/48 instead)
    assert summary.gap == pytest.approx(17 / 48)
    assert (summary.n_tasks, summary.n_unscorable) == (5, 1)

    assert list(summary.by_difficulty) == ["Easy", "Hard", "Unknown"]
    easy = summary.by_difficulty["Easy"]
    # pass (2/3 + 1)/2 = 5/6; Beyond (0.25 + 0.5)/2 = 3/8; gap 5/6 - 3/8 = 11/24
    assert easy.pass_at_k == pytest.approx(5 / 6)
    assert easy.beyond == pytest.approx(0.375)
    assert easy.gap == pytest.approx(11 / 24)
    assert (easy.n_tasks, easy.n_unscorable) == (2, 0)

    hard = summary.by_difficulty["Hard"]
    # pass (1/2 + 1)/2 = 3/4; Beyond only h1 = 0.5; gap on h1 alone = 0.5 - 0.5 = 0
    assert hard.pass_at_k == pytest.approx(0.75)
    assert hard.beyond == pytest.approx(0.5)
    assert hard.gap == pytest.approx(0.0, abs=1e-12)
    assert (hard.n_tasks, hard.n_unscorable) == (2, 1)

    unknown = summary.by_difficulty["Unknown"]
    assert unknown.pass_at_k == pytest.approx(1.0)
    assert unknown.beyond == pytest.approx(0.5)
    assert unknown.gap == pytest.approx(0.5)
    assert (unknown.n_tasks, unknown.n_unscorable) == (1, 0)


def test_summarize_to_dict_is_json_able():
    data = summarize(OUTCOMES).to_dict()
    assert set(data) == {
        "pass_at_k",
        "beyond_at_k",
        "gap",
        "n_tasks",
        "n_unscorable",
        "by_difficulty",
        "tasks",
    }
    round_trip = json.loads(json.dumps(data))
    assert round_trip["beyond_at_k"] == pytest.approx(0.4375)
    assert round_trip["by_difficulty"]["Hard"]["n_unscorable"] == 1
    assert round_trip["by_difficulty"]["Easy"]["beyond_at_k"] == pytest.approx(0.375)
    assert [t["task_id"] for t in round_trip["tasks"]] == ["e1", "e2", "h1", "h2", "u1"]
    assert round_trip["tasks"][3]["unscorable"] is True
    assert round_trip["tasks"][3]["beyond"] is None


def test_summarize_pass_at_2():
    summary = summarize([o for o in OUTCOMES if o.task_id != "u1"], k=2)
    tasks = {t.task_id: t for t in summary.tasks}
    # e1: n=3, c=2, n-c=1 < 2 -> 1.0; h1: n=2, c=1, n-c=1 < 2 -> 1.0
    assert tasks["e1"].pass_at_k == 1.0
    assert tasks["h1"].pass_at_k == 1.0
    assert summary.pass_at_k == pytest.approx(1.0)
    # Beyond does not depend on k: (0.25 + 0.5 + 0.5) / 3
    assert summary.beyond == pytest.approx(1.25 / 3)


def test_summarize_all_unscorable():
    summary = summarize([_s("x", "Medium", False, None, [])])
    assert summary.pass_at_k == 0.0
    assert summary.beyond is None
    assert summary.gap is None
    assert (summary.n_tasks, summary.n_unscorable) == (1, 1)
    assert summary.by_difficulty["Medium"].beyond is None


def test_summarize_validation():
    with pytest.raises(ValueError, match="no outcomes"):
        summarize([])
    with pytest.raises(ValueError, match="k must be >= 1"):
        summarize(OUTCOMES, k=0)
    with pytest.raises(ValueError, match="k=2 exceeds"):
        summarize([_s("u1", None, True, 2.0, [1.0, 3.0])], k=2)
    with pytest.raises(ValueError, match="disagree on difficulty"):
        summarize([_s("t", "Easy", False, None, [1.0]), _s("t", "Hard", False, None, [1.0])])
    with pytest.raises(ValueError, match="passed sample has no runtime"):
        summarize([_s("t", "Easy", True, None, [1.0])])


def test_beyond_memory_is_beyond_on_peaks() -> None:
    from quicksilver.metrics import beyond_memory

    refs = [10 << 20, None, 110 << 20]  # bytes; None: a reference that failed
    assert beyond_memory(10 << 20, refs) == 1.0
    assert beyond_memory(60 << 20, refs) == 0.5
    assert beyond_memory(500 << 20, refs) == 0.0
    assert beyond_memory(None, refs) == 0.0  # a failed sample
    # a shift of every figure (a different baseline) changes nothing
    shifted = [r + (7 << 20) if r is not None else None for r in refs]
    assert beyond_memory((60 << 20) + (7 << 20), shifted) == 0.5


def test_nmu_is_effibench_ratio_and_refuses_zero() -> None:
    from quicksilver.metrics import nmu

    assert nmu(30.0, 15.0) == 2.0
    assert nmu(15.0, 30.0) == 0.5
    with pytest.raises(ValueError):
        nmu(10.0, 0.0)


def test_time_memory_integral_is_trapezoids_over_the_readings() -> None:
    from quicksilver.metrics import time_memory_integral

    # constant memory: memory x duration, whatever the number of readings
    assert time_memory_integral([0.0, 2.0], [10.0, 10.0]) == 20.0
    assert time_memory_integral([0.0, 0.5, 1.0, 2.0], [10.0] * 4) == 20.0
    # a ramp from 0 to 100 over 1 s, then held for 1 s: 50 + 100
    assert time_memory_integral([0.0, 1.0, 2.0], [0.0, 100.0, 100.0]) == 150.0
    # uneven intervals are weighted by their length
    assert time_memory_integral([0.0, 0.1, 1.0], [10.0, 30.0, 30.0]) == pytest.approx(2.0 + 27.0)
    # holding twice as long integrates to twice as much (the NTMU tests' premise)
    once = time_memory_integral([0.0, 1.0, 2.0], [100.0, 100.0, 10.0])
    twice = time_memory_integral([0.0, 1.0, 2.0, 3.0], [100.0, 100.0, 100.0, 10.0])
    assert twice - once == 100.0


def test_time_memory_integral_counts_a_peak_between_two_readings() -> None:
    from quicksilver.metrics import time_memory_integral

    clock, rss = [0.0, 1.0, 2.0], [10.0, 10.0, 10.0]
    assert time_memory_integral(clock, rss, [10.0, 10.0, 10.0]) == 20.0
    # the mark rose to 110 in the second interval, above both of its readings: that interval
    # is two trapezoids through the peak, (10 + 2 * 110 + 10) / 4
    assert time_memory_integral(clock, rss, [10.0, 10.0, 110.0]) == 10.0 + 60.0
    # a mark already reached earlier reveals nothing new about a later interval
    assert time_memory_integral(clock, rss, [110.0, 110.0, 110.0]) == 20.0
    # a mark reached at a reading (a rising allocation) is the trapezoid itself
    assert time_memory_integral(clock, [10.0, 10.0, 110.0], [10.0, 10.0, 110.0]) == 10.0 + 60.0


def test_time_memory_integral_validation() -> None:
    from quicksilver.metrics import time_memory_integral

    with pytest.raises(ValueError, match="at least two"):
        time_memory_integral([1.0], [1.0])
    with pytest.raises(ValueError, match="same length"):
        time_memory_integral([0.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="backwards"):
        time_memory_integral([0.0, 2.0, 1.0], [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="non-negative"):
        time_memory_integral([0.0, 1.0], [1.0, math.nan])


def test_ntmu_is_the_ratio_to_the_canonical_tmu() -> None:
    from quicksilver.metrics import ntmu

    assert ntmu(300.0, 100.0) == 3.0
    assert ntmu(50.0, 100.0) == 0.5
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="NTMU"):
            ntmu(bad, 100.0)
        with pytest.raises(ValueError, match="NTMU"):
            ntmu(100.0, bad)
