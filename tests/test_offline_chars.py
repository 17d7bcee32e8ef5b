"""Rules on characters beyond an alphabet in the offline synthesizer (issue 26:
quicksilver/synth/offline/char_sentences.py, the runtime's ``_char_rules``, checker_chars.py).

Statements we wrote in LeetCode's shapes: counts of characters (``exactly one '*'``, ``at
least one '1'``, ``an even number of '|'``, one of each in a grid, every letter at least once),
alphabets by position (an index of each string, a parity) and by ASCII code, characters a text
does not contain, and the other wordings read. Each is read, drawn on many seeds (random, perf
and edge-case inputs) and checked twice, by the independent checker and by plain code here; the
checker reports an input that breaks each rule; a rule that cannot be drawn is refused.
"""

from __future__ import annotations

import copy
import re
import string
from typing import Any

import pytest

from quicksilver.synth import SynthInput
from quicksilver.synth.offline import build_spec, sample_spec
from quicksilver.synth.offline.checker import check_input
from tests import synthkit
from tests.synthkit import question, spec_of

SEEDS = 120
LOWER = set(string.ascii_lowercase)


def problems_of(inp: SynthInput) -> str:
    result = build_spec(inp)
    assert result.spec is None
    return " | ".join(result.problems)


def draws(spec: dict[str, Any], n: int = SEEDS) -> list[list[Any]]:
    """Random inputs (caps 30 and 1000), perf inputs, and the edge cases; each checked clean."""
    return synthkit.draws(spec, n, small_cap=30, perf_cap=200, edge_seed=None)


# -- counts of characters -----------------------------------------------------------------------


def test_an_alphabet_and_exactly_one_character() -> None:
    inp = question(
        [("s", "string"), ("p", "string")],
        [
            "1 <= s.length, p.length <= 50",
            "s contains only lowercase English letters.",
            "p contains only lowercase English letters and exactly one '*'",
        ],
    )
    spec = spec_of(inp)
    p = spec["params"][1]
    assert p["leaf"]["alphabet"] == string.ascii_lowercase + "*"
    assert p["counts"] == [{"chars": "*", "min": 1, "max": 1, "mod": None, "scope": "each"}]
    for _, pat in draws(spec):
        assert pat.count("*") == 1 and set(pat) <= LOWER | {"*"}
    broken = ["ab", "a**b", "ab*"]
    assert check_input(spec, ["x", broken[0]]) and check_input(spec, ["x", broken[1]])
    assert check_input(spec, ["x", broken[2]]) == []


@pytest.mark.parametrize(
    ("line", "ok", "bad"),
    [
        ("s contains at least one '1'.", lambda s: "1" in s, "0000"),
        ("s contains an even number of vertical bars '|'.", lambda s: s.count("|") % 2 == 0, "|"),
        ("There are at least two digits in s.", lambda s: sum(c.isdigit() for c in s) >= 2, "a1"),
        (
            "There will be at most 3 parentheses in s.",
            lambda s: sum(c in "()" for c in s) <= 3,
            "((((",
        ),
    ],
)
def test_counts_of_one_string(line: str, ok: Any, bad: str) -> None:
    inp = question(
        [("s", "string")],
        [
            "2 <= s.length <= 40",
            "s consists of lowercase English letters, digits, '|', '(' and ')'",
            line,
        ],
    )
    spec = spec_of(inp)
    for (s,) in draws(spec):
        assert ok(s), s
    assert check_input(spec, [bad]), bad


def test_one_of_each_in_a_grid() -> None:
    """``There is only one of each character 'C', 'M', and 'F' in grid``: counted over the
    whole grid of strings; a grid too small for them is drawn again."""
    inp = question(
        [("grid", "string[]")],
        [
            "rows == grid.length",
            "cols = grid[i].length",
            "1 <= rows, cols <= 8",
            "grid[i][j] consist only of characters 'C', 'M', 'F', '.', and '#'.",
            "There is only one of each character 'C', 'M', and 'F' in grid.",
        ],
    )
    spec = spec_of(inp)
    assert [c["scope"] for c in spec["params"][0]["counts"]] == ["all"] * 3
    for (grid,) in draws(spec):
        text = "".join(grid)
        assert all(text.count(c) == 1 for c in "CMF"), grid
    assert check_input(spec, [["C.M", "F.C"]]) and check_input(spec, [["C..", "F.."]])
    assert check_input(spec, [["C.M", "F.#"]]) == []


def test_exactly_one_cell_of_a_board_and_every_letter() -> None:
    board = question(
        [("board", "character[][]")],
        [
            "board.length == 8",
            "board[i].length == 8",
            "board[i][j] is either 'R', '.', 'B', or 'p'",
            "There is exactly one cell with board[i][j] == 'R'",
        ],
    )
    spec = spec_of(board)
    for (b,) in draws(spec):
        assert sum(row.count("R") for row in b) == 1
    key = question(
        [("key", "string")],
        [
            "26 <= key.length <= 2000",
            "key consists of lowercase English letters and ' '.",
            "key contains every letter in the English alphabet ('a' to 'z') at least once.",
        ],
    )
    spec = spec_of(key)
    for (k,) in draws(spec, 40):
        assert set(k) >= LOWER
    assert check_input(spec, [string.ascii_lowercase[1:] + "bb"])


def test_each_string_of_a_list_counts_alone() -> None:
    inp = question(
        [("emails", "string[]")],
        [
            "1 <= emails.length <= 100",
            "1 <= emails[i].length <= 100",
            "emails[i] consists of lowercase English letters, '.' and '@'.",
            "Each emails[i] contains exactly one '@' character.",
        ],
    )
    spec = spec_of(inp)
    # read as a count of each string (char_sentences.py) or as an email's form (formats.py,
    # which reads the line first since both families were merged): the draws are what matter
    for (emails,) in draws(spec, 60):
        assert all(e.count("@") == 1 for e in emails)
    assert check_input(spec, [["a@b", "ab"]]) and check_input(spec, [["a@b@c"]])


def test_counts_that_cannot_be_drawn_are_refused() -> None:
    # no other character to put in place of a '1' above the count
    assert "no other character" in problems_of(
        question(
            [("s", "string")],
            ["1 <= s.length <= 9", "s consists only of '1'.", "s contains exactly one '1'."],
        )
    )
    # with a fixed position, the count's changes could break it
    assert "a rule on characters" in problems_of(
        question(
            [("s", "string")],
            [
                "1 <= s.length <= 9",
                "s consists of lowercase English letters and '*'.",
                "s[0] == 'a'",
                "s contains exactly one '*'.",
            ],
        )
    )
    # not a count of characters: still not read
    reason = problems_of(
        question(
            [("s", "string")],
            [
                "1 <= s.length <= 9",
                "s consists of lowercase English letters.",
                "s contains at least one character with an odd frequency.",
            ],
        )
    )
    assert "not understood" in reason


# -- alphabets by position ----------------------------------------------------------------------


def test_position_alphabets_of_each_string() -> None:
    """``equations[i][1] is either '=' or '!'``: with no alphabet for the whole string, the
    positions' alphabets cover a string of length 4, and are its alphabet."""
    inp = question(
        [("equations", "string[]")],
        [
            "1 <= equations.length <= 500",
            "equations[i].length == 4",
            "equations[i][0] is a lowercase letter.",
            "equations[i][1] is either '=' or '!'.",
            "equations[i][2] is '='.",
            "equations[i][3] is a lowercase letter.",
        ],
    )
    spec = spec_of(inp)
    for (eqs,) in draws(spec):
        for e in eqs:
            assert e[0] in LOWER and e[1] in "=!" and e[2] == "=" and e[3] in LOWER, e
    assert check_input(spec, [["a=!b"]]) and check_input(spec, [["==ab"]])
    assert check_input(spec, [["a!=b", "c==c"]]) == []


def test_position_ranges_and_parities() -> None:
    chess = question(
        [("a", "string"), ("b", "string")],
        [
            "a.length == b.length == 2",
            "'a' <= a[0], b[0] <= 'h'",
            "'1' <= a[1], b[1] <= '8'",
        ],
    )
    spec = spec_of(chess)
    for a, b in draws(spec):
        assert a[0] in "abcdefgh" and a[1] in "12345678" and b[0] in "abcdefgh", (a, b)
    assert check_input(spec, ["a9", "b2"]) and check_input(spec, ["1a", "b2"])
    rings = question(
        [("rings", "string")],
        [
            "rings.length == 2 * n",
            "1 <= n <= 100",
            "rings[i] where i is even is either 'R', 'G', or 'B' (0-indexed).",
            "rings[i] where i is odd is a digit from '0' to '9' (0-indexed).",
        ],
    )
    spec = spec_of(rings)
    for (r,) in draws(spec):
        assert all(c in "RGB" for c in r[::2]) and all(c.isdigit() for c in r[1::2]), r
    assert check_input(spec, ["R1G"]) and check_input(spec, ["1R"])


def test_positions_that_do_not_cover_the_string_state_no_alphabet() -> None:
    reason = problems_of(
        question(
            [("s", "string")],
            ["1 <= s.length <= 10", "s[0] is either 'a' or 'b'."],
        )
    )
    assert "no stated alphabet" in reason
    # a position outside the stated alphabet
    reason = problems_of(
        question(
            [("w", "string[]")],
            [
                "1 <= w.length <= 10",
                "w[i].length == 15",
                "w[i] consists of digits from '0' to '9'.",
                "w[i][10] is either 'M' or 'F' or 'O'.",
            ],
        )
    )
    assert "no character of it is in the alphabet" in reason


# -- other wordings -----------------------------------------------------------------------------


def test_ascii_ranges_and_left_out_characters() -> None:
    inp = question(
        [("s", "string")],
        [
            "1 <= s.length <= 100",
            "s consists of characters with ASCII values in the range [33, 122].",
            "s does not contain '\\\"' or '\\\\'.",
        ],
    )
    spec = spec_of(inp)
    alphabet = spec["params"][0]["leaf"]["alphabet"]
    assert alphabet == "".join(chr(c) for c in range(33, 123) if chr(c) not in '"\\')
    assert check_input(spec, ['a"b']) and check_input(spec, ["a b"])
    any_ascii = question(
        [("text", "string")],
        [
            "1 <= text.length <= 10^5",
            "The string may contain any possible characters out of all the 256 ASCII characters.",
        ],
    )
    assert spec_of(any_ascii)["params"][0]["leaf"]["alphabet"] == "".join(
        chr(c) for c in range(32, 127)
    )


def test_letters_once_in_each_string_of_two_lists() -> None:
    inp = question(
        [("a", "string[]"), ("b", "string[]")],
        [
            "1 <= a.length, b.length <= 100",
            "1 <= a[i].length, b[j].length <= 26",
            "Each string of a and b consists of lowercase English letters only.",
            "No letter occurs more than once in any string of a or b.",
        ],
    )
    spec = spec_of(inp)
    for a, b in draws(spec, 40):
        assert all(len(set(w)) == len(w) and set(w) <= LOWER for w in a + b)
    assert check_input(spec, [["aa"], ["b"]])


def test_mutations_are_reported() -> None:
    """One drawn input per rule, changed to break it: the checker names the rule."""
    spec = spec_of(
        question(
            [("p", "string")],
            ["3 <= p.length <= 9", "p contains only lowercase English letters and exactly one '*'"],
        )
    )
    (p,) = sample_spec(spec, 3)
    broken = copy.deepcopy(p).replace("*", "a")
    assert any("outside [1, 1]" in line for line in check_input(spec, [broken]))


# -- how characters repeat ----------------------------------------------------------------------


def test_each_letter_exactly_twice() -> None:
    """``Each letter appears in s exactly twice``: the length is even (no line says so) and
    every letter that occurs, occurs twice."""
    inp = question(
        [("s", "string")],
        [
            "2 <= s.length <= 52",
            "s consists only of lowercase English letters.",
            "Each letter appears in s exactly twice.",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["kinds"] == ["times", 2]
    for (s,) in draws(spec):
        assert len(s) % 2 == 0 and all(s.count(c) == 2 for c in s), s
    assert check_input(spec, ["aab"]) and check_input(spec, ["aaab"])
    assert check_input(spec, ["abab"]) == []
    # more letters than the alphabet holds twice
    too_long = question(
        [("s", "string")],
        [
            "2 <= s.length <= 60",
            "s consists only of 'a' and 'b'.",
            "Each letter appears in s exactly twice.",
        ],
    )
    assert "more characters than the alphabet" in problems_of(too_long)


def test_a_repeated_letter_and_two_different_ones() -> None:
    repeated = question(
        [("s", "string")],
        [
            "2 <= s.length <= 100",
            "s consists of lowercase English letters.",
            "s has at least one repeated letter.",
        ],
    )
    spec = spec_of(repeated)
    for (s,) in draws(spec):
        assert len(set(s)) < len(s), s
    assert check_input(spec, ["abc"])
    # with a stated order: the rule keeps the letters sorted
    different = question(
        [("letters", "character[]"), ("target", "character")],
        [
            "2 <= letters.length <= 10^4",
            "letters[i] is a lowercase English letter.",
            "letters is sorted in non-decreasing order.",
            "letters contains at least two different characters.",
            "target is a lowercase English letter.",
        ],
    )
    spec = spec_of(different)
    for letters, _ in draws(spec):
        assert len(set(letters)) >= 2 and letters == sorted(letters), letters
    assert check_input(spec, [["a", "a"], "b"]) and check_input(spec, [["b", "a"], "b"])


def test_the_digits_of_an_integer() -> None:
    only = question(
        [("num", "integer")], ["1 <= num <= 10^4", "num consists of only 6 and 9 digits."]
    )
    spec = spec_of(only)
    assert spec["quantities"][0]["digits"] == "69"
    got = {num for (num,) in draws(spec)}
    assert got <= {6, 9, 66, 69, 96, 99, 666, 669, 696, 699, 966, 969, 996, 999} | {
        int(f"{a}{b}{c}{d}") for a in "69" for b in "69" for c in "69" for d in "69"
    }
    assert 9999 in got and len(got) > 5  # the edge case at the top, and a spread below it
    assert check_input(spec, [67]) and check_input(spec, [99]) == []
    no_zero = question(
        [("num", "integer")], ["1 <= num <= 10^9", "num does not contain 0 as one of its digits."]
    )
    spec = spec_of(no_zero)
    for (num,) in draws(spec):
        assert "0" not in str(num) and 1 <= num <= 10**9, num
    assert check_input(spec, [105])
    even = question(
        [("num", "integer")],
        ["1 <= num <= 10^4", "num is even.", "num consists of only 6 and 9 digits."],
    )
    assert "a stated remainder" in problems_of(even)


def test_a_string_of_tokens() -> None:
    """``command consists of "G", "()", and/or "(al)" in some order``: whole tokens, any
    length (one token has one character); the tokens' characters are its alphabet."""
    inp = question(
        [("command", "string")],
        [
            "1 <= command.length <= 100",
            'command consists of "G", "()", and/or "(al)" in some order.',
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["tokens"] == ["G", "()", "(al)"]
    for (command,) in draws(spec):
        assert re.fullmatch(r"(?:G|\(\)|\(al\))+", command), command
    assert check_input(spec, ["G(a)"]) and check_input(spec, ["(alG)"])
    assert check_input(spec, ["G()(al)"]) == []
    no_single = question(
        [("s", "string")],
        ["1 <= s.length <= 100", 's consists of "ab" and/or "cd" in some order.'],
    )
    assert "one has a single character" in problems_of(no_single)


def test_counts_that_are_a_part_of_the_length() -> None:
    """``The number of opening brackets '[' equals n / 2, and the number of closing brackets
    ']' equals n / 2``: each exactly half of the string (no other character: one takes the
    other's place)."""
    inp = question(
        [("s", "string")],
        [
            "n == s.length",
            "2 <= n <= 10^6",
            "n is even.",
            "s[i] is either '[' or ']'.",
            "The number of opening brackets '[' equals n / 2, and the number of closing brackets "
            "']' equals n / 2.",
        ],
    )
    spec = spec_of(inp)
    # a count that is a part of the length, or formats.py's "halves" form (read first since
    # both families were merged): the draws and the checker are what matter
    for (s,) in draws(spec):
        assert s.count("[") == s.count("]") == len(s) // 2, s
    assert check_input(spec, ["[[[]"]) and check_input(spec, ["[]]["]) == []
    # a count relative to something else than the string's length
    other = question(
        [("s", "string"), ("k", "integer")],
        [
            "1 <= s.length <= 10",
            "1 <= k <= 10",
            "s consists of '[' and ']'.",
            "The number of opening brackets '[' equals k.",
        ],
    )
    assert "not a part of the string's own length" in problems_of(other)


def test_the_only_space_character_and_other_alphabet_words() -> None:
    """``The only space character in s is ' '``: the space joins the stated alphabet (and no
    other whitespace); ``will be ...``, ``the space character``, ``English small letters``."""
    inp = question(
        [("s", "string")],
        [
            "0 <= s.length <= 300",
            "s consists of lowercase English letters, digits, or one of the following characters "
            '"!@#".',
            "The only space character in s is ' '.",
        ],
    )
    spec = spec_of(inp)
    assert spec["params"][0]["leaf"]["alphabet"] == string.ascii_lowercase + "0123456789!@# "
    assert check_input(spec, ["a\tb"])
    # with no stated alphabet, the sentence states none
    alone = question(
        [("s", "string")], ["0 <= s.length <= 300", "The only space character in s is ' '."]
    )
    assert "no stated alphabet" in problems_of(alone)
    board = question(
        [("board", "character[][]"), ("w", "string")],
        [
            "m == board.length",
            "n == board[i].length",
            "1 <= m, n <= 20",
            "board[i][j] will be ' ', '#', or a lowercase English letter.",
            "1 <= w.length <= 20",
            "w consists only of English small letters.",
        ],
    )
    spec = spec_of(board)
    assert spec["params"][0]["leaf"]["alphabet"] == " #" + string.ascii_lowercase
    assert spec["params"][1]["leaf"]["alphabet"] == string.ascii_lowercase
    cities = question(
        [("a", "string")],
        [
            "1 <= a.length <= 10",
            "All strings consist of lowercase and uppercase English letters and the space character.",
        ],
    )
    assert spec_of(cities)["params"][0]["leaf"]["alphabet"] == string.ascii_letters + " "


# -- distinct strings that nearly fill their space ----------------------------------------------


def test_distinct_strings_that_nearly_fill_their_space_are_drawn() -> None:
    """216 distinct rows of 3 letters from six are all there are: a list of up to 216 of them
    drawn by redrawing repeats ran out of redraws on some seeds (the generator raised, and the
    testcases stage lost the seed). Past the redraws, one of the strings left is taken."""
    inp = question(
        [("bottom", "string"), ("allowed", "string[]")],
        [
            "2 <= bottom.length <= 6",
            "0 <= allowed.length <= 216",
            "allowed[i].length == 3",
            "The letters in all input strings are from the set {'A', 'B', 'C', 'D', 'E', 'F'}.",
            "All the values of allowed are unique.",
        ],
    )
    spec = spec_of(inp)
    drawn = draws(spec, 200)  # each passes the checker: distinct rows of three such letters
    sizes = [len(allowed) for _, allowed in drawn]
    assert max(sizes) >= 200 and any(len(set(a)) == 216 for _, a in drawn if len(a) == 216)
    for _, allowed in drawn:
        assert len(set(allowed)) == len(allowed)
        assert all(len(s) == 3 and set(s) <= set("ABCDEF") for s in allowed)
