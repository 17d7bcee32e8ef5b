"""Rules on neighbours and equal lengths in the offline synthesizer (issue 26,
quicksilver/synth/offline/neighbours.py).

Statements we wrote in LeetCode's shapes: the strings (or rows) of a list all of one length
(``All strings in words have the same length``), and a list of 0s and 1s with no two 1s side
by side (``There are no two adjacent flowers in flowerbed``). Each is read, drawn on many seeds
(random, perf and edge-case inputs) and asserted on here with plain code, checked by the
independent checker, and the checker reports an input that breaks it; what cannot be met is
refused.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from quicksilver.synth.offline import emit_generator, sample_spec
from quicksilver.synth.offline.checker import check_input
from quicksilver.synth.offline.runtime import perf_variants
from tests.synthkit import question, refused, spec_of

SEEDS = 120


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs, perf inputs (every variant), and the emitted generator's edge cases; each
    checked clean."""
    out = [sample_spec(spec, seed, 40) for seed in range(n)]
    out += [sample_spec(spec, seed, 100, mode="max") for seed in range(3)]
    for pattern in perf_variants(spec):
        out.append(sample_spec(spec, 1, 60, mode="max", pattern=pattern))
    ns: dict[str, Any] = {}
    # compiled apart from this module's ``from __future__ import annotations``, as a generator
    # file runs: an annotation the emitted runtime cannot evaluate fails here
    exec(compile(emit_generator(spec, 1000), "gen.py", "exec", dont_inherit=True), ns)
    random.seed(5)
    out += ns["generate_edge_cases"]()
    for args in out:
        assert check_input(spec, args) == [], args
    return out


# -- equal lengths ------------------------------------------------------------------------------

WORDS = [("words", "string[]"), ("target", "string")]
WORDS_ITEMS = [
    "1 <= words.length <= 100",
    "1 <= words[i].length <= 30",
    "1 <= target.length <= 50",
    "words[i] and target consist of lowercase English letters.",
]


@pytest.mark.parametrize(
    "sentence",
    [
        "All strings in words have the same length.",
        "All the strings are of the same length.",
        "All the strings of words are of the same length.",
        "All words[i] have the same length.",
        "It is guaranteed that all strings in words have equal length.",
    ],
)
def test_equal_lengths_are_read_and_drawn_once_for_every_string(sentence: str) -> None:
    spec = spec_of(question(WORDS, [*WORDS_ITEMS, sentence]))
    words = next(p for p in spec["params"] if p["name"] == "words")
    assert words["dims"][1] == {"q": "words[i].length"}  # one quantity, not a per-item range
    lengths = set()
    for words_arg, _ in draws(spec):
        assert len({len(w) for w in words_arg}) <= 1
        lengths |= {len(w) for w in words_arg}
    assert len(lengths) > 5  # the shared length still varies from input to input


@pytest.mark.parametrize(
    "prose",
    [
        "You are given a string target and an array of strings words. All the strings of words "
        "are of the same length.",
        "You are given an array of n strings words, all of the same length.",
    ],
)
def test_equal_lengths_said_only_in_the_description_are_read(prose: str) -> None:
    """Two public questions say it only in the description, and their strings' lengths were
    drawn apart (nearly every draw broke the statement); a sentence that defines something else
    with "of the same length" changes nothing."""
    spec = spec_of(question(WORDS, WORDS_ITEMS, prose))
    assert next(p for p in spec["params"] if p["name"] == "words")["dims"][1] == {
        "q": "words[i].length"
    }
    assert all(len({len(w) for w in words}) <= 1 for words, _ in draws(spec))
    other = "A string a is smaller than a string b (of the same length) if a comes first."
    assert spec_of(question(WORDS, WORDS_ITEMS, other)) == spec_of(question(WORDS, WORDS_ITEMS))


def test_without_the_sentence_the_lengths_are_drawn_per_string() -> None:
    """The control: the sentence is what makes them equal (so the test above can fail)."""
    spec = spec_of(question(WORDS, WORDS_ITEMS))
    words = next(p for p in spec["params"] if p["name"] == "words")
    assert "q" not in words["dims"][1]
    assert any(len({len(w) for w in a}) > 1 for a, _ in (sample_spec(spec, s) for s in range(20)))


def test_rows_of_one_length_and_the_checker_reports_unequal_ones() -> None:
    spec = spec_of(
        question(
            [("grid", "integer[][]")],
            [
                "1 <= grid.length <= 50",
                "1 <= grid[i].length <= 50",
                "0 <= grid[i][j] <= 9",
                "All rows of grid have the same length.",
            ],
        )
    )
    for (grid,) in draws(spec):
        assert len({len(row) for row in grid}) <= 1
    problems = check_input(spec, [[[1, 2], [3]]])
    assert any("grid[1].length" in p for p in problems), problems


def test_the_checker_reports_strings_of_two_lengths() -> None:
    spec = spec_of(question(WORDS, [*WORDS_ITEMS, "All strings in words have the same length."]))
    assert check_input(spec, [["ab", "cd"], "x"]) == []
    problems = check_input(spec, [["ab", "cde"], "x"])
    assert any("words[1].length" in p for p in problems), problems


def test_equal_lengths_that_cannot_be_met_are_refused() -> None:
    # a sum bound keeps the lengths per item
    why = refused(
        question(
            WORDS,
            [
                *WORDS_ITEMS,
                "The sum of words[i].length will not exceed 1000.",
                "All strings in words have the same length.",
            ],
        )
    )
    assert "equal lengths with a sum bound" in why
    # two lists of strings: which one?
    why = refused(
        question(
            [("a", "string[]"), ("b", "string[]")],
            [
                "1 <= a.length, b.length <= 10",
                "1 <= a[i].length, b[i].length <= 10",
                "a[i] and b[i] consist of lowercase English letters.",
                "All the strings are of the same length.",
            ],
        )
    )
    assert "not of one parameter" in why
    # a string is no list of strings
    why = refused(question(WORDS, [*WORDS_ITEMS, "All target have the same length."]))
    assert "equal lengths of the items of target" in why


# -- no two 1s side by side ---------------------------------------------------------------------

BED = [("flowerbed", "integer[]"), ("n", "integer")]
BED_ITEMS = [
    "1 <= flowerbed.length <= 2 * 10^4",
    "flowerbed[i] is 0 or 1.",
    "0 <= n <= flowerbed.length",
]


@pytest.mark.parametrize(
    "sentence",
    [
        "There are no two adjacent flowers in flowerbed.",
        "No two adjacent elements of flowerbed are both 1.",
        "flowerbed does not contain two consecutive 1's.",
    ],
)
def test_no_two_adjacent_ones_is_read_and_drawn(sentence: str) -> None:
    spec = spec_of(question(BED, [*BED_ITEMS, sentence]))
    bed = next(p for p in spec["params"] if p["name"] == "flowerbed")
    assert bed["no_adjacent"] == [1]
    ones = 0
    for flowerbed, _ in draws(spec):
        assert set(flowerbed) <= {0, 1}
        assert all(not (a == b == 1) for a, b in itertools.pairwise(flowerbed))
        ones += sum(flowerbed)
    assert ones > 0


def test_without_the_sentence_ones_sit_side_by_side() -> None:
    spec = spec_of(question(BED, BED_ITEMS))
    assert "no_adjacent" not in spec["params"][0]
    assert any(
        any(a == b == 1 for a, b in itertools.pairwise(bed))
        for bed, _ in (sample_spec(spec, s, 40) for s in range(20))
    )


def test_the_checker_reports_two_adjacent_ones() -> None:
    spec = spec_of(question(BED, [*BED_ITEMS, "There are no two adjacent flowers in flowerbed."]))
    assert check_input(spec, [[1, 0, 1, 0], 1]) == []
    problems = check_input(spec, [[1, 0, 1, 1], 1])
    assert any("flowerbed[2] and flowerbed[3] are both 1" in p for p in problems), problems


def test_no_two_adjacent_ones_that_cannot_be_met_are_refused() -> None:
    # values other than 0 and 1: turning a 1 into a 0 could leave the range
    why = refused(
        question(
            BED,
            [
                "1 <= flowerbed.length <= 100",
                "0 <= flowerbed[i] <= 5",
                "0 <= n <= flowerbed.length",
                "There are no two adjacent flowers in flowerbed.",
            ],
        )
    )
    assert "no two adjacent 1s" in why
    # another rule on the values
    why = refused(
        question(
            BED,
            [
                *BED_ITEMS,
                "flowerbed is sorted in non-decreasing order.",
                "There are no two adjacent flowers in flowerbed.",
            ],
        )
    )
    assert "no two adjacent 1s" in why
    # a string or a grid is not read
    why = refused(
        question(
            [("s", "string")],
            [
                "1 <= s.length <= 10",
                "s consists of '0' and '1'.",
                "There are no two adjacent flowers in s.",
            ],
        )
    )
    assert "no two adjacent items of s" in why


# -- no two adjacent cells equal ----------------------------------------------------------------

MAT = [("mat", "integer[][]")]


def mat_items(values: str, sentence: str = "No two adjacent cells are equal.") -> list[str]:
    return [
        "m == mat.length",
        "n == mat[i].length",
        "1 <= m, n <= 30",
        values,
        sentence,
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "No two adjacent cells are equal.",
        "No two adjacent cells in mat are equal.",
        "No two adjacent elements of the matrix mat are the same.",
    ],
)
def test_adjacent_cells_apart_are_read_and_drawn(sentence: str) -> None:
    spec = spec_of(question(MAT, mat_items("1 <= mat[i][j] <= 3", sentence)))
    assert spec["params"][0]["apart_cells"] is True
    for (mat,) in draws(spec):
        for i, row in enumerate(mat):
            for j, x in enumerate(row):
                assert j + 1 == len(row) or row[j + 1] != x
                assert i + 1 == len(mat) or mat[i + 1][j] != x


def test_without_the_sentence_adjacent_cells_repeat() -> None:
    spec = spec_of(question(MAT, mat_items("1 <= mat[i][j] <= 3", "1 <= m * n <= 900")))
    assert "apart_cells" not in spec["params"][0]
    grids = [sample_spec(spec, s, 40)[0] for s in range(20)]
    assert any(a == b for g in grids for row in g for a, b in itertools.pairwise(row))


def test_the_checker_reports_equal_adjacent_cells() -> None:
    spec = spec_of(question(MAT, mat_items("1 <= mat[i][j] <= 3")))
    assert check_input(spec, [[[1, 2], [2, 1]]]) == []
    problems = check_input(spec, [[[1, 2], [3, 2]]])
    assert any("mat[0][1] and mat[1][1] are equal" in p for p in problems), problems
    problems = check_input(spec, [[[1, 1], [2, 3]]])
    assert any("mat[0][0] and mat[0][1] are equal" in p for p in problems), problems


def test_adjacent_values_apart_in_a_list_are_its_neighbours_apart() -> None:
    spec = spec_of(
        question(
            [("nums", "integer[]")],
            [
                "1 <= nums.length <= 100",
                "0 <= nums[i] <= 1",
                "No two adjacent elements in nums are equal.",
            ],
        )
    )
    assert spec["params"][0]["apart"] == ["next"]
    for (nums,) in draws(spec):
        assert all(a != b for a, b in itertools.pairwise(nums))


def test_adjacent_cells_apart_that_cannot_be_met_are_refused() -> None:
    # two values: a cell may have to differ from two neighbours that differ
    why = refused(question(MAT, mat_items("0 <= mat[i][j] <= 1")))
    assert "adjacent cells apart" in why
    why = refused(question(MAT, [*mat_items("1 <= mat[i][j] <= 9"), "mat[0][0] == 1"]))
    assert "adjacent cells apart" in why
    why = refused(
        question(
            [("a", "integer[][]"), ("b", "integer[][]")],
            [
                "1 <= a.length, b.length <= 5",
                "1 <= a[i].length, b[i].length <= 5",
                "1 <= a[i][j], b[i][j] <= 9",
                "No two adjacent cells are equal.",
            ],
        )
    )
    assert "not of one list or grid" in why
