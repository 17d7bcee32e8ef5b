"""Integers written as strings, and ranges of the answer, in the offline synthesizer (issue 26,
quicksilver/synth/offline/numstrings.py).

Statements we wrote in LeetCode's shapes: a string that represents an integer in a range (its
length follows from the range), two such strings in order, an integer element in those words,
and the answer's range in more words. Each is read, drawn on many seeds (random, perf and
edge-case inputs) and asserted on here with plain code, checked by the independent checker, and
the checker reports an input that breaks it; what cannot be met is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.synth import SynthInput
from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, refused, spec_of

SEEDS = 120


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    return synthkit.draws(spec, n)


def written(text: str, lo: int, hi: int | None) -> bool:
    """``text`` is the decimal text of an integer in [lo, hi], with no leading zero."""
    ok = text.isdigit() and (text == "0" or text[0] != "0")
    return ok and lo <= int(text) and (hi is None or int(text) <= hi)


# -- a string that writes an integer in a range --------------------------------------------------


@pytest.mark.parametrize(
    ("items", "lo", "hi"),
    [
        (
            [
                "1 <= n.length <= 18",
                "n consists of only digits.",
                "n does not have leading zeros.",
                "n is representing an integer in the range [1, 10^18 - 1].",
            ],
            1,
            10**18 - 1,
        ),
        (
            ["n is an integer in the range [3, 10^18].", "n does not contain any leading zeros."],
            3,
            10**18,
        ),
        (["n represents an integer in the range [40, 12345]."], 40, 12345),
        (["num will be an integer between 0 and 49,999."], 0, 49999),
        (
            [
                "1 <= n.length <= 300",
                "n consists of only digits.",
                "n does not contain any leading zeros and represents a positive integer.",
            ],
            1,
            None,
        ),
    ],
)
def test_a_string_that_writes_an_integer_in_a_range(
    items: list[str], lo: int, hi: int | None
) -> None:
    name = "num" if "num" in items[0] else "n"
    spec = spec_of(question([(name, "string")], items))
    assert spec["params"][0]["form"] == {"kind": "number", "lo": lo, "hi": hi}
    lengths = set()
    for (text,) in draws(spec):
        assert written(text, lo, hi), text
        lengths.add(len(text))
    # the length follows the range: every length from the least value's to the greatest's
    top = len(str(hi)) if hi is not None else 300
    assert min(lengths) == len(str(lo)) and max(lengths) >= min(top, 18)
    # the checker catches an integer out of the range, a leading zero and a non-digit
    if hi is not None:
        assert any("outside" in p for p in check_input(spec, [str(hi + 1)]))
    assert any("outside" in p for p in check_input(spec, [str(lo - 1)]) if lo > 0) or lo == 0
    assert any("leading zero" in p for p in check_input(spec, ["0" + str(lo + 1)]))
    assert check_input(spec, ["1a"])


def test_two_strings_in_order_are_compared_as_integers() -> None:
    for items in (
        [
            "1 <= left.length, right.length <= 18",
            "left and right consist of only digits.",
            "left and right cannot have leading zeros.",
            "left and right represent integers in the range [1, 10^18 - 1].",
            "left is less than or equal to right.",
        ],
        [
            "1 <= int(left) <= int(right) < 10^18",
            "1 <= left.length, right.length <= 18",
            "left and right consist of only digits.",
            "left and right don't have any leading zeros.",
        ],
    ):
        spec = spec_of(question([("left", "string"), ("right", "string")], items))
        assert spec["num_order"] == [[0, "<=", 1]]
        pairs = draws(spec)
        assert all(int(a) <= int(b) for a, b in pairs)
        assert any(len(a) < len(b) and a > b for a, b in pairs)  # text order is not the order
        # the checker compares the two as integers: "9" <= "10", not "10" <= "9"
        assert check_input(spec, ["9", "10"]) == []
        assert any("as integers" in p for p in check_input(spec, ["10", "9"]))


def test_an_integer_in_those_words() -> None:
    spec = spec_of(
        question(
            [("nums", "integer[]"), ("n", "integer")],
            [
                "nums.length will be between 1 and 50,000.",
                "nums[i] will be an integer between 0 and 49,999.",
                "-2^31 <= n <= 2^31 - 1",
                "n is an integer.",
            ],
        )
    )
    assert spec["params"][0]["leaf"]["lo"] == [0] and spec["params"][0]["leaf"]["hi"] == [49999]
    assert any("49999" in p for p in check_input(spec, [[50000], 3]))


@pytest.mark.parametrize(
    ("items", "why"),
    [
        (["n is an integer."], "no range"),  # a string, no range of its integer
        (["n represents an integer in the range [-5, 10]."], "below 0"),
        (["n represents an integer in the range [1, m]."], "not a constant"),
        # a lone zero the statement forbids, in a range that holds it
        (
            [
                "n represents an integer in the range [0, 100].",
                "n consists of digits and does not contain any leading zeros.",
            ],
            "another rule",
        ),
    ],
)
def test_what_cannot_be_met_is_refused(items: list[str], why: str) -> None:
    assert why in refused(question([("n", "string"), ("m", "integer")], ["1 <= m <= 9", *items]))


def test_two_strings_of_other_specs_are_not_ordered() -> None:
    items = [
        "1 <= left.length <= 18",
        "1 <= right.length <= 5",
        "left and right represent integers in the range [1, 10^18 - 1].",
        "left is less than or equal to right.",
    ]
    why = refused(question([("left", "string"), ("right", "string")], items))
    assert "an order of two integers written in strings of one spec" in why


# -- ranges of the answer ------------------------------------------------------------------------


def _returning(kind: str, items: list[str], prose: str = "Do it.") -> SynthInput:
    inp = question([("m", "integer"), ("n", "integer")], ["1 <= m, n <= 100", *items], prose)
    inp.meta["return"] = {"type": kind}
    return inp


@pytest.mark.parametrize(
    ("sentence", "kind", "lo", "hi"),
    [
        (
            "The test cases are generated so that the answer will be less than or equal to "
            "2 * 10^9.",
            "integer",
            -(2**63),
            2 * 10**9,
        ),
        (
            "The testcases are generated so that the answer will be less than or equal to "
            "2 * 10^9.",
            "integer",
            -(2**63),
            2 * 10**9,
        ),
        (
            "Test cases are generated in a way that the output doesn't exceed 2^53-1",
            "long",
            -(2**63),
            2**53 - 1,
        ),
        (
            "The test cases are generated so that the answer always exists and is in the range "
            "[2, 2 * 10^8].",
            "integer",
            2,
            2 * 10**8,
        ),
        (
            "The test cases are generated such that the values in the final array are less "
            "than or equal to 10^8.",
            "integer[]",
            -(2**63),
            10**8,
        ),
    ],
)
def test_a_range_of_the_answer_in_more_words(sentence: str, kind: str, lo: int, hi: int) -> None:
    # in the description too, where its marker makes it a guarantee (described.py)
    described = [] if "in a way that" in sentence else [_returning(kind, [], sentence)]
    for inp in (_returning(kind, [sentence]), *described):
        spec = spec_of(inp)
        assert (spec["answer"]["lo"], spec["answer"]["hi"]) == (lo, hi)
        assert spec["answer"]["text"].rstrip(".") == sentence.rstrip(".")


def test_this_sum_is_the_answer_where_the_sentence_before_returns_it() -> None:
    said = "It is guaranteed this sum fits into a 32-bit integer."
    prose = f"Return the smallest possible sum of the values of each node. {said}"
    spec = spec_of(_returning("integer", [], prose))
    assert (spec["answer"]["lo"], spec["answer"]["hi"]) == (-(2**31), 2**31 - 1)
    # a sum that is not what the method returns is not the answer
    other = f"Return the number of ways. Consider the sum of the values of each node. {said}"
    assert "this sum fits" in refused(_returning("integer", [], other))


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        # a length of the answer: the answer key holds no length
        (
            "Input is generated in a way that the length of the answer doesn't exceed 10^5.",
            "string[]",
        ),
        # values that are not the answer
        (
            "The product of any subarray of nums is guaranteed to fit in a 32-bit integer.",
            "integer",
        ),
        (
            "Testcases are generated such that the maximum min-product without modulo will fit "
            "in a 64-bit signed integer.",
            "integer",
        ),
        # a double answer: the testcases stage compares integers only
        ("The input is generated such that the output is at most 5 * 10^10.", "double"),
        # an answer that is a list, in the words of one value
        (
            "The test cases are generated so that the answer will be less than or equal to 10^9.",
            "integer[]",
        ),
    ],
)
def test_other_guarantees_are_not_ranges_of_the_answer(sentence: str, kind: str) -> None:
    assert sentence.rstrip(".") in refused(_returning(kind, [sentence]))
