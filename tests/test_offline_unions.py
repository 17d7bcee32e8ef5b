"""Value sets that are unions of listed values and ranges in the offline synthesizer (unions.py).

Statements we wrote in LeetCode's shapes: ``moves[i] is either -3, -1, or an integer in the
range [2, 8]``, a value set of the values in other words (``The values in bits are either 0's or
1's``), a value set of an integer scalar (``mode_i and mode are 0 or 1``). Each is read, drawn on
many seeds (random, perf and edge-case inputs) and asserted on with plain code, checked by the
independent checker, which reports an input that breaks it; what cannot be met is refused.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 80


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


def test_values_and_a_range() -> None:
    """Two listed values and a range: every value is in a part, each part occurs (the listed
    values are not lost among the range's), and a value of the gap is reported."""
    inp = question(
        [("moves", "integer[]")],
        [
            "1 <= moves.length <= 10^4",
            "moves[i] is either -3, -1, or an integer in the range [2, 8].",
        ],
    )
    spec = spec_of(inp)
    leaf = spec["params"][0]["leaf"]
    assert leaf["union"] == [[-3, -3], [-1, -1], [2, 8]]
    assert leaf["lo"] == [-3] and leaf["hi"] == [8] and leaf["ne"] == [-2, 0, 1]
    seen: Counter[int] = Counter()
    for (moves,) in draws(spec):
        assert all(v in (-3, -1) or 2 <= v <= 8 for v in moves), moves
        seen.update(moves)
    assert seen[-3] and seen[-1] and sum(seen[v] for v in range(2, 9))
    assert seen[-3] > sum(seen.values()) / 6  # a part is drawn first, each as likely
    reports(spec, [[2, 0, -1]], "moves", "excluded")
    bad = copy.deepcopy(spec)
    bad["params"][0]["leaf"].pop("ne")  # the union alone still catches the gap
    reports(bad, [[2, 1, -1]], "moves", "none of the parts")
    assert check_input(spec, [[-3, -1, 2, 8]]) == []


def test_phrasings_of_a_union() -> None:
    """``nums[i] is -1 or an integer from 1 to 100`` (ranges first or last, overlapping
    parts joined), in a grid and in one field of rows."""
    for item, parts in (
        ("nums[i] is -1 or an integer from 1 to 100.", [[-1, -1], [1, 100]]),
        ("nums[i] is either 0 or in the range [2, 10^4].", [[0, 0], [2, 10000]]),
        ("nums[i] is an integer in the range [5, 9], 1, or 3.", [[1, 1], [3, 3], [5, 9]]),
        ("nums[i] is either 0, 1 or in the range [1, 5].", [[0, 5]]),
    ):
        spec = spec_of(question([("nums", "integer[]")], ["1 <= nums.length <= 50", item]))
        leaf = spec["params"][0]["leaf"]
        assert leaf.get("union", [[leaf["lo"][0], leaf["hi"][0]]]) == parts, (item, leaf)
        for (nums,) in draws(spec, 30):
            assert all(any(a <= v <= b for a, b in parts) for v in nums), (item, nums)
    grid = question(
        [("grid", "integer[][]")],
        [
            "1 <= grid.length, grid[i].length <= 20",
            "grid[i][j] is either -1 or in the range [1, 50].",
        ],
    )
    for (rows,) in draws(spec_of(grid), 30):
        assert all(v == -1 or 1 <= v <= 50 for row in rows for v in row), rows
    rows_q = question(
        [("items", "integer[][]")],
        [
            "1 <= items.length <= 30",
            "items[i].length == 2",
            "0 <= id_i <= 100",
            "kind_i is either -2 or an integer in the range [1, 4].",
        ],
        "items[i] = [id_i, kind_i].",
    )
    spec = spec_of(rows_q)
    assert spec["params"][0]["cols"][1]["union"] == [[-2, -2], [1, 4]]
    kinds: Counter[int] = Counter()
    for (items,) in draws(spec, 30):
        assert all(r[1] == -2 or 1 <= r[1] <= 4 for r in items), items
        kinds.update(r[1] for r in items)
    assert kinds[-2] and sum(kinds.values()) > kinds[-2]
    reports(spec, [[[3, 0]]], "items", "excluded")


def test_a_narrower_bound_clips_the_parts() -> None:
    """Another bound on the same values narrows the parts, an excluded value splits its part:
    no value drawn breaks either."""
    spec = spec_of(
        question(
            [("nums", "integer[]")],
            [
                "1 <= nums.length <= 50",
                "nums[i] is either -5, -1, or an integer in the range [1, 1000].",
                "nums[i] <= 20",
                "nums[i] != 7",
            ],
        )
    )
    assert spec["params"][0]["leaf"]["union"] == [[-5, -5], [-1, -1], [1, 6], [8, 20]]
    for (nums,) in draws(spec, 30):
        assert all(v in (-5, -1) or (1 <= v <= 20 and v != 7) for v in nums), nums


def test_values_in_other_words() -> None:
    """``The values in bits are either 0's or 1's``, ``All elements of nums are 1, 2 or 3``:
    a value set."""
    spec = spec_of(
        question(
            [("bits", "integer[]")],
            ["1 <= bits.length <= 100", "The values in bits are either 0's or 1's"],
        )
    )
    assert spec["params"][0]["leaf"] == {"type": "int", "set": [0, 1]}
    for (bits,) in draws(spec, 20):
        assert set(bits) <= {0, 1}
    spec = spec_of(
        question(
            [("nums", "integer[]")],
            ["1 <= nums.length <= 100", "All elements of nums are 1, 2 or 3."],
        )
    )
    assert spec["params"][0]["leaf"] == {"type": "int", "set": [1, 2, 3]}
    reports(spec, [[1, 4]], "nums", "not one of")


def test_a_scalar_value_set() -> None:
    """``mode_i and mode are 0 or 1``: the field a value set, the scalar a range; ``level is
    1, 2, or 4``: a range with 3 excluded."""
    inp = question(
        [("rows", "integer[][]"), ("mode", "integer"), ("level", "integer")],
        [
            "1 <= rows.length <= 20",
            "rows[i].length == 2",
            "1 <= id_i <= 100",
            "mode_i and mode are 0 or 1.",
            "level is 1, 2, or 4.",
        ],
        "rows[i] = [id_i, mode_i].",
    )
    spec = spec_of(inp)
    levels = set()
    modes = set()
    for rows, mode, level in draws(spec, 60):
        assert mode in (0, 1) and level in (1, 2, 4), (mode, level)
        assert all(r[1] in (0, 1) for r in rows), rows
        levels.add(level)
        modes.add(mode)
    assert levels == {1, 2, 4} and modes == {0, 1}
    reports(spec, [[[5, 1]], 2, 1], "mode")
    reports(spec, [[[5, 1]], 1, 3], "level")


def test_refused_unions() -> None:
    """What cannot be met exactly is reported, quoting the line."""
    cases = (
        ("board[i][j] is either -1 or in the range [1, n^2].", "not constants"),
        ("board[i][j] is either -100 or in the range [1, 9].", "gaps"),
        ("k is either -1 or an integer in the range [1, 9].", "for the scalar k"),
    )
    for item, why in cases:
        inp = question(
            [("board", "integer[][]"), ("k", "integer")],
            ["n == board.length == board[i].length", "2 <= n <= 20", "1 <= k <= 9", item],
        )
        problems = refused(inp)
        assert item in problems and why in problems, problems
    tokens = question(
        [("tokens", "string[]")],
        [
            "1 <= tokens.length <= 100",
            'tokens[i] is either an operator: "+", "-", "*", or "/", or an integer in the range '
            "[-200, 200].",
        ],
    )
    assert "a valid expression" in refused(tokens)
    digits = question(
        [("tokens", "string[]")],
        [
            "1 <= tokens.length <= 100",
            'tokens[i] is either "null" or an integer in the range [0, 10^4].',
        ],
    )
    assert "more than 2000 integers" in refused(digits)


def test_words_and_integer_text() -> None:
    """``tokens[i] is either "null", "#" or an integer in the range [-5, 300]``: each string a
    listed word or the decimal text of an integer of the range, every part drawn; a string of
    neither is reported."""
    inp = question(
        [("tokens", "string[]")],
        [
            "1 <= tokens.length <= 50",
            'tokens[i] is either "null", "#" or an integer in the range [-5, 300].',
        ],
    )
    spec = spec_of(inp)
    leaf = spec["params"][0]["leaf"]
    assert leaf["type"] == "word" and leaf["union"] == [["null"], ["#"], [-5, 300]]
    assert len(leaf["set"]) == 2 + 306
    seen: Counter[str] = Counter()
    for (tokens,) in draws(spec):
        for t in tokens:
            assert t in ("null", "#") or (str(int(t)) == t and -5 <= int(t) <= 300), tokens
        seen.update("int" if t not in ("null", "#") else t for t in tokens)
    assert seen["null"] and seen["#"] and seen["int"]
    reports(spec, [["null", "301"]], "tokens", "not one of the words")
    reports(spec, [["007"]], "tokens", "not one of the words")
