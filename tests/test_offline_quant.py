"""Bounds for a range of indexes and trees given by their parents, in the offline synthesizer
(``quantified.py``, ``runtime_quant.py``, ``checker_quant.py``).

Statements we wrote in LeetCode's shapes: a chain over a list's items quantified from an index on
(``... for all i >= 1``, ``... for i != 0``, ``... for 1 <= i < n``, ``... where i lies in the
range [1, n - 1]``) with the items before fixed by another line, and a list of parents that is a
tree (``... represents a valid tree``, ``... a valid binary tree``, ``Every room is reachable
from room 0``). Each is read, drawn on many seeds (random, perf and edge-case inputs) and
asserted on here with plain code, checked by the independent checker, and the checker reports
an input that breaks it; what cannot be met exactly is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.synth.offline import sample_spec
from quicksilver.synth.offline.runtime_perf import _perf_variants
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 80


def draws(spec: dict[str, Any]) -> list[list[Any]]:
    return synthkit.draws(spec, SEEDS, small_cap=8)


def _depth_of(parents: list[int]) -> int:
    """The deepest node's depth (the root: 0), walking each node up to the root."""
    deepest = 0
    for v in range(len(parents)):
        d = 0
        while v != 0:
            v = parents[v]
            d += 1
            assert d <= len(parents), parents  # a cycle would never end
        deepest = max(deepest, d)
    return deepest


# -- a bound for a range of indexes ---------------------------------------------------------------


@pytest.mark.parametrize(
    "quantified",
    [
        "1 <= wait[i] <= 10^5 for 1 <= i < n",
        "1 <= wait[i] <= 10^5 for all i >= 1",
        "1 <= wait[i] <= 10^5 for i != 0",
        "1 <= wait[i] <= 10^5 for i > 0",
        "1 <= wait[i] <= 10^5 where i lies in the range [1, n - 1]",
        "1 <= wait[i] <= 10^5 for all 1 <= i <= n - 1 (0-indexed)",
    ],
)
def test_bound_from_an_index(quantified: str) -> None:
    """The range holds from index 1 on; item 0 is the fixed value another line states, outside
    the range (which the pin check refused before)."""
    inp = question(
        [("wait", "integer[]")], ["n == wait.length", "2 <= n <= 10^5", "wait[0] == 0", quantified]
    )
    spec = spec_of(inp)
    assert spec["params"][0]["head"] == 1
    for (wait,) in draws(spec):
        assert wait[0] == 0 and all(1 <= x <= 10**5 for x in wait[1:]), wait
    reports(spec, [[0, 0, 5]], "wait[1] = 0", "outside")
    reports(spec, [[7, 3, 5]], "wait[0] = 7", "not 0")


def test_bound_for_every_index_keeps_the_spec() -> None:
    """A quantifier over every index (``for 0 <= i < n``) is the plain range: no ``head``."""
    plain = spec_of(
        question([("a", "integer[]")], ["n == a.length", "1 <= n <= 50", "0 <= a[i] <= 9"])
    )
    quant = spec_of(
        question(
            [("a", "integer[]")], ["n == a.length", "1 <= n <= 50", "0 <= a[i] <= 9 for 0 <= i < n"]
        )
    )
    assert quant == plain
    assert [sample_spec(quant, s) for s in range(5)] == [sample_spec(plain, s) for s in range(5)]


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["1 <= wait[i] <= 10^5 for 1 <= i < n"], "no stated value for wait[0]"),
        (["wait[0] == 0", "1 <= wait[i] <= 10^5 for 1 <= i < n - 1"], "do not reach"),
        (["wait[0] == 0", "1 <= wait[i] <= 10^5 for i != 3"], "every index but one"),
        (
            [
                "wait[0] == 0",
                "1 <= wait[i] <= 10^5 for i >= 1",
                "wait is sorted in ascending order",
            ],
            "other rules",
        ),
        (["wait[0] == 0", "wait[i] < wait[i + 1] for all i >= 1"], "some indexes only"),
        (["wait[0] == 0", "wait[i] < wait[i - 1] for all i >= 1"], "not a bound on one list"),
    ],
)
def test_bound_from_an_index_refused(items: list[str], why: str) -> None:
    """What cannot be met exactly is refused: an item before the range that no line fixes, a
    range of indexes that stops before the end or skips one inside, other rules on the list, a
    relation between items."""
    inp = question([("wait", "integer[]")], ["n == wait.length", "2 <= n <= 10^5", *items])
    assert why in refused(inp)


# -- a tree given by its parents ------------------------------------------------------------------

PARENT = [
    "n == parent.length == s.length",
    "1 <= n <= 10^5",
    "0 <= parent[i] <= n - 1 for all i >= 1",
    "parent[0] == -1",
]


def test_parent_tree() -> None:
    """``parent represents a valid tree``: every node leads up to the root 0, the labels are
    random (a parent may come after its child), and paths appear among the draws."""
    inp = question(
        [("parent", "integer[]"), ("s", "string")],
        [*PARENT, "parent represents a valid tree.", "s consists of lowercase English letters."],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["parent_tree"] == {"binary": False}
    depths, later = [], 0
    for parent, s in draws(spec):
        assert parent[0] == -1 and len(s) == len(parent)
        assert all(0 <= x < len(parent) for x in parent[1:]), parent
        depths.append((_depth_of(parent), len(parent)))
        later += any(parent[i] > i for i in range(1, len(parent)))
    assert later > 0
    assert any(d == n - 1 and n > 3 for d, n in depths)  # a path
    assert any(d < n - 1 for d, n in depths)
    reports(spec, [[-1, 2, 1], "abc"], "does not lead up to the root")
    reports(spec, [[-1, 0, 3], "abc"], "parent[2] = 3")
    reports(spec, [[0, 0, 0], "abc"], "parent[0] = 0", "not -1")


def test_parent_tree_perf_path() -> None:
    """The worst-case search may ask for a path: the deepest tree."""
    inp = question(
        [("parent", "integer[]"), ("s", "string")],
        [*PARENT, "parent represents a valid tree.", "s consists of digits."],
    )
    spec = spec_of(inp)
    pattern = next(v for v in _perf_variants(spec) if v["label"] == "parent:path")
    parent, _s = sample_spec(spec, 1, 200, mode="max", pattern=pattern)
    assert len(parent) == 200 and _depth_of(parent) == 199


def test_parent_binary_tree_and_reachable_rooms() -> None:
    """``parents represents a valid binary tree``: no node has more than two children;
    ``Every room is reachable from room 0 once all the rooms are built`` of the one list of
    integers: its parents are a tree."""
    inp = question(
        [("parents", "integer[]")],
        [
            "n == parents.length",
            "2 <= n <= 10^5",
            "parents[0] == -1",
            "0 <= parents[i] <= n - 1 for i != 0",
            "parents represents a valid binary tree.",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["parent_tree"] == {"binary": True}
    for (parents,) in draws(spec):
        _depth_of(parents)
        kids = [parents[1:].count(v) for v in range(len(parents))]
        assert max(kids) <= 2, parents
    reports(spec, [[-1, 0, 0, 0]], "node 0 has 3 children")
    rooms = question(
        [("prevRoom", "integer[]")],
        [
            "n == prevRoom.length",
            "2 <= n <= 10^5",
            "prevRoom[0] == -1",
            "0 <= prevRoom[i] < n for all 1 <= i < n",
            "Every room is reachable from room 0 once all the rooms are built.",
        ],
    )
    spec = spec_of(rooms)
    assert spec["params"][0]["parent_tree"] == {"binary": False}
    for (prev,) in draws(spec):
        _depth_of(prev)
    reports(spec, [[-1, 2, 1]], "does not lead up to the root")


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["0 <= parent[i] <= n - 1 for all i >= 1"], "no stated value for parent[0]"),
        (["parent[0] == -1", "0 <= parent[i] <= n - 2 for all i >= 1"], "range is not 0 to"),
        (["parent[0] == -1", "1 <= parent[i] <= n - 1 for all i >= 1"], "range is not 0 to"),
        (
            [*PARENT[2:], "All the values of parent are unique"],
            "other rules",
        ),
    ],
)
def test_parent_tree_refused(items: list[str], why: str) -> None:
    """A root with no stated value, a range that is not every node, other rules on the list."""
    inp = question(
        [("parent", "integer[]")],
        ["n == parent.length", "1 <= n <= 10^5", *items, "parent represents a valid tree."],
    )
    assert why in refused(inp)


# -- two lists in one chain -----------------------------------------------------------------------

MEETINGS = [("eventTime", "integer"), ("startTime", "integer[]"), ("endTime", "integer[]")]
MEETING_ITEMS = [
    "1 <= eventTime <= 10^9",
    "n == startTime.length == endTime.length",
    "2 <= n <= 10^5",
    "0 <= startTime[i] < endTime[i] <= eventTime",
]


@pytest.mark.parametrize(
    ("quantified", "op"),
    [
        ("endTime[i] <= startTime[i + 1] where i lies in the range [0, n - 2]", "<="),
        ("endTime[i] < startTime[i + 1] for all 0 <= i < n - 1", "<"),
    ],
)
def test_two_lists_in_one_chain(quantified: str, op: str) -> None:
    """``startTime[i] < endTime[i]`` with ``endTime[i] <= startTime[i + 1]`` for every i but
    the last: the two lists interleaved are one chain, within [0, eventTime]; eventTime is at
    least the number of strict steps the chain takes (a bound the schedule keeps)."""
    spec = spec_of(question(MEETINGS, [*MEETING_ITEMS, quantified]))
    assert spec["params"][2]["chain"] == ["startTime", op]
    tight = 0
    for event, start, end in draws(spec):
        chain = [x for pair in zip(start, end, strict=True) for x in pair]
        assert chain[0] >= 0 and chain[-1] <= event, (event, chain)
        for j in range(len(chain) - 1):
            strict = j % 2 == 0 or op == "<"
            assert chain[j] < chain[j + 1] if strict else chain[j] <= chain[j + 1], chain
        tight += event < 3 * len(start)
    assert tight > 0  # small ranges too
    reports(spec, [10, [0, 2], [3, 4]], "endTime[0] = 3", "startTime[1] = 2")
    reports(spec, [10, [0, 5], [3, 4]], "startTime[1] = 5, endTime[1] = 4")


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (
            [
                *MEETING_ITEMS[:3],
                "0 <= startTime[i], endTime[i] <= eventTime",
                "endTime[i] <= startTime[i + 1] for 0 <= i < n - 1",
            ],
            "no order startTime[i] < endTime[i]",
        ),
        (
            [*MEETING_ITEMS, "endTime[i] <= startTime[i + 1] for 0 <= i < n - 2"],
            "not for every i but the last",
        ),
        (
            [
                *MEETING_ITEMS,
                "endTime[i] <= startTime[i + 1] for 0 <= i < n - 1",
                "startTime is sorted in ascending order",
            ],
            "other rules",
        ),
    ],
)
def test_two_lists_in_one_chain_refused(items: list[str], why: str) -> None:
    """No order within the pairs, a quantifier that stops early, other rules on a list."""
    assert why in refused(question(MEETINGS, items))
