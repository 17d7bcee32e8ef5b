"""Sentences of words and tokens in the offline synthesizer (quicksilver/synth/offline/
word_sentences.py, runtime_words.py, checker_words.py).

Statements we wrote in LeetCode's shapes: single spaces between words in the other wordings
(restated as the rule of spaces the reader knows), ``at least 1 token``, and a count of words
(``The number of words in s is between 1 and 9``). Each is read, drawn on many seeds (random,
perf and edge-case inputs) and checked twice, by the independent checker and by plain code
here; the checker reports an input that breaks each rule; what cannot be drawn is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, refused, reports, spec_of

SEEDS = 120


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs (caps 30 and 1000), perf inputs, and the edge cases; each checked clean."""
    return synthkit.draws(spec, n, small_cap=30, perf_cap=200, edge_seed=None)


def words(s: str) -> int:
    return len(s.split())


# -- single spaces in other words ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("All words in text are separated by a single space.", "text"),
        ("There is single space between consecutive words.", "text"),
        ("There is a single space between consecutive words of text.", "text"),
        ("All tokens are separated by a single space in text.", "text"),
        ("There is only one single space between two adjacent words.", "text"),
    ],
)
def test_single_spaces_in_other_words(line: str, name: str) -> None:
    inp = question(
        [(name, "string")],
        ["1 <= text.length <= 80", "text consists of lowercase English letters and spaces.", line],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["spaces"] == ["single"]
    seen_space = False
    for (text,) in draws(spec):
        assert "  " not in text
        seen_space = seen_space or " " in text
    assert seen_space
    reports(spec, ["ab  c"], "two spaces in a row")


def test_single_spaces_of_each_string_of_a_list() -> None:
    inp = question(
        [("report", "string[]")],
        [
            "1 <= report.length <= 20",
            "1 <= report[i].length <= 30",
            "report[i] consists of lowercase English letters and spaces ' '.",
            "There is a single space between consecutive words of report[i].",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["spaces"] == ["single"]
    for (report,) in draws(spec):
        assert all("  " not in r for r in report)
    reports(spec, [["ab c", "x  y"]], "two spaces in a row")


def test_at_least_one_token() -> None:
    inp = question(
        [("sentence", "string")],
        [
            "1 <= sentence.length <= 60",
            "sentence only contains lowercase English letters, digits, ' ', '-', and '.'.",
            "There will be at least 1 token.",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["spaces"] == ["word"]
    for (sentence,) in draws(spec):
        assert sentence.strip()
    reports(spec, ["   "], "holds no word")


def test_a_subject_is_needed_where_there_are_two_strings() -> None:
    inp = question(
        [("a", "string"), ("b", "string")],
        [
            "1 <= a.length, b.length <= 20",
            "a and b consist of lowercase English letters and spaces.",
            "There is single space between consecutive words.",
        ],
    )
    assert "There is single space between consecutive words." in refused(inp)


# -- a count of words ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "lo", "hi"),
    [
        ("The number of words in s is between 1 and 9.", 1, 9),
        ("The number of tokens in s is between 2 and 100, inclusive.", 2, 100),
        ("The number of words in s is in the range [3, 5].", 3, 5),
        ("There are at least 2 words in s.", 2, None),
    ],
)
def test_a_count_of_words(line: str, lo: int, hi: int | None) -> None:
    inp = question(
        [("s", "string")],
        [
            "1 <= s.length <= 200",
            "s consists of lowercase and uppercase English letters and spaces.",
            line,
            "The words in s are separated by a single space.",
            "s contains no leading or trailing spaces.",
        ],
    )
    spec = spec_of(inp)
    p = spec["params"][0]
    assert p["words"] == [lo, hi] and p["spaces"] == ["single", "trim"]
    counts = set()
    for (s,) in draws(spec):
        n = words(s)
        counts.add(n)
        assert lo <= n and (hi is None or n <= hi)
        assert len(s) >= 2 * lo - 1 and s == s.strip() and "  " not in s
    assert len(counts) > 2  # the count is drawn, not fixed
    reports(spec, [" ".join(["ab"] * (lo - 1)) or "  "], "words, outside")
    if hi is not None:
        reports(spec, [" ".join(["ab"] * (hi + 1))], f"holds {hi + 1} words")


def test_a_count_of_words_raises_the_least_length() -> None:
    inp = question(
        [("s", "string")],
        [
            "1 <= s.length <= 40",
            "s consists of lowercase English letters and spaces.",
            "The number of words in s is between 4 and 6.",
        ],
    )
    spec = spec_of(inp)
    lengths = set()
    for (s,) in draws(spec):
        lengths.add(len(s))
        assert 4 <= words(s) <= 6
    assert min(lengths) == 7  # four words and three spaces at the least
    # no rule of spaces: the words may stand apart by more than one, or at either end
    assert any("  " in s or s != s.strip() for (s,) in draws(spec))


def test_a_count_of_words_that_cannot_be_drawn_is_refused() -> None:
    def refusal(alphabet: str, line: str, more: tuple[str, ...] = ()) -> str:
        inp = question(
            [("s", "string")],
            ["1 <= s.length <= 40", f"s consists of {alphabet}.", line, *more],
        )
        return refused(inp)

    assert "a count of words" in refusal(
        "lowercase English letters", "The number of words in s is between 1 and 5."
    )
    assert "only a range from 1" in refusal(
        "lowercase English letters and spaces", "The number of words in s is between 0 and 5."
    )
    assert "a count of words" in refusal(
        "lowercase English letters and spaces",
        "The number of words in s is between 1 and 5.",
        ("s is sorted in non-decreasing order.",),
    )
    # a bound by the count drawn with the text is not read
    inp = question(
        [("s", "string"), ("k", "integer")],
        [
            "1 <= s.length <= 40",
            "k is in the range [1, the number of words in s].",
            "s consists of lowercase English letters and spaces.",
        ],
    )
    assert "k is in the range" in refused(inp)


def test_the_checker_counts_words_apart_from_spaces() -> None:
    inp = question(
        [("s", "string")],
        [
            "1 <= s.length <= 40",
            "s consists of lowercase English letters and spaces.",
            "The number of words in s is between 2 and 3.",
        ],
    )
    spec = spec_of(inp)
    assert check_input(spec, ["  ab   cd "]) == []
    reports(spec, ["  abcd  "], "holds 1 words")
    reports(spec, ["a b c d"], "holds 4 words")


def test_a_count_of_words_of_letters_and_digits_is_refused() -> None:
    # words that carry digits have a shape the description gives (each word ends with its
    # position): the count alone would draw texts the statement rules out
    inp = question(
        [("s", "string")],
        [
            "2 <= s.length <= 200",
            "s consists of lowercase and uppercase English letters, spaces, and digits from 1 to 9.",
            "The number of words in s is between 1 and 9.",
            "The words in s are separated by a single space.",
        ],
    )
    assert "digits beside letters" in refused(inp)
