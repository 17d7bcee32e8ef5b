"""The offline generators' inputs against an independent checker (quicksilver/synth/offline/checker.py).

Three parts: every input the runtime draws for the bundled corpus, the LeetCode-wording fixtures
and a set of questions that use each spec feature passes the checker (random draws, the edge
cases of the emitted generator, perf inputs and their structured variants); the checker reports
each broken constraint of a mutated valid input, naming the parameter; and the spec read back
from an emitted generator is the spec it was emitted from.
"""

from __future__ import annotations

import ast
import copy
import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from quicksilver.sources.snapshot import load_snapshot_dir
from quicksilver.synth import SynthInput
from quicksilver.synth.offline import build_spec, emit_generator, sample_spec
from quicksilver.synth.offline.checker import check_input, spec_from_generator
from quicksilver.synth.offline.runtime import perf_variants

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = ROOT / "data" / "snapshot" / "bundled"
WORDING = ROOT / "tests" / "fixtures" / "leetcode_wording_questions.json"


def li(text: str) -> str:
    """A Constraints item as LeetCode writes it: ``<=`` escaped, ``a^b`` as ``a<sup>b</sup>``."""
    text = re.sub(r"\^(\d+)", r"<sup>\1</sup>", text)
    text = text.replace("<=", "&lt;=").replace(">=", "&gt;=")
    return text.replace(" < ", " &lt; ").replace(" > ", " &gt; ")


def question(params: list[tuple[str, str]], items: list[str]) -> SynthInput:
    meta = {
        "name": "f",
        "params": [{"name": n, "type": t} for n, t in params],
        "return": {"type": "integer"},
    }
    body = "".join(f"\t<li>{li(i)}</li>\n" for i in items)
    content = f"<p>Do it.</p>\n<p><strong>Constraints:</strong></p>\n<ul>\n{body}</ul>\n"
    return SynthInput(slug="t", title="T", content_html=content, meta=meta, prompt="")


def spec_of(params: list[tuple[str, str]], items: list[str]) -> dict[str, Any]:
    result = build_spec(question(params, items))
    assert result.spec is not None, result.problems
    return result.spec


@functools.cache
def corpus_specs() -> dict[str, dict[str, Any]]:
    """Every spec the synthesizer builds for the bundled corpus and the wording fixtures."""
    out: dict[str, dict[str, Any]] = {}
    loaded = load_snapshot_dir(BUNDLED)
    for snap in loaded.files:
        q = snap.question
        inp = SynthInput(
            slug=snap.slug, title=q.title, content_html=q.content or "", meta=q.meta(), prompt=""
        )
        spec = build_spec(inp).spec
        if spec is not None:
            out[snap.slug] = spec
    for q in json.loads(WORDING.read_text())["questions"]:
        inp = SynthInput(
            slug=q["slug"],
            title=q["slug"],
            content_html=q["content"],
            meta=q["metaData"],
            prompt="",
        )
        spec = build_spec(inp).spec
        if spec is not None:
            out["wording:" + q["slug"]] = spec
    return out


# Questions that use each spec feature the corpus leaves out (floats, booleans, value sets,
# per-item lengths and sums, distinct strings, remainders, exclusions, hidden quantities, rows).
FEATURES: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    "tree:depth": (
        [("root", "TreeNode")],
        [
            "The number of nodes in the tree is in the range [1, 10^4].",
            "0 <= Node.val <= 9",
            "The depth of the tree will not exceed 5.",
        ],
    ),
    "words:set": (
        [("ops", "string[]"), ("nums", "integer[]")],
        [
            "n == ops.length == nums.length",
            "1 <= n <= 50",
            'ops[i] is either "add" or "jump"',
            "0 <= nums[i] <= 9",
        ],
    ),
    "grid:first-row": (
        [("grid", "integer[][]")],
        ["1 <= grid.length, grid[0].length <= 40", "grid[i][j] is 0 or 1"],
    ),
    "apart:neighbours": (
        [("nums", "integer[]")],
        ["1 <= nums.length <= 50", "0 <= nums[i] <= 2", "nums[i] != nums[i + 1] for all valid i."],
    ),
    "apart:index": (
        [("edges", "integer[]")],
        ["n == edges.length", "2 <= n <= 50", "-1 <= edges[i] < n", "edges[i] != i"],
    ),
    "pins:sorted": (
        [("stones", "integer[]")],
        [
            "2 <= stones.length <= 50",
            "0 <= stones[i] <= 2^31 - 1",
            "stones[0] == 0",
            "stones is sorted in a strictly increasing order.",
        ],
    ),
    "rows:distinct-field": (
        [("rows", "integer[][]")],
        [
            "1 <= rows.length <= 50",
            "rows[i] = [id_i, a_i, b_i]",
            "1 <= id_i <= 60",
            "0 <= a_i, b_i <= 3",
            "a_i != b_i",
            "All id_i are distinct.",
        ],
    ),
    "poly:edges": (
        [("n", "integer"), ("edges", "integer[][]")],
        [
            "2 <= n <= 30",
            "1 <= edges.length <= min(10^5, n * (n - 1) / 2)",
            "edges[i].length == 3",
            "0 <= edges[i][0], edges[i][1] < n",
            "1 <= edges[i][2] <= 10",
        ],
    ),
    "poly:power": (
        [("n", "integer"), ("k", "integer")],
        ["1 <= n <= 30", "1 <= k <= 2^n - 1"],
    ),
    "sum:values": (
        [("nums", "integer[]")],
        ["1 <= nums.length <= 50", "1 <= nums[i] <= 1000", "sum(nums[i]) <= 120"],
    ),
    "pins:grid": (
        [("grid", "integer[][]")],
        [
            "m == grid.length",
            "n == grid[i].length",
            "2 <= m, n <= 20",
            "0 <= grid[i][j] <= 10^5",
            "grid[0][0] == grid[m - 1][n - 1] == 0",
        ],
    ),
    "pins:distinct-string": (
        [("s", "string")],
        ["1 <= s.length <= 26", "s consists of distinct lowercase English letters.", "s[0] == 'q'"],
    ),
    "no-leading-zeros:strings": (
        [("num1", "string"), ("num2", "string")],
        [
            "1 <= num1.length, num2.length <= 6",
            "num1 and num2 consist of only digits",
            "num1 and num2 don't have any leading zeros except for the zero itself",
        ],
    ),
    "product-of-sizes": (
        [("grid", "integer[][]")],
        [
            "m == grid.length",
            "n == grid[i].length",
            "1 <= m, n <= 10^5",
            "2 <= m * n <= 10^5",
            "1 <= grid[i][j] <= 10^9",
        ],
    ),
    "spaced-words": (
        [("s", "string")],
        [
            "1 <= s.length <= 12",
            "s consists of lowercase English letters and spaces ' '",
            "s does not contain any leading or trailing spaces",
            "All the words in s are separated by a single space",
            "There will be at least one word in s",
        ],
    ),
    "no-leading-zeros:digits": (
        [("digits", "integer[]")],
        [
            "1 <= digits.length <= 6",
            "0 <= digits[i] <= 9",
            "digits does not contain any leading 0's",
        ],
    ),
    "value-set": (
        [("x", "integer"), ("nums", "integer[]")],
        ["1 <= nums.length <= 10", "nums[i] is either 0, 1, or 2", "0 <= x <= 5"],
    ),
    "floats": ([("xs", "double[]")], ["1 <= xs.length <= 10", "-1.5 <= xs[i] < 2.5"]),
    "scalars": (
        [("x", "double"), ("flag", "boolean"), ("c", "character")],
        ["-100.0 < x < 100.0", "c is a lowercase English letter."],
    ),
    "booleans": ([("bs", "boolean[]")], ["1 <= bs.length <= 10"]),
    "distinct-chars": (
        [("cs", "character[]")],
        [
            "1 <= cs.length <= 10",
            "cs[i] is a lowercase English letter.",
            "All the values of cs are unique.",
        ],
    ),
    "nested-strings": (
        [("g", "list<list<string>>")],
        [
            "1 <= g.length <= 5",
            "1 <= g[i].length <= 4",
            "1 <= g[i][j].length <= 3",
            "g[i][j] consists of lowercase English letters.",
        ],
    ),
    "distinct-in-string": (
        [("s", "string")],
        [
            "1 <= s.length <= 26",
            "s consists of lowercase English letters.",
            "All the characters of s are unique.",
        ],
    ),
    "distinct-per-row": (
        [("nums", "integer[][]")],
        [
            "1 <= nums.length <= 10",
            "1 <= nums[i].length <= 10",
            "1 <= nums[i][j] <= 100",
            "All the values of nums[i] are unique.",
        ],
    ),
    "distinct-strings": (
        [("words", "string[]")],
        [
            "1 <= words.length <= 10",
            "1 <= words[i].length <= 2",
            "words[i] consists of 'a' and 'b'.",
            "All the strings of words are unique.",
        ],
    ),
    "sorted-lists-with-a-sum": (
        [("lists", "ListNode[]")],
        [
            "k == lists.length",
            "0 <= k <= 10^3",
            "0 <= lists[i].length <= 500",
            "-10^4 <= lists[i][j] <= 10^4",
            "lists[i] is sorted in non-decreasing order.",
            "The sum of lists[i].length will not exceed 300.",
        ],
    ),
    "hidden-n": (
        [("nums", "integer[]")],
        ["1 <= n <= 10^5", "nums.length == n + 1", "1 <= nums[i] <= n"],
    ),
    "parity-and-exclusions": (
        [("nums", "integer[]"), ("k", "integer")],
        [
            "n == nums.length",
            "2 <= n <= 10^5",
            "n is even.",
            "-10^5 <= nums[i] <= 10^5",
            "nums[i] != 0",
            "1 <= k <= 3 * 10^4",
            "k is a multiple of 3",
        ],
    ),
    "src-dst": (
        [("n", "integer"), ("src", "integer"), ("dst", "integer")],
        ["2 <= n <= 5", "0 <= src, dst < n", "src != dst"],
    ),
    "min-bound": (
        [("nums", "integer[]"), ("k", "integer")],
        ["1 <= nums.length <= 10^5", "1 <= k <= min(50, nums.length)", "0 <= nums[i] <= 9"],
    ),
    "half-length": (
        [("s", "string"), ("k", "integer")],
        [
            "2 <= s.length <= 10^4",
            "1 <= k <= s.length / 2",
            "s consists of lowercase English letters.",
        ],
    ),
    "sum-of-lengths": (
        [("words", "string[]")],
        [
            "1 <= words.length <= 10^4",
            "1 <= words[i].length <= 30",
            "1 <= sum(words[i].length) <= 300",
            "words[i] consists of lowercase English letters.",
        ],
    ),
    "edges": (
        [("n", "integer"), ("edges", "integer[][]")],
        [
            "2 <= n <= 100",
            "1 <= edges.length <= 1000",
            "edges[i] = [u_i, v_i, w_i]",
            "0 <= u_i, v_i < n",
            "u_i != v_i",
            "1 <= w_i <= 10^6",
            "There are no repeated edges.",
        ],
    ),
    "queries": (
        [("nums", "integer[]"), ("queries", "integer[][]")],
        [
            "1 <= nums.length <= 10^5",
            "0 <= nums[i] <= 10^9",
            "1 <= queries.length <= 10^5",
            "queries[i] = [l_i, r_i]",
            "0 <= l_i <= r_i < nums.length",
        ],
    ),
    "points": (
        [("points", "integer[][]")],
        [
            "1 <= points.length <= 300",
            "points[i].length == 2",
            "-10^4 <= x_i, y_i <= 10^4",
            "All the points are unique.",
            "points[i] = [x_i, y_i]",
        ],
    ),
    "intervals": (
        [("intervals", "integer[][]")],
        [
            "1 <= intervals.length <= 10^4",
            "intervals[i].length == 2",
            "intervals[i] = [start_i, end_i]",
            "0 <= start_i < end_i <= 10^4",
        ],
    ),
    "permutation": (
        [("nums", "integer[]")],
        [
            "n == nums.length",
            "1 <= n <= 10^5",
            "nums is a permutation of integers from 0 to n - 1.",
        ],
    ),
    "bst": (
        [("root", "TreeNode")],
        [
            "The number of nodes in the tree is in the range [1, 10^4].",
            "-10^4 <= Node.val <= 10^4",
            "root is guaranteed to be a valid binary search tree.",
        ],
    ),
    "strictly-decreasing": (
        [("nums", "integer[]")],
        [
            "1 <= nums.length <= 10^4",
            "-10^4 <= nums[i] <= 10^4",
            "nums is sorted in strictly decreasing order.",
        ],
    ),
    "grid-values-by-size": (
        [("m", "integer"), ("grid", "integer[][]")],
        ["m == grid.length", "n == grid[i].length", "1 <= m, n <= 20", "0 <= grid[i][j] <= m + n"],
    ),
}

# Rows whose pairs share a field: the runtime once enforced each pair [a, b, op] once, in order,
# and never checked the earlier ones again, so a later pair that redrew or swapped the shared field
# could break an earlier one (seed 0 showed it for each; the checker found it). Fixed in
# runtime._draw_rows, which draws a row again when a pair no longer holds.
SHARED_FIELD_PAIRS: dict[str, list[str]] = {
    "ne-then-ordered": ["a_i != b_i", "b_i <= c_i"],  # the swap of b and c makes a == b
    "ne-then-ne": ["a_i != b_i", "c_i != b_i"],  # b redrawn for c != b lands on a
    "ordered-then-ne": ["b_i <= c_i", "a_i != b_i"],  # b redrawn for a != b lands above c
}
for _name, _pairs in SHARED_FIELD_PAIRS.items():
    FEATURES["shared-field:" + _name] = (
        [("rows", "integer[][]")],
        ["1 <= rows.length <= 50", "rows[i] = [a_i, b_i, c_i]", "0 <= a_i, b_i, c_i < 4", *_pairs],
    )


def all_valid(spec: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Every input the runtime gives for ``spec`` that the checker rejects: 40 random draws
    with small sizes and 10 at the default cap, the edge cases of the emitted generator, and a
    perf input (sizes at the scale) in each structured variant the worst-case search tries."""
    bad: list[tuple[str, list[str]]] = []

    def check(label: str, args: list[Any]) -> None:
        problems = check_input(spec, args)
        if problems:
            bad.append((label, problems[:3]))

    for seed in range(50):
        check(f"seed {seed}", sample_spec(spec, seed, 60 if seed < 40 else 1000))
    namespace: dict[str, Any] = {}
    exec(
        compile(emit_generator(spec, 1000), "gen.py", "exec", dont_inherit=True), namespace
    )  # our own generated code
    state = random.getstate()
    try:
        for seed in (1, 2):
            random.seed(seed)
            edges = namespace["generate_edge_cases"]()
            assert edges, "no edge case at all"
            for i, case in enumerate(edges):
                check(f"edge case {i} (seed {seed})", case)
    finally:
        random.setstate(state)
    for variant in [None, *perf_variants(spec)]:
        try:
            args = sample_spec(spec, 3, 40, mode="max", pattern=variant)
        except RuntimeError:
            continue  # a variant the sizes leave no room for: nothing drawn, nothing to check
        check(f"perf {variant and variant['label']}", args)
    return bad


@pytest.mark.parametrize("slug", sorted(corpus_specs()))
def test_corpus_inputs_pass_the_checker(slug: str) -> None:
    assert not all_valid(corpus_specs()[slug])


def test_the_corpus_gives_specs() -> None:
    specs = corpus_specs()
    assert sum(1 for s in specs if not s.startswith("wording:")) >= 30
    assert sum(1 for s in specs if s.startswith("wording:")) >= 8


@pytest.mark.parametrize(
    "name",
    sorted(FEATURES),
)
def test_feature_inputs_pass_the_checker(name: str) -> None:
    spec = spec_of(*FEATURES[name])
    assert not all_valid(spec)


# The reproducer of the shared-field pairs bug as a literal spec (what build_spec gives for "0 <= a_i, b_i, c_i < 4",
# "a_i != b_i", "c_i != b_i"): sample_spec(spec, 0, 60) holds a row with a_i == b_i.
PAIRS_BUG_SPEC: dict[str, Any] = {
    "quantities": [
        {
            "name": "rows.length",
            "label": "rows.length",
            "size": True,
            "bounds": [
                {"coef": 1, "rest": 0, "text": "a length or count is at least 0"},
                {"coef": 1, "rest": -1, "text": "1 <= rows.length <= 50"},
                {"coef": -1, "rest": 50, "text": "1 <= rows.length <= 50"},
            ],
        }
    ],
    "params": [
        {
            "name": "rows",
            "type": "integer[][]",
            "kind": "list",
            "dims": [{"q": "rows.length"}, {"name": "rows[i].length", "lo": 3, "hi": 3}],
            "join": False,
            "sorted": None,
            "distinct": None,
            "leaf": {"type": "int", "lo": [0], "hi": [3]},
            "cols": [{"type": "int", "lo": [0], "hi": [3]}] * 3,
            "fields": ["a_i", "b_i", "c_i"],
            "pairs": [[0, 1, "!="], [2, 1, "!="]],
        }
    ],
}


def test_the_pairs_bug_spec_is_what_the_synthesizer_builds() -> None:
    assert spec_of(*FEATURES["shared-field:ne-then-ne"]) == PAIRS_BUG_SPEC


def test_tree_edges_form_one_tree_and_a_cycle_or_a_missing_edge_is_caught() -> None:
    """``edges represents a valid tree``: the rows are the edges of one tree over [0, n - 1]."""
    spec = spec_of(
        [("n", "integer"), ("edges", "integer[][]")],
        [
            "2 <= n <= 40",
            "edges.length == n - 1",
            "edges[i] = [a_i, b_i, w_i]",
            "0 <= a_i, b_i < n",
            "1 <= w_i <= 9",
            "The input is generated such that edges represents a valid tree.",
        ],
    )
    (edges_spec,) = [p for p in spec["params"] if p["name"] == "edges"]
    assert edges_spec.get("tree_edges") is True
    assert not all_valid(spec)
    n, edges = sample_spec(spec, 5, 60)
    assert n >= 3, "seed 5 draws a tree with two edges at least"
    cycle = [list(e) for e in edges]
    cycle[0][:2] = [cycle[1][0], cycle[1][1]]  # the same edge twice: a cycle, a node cut off
    assert any("closes a cycle" in line for line in check_input(spec, [n, cycle]))
    assert any("edges for the" in line for line in check_input(spec, [n + 1, edges]))


def test_a_leading_zero_is_caught_and_a_lone_zero_only_where_allowed() -> None:
    ok = spec_of(*FEATURES["no-leading-zeros:strings"])
    strict = spec_of(*FEATURES["no-leading-zeros:digits"])
    assert check_input(ok, ["0", "10"]) == []  # the zero itself is excepted
    assert any("num2 = '012' has a leading zero" in x for x in check_input(ok, ["7", "012"]))
    assert any("has a leading zero" in x for x in check_input(strict, [[0]]))
    assert any("has a leading zero" in x for x in check_input(strict, [[0, 3]]))
    assert check_input(strict, [[3, 0]]) == []


def test_spaces_against_a_rule_are_caught() -> None:
    spec = spec_of(*FEATURES["spaced-words"])
    assert spec["params"][0]["spaces"] == ["single", "trim", "word"]
    assert check_input(spec, ["ab c d"]) == []
    assert any("leading or trailing space" in x for x in check_input(spec, [" ab"]))
    assert any("two spaces in a row" in x for x in check_input(spec, ["a  b"]))
    assert any("holds no word" in x for x in check_input(spec, [" "]))


def test_a_product_out_of_its_bounds_is_caught() -> None:
    spec = spec_of(*FEATURES["product-of-sizes"])
    assert check_input(spec, [[[1, 2, 3]]]) == []
    assert any("breaks 2 <= " in x for x in check_input(spec, [[[1]]]))  # 1 * 1 < 2


def test_the_pairs_bug_reproducer() -> None:
    assert check_input(PAIRS_BUG_SPEC, sample_spec(PAIRS_BUG_SPEC, 0, 60)) == []


# -- mutations: one broken constraint at a time ---------------------------------------------------


def valid(spec: dict[str, Any], ok: Any = lambda args: True) -> list[Any]:
    """A valid input (first seed whose input ``ok`` accepts), checked clean."""
    for seed in range(200):
        args = sample_spec(spec, seed, 60)
        if ok(args):
            assert check_input(spec, args) == []
            return copy.deepcopy(args)
    raise AssertionError("no seed gives a suitable input")


def reports(spec: dict[str, Any], args: list[Any], *fragments: str) -> list[str]:
    """The checker's lines for ``args``: at least one, and one holding every fragment."""
    problems = check_input(spec, args)
    assert problems, "the broken input passed"
    assert any(all(f in p for f in fragments) for p in problems), problems
    return problems


INT_ARRAY = ([("nums", "integer[]")], ["1 <= nums.length <= 10^4", "-1000 <= nums[i] <= 1000"])


def test_an_int_array_with_a_range() -> None:
    spec = spec_of(*INT_ARRAY)
    args = valid(spec, lambda a: len(a[0]) >= 3)
    bad = copy.deepcopy(args)
    bad[0][1] = 1001
    reports(spec, bad, "nums[1] = 1001", "outside [-1000, 1000]")
    bad[0][1] = -1001
    reports(spec, bad, "nums[1] = -1001", "outside")
    assert check_input(spec, [[]]) == [
        "nums.length = 0 breaks 1 <= nums.length <= 10^4 (needs >= 1)"
    ]
    reports(spec, [[0] * 10001], "nums.length = 10001", "1 <= nums.length <= 10^4", "<= 10000")
    assert check_input(spec, [[0] * 5000]) == []  # above the size cap, within the statement
    bad = copy.deepcopy(args)
    bad[0][0] = True
    reports(spec, bad, "nums[0] = True", "not an integer")
    bad[0][0] = 1.5
    reports(spec, bad, "nums[0] = 1.5", "not an integer")
    reports(spec, [5], "nums = 5", "not a list")
    reports(spec, [[1, 2], 3], "2 arguments", "nums")
    many = check_input(spec, [[5000] * 20])
    assert len(many) == 6 and many[-1] == "nums: 15 more values outside their domain"


def test_a_distinct_array() -> None:
    spec = spec_of(
        [("nums", "integer[]")],
        [
            "1 <= nums.length <= 10^4",
            "-1000 <= nums[i] <= 1000",
            "All the values of nums are unique.",
        ],
    )
    args = valid(spec, lambda a: len(a[0]) >= 3)
    args[0][2] = args[0][0]
    reports(spec, args, "nums[2]", "repeats nums[0]")


def test_a_sorted_array() -> None:
    spec = spec_of(
        [("nums", "integer[]")],
        [
            "1 <= nums.length <= 10^4",
            "-1000 <= nums[i] <= 1000",
            "nums is sorted in non-decreasing order.",
        ],
    )
    args = valid(spec, lambda a: len(set(a[0])) >= 3)
    args[0].reverse()
    reports(spec, args, "nums is not sorted ascending")
    desc = spec_of(*FEATURES["strictly-decreasing"])
    args = valid(desc, lambda a: len(a[0]) >= 3)
    args[0].sort()
    reports(desc, args, "nums is not sorted descending")
    args[0].sort(reverse=True)
    args[0][1] = args[0][0]
    reports(desc, args, "nums[1]", "repeats nums[0]")  # strictly: distinct as well


def test_an_order_between_neighbours_is_checked_as_sortedness() -> None:
    """``t[i] < t[i+1]`` is read as strictly increasing: a reversed or repeated pair is caught."""
    spec = spec_of(
        [("t", "integer[]")], ["1 <= t.length <= 50", "1 <= t[i] <= 10^4", "t[i] < t[i+1]"]
    )
    args = valid(spec, lambda a: len(a[0]) >= 3)
    bad = copy.deepcopy(args)
    bad[0][0], bad[0][1] = bad[0][1], bad[0][0]
    reports(spec, bad, "t is not sorted ascending")
    bad = copy.deepcopy(args)
    bad[0][1] = bad[0][0]
    reports(spec, bad, "t[1]", "repeats t[0]")


def test_values_apart_are_checked() -> None:
    """``nums[i] != nums[i + 1]`` and ``edges[i] != i``: an equal neighbour, or a value at its
    own index, is caught."""
    spec = spec_of(
        [("nums", "integer[]")],
        ["2 <= nums.length <= 50", "1 <= nums[i] <= 9", "nums[i] != nums[i + 1] for all valid i."],
    )
    assert spec["params"][0]["apart"] == ["next"]
    args = valid(spec, lambda a: len(a[0]) >= 3)
    args[0][2] = args[0][1]
    reports(spec, args, "nums[2]", "equals nums[1]")
    spec = spec_of(
        [("edges", "integer[]")],
        ["n == edges.length", "2 <= n <= 50", "-1 <= edges[i] < n", "edges[i] != i"],
    )
    args = valid(spec, lambda a: len(a[0]) >= 3)
    args[0][1] = 1
    reports(spec, args, "edges[1] = 1 equals its own index")


def test_fixed_positions_are_checked() -> None:
    spec = spec_of(
        [("grid", "integer[][]")],
        [
            "m == grid.length",
            "n == grid[i].length",
            "1 <= m, n <= 6",
            "0 <= grid[i][j] <= 1",
            "grid[0][0] == grid[m - 1][n - 1] == 0",
        ],
    )
    assert spec["params"][0]["pins"] == [[[0, 0], 0], [[-1, -1], 0]]
    args = valid(spec, lambda a: len(a[0]) >= 2)
    args[0][-1][-1] = 1
    reports(spec, args, f"grid[{len(args[0]) - 1}][{len(args[0][0]) - 1}] = 1, not 0")
    spec = spec_of([("s", "string")], ["1 <= s.length <= 9", "s[i] is '0' or '1'.", "s[0] == '1'"])
    reports(spec, ["01"], "s[0] = '0', not '1'")
    assert check_input(spec, ["10"]) == []


def test_distinct_values_of_one_field_are_checked() -> None:
    spec = spec_of(
        [("rows", "integer[][]")],
        [
            "1 <= rows.length <= 40",
            "rows[i] = [id_i, h_i]",
            "1 <= id_i <= 60",
            "0 <= h_i <= 1",
            "All id_i are distinct.",
        ],
    )
    assert spec["params"][0]["distinct_cols"] == [0]
    args = valid(spec, lambda a: len(a[0]) >= 3)
    args[0][2][0] = args[0][0][0]
    reports(spec, args, "rows[2][0] (id_i)", "repeats rows[0][0]")


def test_a_bound_by_a_product_of_quantities_is_checked() -> None:
    spec = spec_of(
        [("n", "integer"), ("edges", "integer[][]")],
        [
            "2 <= n <= 9",
            "0 <= edges.length <= n * (n - 1) / 2",
            "edges[i].length == 2",
            "0 <= edges[i][0], edges[i][1] < n",
        ],
    )
    item = next(i for i in spec["quantities"] if i["name"] == "edges.length")
    assert item["poly"][0]["num"] == ["*", "n", ["-", "n", 1]] and item["poly"][0]["den"] == 2
    assert check_input(spec, [3, [[0, 1], [1, 2], [0, 2]]]) == []
    reports(
        spec, [3, [[0, 1], [1, 2], [0, 2], [0, 0]]], "edges.length = 4 breaks", "n * (n - 1) / 2"
    )
    spec = spec_of(
        [("n", "integer"), ("s", "integer[]")], ["1 <= n <= 9", "s.length == 2^n", "0 <= s[i] <= 1"]
    )
    assert check_input(spec, [2, [0, 1, 1, 0]]) == []
    reports(spec, [2, [0, 1, 1]], "s.length = 3 breaks s.length == 2^n")


def test_a_sum_of_values_is_checked() -> None:
    spec = spec_of(
        [("nums", "integer[]")],
        ["1 <= nums.length <= 20", "0 <= nums[i] <= 1000", "0 <= sum(nums[i]) <= 100"],
    )
    assert spec["params"][0]["values_sum_max"] == 100
    assert check_input(spec, [[50, 50]]) == []
    reports(spec, [[50, 51]], "nums: its values sum to 101, above 100")


def test_distinct_characters_of_a_string_are_checked() -> None:
    spec = spec_of(
        [("s", "string")],
        ["1 <= s.length <= 26", "s consists of distinct lowercase English letters."],
    )
    args = valid(spec, lambda a: len(a[0]) >= 2)
    reports(spec, [args[0][0] * 2], "repeats")


def test_a_string_with_an_alphabet_and_a_length_bound() -> None:
    spec = spec_of(
        [("s", "string")],
        ["1 <= s.length <= 100", "s consists of lowercase English letters."],
    )
    args = valid(spec, lambda a: len(a[0]) >= 2)
    reports(spec, [args[0][:1] + "A" + args[0][2:]], "s[1] = 'A'", "not in the alphabet")
    reports(spec, [""], "s.length = 0 breaks 1 <= s.length <= 100")
    reports(spec, ["a" * 101], "s.length = 101 breaks 1 <= s.length <= 100")
    reports(spec, [list(args[0])], "s = [", "is not a string")
    words = spec_of(*FEATURES["distinct-strings"])
    args = valid(words, lambda a: len(a[0]) >= 2)
    reports(words, [[args[0][0], args[0][0]]], "words[1]", "repeats words[0]")
    reports(words, [["abb"]], "words[0].length = 3", "outside [1, 2]")
    reports(words, [["ac"]], "words[0][1] = 'c'", "alphabet")


def test_per_item_lengths_and_their_sum() -> None:
    spec = spec_of(*FEATURES["sum-of-lengths"])
    reports(spec, [["a" * 30] * 11], "words: the lengths words[i].length sum to 330, above 300")
    reports(spec, [["a" * 31]], "words[0].length = 31", "outside [1, 30]")
    lists = spec_of(*FEATURES["sorted-lists-with-a-sum"])
    reports(lists, [[[1, 2], [3, 1]]], "lists[1] is not sorted ascending")
    assert check_input(lists, [[[1, 2], [], [-5, 5]]]) == []


def test_a_grid_with_a_shared_row_length() -> None:
    spec = spec_of(
        [("grid", "character[][]")],
        [
            "m == grid.length",
            "n == grid[i].length",
            "1 <= m, n <= 300",
            "grid[i][j] is '0' or '1'.",
        ],
    )
    args = valid(spec, lambda a: len(a[0]) >= 2 and len(a[0][0]) >= 2)
    ragged = copy.deepcopy(args)
    ragged[0][1].pop()
    reports(spec, ragged, "grid[1].length", "grid[0].length", "(both are n)")
    bad = copy.deepcopy(args)
    bad[0][0][0] = "2"
    reports(spec, bad, "grid[0][0] = '2'", "alphabet")
    bad[0][0][0] = 1
    reports(spec, bad, "grid[0][0] = 1", "not a single character")
    reports(spec, [["01"]], "grid[0] = '01'", "not a list")


def _depth(arr: list[Any]) -> int:
    """The depth of a level-order tree (the root at 1)."""
    depth = {0: 1} if arr else {}
    queue, slot = ([0] if arr else []), 1
    for node in queue:
        for _ in range(2):
            if slot < len(arr) and arr[slot] is not None:
                depth[slot] = depth[node] + 1
                queue.append(slot)
            slot += 1
    return max(depth.values(), default=0)


def test_a_tree_no_deeper_than_its_stated_depth() -> None:
    """``The depth of the tree will not exceed 5``: every draw (random, edge, perf at scale
    1000) at most 5 deep, so at most 31 nodes; some reach 5; a deeper tree is caught."""
    spec = spec_of(*FEATURES["tree:depth"])
    assert spec["params"][0]["depth_max"] == 5
    depths = set()
    for seed in range(200):
        (root,) = sample_spec(spec, seed, 60)
        assert _depth(root) <= 5 and sum(v is not None for v in root) <= 31, root
        depths.add(_depth(root))
    assert 5 in depths and 1 in depths
    (big,) = sample_spec(spec, 1, 1000, mode="max")
    assert sum(v is not None for v in big) == 31 and _depth(big) == 5
    path = [1, 2, None, 3, None, 4, None, 5, None, 6]
    reports(spec, [path], "depth 6 is above 5")
    assert check_input(spec, [[1, 2, None, 3, None, 4, None, 5]]) == []


def test_words_of_a_set_are_checked() -> None:
    """A list of strings each one of a set of words: another string, or a character list, is
    caught."""
    spec = spec_of(*FEATURES["words:set"])
    args = valid(spec)
    bad = copy.deepcopy(args)
    bad[0][0] = "ad"
    reports(spec, bad, "ops[0] = 'ad'", "words")
    bad[0][0] = ["a", "d", "d"]
    reports(spec, bad, "ops[0]")


def test_a_grid_named_by_its_first_row_is_checked_rectangular() -> None:
    """``grid[0].length``: one length for every row, so a jagged grid breaks it."""
    spec = spec_of(*FEATURES["grid:first-row"])
    args = valid(spec, lambda a: len(a[0]) >= 2 and len(a[0][0]) >= 2)
    ragged = copy.deepcopy(args)
    ragged[0][1].pop()
    reports(spec, ragged, "grid[1].length", "grid[0].length")


def test_rows_of_fields_with_an_ordered_pair() -> None:
    spec = spec_of(*FEATURES["intervals"])
    args = valid(spec, lambda a: len(a[0]) >= 2)
    args[0][1].reverse()
    reports(spec, args, "intervals[1] = [", "breaks start_i < end_i")
    args[0][1] = [5, 5]
    reports(spec, args, "intervals[1] = [5, 5] breaks start_i < end_i")
    args[0][1] = [5, 10**4 + 1]
    reports(spec, args, "intervals[1][1] (end_i) = 10001", "outside [0, 10000]")
    args[0][1] = [5, 6, 7]
    reports(spec, args, "intervals[1].length = 3", "outside [2, 2]")


def test_rows_that_differ_and_are_unique() -> None:
    spec = spec_of(*FEATURES["edges"])
    args = valid(spec, lambda a: len(a[1]) >= 2)
    n, edges = args
    edges[1] = [edges[0][1], edges[0][0], edges[0][2]]  # the same row, fields in another order
    reports(spec, args, "edges[1] = [", "repeats edges[0]")
    edges[1] = [0, 0, 1]
    reports(spec, args, "edges[1] = [0, 0, 1] breaks u_i != v_i")
    edges[1] = [0, n, 1]
    reports(spec, args, f"edges[1][1] (v_i) = {n}", f"outside [0, {n - 1}]")


def test_a_tree() -> None:
    spec = spec_of(
        [("root", "TreeNode")],
        ["The number of nodes in the tree is in the range [1, 100].", "-100 <= Node.val <= 100"],
    )
    assert check_input(spec, [[1, None, 2, 3]]) == []
    assert check_input(spec, [[1, 2, None, 3, None, 4]]) == []
    reports(spec, [[1, None, None, 2]], "root: 1 item(s) after the last node's child slots")
    reports(spec, [[None, 1]], "root = [None, 1]", "cannot start with None")
    reports(spec, [[1, 2, 101]], "root[2] = 101", "outside [-100, 100]")
    reports(spec, [[]], "root.nodes = 0 breaks The number of nodes in the tree is in the range")
    reports(spec, [list(range(101))], "root.nodes = 101")
    reports(spec, [[1, "x"]], "root[1] = 'x'", "not an integer")


def test_a_binary_search_tree() -> None:
    spec = spec_of(*FEATURES["bst"])
    args = valid(spec, lambda a: len([x for x in a[0] if x is not None]) >= 3)
    assert check_input(spec, [[2, 1, 3]]) == []
    reports(spec, [[2, 3, 1]], "root is not a binary search tree: in order, 3 comes before 2")
    reports(spec, [[2, 1, 2]], "root is not a binary search tree")  # strict: distinct values
    tree = args[0]
    nodes = [i for i, x in enumerate(tree) if x is not None]
    tree[nodes[0]], tree[nodes[-1]] = tree[nodes[-1]], tree[nodes[0]]
    reports(spec, args, "root is not a binary search tree")


def test_quantities_relations_remainders_and_exclusions() -> None:
    spec = spec_of(
        [("nums", "integer[]"), ("k", "integer")],
        ["1 <= k <= nums.length <= 10^5", "-10^4 <= nums[i] <= 10^4"],
    )
    reports(
        spec,
        [[1, 2], 3],
        "k = 3 breaks 1 <= k <= nums.length <= 10^5 (needs <= 2, nums.length = 2)",
    )
    reports(spec, [[1, 2], "2"], "k = '2' is not an integer")
    spec = spec_of(*FEATURES["parity-and-exclusions"])
    reports(spec, [[1, 2, 3], 3], "n (= nums.length) = 3 breaks n % 2 == 0")
    reports(spec, [[1, 0], 3], "nums[1] = 0 is an excluded value")
    reports(spec, [[1, 2], 4], "k = 4 breaks k % 3 == 0")
    spec = spec_of(*FEATURES["src-dst"])
    reports(spec, [3, 1, 1], "= 1 breaks src != dst")
    reports(spec, [3, 1, 3], "n = 3 breaks 0 <= src, dst < n (needs >= 4, dst = 3)")


def test_hidden_quantities_solved_from_an_equality() -> None:
    spec = spec_of(
        [("nums", "integer[]")],
        ["1 <= n <= 10^4", "nums.length == 2 * n", "-10^4 <= nums[i] <= 10^4"],
    )
    assert check_input(spec, [[1, 2, 3, 4]]) == []
    reports(spec, [[1, 2, 3]], "n cannot be an integer: breaks nums.length == 2 * n")
    reports(spec, [[]], "n = 0 breaks 1 <= n <= 10^4")
    spec = spec_of(*FEATURES["hidden-n"])
    assert check_input(spec, [[1, 2, 2]]) == []  # n = 2: values in [1, 2]
    reports(spec, [[1, 3, 2]], "nums[1] = 3", "outside [1, 2]")
    unsolved = copy.deepcopy(spec)
    for item in unsolved["quantities"]:
        item["bounds"] = [b for b in item["bounds"] if "==" not in b["text"]]
    assert check_input(unsolved, [[1, 3, 2]]) == []  # n unknown: the bound on values is skipped


def test_floats_booleans_characters_and_value_sets() -> None:
    spec = spec_of(*FEATURES["scalars"])
    assert check_input(spec, [99.5, False, "q"]) == []
    reports(spec, [100.0, False, "q"], "x = 100.0 is not < 100.0")
    reports(spec, [-100.0, False, "q"], "x = -100.0 is not > -100.0")
    reports(spec, [1.0, 1, "q"], "flag = 1 is not a boolean")
    reports(spec, [1.0, True, "qq"], "c = 'qq' is not a single character")
    reports(spec, [1.0, True, "Q"], "c = 'Q' is not in the alphabet")
    spec = spec_of(*FEATURES["value-set"])
    reports(spec, [0, [0, 3]], "nums[1] = 3 is not one of [0, 1, 2]")
    spec = spec_of(*FEATURES["distinct-per-row"])
    assert check_input(spec, [[[1, 2], [1, 2]]]) == []  # distinct within each row only
    reports(spec, [[[1, 2], [2, 2]]], "nums[1][1]", "repeats nums[1][0]")


# -- the spec of an emitted generator --------------------------------------------------------------


def test_spec_from_generator_reads_back_the_spec() -> None:
    specs = corpus_specs()
    chosen = [specs["count-islands"], specs["wording:course-schedule"], spec_of(*FEATURES["bst"])]
    chosen += [spec_of(*FEATURES["parity-and-exclusions"]), spec_of(*FEATURES["floats"])]
    for spec in chosen:
        code = emit_generator(spec, 1000, extra_entry="def perf_input_gen(scale):\n    return 1\n")
        assert spec_from_generator(code) == spec
    assert spec_from_generator("def generate_test_case():\n    return [1]\n") is None
    assert spec_from_generator("SPEC = make_spec()\n") is None
    assert spec_from_generator("def f(:\n") is None
    assert spec_from_generator("def f():\n    SPEC = {'params': []}\n") is None
    assert spec_from_generator("SPEC = {'a': 1}\nSPEC = {'b': 2}\n") == {"b": 2}
    assert spec_from_generator("SPEC = {'a': 1}\nSPEC = dict(SPEC)\n") is None


def test_the_checker_does_not_use_the_runtime() -> None:
    """A second implementation: the checker and its parts (checker_*.py: relations, characters)
    import nothing from the generator's runtime."""
    here = ROOT / "quicksilver" / "synth" / "offline"
    parts = sorted(here.glob("checker_*.py"))
    assert {p.name for p in parts} >= {
        "checker_relations.py",
        "checker_chars.py",
        "checker_forms.py",
    }
    # the standard library, the project's thread-safe ast.parse (quicksilver/astparse.py) and
    # the checker's own parts
    allowed = {"__future__", "ast", "itertools", "math", "dataclasses", "typing", "quicksilver"}
    allowed |= {"datetime", "operator", "re"}
    allowed |= {f"quicksilver.synth.offline.{p.stem}" for p in parts}
    for path in [here / "checker.py", *parts]:
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                imported.add(node.module or "")
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names}
        assert imported <= allowed, (path.name, imported - allowed)


def test_a_permutation_of_the_letters_from_the_description_is_checked() -> None:
    """``The order of the alphabet is some permutation of lowercase letters`` (description only):
    the checker passes the drawn orders and flags one with a letter twice (one missing), as the
    generator drew before the sentence was read."""
    inp = question(
        [("words", "string[]"), ("order", "string")],
        [
            "1 <= words.length <= 100",
            "1 <= words[i].length <= 20",
            "order.length == 26",
            "All characters in words[i] and order are English lowercase letters.",
        ],
    )
    prose = "<p>The order of the alphabet is some permutation of lowercase letters.</p>"
    result = build_spec(SynthInput(**{**inp.__dict__, "content_html": prose + inp.content_html}))
    assert result.spec is not None, result.problems
    spec = result.spec
    for seed in range(20):
        args = sample_spec(spec, seed)
        assert check_input(spec, args) == [], args
    words, order = sample_spec(spec, 0)
    broken = order[0] + order[:-1]  # the first letter twice, the last one gone
    assert any("order" in p for p in check_input(spec, [words, broken]))
    assert check_input(spec, [words, order[1:]])  # 25 letters


def test_a_scalar_grown_with_the_scale_leaves_room_for_the_ones_after_it() -> None:
    # left is bounded only through right (left <= right < words.length): in max mode left grew
    # with the scale to the cap, past every index of words at that scale, and the perf input
    # raised "could not satisfy the size constraints in 200 draws" at every scale below 1000
    from tests.synthkit import question, spec_of

    spec = spec_of(
        question(
            [("words", "string[]"), ("left", "integer"), ("right", "integer")],
            [
                "1 <= words.length <= 1000",
                "1 <= words[i].length <= 10",
                "words[i] consists of only lowercase English letters.",
                "0 <= left <= right < words.length",
            ],
        )
    )
    for scale in (1, 10, 100, 1000):
        words, left, right = sample_spec(spec, 0, scale, mode="max")
        assert len(words) == min(scale, 1000)  # the sizes still at the top
        assert 0 <= left <= right < len(words)
        assert check_input(spec, [words, left, right]) == []
