"""Uniqueness across parameters in the offline synthesizer (issue 26, ``uniqueness.py``).

Statements we wrote in LeetCode's shapes: tuples of parallel lists (``No two cards have the
same rank and suit``), lists that share no item (``No word is present in both good and bad``),
items distinct over several lists (``All the values of recipes and supplies combined are
unique``, ``All the given positions are unique`` of rows and one row), one list's items (``There
are no repeated elements on moves``) and a permission (``There can be multiple ghosts in the
same location``). Each is read, drawn on many seeds (random, perf and edge-case inputs) and
asserted on here with plain code, checked by the independent checker, and the checker reports
an input that breaks it; what cannot be kept is refused.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 80


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


# -- tuples of parallel lists ----------------------------------------------------------------------

CARDS = [("ranks", "integer[]"), ("suits", "character[]")]


def cards(size: str, line: str = "No two cards have the same rank and suit.") -> list[str]:
    return [size, "1 <= ranks[i] <= 3", "'a' <= suits[i] <= 'c'", line]


def test_tuples_of_parallel_lists() -> None:
    """``No two cards have the same rank and suit``: ``rank`` and ``suit`` name the lists
    ``ranks`` and ``suits``; no two indexes hold the same pair, though each list repeats. The
    lists may be as long as the pairs there are (9 here): drawn so at the top."""
    spec = spec_of(question(CARDS, cards("1 <= ranks.length == suits.length <= 9")))
    assert [r["mode"] for r in spec["uniq"]] == ["tuples"]
    longest, repeats = 0, False
    for ranks, suits in draws(spec):
        pairs = list(zip(ranks, suits, strict=True))
        assert len(set(pairs)) == len(pairs), pairs
        assert all(1 <= r <= 3 for r in ranks) and set(suits) <= set("abc"), pairs
        longest = max(longest, len(pairs))
        repeats = repeats or len(set(ranks)) < len(ranks)
    assert longest == 9 and repeats
    bad = [[1, 2, 1], ["a", "b", "a"]]
    reports(spec, bad, "(1, 'a')", "ranks, suits", "two indexes")
    assert synthkit.check_input(spec, [[1, 2, 1], ["a", "b", "b"]]) == []


def test_tuples_refused_without_room_and_one_noun_is_distinct() -> None:
    """Ten cards of 9 possible pairs cannot all differ: refused. With one noun (``No two cards
    have the same rank``) the list's values are distinct, as ``distinct`` reads them."""
    why = refused(question(CARDS, cards("1 <= ranks.length == suits.length <= 10")))
    assert "up to 10 distinct tuples of 9 possible" in why
    one = question(
        CARDS, cards("1 <= ranks.length == suits.length <= 3", "No two cards have the same rank.")
    )
    spec = spec_of(one)
    assert spec["params"][0]["distinct"] == {"level": "value", "scope": "all"}
    assert "uniq" not in spec
    for ranks, _suits in draws(spec, 30):
        assert len(set(ranks)) == len(ranks)


# -- lists that share no item ------------------------------------------------------------------------

WORDS = [("good", "string[]"), ("bad", "string[]")]
WORD_LINES = [
    "1 <= good.length, bad.length <= 6",
    "1 <= good[i].length, bad[j].length <= 2",
    "good[i] and bad[j] consist of the characters 'x' and 'y'.",
]


def test_disjoint_lists_in_several_wordings() -> None:
    """``No word is present in both good and bad`` and its other wordings: no string in both
    lists (each may repeat its own). Six words each of the six strings 'x' .. 'yy' leave no
    room to spare: a word the first list holds is drawn again in the second."""
    for line in (
        "No word is present in both good and bad.",
        "good and bad have no common words.",
        "good and bad are disjoint.",
        "good[i] != bad[j]",
    ):
        why = refused(question(WORDS, [*WORD_LINES, line]))
        assert "up to 12 distinct items of 6 possible" in why, (line, why)
    lines = [WORD_LINES[0].replace("6", "3"), *WORD_LINES[1:]]
    spec = spec_of(question(WORDS, [*lines, "No word is present in both good and bad."]))
    assert spec["uniq"][0]["mode"] == "disjoint"
    repeats = False
    for good, bad in draws(spec):
        assert not set(good) & set(bad), (good, bad)
        assert all(len(w) <= 2 and set(w) <= set("xy") for w in good + bad)
        repeats = repeats or len(set(good)) < len(good)
    assert repeats  # each list keeps its own repeats
    reports(spec, [["x", "y"], ["yy", "y"]], "good and bad both hold 'y'")


# -- items distinct over several lists ---------------------------------------------------------------


def test_values_distinct_over_lists_combined() -> None:
    """``All the values of recipes and supplies combined are unique``: no string twice, in one
    list or over both; a third list (``ingredients``) is left as it is."""
    inp = question(
        [("recipes", "string[]"), ("ingredients", "string[][]"), ("supplies", "string[]")],
        [
            "n == recipes.length == ingredients.length",
            "1 <= n <= 4",
            "1 <= ingredients[i].length, supplies.length <= 4",
            "1 <= recipes[i].length, ingredients[i][j].length, supplies[k].length <= 3",
            "recipes[i], ingredients[i][j], and supplies[k] consist only of 'a' and 'b'.",
            "All the values of recipes and supplies combined are unique.",
        ],
    )
    spec = spec_of(inp)
    assert spec["uniq"][0]["mode"] == "whole" and spec["uniq"][0]["of"] == [0, 2]
    for recipes, _ingredients, supplies in draws(spec):
        assert len(set(recipes + supplies)) == len(recipes + supplies), (recipes, supplies)
    reports(spec, [["a"], [["a"]], ["b", "b"]], "'b' occurs twice over recipes, supplies")


POSITIONS_PROSE = "queens[i] = [xQueen_i, yQueen_i] is a queen; king = [xKing, yKing] is the king."


def test_given_positions_of_rows_and_one_row() -> None:
    """``All the given positions are unique`` with a list of rows and one row (``king``):
    no square twice, the king on none of the queens'. 63 queens and the king fill all 64
    squares of the board: the perf inputs draw them so."""
    inp = question(
        [("queens", "integer[][]"), ("king", "integer[]")],
        [
            "1 <= queens.length < 64",
            "queens[i].length == king.length == 2",
            "0 <= xQueen_i, yQueen_i, xKing, yKing < 8",
            "All the given positions are unique.",
        ],
        POSITIONS_PROSE,
    )
    spec = spec_of(inp)
    rule = spec["uniq"][0]
    assert rule["mode"] == "whole" and rule["items"] == ["row", "one_row"]
    full = False
    for queens, king in draws(spec):
        squares = [tuple(q) for q in queens] + [tuple(king)]
        assert len(set(squares)) == len(squares), (queens, king)
        assert all(0 <= x < 8 for sq in squares for x in sq)
        full = full or len(squares) == 64
    assert full
    reports(spec, [[[1, 2], [3, 4]], [3, 4]], "(3, 4) occurs twice over queens, king")
    reports(spec, [[[1, 2], [1, 2]], [3, 4]], "(1, 2) occurs twice")
    # 64 queens and a king cannot all differ
    lines = [
        "1 <= queens.length <= 64",
        "queens[i].length == king.length == 2",
        "0 <= xQueen_i, yQueen_i, xKing, yKing < 8",
        "All the given positions are unique.",
    ]
    why = refused(
        question([("queens", "integer[][]"), ("king", "integer[]")], lines, POSITIONS_PROSE)
    )
    assert "up to 65 distinct items of 64 possible" in why


def test_positions_in_two_lists_and_one_list() -> None:
    """``All the positions in guards and walls are unique`` (two lists of rows), ``There are no
    repeated elements on moves`` (one list)."""
    inp = question(
        [("guards", "integer[][]"), ("walls", "integer[][]")],
        [
            "1 <= guards.length, walls.length <= 4",
            "guards[i].length == walls[j].length == 2",
            "0 <= row_i, col_i, row_j, col_j < 3",
            "All the positions in guards and walls are unique.",
        ],
        "guards[i] = [row_i, col_i] and walls[j] = [row_j, col_j].",
    )
    spec = spec_of(inp)
    for guards, walls in draws(spec):
        cells = [tuple(c) for c in guards + walls]
        assert len(set(cells)) == len(cells), (guards, walls)
    reports(spec, [[[0, 0]], [[1, 1], [0, 0]]], "(0, 0) occurs twice over guards, walls")
    moves = question(
        [("moves", "integer[][]")],
        [
            "1 <= moves.length <= 9",
            "moves[i].length == 2",
            "0 <= row_i, col_i <= 2",
            "There are no repeated elements on moves.",
        ],
        "moves[i] = [row_i, col_i]",
    )
    spec = spec_of(moves)
    seen_full = False
    for (rows,) in draws(spec):
        assert len({tuple(r) for r in rows}) == len(rows), rows
        seen_full = seen_full or len(rows) == 9
    assert seen_full
    reports(spec, [[[0, 1], [0, 1]]], "(0, 1) occurs twice over moves")


# -- what is no rule, and what is refused ------------------------------------------------------------


def test_a_permission_states_nothing() -> None:
    """``There can be multiple ghosts in the same location``: rows may repeat; no rule."""
    inp = question(
        [("ghosts", "integer[][]")],
        [
            "1 <= ghosts.length <= 20",
            "ghosts[i].length == 2",
            "0 <= x_i, y_i <= 1",
            "There can be multiple ghosts in the same location.",
        ],
        "ghosts[i] = [x_i, y_i]",
    )
    spec = spec_of(inp)
    assert "uniq" not in spec and not spec["params"][0].get("unique_rows")
    assert any(len({tuple(r) for r in g}) < len(g) for (g,) in draws(spec, 20))


def test_restated_edges_and_refusals() -> None:
    """``All the pairs (u_i, v_i) are unique. (i.e., no multiple edges.)``: the unique rows by
    those fields, the parenthesis restating them. Refused: a sorted list whose items would be
    drawn again, a range that is not constant, strings of one shared length."""
    inp = question(
        [("times", "integer[][]"), ("n", "integer")],
        [
            "1 <= n <= 10",
            "1 <= times.length <= 20",
            "times[i].length == 3",
            "1 <= u_i, v_i <= n",
            "0 <= w_i <= 100",
            "All the pairs (u_i, v_i) are unique. (i.e., no multiple edges.)",
        ],
        "times[i] = [u_i, v_i, w_i]",
    )
    spec = spec_of(inp)
    assert spec["params"][0]["unique_key"] == [0, 1]
    for times, _n in draws(spec, 40):
        keys = [tuple(sorted(r[:2])) for r in times]
        assert len(set(keys)) == len(keys)
    base = ["1 <= a.length, b.length <= 5", "0 <= a[i], b[i] <= 100"]
    ints = [("a", "integer[]"), ("b", "integer[]")]
    why = refused(
        question(ints, [*base, "a is sorted in ascending order.", "a and b are disjoint."])
    )
    assert "a has other rules on its values (sorted)" in why
    why = refused(
        question(
            [*ints, ("n", "integer")],
            [
                "1 <= n <= 100",
                "1 <= a.length, b.length <= 5",
                "0 <= a[i], b[i] <= n",
                "a and b are disjoint.",
            ],
        )
    )
    assert "not constant" in why
    strings = [("s", "string[]"), ("t", "string[]")]
    same = [
        "1 <= s.length, t.length <= 5",
        "s[i].length == t[j].length == 3",
        "s[i] and t[j] consist of lowercase English letters.",
    ]
    why = refused(question(strings, [*same, "No string is present in both s and t."]))
    assert "shared or summed" in why


def test_items_of_each_kind_keep_their_domain() -> None:
    """Integer and character lists, disjoint and whole: items drawn again stay in the stated
    range, and every pair of lists is checked."""
    inp = question(
        [("a", "integer[]"), ("b", "integer[]"), ("c", "integer[]")],
        [
            "1 <= a.length, b.length, c.length <= 4",
            "-3 <= a[i], b[i], c[i] <= 8",
            "All the integers of a, b and c combined are distinct.",
        ],
    )
    spec = spec_of(inp)
    assert spec["uniq"][0]["of"] == [0, 1, 2]
    for a, b, c in draws(spec):
        assert len(set(a + b + c)) == len(a + b + c) and all(-3 <= x <= 8 for x in a + b + c)
    bad = [[1], [2], [1]]
    reports(spec, bad, "1 occurs twice over a, b, c")
    for n, k in itertools.product((2, 3), (0, 1)):
        good = [[n], [k + 4], [7]]
        assert synthkit.check_input(spec, copy.deepcopy(good)) == []


PIECES_PROSE = (
    "(a, b) denotes the position of the white rook.\n"
    "(c, d) denotes the position of the white bishop.\n"
    "(e, f) denotes the position of the black queen."
)
PIECES = [(n, "integer") for n in "abcdef"]


def test_places_held_by_pairs_of_scalars() -> None:
    """``No two pieces are on the same square``, the description pairing the scalars that hold
    each place (``(a, b) denotes the position of the white rook``): no two pairs the same,
    though each scalar repeats. Refused: a scalar that another quantity names (drawing it again
    would change that one too), fewer places than pieces."""
    spec = spec_of(
        question(
            PIECES,
            ["1 <= a, b, c, d, e, f <= 2", "No two pieces are on the same square."],
            PIECES_PROSE,
        )
    )
    assert spec["uniq"][0]["mode"] == "groups" and spec["uniq"][0]["of"] == [[0, 1], [2, 3], [4, 5]]
    shared = question(
        PIECES, ["1 <= a, b, c, d, e, f <= 2", "No two pieces share the same square."], PIECES_PROSE
    )
    assert spec_of(shared)["uniq"][0]["of"] == [[0, 1], [2, 3], [4, 5]]
    for a, b, c, d, e, f in draws(spec):
        assert len({(a, b), (c, d), (e, f)}) == 3
        assert all(1 <= x <= 2 for x in (a, b, c, d, e, f))
    reports(spec, [1, 2, 1, 2, 2, 2], "the place (1, 2) is held twice", "(a, b) and (c, d)")
    why = refused(
        question(
            [*PIECES, ("nums", "integer[]")],
            [
                "1 <= a, b, c, d, e, f <= 2",
                "1 <= nums.length <= 5",
                "1 <= nums[i] <= a",
                "No two pieces are on the same square.",
            ],
            PIECES_PROSE,
        )
    )
    assert "another quantity names it" in why
    why = refused(
        question(
            PIECES,
            ["1 <= a, c, e <= 1", "1 <= b, d, f <= 2", "No two pieces are on the same square."],
            PIECES_PROSE,
        )
    )
    assert "3 places apart with room for fewer" in why
