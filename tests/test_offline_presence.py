"""A value that must be present in a list, grid or tree, and one stated position, in the offline
synthesizer (``presence.py``, ``runtime_presence.py``, ``checker_presence.py``).

Statements we wrote in LeetCode's shapes: at least k items with a property (compared with a
scalar, a sign, a noun the description defines), in the whole list or in each row or column;
not all items equal; scalars that are values of the tree's nodes; one cell addressed by
constants, by the fields of a list, or by a list of two indices, with a value set, a comparison
or a defined noun. Each is read, drawn on many seeds (random, perf and edge-case inputs) and
asserted on here with plain code, checked by the independent checker, and the checker reports an
input that breaks it; what cannot be met exactly is refused.
"""

from __future__ import annotations

import copy
from typing import Any

from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 60


def draws(spec: dict[str, Any]) -> list[list[Any]]:
    return synthkit.draws(spec, SEEDS, small_cap=8)


# -- at least k items with a property ------------------------------------------------------------

SCORES = ["1 <= scores.length <= 40", "1 <= scores[i] <= 500", "1 <= bar <= 500"]
SCORES_PARAMS = [("scores", "integer[]"), ("bar", "integer")]


def test_an_item_compared_with_a_scalar() -> None:
    """``there is at least one index i such that scores[i] >= bar``: an item at random set to a
    value of [bar, 500] where none is; the checker reports a list with none."""
    line = "The test cases are generated so that there is at least one index i such that "
    spec = spec_of(question(SCORES_PARAMS, [*SCORES, line + "scores[i] >= bar."]))
    assert spec["presence"] == [["count", 0, [">=", {"arg": 1}], 1, None]]
    for scores, bar in draws(spec):
        assert any(x >= bar for x in scores), (scores, bar)
    reports(spec, [[1, 2], 3], "scores", "not at least 1")
    # > bar with bar up to 500, the greatest score: no score may exceed it
    why = refused(question(SCORES_PARAMS, [*SCORES, line + "scores[i] > bar."]))
    assert "leaves scores no value" in why


ROCKS_PROSE = (
    "You are given a square field of size n x n where field[r][c] tells what is in a cell:\n"
    "<ul><li>A cell holding a rock if field[r][c] = 2</li>\n"
    "<li>A free cell if field[r][c] = 0</li></ul>"
)
ROCKS = ["1 <= field.length == n <= 20", "field[i].length == n", "field[i][j] is either 0 or 2"]


def test_a_noun_the_description_defines() -> None:
    """``There is at least one rock in the field``: the description says a rock is 2."""
    inp = question(
        [("field", "integer[][]")],
        [*ROCKS, "There is at least one rock in the field."],
        ROCKS_PROSE,
    )
    spec = spec_of(inp)
    assert spec["presence"] == [["count", 0, ["in", [2]], 1, None]]
    for (field,) in draws(spec):
        assert any(2 in row for row in field), field
    reports(spec, [[[0, 0], [0, 0]]], "field", "not at least 1")


def test_a_cell_defined_by_an_if_sentence() -> None:
    """``If land[i][j] == 1, cell (i, j) is a forest cell`` defines the noun of ``There are at
    least two forest cells``."""
    prose = (
        "A map land of size m x n.\n<ul><li>If land[i][j] == 0, cell (i, j) is a meadow.</li>\n"
        "<li>If land[i][j] == 1, cell (i, j) is a forest cell.</li></ul>"
    )
    items = ["m == land.length", "n == land[i].length", "2 <= m, n <= 9", "land[i][j] is 0 or 1"]
    spec = spec_of(
        question([("land", "integer[][]")], [*items, "There are at least two forest cells."], prose)
    )
    assert spec["presence"] == [["count", 0, ["in", [1]], 2, None]]
    for (land,) in draws(spec):
        assert sum(row.count(1) for row in land) >= 2, land


def test_unknown_or_unmet_nouns_are_refused() -> None:
    """A noun no definition names is not read (reported as before); a grid that may hold one
    cell cannot hold two forest cells."""
    items = [*ROCKS, "There is at least one tree in the field."]
    assert "not understood" in refused(question([("field", "integer[][]")], items, ROCKS_PROSE))
    prose = "A field where 1 represents a pond."
    items = ["1 <= nums.length <= 9", "nums[i] is 0 or 1", "There are at least two ponds in nums."]
    assert "fewer than 2 items" in refused(question([("nums", "integer[]")], items, prose))


def test_a_sign_in_each_column() -> None:
    """``Each column contains at least one positive integer``: each column gets one where it has
    none; the checker reports the column."""
    items = [
        "m == mat.length",
        "n == mat[i].length",
        "1 <= m, n <= 12",
        "-20 <= mat[i][j] <= 3",
        "Each column contains at least one positive integer.",
    ]
    spec = spec_of(question([("mat", "integer[][]")], items))
    assert spec["presence"] == [["count", 0, [">", 0], 1, None, "col"]]
    for (mat,) in draws(spec):
        for j in range(len(mat[0])):
            assert any(row[j] > 0 for row in mat), mat
    reports(spec, [[[1, -1], [2, 0]]], "mat: col 1 has 0 items")


def test_not_all_items_equal() -> None:
    """``At least two cars have different speeds``: the one list of integers, one item changed
    where all are equal."""
    items = ["2 <= speeds.length <= 30", "0 <= speeds[i] <= 3"]
    line = "Test data are generated such that at least two cars have different speeds."
    spec = spec_of(question([("speeds", "integer[]")], [*items, line]))
    assert spec["presence"] == [["kinds", 0, 2]]
    for (speeds,) in draws(spec):
        assert len(set(speeds)) >= 2, speeds
    reports(spec, [[3, 3, 3]], "fewer than 2 different values")
    items = ["1 <= speeds.length <= 30", "0 <= speeds[i] <= 3", line]
    assert "fewer than two items" in refused(question([("speeds", "integer[]")], items))


def test_a_sorted_list_is_refused() -> None:
    """Setting an item would break the stated order: reported."""
    items = [*SCORES, "scores is sorted in non-decreasing order."]
    items.append("There is at least one index i such that scores[i] >= bar.")
    assert "other rules on its values" in refused(question(SCORES_PARAMS, items))


# -- scalars that are values of the tree's nodes -------------------------------------------------

TREE = ["The number of nodes in the tree is in the range [2, 60].", "1 <= Node.val <= 80"]
TREE_PARAMS = [("root", "TreeNode"), ("u", "integer"), ("v", "integer")]


def test_scalars_are_values_of_distinct_nodes() -> None:
    """``u and v are present in the tree`` with ``u != v``: two distinct nodes' values; with no
    range of their own they take the tree's."""
    items = [*TREE, "All Node.val are unique.", "u != v", "u and v are present in the tree."]
    spec = spec_of(question(TREE_PARAMS, items))
    assert spec["presence"] == [["node", 0, [1, 2]]]
    for root, u, v in draws(spec):
        values = [x for x in root if x is not None]
        assert u in values and v in values and u != v, (root, u, v)
    reports(spec, [[1, 2], 1, 3], "v = 3 is the value of no node")
    one = [("root", "TreeNode"), ("start", "integer")]
    line = "A node with the value start exists in the tree."
    spec = spec_of(question(one, [*TREE, line]))
    assert spec["presence"] == [["node", 0, [1]]]
    for root, start in draws(spec):
        assert start in root, (root, start)


def test_distinct_scalars_in_a_tree_that_may_repeat_are_refused() -> None:
    items = [*TREE, "u != v", "u and v are present in the tree."]
    assert "may repeat" in refused(question(TREE_PARAMS, items))


# -- one position --------------------------------------------------------------------------------

BOARD = [
    "m == board.length",
    "n == board[i].length",
    "1 <= m, n <= 10",
    "board[i][j] is either 'X', 'O', 'S', or '.'.",
    "spot.length == 2",
    "0 <= spot_r < m",
    "0 <= spot_c < n",
]
BOARD_PROSE = "You are given a board and an array spot where spot = [spot_r, spot_c] is a square."
BOARD_PARAMS = [("board", "character[][]"), ("spot", "integer[]")]


def test_a_cell_addressed_by_fields() -> None:
    """``board[spot_r][spot_c] is either 'O' or 'S'``: the addressed cell set last."""
    line = "board[spot_r][spot_c] is either 'O' or 'S'."
    spec = spec_of(question(BOARD_PARAMS, [*BOARD, line], BOARD_PROSE))
    assert spec["presence"] == [["at", 0, [["item", 1, 0], ["item", 1, 1]], ["in", ["O", "S"]]]]
    for board, (r, c) in draws(spec):
        assert board[r][c] in "OS", (board, r, c)
    reports(spec, [[["X", "O"]], [0, 0]], "board[0][0] = 'X'")


def test_a_list_of_two_indices_is_a_defined_cell() -> None:
    """``spot will always be an open square``, the description saying ``open squares
    (represented as '.')``; ``board[0][0] is not a wall`` (``walls (represented as 'X')``)."""
    prose = (
        BOARD_PROSE + " It has open squares (represented as '.') and walls (represented as 'X')."
    )
    spec = spec_of(question(BOARD_PARAMS, [*BOARD, "spot will always be an open square."], prose))
    assert spec["presence"] == [["at", 0, [["item", 1, 0], ["item", 1, 1]], ["in", ["."]]]]
    for board, (r, c) in draws(spec):
        assert board[r][c] == ".", (board, r, c)
    spec = spec_of(question(BOARD_PARAMS, [*BOARD, "board[0][0] is not a wall."], prose))
    assert spec["presence"] == [["at", 0, [["i", 0], ["i", 0]], ["not", ["X"]]]]
    for board, _spot in draws(spec):
        assert board[0][0] != "X", board
    bad = copy.deepcopy([[["X", "."]], [0, 1]])
    reports(spec, bad, "board[0][0] = 'X'")


def test_a_cell_compared_with_a_constant() -> None:
    """``grid[row][col] >= 1`` with ``start = [row, col]`` in the description."""
    items = [
        "m == grid.length",
        "n == grid[i].length",
        "1 <= m, n <= 10",
        "0 <= grid[i][j] <= 9",
        "start.length == 2",
        "0 <= row < m",
        "0 <= col < n",
        "grid[row][col] >= 1",
    ]
    prose = "You are given grid and start, where start = [row, col]."
    spec = spec_of(question([("grid", "integer[][]"), ("start", "integer[]")], items, prose))
    assert spec["presence"] == [["at", 0, [["item", 1, 0], ["item", 1, 1]], [">=", 1]]]
    for grid, (r, c) in draws(spec):
        assert grid[r][c] >= 1, (grid, r, c)
    reports(spec, [[[0, 5]], [0, 0]], "grid[0][0] = 0")


def test_no_presence_key_without_such_a_line() -> None:
    """The key is optional: a statement without these lines has none."""
    assert "presence" not in spec_of(question(SCORES_PARAMS, SCORES))


# -- a string kept out of a list of strings, a string two lists share -----------------------------

CODES = [
    "1 <= banned.length <= 300",
    "banned[i].length == 5",
    "code.length == 5",
    "code and banned[i] consist of lowercase English letters.",
]
CODES_PARAMS = [("banned", "string[]"), ("code", "string")]


def test_a_string_kept_out_of_a_list_of_strings() -> None:
    """``code will never be in the list banned``: the string drawn again, its length kept."""
    spec = spec_of(question(CODES_PARAMS, [*CODES, "code will never be in the list banned."]))
    assert spec["presence"] == [["absent", 1, 0]]
    for banned, code in draws(spec):
        assert code not in banned and len(code) == 5, (banned, code)
    reports(spec, [["abcde", "fghij"], "fghij"], "code = 'fghij' is in banned")
    # two letters of length 1 to 3: too few other strings to be sure of room
    items = ["1 <= banned.length <= 300", "1 <= code.length <= 3"]
    items += ["code and banned[i] consist of only 'a' and 'b'.", "code is not in banned."]
    assert "too few other values" in refused(question(CODES_PARAMS, items))


def test_a_string_two_lists_share() -> None:
    """``There is at least one common word between menu1 and menu2``: where none is shared,
    one item of the second becomes one of the first (distinct strings stay distinct)."""
    items = [
        "1 <= menu1.length, menu2.length <= 50",
        "1 <= menu1[i].length, menu2[i].length <= 3",
        "menu1[i] and menu2[i] consist of lowercase English letters.",
        "All the strings of menu2 are unique.",
        "There is at least one common word between menu1 and menu2.",
    ]
    spec = spec_of(question([("menu1", "string[]"), ("menu2", "string[]")], items))
    assert spec["presence"] == [["common", 1, 0]]
    for menu1, menu2 in draws(spec):
        assert set(menu1) & set(menu2) and len(set(menu2)) == len(menu2), (menu1, menu2)
    reports(spec, [["ab"], ["cd"]], "no item in common")
