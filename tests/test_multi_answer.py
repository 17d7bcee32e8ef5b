"""Tasks with several valid answers (issue 15, item 3): the uniqueness stage decides from evidence,
not only from the statement's wording (docs/uniqueness.md).

- a wrong minority in a single-answer task is still dropped as wrong;
- disagreements that look like several valid answers keep the task with a checker (an endpoint
  writes it, the sandbox validates it) or drop it with a reason naming the inputs and answers;
- a correct minority is never dropped as a wrong answer.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from quicksilver.multianswer import (
    answer_key,
    catalog,
    describe_difference,
    extract_checker,
    mine_invariants,
    selection_evidence,
    shared_properties,
)
from quicksilver.pipeline.stage import StageCounts
from tests.conftest import requires_bwrap
from tests.stagekit import uniqueness_for_task

STRING_META = {
    "name": "longestPalindrome",
    "params": [{"name": "s", "type": "string"}],
    "return": {"type": "string"},
}
INT_META = {
    "name": "kthLargest",
    "params": [{"name": "nums", "type": "integer[]"}, {"name": "k", "type": "integer"}],
    "return": {"type": "integer"},
}
LIST_META = {
    "name": "countSmaller",
    "params": [{"name": "nums", "type": "integer[]"}],
    "return": {"type": "integer[]"},
}
PEAK_META = {
    "name": "findPeakElement",
    "params": [{"name": "nums", "type": "integer[]"}],
    "return": {"type": "integer"},
}
LPS = "Given a string s, return the longest palindromic substring in s."


def task(meta: dict[str, Any], statement: str, slug: str = "t", known: Any = None) -> dict:
    return {
        "slug": slug,
        "meta": meta,
        "statement": statement,
        "question": {
            "isPaidOnly": False,
            "metaData": json.dumps(meta),
            "content": f"<p>{statement}</p>",
            "difficulty": "Medium",
            "title": slug,
        },
        "prompt": f"class Solution:\n    def {meta['name']}(self, *args): pass\n",
        "known_tests": known or [],
    }


def run(
    t: dict, answers: list[list[Any]], inputs: list[list[Any]], **kw: Any
) -> tuple[dict | None, list[dict], StageCounts, list[dict]]:
    """The uniqueness decision for solutions #0.. answering ``answers[solution][input]`` (a
    ``("error", msg)`` tuple is a crash)."""
    rows = {
        str(1000 + k): [
            {"status": "error", "value": None, "error": a[1]}
            if isinstance(a, tuple)
            else {"status": "ok", "value": a, "error": None}
            for a in per_input
        ]
        for k, per_input in enumerate(answers)
    }
    record = {
        "slug": t["slug"],
        "seed": 7,
        "base_seed": 1,
        "cases": [{"input": x, "kind": "generated", "seed": j} for j, x in enumerate(inputs)],
        "answers": rows,
        "solutions": [1000 + k for k in range(len(answers))],
    }
    sols = [
        {"slug": t["slug"], "hash": 1000 + k, "position": k, "code": f"# {k}\n"}
        for k in range(len(answers))
    ]
    counts, rejects = StageCounts("uniqueness"), []
    out, kept = uniqueness_for_task(t, record, sols, 1e-5, counts, rejects, **kw)
    return out, kept, counts, rejects


def by_position(rejects: list[dict]) -> dict[int | None, dict]:
    return {r.get("position"): r for r in rejects}


# --- the longest-palindromic-substring pattern ------------------------------------------------


def test_palindrome_alternatives_are_not_wrong_answers_without_a_checker():
    """The issue's case: "aba", "aba", "bab" for "babad", a statement that does not say "any".
    The minority is a valid answer: without an endpoint the task goes, named, none as wrong."""
    out, kept, counts, rejects = run(
        task(STRING_META, LPS), [["aba"], ["aba"], ["bab"]], [["babad"]]
    )
    assert out is None and kept == []
    assert dict(counts.drops) == {"multiple-valid-answers": 1}
    assert not [r for r in rejects if r["reason"] == "wrong-answer"]
    (detail,) = {r["detail"] for r in rejects}
    assert '["babad"]' in detail and "'aba'" in detail and "'bab'" in detail
    assert "a substring of argument 1 (s)" in detail and "no LLM endpoint" in detail
    assert sorted(r.get("position", -1) for r in rejects) == [-1, 0, 1, 2]


def test_palindrome_wrong_length_minority_is_still_wrong():
    """A shorter answer cannot be the longest: it is dropped as wrong, the task kept."""
    out, kept, counts, rejects = run(
        task(STRING_META, LPS), [["aba"], ["aba"], ["ab"]], [["babad"]]
    )
    assert out is not None and [s["position"] for s in kept] == [0, 1]
    assert dict(counts.drops) == {"wrong-answer": 1}
    assert out["classification"] == "minority-wrong" and out["test_cases"][0]["expected"] == "aba"
    detail = by_position(rejects)[2]["detail"]
    assert "answered 'ab', expected 'aba'" in detail
    assert "length 2, where every credible answer's is 3" in detail


def test_palindrome_same_length_non_palindrome_is_wrong_once_the_property_is_seen():
    """Every credible answer is a palindrome on 4 inputs where it could have failed: an answer of
    the right length that is not one is shown wrong; a valid alternative ("bab") is not."""
    inputs = [["xabay"], ["ccd"], ["abba"], ["racecar"], ["babad"]]
    right = ["aba", "cc", "abba", "racecar", "aba"]
    answers = [right, right, [*right[:4], "bab"], ["xab", *right[1:]]]
    out, _, counts, rejects = run(task(STRING_META, LPS), answers, inputs)
    assert out is None  # "bab" stays a possible answer: no checker, the task goes
    assert dict(counts.drops) == {"wrong-answer": 1, "multiple-valid-answers": 1}
    wrong = by_position(rejects)[3]
    assert wrong["reason"] == "wrong-answer" and "answered 'xab', expected 'aba'" in wrong["detail"]
    assert "not a palindrome, unlike every credible answer" in wrong["detail"]
    task_row = by_position(rejects)[None]
    assert "on 1 input(s)" in task_row["detail"] and "'aba', 'bab'" in task_row["detail"]
    assert by_position(rejects)[2]["reason"] == "multiple-valid-answers"


# --- single-answer tasks: a wrong minority is still wrong -------------------------------------


def test_integer_answer_minority_is_wrong():
    """A scalar answer of a deterministic statement has one value: a different number is wrong,
    even when it is one of the input's values."""
    t = task(INT_META, "Return the kth largest element in the array.")
    answers = [[4, 6]] * 3 + [[3, 6]]
    out, kept, counts, rejects = run(t, answers, [[[3, 1, 4], 1], [[6, 5], 1]])
    assert out is not None and [s["position"] for s in kept] == [0, 1, 2]
    assert dict(counts.drops) == {"wrong-answer": 1}
    assert "answered 3, expected 4 (the majority)" in rejects[0]["detail"]
    assert out["decision"].get("several_answers") is None


def test_computed_list_minority_is_wrong():
    """Counts are computed, not chosen from the input: the vote decides, as before."""
    t = task(LIST_META, "Return counts where counts[i] is the number of smaller elements.")
    inputs = [[[50, 20, 60, 10]], [[70, 30, 80]]]
    good = [[2, 1, 1, 0], [1, 0, 0]]
    out, kept, counts, rejects = run(t, [good, good, good, [[2, 1, 1, 0], [0, 0, 0]]], inputs)
    assert out is not None and len(kept) == 3
    assert dict(counts.drops) == {"wrong-answer": 1}
    assert "answered [0, 0, 0], expected [1, 0, 0]" in rejects[0]["detail"]


# --- a clear vote decides first: several-answers evidence does not undo it ---------------------

GROUPS_META = {
    "name": "groupAnagrams",
    "params": [{"name": "strs", "type": "string[]"}],
    "return": {"type": "list<list<string>>"},
}
GROUPS = (
    "Given an array of words strs, group the anagrams together: a word that occurs twice appears "
    "twice in its group. You may return the answer in any order."
)


def test_a_clear_vote_outranks_a_minority_that_only_shares_the_length():
    """The anagram-groups shape (the messy corpus, #10 iterates over set(strs)): ten solutions
    against one on every disputed input. The one's groups have the right number and are chosen
    from the words, like the ten's, but that is no evidence they are valid: the vote decides, the
    task is kept and the one is a wrong answer (before, it was taken for another valid answer and
    the task dropped as multiple-valid-answers)."""
    inputs = [[["a", "a", "b"]], [["ab", "ba", "ab", "c"]], [["x", "y"]], [["eat", "tea"]]]
    right = [[["a", "a"], ["b"]], [["ab", "ba", "ab"], ["c"]], [["x"], ["y"]], [["eat", "tea"]]]
    keeps_once = [[["a"], ["b"]], [["ab", "ba"], ["c"]], [["x"], ["y"]], [["eat", "tea"]]]
    out, kept, counts, rejects = run(task(GROUPS_META, GROUPS), [right] * 10 + [keeps_once], inputs)
    assert out is not None, rejects[:1]
    assert [s["position"] for s in kept] == list(range(10))
    assert dict(counts.drops) == {"wrong-answer": 1}
    (wrong,) = rejects
    assert wrong["position"] == 10 and "answered [[" in wrong["detail"]
    assert (
        "the majority, 10 to 1 over answers that share what every valid answer shares"
        in (wrong["detail"])
    )
    assert out["classification"] == "minority-wrong"
    decision = out["decision"]
    assert decision["rule"] == "vote, then what every valid answer shares"
    several = decision["several_answers"]
    assert several["evidence"] == [
        "every answer is chosen from the values of argument 1 (strs) (on 4 input(s))"
    ]
    assert several["alternatives_overruled_on"] == 2 and several["alternatives_kept_on"] == 0
    assert decision["decided_by"] == {"majority": 2}


@pytest.mark.parametrize(("leading", "kept_task"), [(3, False), (4, True)])
def test_a_same_length_alternative_is_overruled_only_by_alternative_margin(leading, kept_task):
    """ "aba" against "bab": 3 to 1 may be two valid answers (the task goes, no one wrong);
    4 to 1 (uniqueness.alternative_margin, 4) is a clear vote: "bab" is wrong."""
    answers = [["aba"]] * leading + [["bab"]]
    out, _, counts, rejects = run(task(STRING_META, LPS), answers, [["babad"]])
    if kept_task:
        assert out is not None and dict(counts.drops) == {"wrong-answer": 1}
        assert by_position(rejects)[leading]["reason"] == "wrong-answer"
    else:
        assert out is None and dict(counts.drops) == {"multiple-valid-answers": 1}
        assert not [r for r in rejects if r["reason"] == "wrong-answer"]
        assert "several_answers" in by_position(rejects)[None]["decision"]


def test_wrong_answers_sharing_a_length_do_not_outvote_the_plurality():
    """The right answer has a clear plurality (3 of 7), four wrong ones are each shorter in their
    own way. Weighed on the length alone the four would be a majority; the vote on the answers
    decides first, and the four are wrong."""
    wrong = [["ab"], ["ba"], ["xa"], ["ay"]]
    out, kept, counts, rejects = run(task(STRING_META, LPS), [["aba"]] * 3 + wrong, [["xabay"]])
    assert out is not None and [s["position"] for s in kept] == [0, 1, 2]
    assert out["test_cases"][0]["expected"] == "aba"
    assert dict(counts.drops) == {"wrong-answer": 4}
    assert all("(the plurality: length 2, where" in r["detail"] for r in rejects)


def test_inputs_the_vote_leaves_open_are_weighed_on_the_key_and_every_wrong_one_is_named():
    """#4 is outvoted 4 to 1 on "xabay" and loses its vote; on "babad" the four left split 1/1/1/1:
    the key rules out the two shorter answers (#2 already by the first round's plurality), and
    "bab" / "aba" may both be valid. Every solution shown wrong on the way is a wrong answer,
    whichever step showed it."""
    answers = [["aba", "bab"], ["aba", "aba"], ["aba", "ab"], ["aba", "ba"], ["xab", "bab"]]
    out, _, counts, rejects = run(task(STRING_META, LPS), answers, [["xabay"], ["babad"]])
    assert out is None
    assert dict(counts.drops) == {"wrong-answer": 3, "multiple-valid-answers": 1}
    reasons = {r.get("position"): r["reason"] for r in rejects}
    assert reasons == {
        None: "multiple-valid-answers",
        0: "multiple-valid-answers",
        1: "multiple-valid-answers",
        2: "wrong-answer",
        3: "wrong-answer",
        4: "wrong-answer",
    }
    assert "4 to 1 over answers that share" in by_position(rejects)[4]["detail"]
    decision = by_position(rejects)[None]["decision"]
    assert decision["several_answers"]["undecided_by_vote"] == 1
    assert decision["several_answers"]["alternatives_overruled_on"] == 1


# --- the statement says several answers are accepted ------------------------------------------


def test_any_peak_keeps_correct_minorities_and_drops_only_crashes():
    """ "Return the index of any peak": the numbers differ and are all valid; only the crash is a
    wrong answer (before, the whole task went without telling them apart)."""
    t = task(PEAK_META, "Find a peak element and return its index. You may return any of them.")
    answers = [[1], [1], [3], ("error", "IndexError")]
    out, _, counts, rejects = run(
        t, [a if isinstance(a, list) else [a] for a in answers], [[[1, 3, 2, 5, 4]]]
    )
    assert out is None
    assert dict(counts.drops) == {"wrong-answer": 1, "multiple-valid-answers": 1}
    assert by_position(rejects)[3]["reason"] == "wrong-answer"
    assert by_position(rejects)[2]["reason"] == "multiple-valid-answers"
    assert "the statement accepts any of several answers" in by_position(rejects)[None]["detail"]


def test_undecided_property_is_ambiguous():
    """Two against two on the length of the answer: which length is right cannot be told."""
    out, _, counts, rejects = run(
        task(STRING_META, LPS), [["aba"], ["bab"], ["ab"], ["ba"]], [["babad"]]
    )
    assert out is None and dict(counts.drops) == {"ambiguous-output": 1}
    assert "split 2/2 in what every valid answer shares" in rejects[0]["detail"]


# --- the properties themselves ----------------------------------------------------------------


def test_properties_mined_only_with_enough_inputs_and_selection_always():
    props = catalog(1, ["s"])
    seen = [(["xabay"], ["aba"]), (["abba"], ["abba"]), (["cd"], ["c"])]
    found = shared_properties(props, seen)
    names = {f.prop.name: f.informative_inputs for f in found}
    assert names["a palindrome"] == 2 and names["a substring of argument 1 (s)"] == 3
    assert "a permutation of argument 1 (s)" not in names
    kept = [p.name for p in mine_invariants(found, 3)]
    assert "a palindrome" not in kept  # seen on 2 inputs where it could fail: not enough
    assert "a substring of argument 1 (s)" in kept  # the selection evidence itself
    assert selection_evidence(found) is not None
    assert selection_evidence(shared_properties(props, [(["ab"], ["zz"])])) is None


def test_answer_key_scalars_strings_lists():
    assert answer_key(3, [], "integer", []) != answer_key(4, [], "integer", [])
    assert answer_key(3, [], "integer", [], one_value=False) == answer_key(
        4, [], "integer", [], one_value=False
    )
    assert answer_key("aba", [], "string", []) == answer_key("bab", [], "string", [])
    assert answer_key([1, 2], [], "integer[]", []) != answer_key([1], [], "integer[]", [])
    # two height-balanced search trees of one sorted list (LeetCode 108's example and the answer
    # both accepted solutions of a fresh draw gave): the same 5 nodes, level orders of 6 and 7
    (srt,) = catalog(0)[1:2]
    given = answer_key([0, -3, 9, -10, None, 5], [], "TreeNode", [srt])
    other = answer_key([0, -10, 5, None, -3, None, 9], [], "TreeNode", [srt])
    assert given == other == ["tree", 5]
    assert answer_key([0, -10, 5], [], "TreeNode", []) != given  # a node less
    shared = answer_key([0, -10, 5], [], "TreeNode", [])
    assert describe_difference(given, shared) == "nodes 5, where every credible answer's is 3"


@pytest.mark.parametrize("value", ["abc", [1, 2, 3]])
def test_answer_key_carries_the_invariants(value):
    (pal, srt) = catalog(0)[:2]
    a = answer_key(value, [], "string", [pal, srt])
    b = answer_key(value[::-1], [], "string", [pal, srt])
    assert a != b if isinstance(value, list) else a == b  # "cba" is no palindrome either


# --- kept with a checker the endpoint writes ----------------------------------------------------
#
# The local OpenAI-compatible server (tests/openai_server.py) answers the checker prompt with the
# code each test scripts: a protocol test of asking, extracting and validating in the sandbox.

GOOD_CHECKER = """Here is the checker.

```python
def check_answer(inputs, answer, expected):
    s = inputs[0]
    if not isinstance(answer, str) or answer not in s:
        return False
    return answer == answer[::-1] and len(answer) == len(expected)
```
"""
ACCEPT_ALL = "```python\ndef check_answer(inputs, answer, expected):\n    return True\n```\n"
EQUALITY = (
    "```python\ndef check_answer(inputs, answer, expected):\n    return answer == expected\n```\n"
)

LPS_INPUTS = [["babad"], ["xabay"], ["ccd"], ["racecar"]]
# what the code below answers: 0 and 1 the first longest palindrome, 2 the last, 3 one too short
LPS_ANSWERS = [
    ["bab", "aba", "cc", "racecar"],
    ["bab", "aba", "cc", "racecar"],
    ["aba", "aba", "cc", "racecar"],
    ["ba", "ab", "cc", "raceca"],
]
FIRST_LONGEST = """
class Solution:
    def longestPalindrome(self, s):
        best = ""
        for i in range(len(s)):
            for j in range(i + 1, len(s) + 1):
                t = s[i:j]
                if t == t[::-1] and len(t) > len(best):
                    best = t
        return best
"""
LAST_LONGEST = FIRST_LONGEST.replace("len(t) > len(best)", "len(t) >= len(best)")
SHORTER = FIRST_LONGEST.replace("return best", "return best[:-1] if len(best) > 2 else best")


@pytest.fixture
def server():
    from tests.openai_server import OpenAIServer

    with OpenAIServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _no_llm_env(monkeypatch):
    for var in ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL", "QUICKSILVER_LLM_MODEL"):
        monkeypatch.delenv(var, raising=False)


def checker_section(server, tmp_path, **fields: Any):
    from quicksilver.config import CheckerSection, LLMConfig

    llm = LLMConfig(base_url=server.url, model="checker-model", max_retries=0, request_timeout_s=10)
    return CheckerSection(llm=llm, cache_dir=tmp_path / "llm", **fields)


def decide_lps(section) -> tuple[Any, Any]:
    """The stage's logic on the LPS task, with solution code, through the stage declaration."""
    from quicksilver.config import SandboxConfig, UniquenessSection
    from quicksilver.pipeline.runner import apply
    from quicksilver.stages.uniqueness import UNIQUENESS
    from tests.stagekit import records_of, with_answers

    t = task(STRING_META, LPS, slug="lps")
    codes = [FIRST_LONGEST, FIRST_LONGEST + "\n", LAST_LONGEST, SHORTER]
    sols = [
        {"slug": "lps", "hash": 1000 + k, "position": k, "code": code}
        for k, code in enumerate(codes)
    ]
    row = {
        "seed": 7,
        "base_seed": 1,
        "cases": [{"input": x, "kind": "generated", "seed": j} for j, x in enumerate(LPS_INPUTS)],
        "answers": {
            str(1000 + k): [{"status": "ok", "value": v, "error": None} for v in per]
            for k, per in enumerate(LPS_ANSWERS)
        },
        "solutions": [1000 + k for k in range(4)],
    }
    (record,) = [with_answers(r, row) for r in records_of([t], sols)]
    done = apply(
        UNIQUENESS,
        [record],
        uniqueness=UniquenessSection(checker=section),
        min_solutions=2,
        sandbox=SandboxConfig(),
    )
    return done, sols


@requires_bwrap
def test_several_answers_kept_with_a_validated_checker_that_judges_later(server, tmp_path):
    """The endpoint's first checker accepts anything: the sandbox shows it accepting a wrong answer
    and it is sent back; the second is kept, and the profiler judges the task with it."""
    from quicksilver.profiler import profile_solution
    from quicksilver.stages.profile import profile_task_for

    server.queue(ACCEPT_ALL, GOOD_CHECKER)
    done, _sols = decide_lps(checker_section(server, tmp_path))
    (record,) = done.records
    verdict = record.verdict
    assert verdict.classification == "several-valid-answers"
    assert [s.position for s in record.solutions] == [0, 1, 2]
    assert dict(done.counts.drops) == {"wrong-answer": 1}
    (wrong,) = done.rejects
    assert wrong["position"] == 3 and "answered 'ba', expected 'bab'" in wrong["detail"]
    assert verdict.expected == LPS_ANSWERS[0]
    assert "def check_answer" in verdict.evaluate_offline
    assert "def evaluate_offline(inputs, outputs, expected)" in verdict.evaluate_offline
    attempts = verdict.decision["checker"]["attempts"]
    assert len(attempts) == 2 and attempts[1]["problem"] is None
    assert 'it accepted an answer shown wrong "ba"' in attempts[0]["problem"]
    # what the endpoint was asked: the task, the disputed answers, then the problem found
    first, second = server.requests()
    prompt = first.messages[-1]["content"]
    assert (
        LPS in prompt
        and "'bab', 'aba'" in prompt
        and "check_answer(inputs, answer, expected)" in prompt
    )
    assert second.messages[-1]["content"].startswith("Your checker was rejected: ")
    # later stages judge with the checker: the minority's code passes, a shorter answer fails
    ptask = profile_task_for(record)
    assert ptask.evaluate_offline == verdict.evaluate_offline
    passed = profile_solution(ptask, LAST_LONGEST, meter="cpu", measure_cost=False)
    assert passed.status == "passed", passed.error
    failed = profile_solution(ptask, SHORTER, meter="cpu", measure_cost=False)
    assert failed.status == "failed" and failed.failed_case == 0


@requires_bwrap
def test_a_checker_that_rejects_a_credible_answer_is_not_kept(server, tmp_path):
    """A checker by equality rejects "aba", which the evidence cannot rule out: no
    checker passes, the task goes as multiple-valid-answers, and "bab" is not called wrong."""
    server.always(EQUALITY)
    done, _ = decide_lps(checker_section(server, tmp_path, max_attempts=2))
    assert done.records == [] and server.count == 2
    reasons = {r.get("position"): r["reason"] for r in done.rejects}
    assert reasons == {
        None: "multiple-valid-answers",
        0: "multiple-valid-answers",
        1: "multiple-valid-answers",
        2: "multiple-valid-answers",
        3: "wrong-answer",
    }
    detail = next(r["detail"] for r in done.rejects if "position" not in r)
    assert "no checker passed in 2 attempt(s)" in detail
    assert 'it rejected a credible solution\'s answer "aba"' in detail


def test_no_endpoint_through_the_stage_drops_with_the_reason(tmp_path):
    """The stage as a build runs it, no endpoint configured: the same task is dropped, named."""
    from quicksilver.config import CheckerSection

    done, _ = decide_lps(CheckerSection(cache_dir=tmp_path))
    assert done.records == []
    assert dict(done.counts.drops) == {"wrong-answer": 1, "multiple-valid-answers": 1}
    detail = next(r["detail"] for r in done.rejects if "position" not in r)
    assert "on 1 input(s) (first on input [\"babad\"]: 'bab', 'aba')" in detail
    assert "no LLM endpoint to write a checker (uniqueness.checker.llm)" in detail


def test_the_checker_is_taken_from_the_answer_only_when_it_defines_check_answer():
    assert extract_checker(GOOD_CHECKER).startswith("def check_answer(inputs, answer, expected):")
    fenced_twice = "```python\ndef helper():\n    pass\n```\nthen\n" + ACCEPT_ALL
    assert extract_checker(fenced_twice) == ACCEPT_ALL.split("\n", 1)[1].rsplit("```", 1)[0]
    assert extract_checker("```python\ndef check_answer(:\n```") is None  # does not parse
    assert extract_checker("I cannot write it.") is None


@pytest.mark.parametrize(
    ("statement", "many"),
    [
        # LeetCode's wordings (2334's "Return the size of any such subarray" was missed, and two
        # accepted solutions were rejected on the example's answer)
        ("Return the size of any such subarray. If there is no such subarray, return -1.", True),
        ("Return the length of any such substring.", True),
        ("If there are multiple answers, return any of them.", True),
        ("You may return any valid answer.", True),
        ("Return any one of them.", True),
        # 936's example (stamping-the-sequence: an accepted solution was rejected on it)
        ("([1,0,2] would also be accepted as an answer, as well as some other answers.)", True),
        # 108's example (convert-sorted-array-to-binary-search-tree: both accepted solutions of
        # a fresh draw were rejected on it), 349's and 1253's
        ("Explanation: [0,-10,5,null,-3,null,9] is also accepted:", True),
        ("Explanation: [4,9] is also accepted.", True),
        ("Explanation: [[1,0,1],[0,1,0]] and [[0,1,1],[1,0,0]] are also correct answers.", True),
        ("Note that [2,6,4], [6,2,4], etc. are also accepted.", True),
        # a thing other than the answer that is also valid
        ("[2,3,2,1,3] is also a valid sequence, but [3,1,2,3,2] is the largest.", False),
        ("The subsequence of indices 1, 2 and 3 is also valid.", False),
        # a deterministic answer that mentions "any"
        ("Return true if any such pair exists, and false otherwise.", False),
        ("Return the number of pairs such that any element is even.", False),
        ("You may return the answer in any order.", False),
        ("The answer will also be the largest one.", False),
    ],
)
def test_the_statement_accepts_several_answers(statement: str, many: bool) -> None:
    from quicksilver.sources.text import says_many_answers

    assert says_many_answers(statement) is many
