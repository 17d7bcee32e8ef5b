"""Membership and relations between parameters in the offline synthesizer (issue 26,
quicksilver/synth/offline/members.py).

Statements we wrote in LeetCode's shapes: a scalar in a list or string (``target is in
nums``), the items of one list in another, a value kept out of a list, a permutation, anagram
or subsequence of another parameter, at least some items holding a value, two strings compared
whole (``beginWord != endWord``), scalars pairwise distinct. Each is read, drawn on many seeds
(random, perf and edge-case inputs) and asserted on here with plain code, checked by the
independent checker, and the checker reports an input that breaks it; what cannot be met is
refused.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 120


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


# -- a scalar in a list or a string -------------------------------------------------------------

TARGET = [("nums", "integer[]"), ("target", "integer")]


@pytest.mark.parametrize(
    "sentence",
    [
        "target is in nums.",
        "target is an integer from the array nums.",
        "target equals to an element of nums.",
        "It is guaranteed that target exists in nums.",
        "target occurs at least once in nums.",
    ],
)
def test_scalar_in_list(sentence: str) -> None:
    """The scalar is drawn as a random item of the list; with no range of its own it takes the
    list's (the schedule needs one)."""
    inp = question(TARGET, ["1 <= nums.length <= 50", "-5 <= nums[i] <= 5", sentence])
    spec = spec_of(inp)
    assert spec["members"] == [["in", 1, 0]]
    seen = set()
    for nums, target in draws(spec):
        assert target in nums, (nums, target)
        seen.add(target)
    assert len(seen) > 5  # not always one value
    reports(spec, [[1, 2, 3], 4], "target = 4 is not in nums")


def test_scalar_in_list_refused_outside_its_range() -> None:
    """A scalar whose own range is narrower than the list's values, or a list that may be
    empty, cannot take a random item: refused."""
    items = ["1 <= nums.length <= 50", "-5 <= nums[i] <= 5", "target is in nums."]
    assert "outside target's range" in refused(question(TARGET, [*items, "0 <= target <= 5"]))
    empty = ["0 <= nums.length <= 50", *items[1:]]
    assert "nums may be empty" in refused(question(TARGET, empty))
    bound = [*items, "-5 <= target <= 5", "0 <= k <= target + 5"]
    assert '"target is in nums."' in refused(question([*TARGET, ("k", "integer")], bound))


@pytest.mark.parametrize(
    "sentence",
    ["It is guaranteed that c occurs at least once in s.", "c occurs at least once in s."],
)
def test_character_in_string(sentence: str) -> None:
    inp = question(
        [("s", "string"), ("c", "character")],
        ["1 <= s.length <= 30", "s[i] and c are lowercase English letters.", sentence],
    )
    spec = spec_of(inp)
    for s, c in draws(spec):
        assert c in s, (s, c)
    reports(spec, ["abc", "z"], "c = 'z' is not in s")


def test_digit_in_number() -> None:
    inp = question(
        [("number", "string"), ("digit", "character")],
        [
            "2 <= number.length <= 100",
            "number consists of digits from '1' to '9'.",
            "digit is a digit from '1' to '9'.",
            "digit occurs at least once in number.",
        ],
    )
    for number, digit in draws(spec_of(inp)):
        assert digit in number and "0" not in number


# -- the items of one list in another -----------------------------------------------------------

SUBSET = [
    "1 <= nums1.length <= nums2.length <= 60",
    "0 <= nums1[i], nums2[i] <= 10^4",
    "All integers in nums1 and nums2 are unique.",
]
TWO = [("nums1", "integer[]"), ("nums2", "integer[]")]


@pytest.mark.parametrize(
    "sentence",
    ["All the integers of nums1 also appear in nums2.", "Each nums1[i] is in nums2."],
)
def test_subset(sentence: str) -> None:
    spec = spec_of(question(TWO, [*SUBSET, sentence]))
    assert spec["members"] == [["subset", 0, 1]]
    for nums1, nums2 in draws(spec):
        assert set(nums1) <= set(nums2) and len(set(nums1)) == len(nums1)
    reports(spec, [[1, 7], [1, 2, 3]], "nums1 holds 7, which is not in nums2")


def test_subset_refused_where_it_cannot_hold() -> None:
    """Distinct items from a list whose values may repeat, or with no stated length order,
    may find too few values: refused."""
    items = [
        "1 <= arr1.length, arr2.length <= 1000",
        "0 <= arr1[i], arr2[i] <= 1000",
        "All the elements of arr2 are distinct.",
        "Each arr2[i] is in arr1.",
    ]
    why = refused(question([("arr1", "integer[]"), ("arr2", "integer[]")], items))
    assert "arr2 distinct, its items from arr1 whose values need not be" in why


# -- a value kept out of a list -----------------------------------------------------------------


def test_not_in_list() -> None:
    """``Position x is not forbidden``: the items of forbidden equal to x drawn again (still
    distinct, in range)."""
    items = [
        "1 <= forbidden.length <= 40",
        "1 <= forbidden[i] <= 50",
        "0 <= x <= 50",
        "All the elements in forbidden are distinct.",
        "Position x is not forbidden.",
    ]
    spec = spec_of(question([("forbidden", "integer[]"), ("x", "integer")], items))
    assert spec["members"] == [["notin", 1, 0]]
    for forbidden, x in draws(spec, 300):
        assert x not in forbidden and len(set(forbidden)) == len(forbidden)
        assert all(1 <= v <= 50 for v in forbidden)
    reports(spec, [[3, 4], 4], "x = 4 is in forbidden")


# -- built from another parameter's items -------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "a", "b"),
    [
        ("t is a permutation of s.", "t", "s"),
        ("t is an anagram of s.", "t", "s"),
        ("s and t are anagrams of each other.", "t", "s"),
    ],
)
def test_permutation_of_a_string(sentence: str, a: str, b: str) -> None:
    """A shuffled copy: one length (the other's length and alphabet are those of the first,
    where nothing else states them)."""
    items = ["1 <= s.length <= 26", "s consists only of lowercase English letters.", sentence]
    spec = spec_of(question([("s", "string"), ("t", "string")], items))
    assert spec["params"][0]["dims"] == spec["params"][1]["dims"]
    shuffled = 0
    for s, t in draws(spec):
        assert Counter(s) == Counter(t)
        shuffled += s != t
    assert shuffled > SEEDS // 2
    reports(spec, ["abc", "abd"], f"{a} is not a permutation of {b}")


def test_permutation_of_a_list() -> None:
    items = [
        "1 <= pushed.length <= 1000",
        "0 <= pushed[i] <= 1000",
        "All the elements of pushed are unique.",
        "popped.length == pushed.length",
        "popped is a permutation of pushed.",
    ]
    spec = spec_of(question([("pushed", "integer[]"), ("popped", "integer[]")], items))
    for pushed, popped in draws(spec):
        assert sorted(pushed) == sorted(popped) and len(set(pushed)) == len(pushed)


def test_subsequence() -> None:
    items = [
        "1 <= p.length <= s.length <= 100",
        "p is a subsequence of s.",
        "s and p both consist of lowercase English letters.",
    ]
    spec = spec_of(question([("s", "string"), ("p", "string")], items))
    for s, p in draws(spec):
        it = iter(s)
        assert all(ch in it for ch in p), (s, p)
    reports(spec, ["abc", "ca"], "p is not a subsequence of s")
    unordered = ["1 <= p.length, s.length <= 100", *items[1:]]
    assert "no stated p.length <= s.length" in refused(
        question([("s", "string"), ("p", "string")], unordered)
    )


# -- at least some items with a value -----------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "k"),
    [
        ("There is at least one 0 in mat.", 1),
        ("The input is generated such that there is at least one 0 in mat.", 1),
        ("The input is generated such that there are at least three 0's in mat.", 3),
    ],
)
def test_at_least_some_of_a_value(sentence: str, k: int) -> None:
    items = [
        "m == mat.length",
        "n == mat[i].length",
        "2 <= m, n <= 20",
        "mat[i][j] is either 0 or 1.",
    ]
    spec = spec_of(question([("mat", "integer[][]")], [*items, sentence]))
    assert spec["members"] == [["has", 0, 0, k]]
    for (mat,) in draws(spec):
        assert sum(row.count(0) for row in mat) >= k
    reports(spec, [[[1, 1], [1, 1]]], "mat holds 0 0 times")


def test_an_element_with_a_value() -> None:
    items = ["1 <= nums.length <= 100", "0 <= nums[i] <= 100"]
    sentence = "There is at least one element i where nums[i] == 0."
    spec = spec_of(question([("nums", "integer[]")], [*items, sentence]))
    for (nums,) in draws(spec):
        assert 0 in nums


def test_at_least_some_refused() -> None:
    """A count the smallest list cannot hold, a value outside the range, a sorted list: refused."""
    grid = ["1 <= grid.length, grid[i].length <= 30", "grid[i][j] is either 0 or 1."]
    three = "There are at least three 1's in grid."
    assert "fewer than 3 items" in refused(question([("grid", "integer[][]")], [*grid, three]))
    two = "There is at least one 2 in grid."
    assert "2 is not a value grid may hold" in refused(
        question([("grid", "integer[][]")], [*grid, two])
    )
    nums = ["1 <= nums.length <= 9", "0 <= nums[i] <= 9", "nums is sorted in ascending order."]
    zero = "There is at least one 0 in nums."
    assert "other rules" in refused(question([("nums", "integer[]")], [*nums, zero]))


# -- two lists compared whole; scalars pairwise distinct ----------------------------------------


def test_strings_not_equal() -> None:
    """``beginWord != endWord`` of one length and alphabet: where they are equal, one character
    of endWord is drawn again. Two one-letter strings over two letters are equal often."""
    items = [
        "1 <= beginWord.length <= 2",
        "endWord.length == beginWord.length",
        "beginWord and endWord consist of the characters 'a' and 'b'.",
        "beginWord != endWord",
    ]
    spec = spec_of(question([("beginWord", "string"), ("endWord", "string")], items))
    for begin, end in draws(spec):
        assert begin != end and len(begin) == len(end) and set(end) <= {"a", "b"}
    reports(spec, ["ab", "ab"], "beginWord and endWord are equal")


@pytest.mark.parametrize(
    "sentence", ["a, b, and c have different values.", "a, b, and c are pairwise distinct."]
)
def test_scalars_pairwise_distinct(sentence: str) -> None:
    """Read as the exclusions ``a != b``, ``a != c``, ``b != c`` the schedule already draws."""
    params = [("a", "integer"), ("b", "integer"), ("c", "integer")]
    spec = spec_of(question(params, ["1 <= a, b, c <= 3", sentence]))
    assert "members" not in spec
    for a, b, c in draws(spec):
        assert len({a, b, c}) == 3
    reports(spec, [1, 1, 2], "b = 1 breaks", sentence[:-1])


def test_plain_specs_have_no_members() -> None:
    """A statement without these sentences has no ``members`` key (it draws as before)."""
    spec = spec_of(question(TARGET, ["1 <= nums.length <= 5", "0 <= nums[i], target <= 5"]))
    assert "members" not in spec


def test_subset_of_a_list_that_may_repeat() -> None:
    """Items that need not be distinct, each a random item of the other list; a stated
    ``a.length <= b.length`` keeps the other non-empty whenever there is an item to draw."""
    items = ["0 <= a.length <= b.length <= 9", "0 <= a[i], b[i] <= 9"]
    spec = spec_of(question(TWO_AB, [*items, "Each value of a also appears in b."]))
    for a, b in draws(spec):
        assert set(a) <= set(b)


TWO_AB = [("a", "integer[]"), ("b", "integer[]")]


def test_two_strings_are_different() -> None:
    items = ["1 <= a.length, b.length <= 2", "a and b consist of the characters 'x' and 'y'."]
    spec = spec_of(question([("a", "string"), ("b", "string")], [*items, "a and b are different."]))
    assert spec["members"] == [["ne", 0, 1]]
    for a, b in draws(spec):
        assert a != b


def test_distinct_strings_of_a_short_shared_length_are_drawn_again() -> None:
    """Distinct strings of one shared length over two letters: a length too short for so many
    strings makes the whole input drawn again, where the runtime raised before."""
    items = [
        "1 <= word.length <= 3",
        "1 <= words.length <= 8",
        "words[i].length == word.length",
        "word and words[i] consist of the characters 'a' and 'b'.",
        "All the strings of words are unique.",
    ]
    spec = spec_of(question([("word", "string"), ("words", "string[]")], items))
    for word, words in draws(spec):
        assert len(set(words)) == len(words) <= 2 ** len(word)
