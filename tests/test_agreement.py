"""Expected answers by agreement (quicksilver/agreement.py), on answers alone: grouping, the vote
on one input, and the examples then the vote over the disputed inputs. ``answers_equal`` and
``order_free`` are tested in test_stages.py and test_judge_like_leetcode.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from quicksilver.agreement import decide, decide_disputed, group_answers, order_free, short
from quicksilver.pipeline.records import CaseAnswer


@dataclass(frozen=True)
class _Sol:
    position: int


def _ok(value: Any) -> dict[str, Any]:
    return {"status": "ok", "value": value, "error": None}


def test_group_answers_largest_first_failures_by_their_error_text() -> None:
    answers: dict[str, CaseAnswer | dict[str, Any]] = {
        "a": _ok([1, 2]),
        "b": _ok([2, 1]),
        "c": _ok([1, 2]),
        "d": {"status": "timeout", "value": None, "error": "limit"},
        "e": CaseAnswer(status="timeout", error="limit"),
        "f": {"status": "error", "value": None, "error": "boom"},
    }
    assert group_answers(answers, False, 0.0) == [
        ((True, [1, 2]), ["a", "c"]),
        ((False, "timeout: limit"), ["d", "e"]),
        ((True, [2, 1]), ["b"]),
        ((False, "error: boom"), ["f"]),
    ]
    assert group_answers(answers, True, 0.0)[0] == ((True, [1, 2]), ["a", "b", "c"])


def test_group_answers_doubles_within_the_tolerance() -> None:
    groups = group_answers({"a": _ok(1.0), "b": _ok(1.0000001), "c": _ok(1.1)}, False, 1e-5)
    assert [m for _, m in groups] == [["a", "b"], ["c"]]


def test_group_answers_by_text_only_where_the_text_decides() -> None:
    # the JSON-text shortcut for agreeing answers changes no grouping: a bool is not an int, an
    # int and a float are compared by value, NaN equals nothing, lists element by element
    groups = group_answers(
        {
            "a": _ok([True, 1]),
            "b": _ok([1, 1]),
            "c": _ok([1.0, 1]),
            "d": _ok([True, 1]),
            "e": _ok(float("nan")),
            "f": _ok(float("nan")),
            "g": _ok({"k": [1, 2]}),
            "h": _ok({"k": [1, 2]}),
        },
        False,
        0.0,
    )
    assert sorted(m for _, m in groups) == [["a", "d"], ["b", "c"], ["e"], ["f"], ["g", "h"]]
    big = [[f"w{i}", f"v{i}"] for i in range(20_000)]
    assert group_answers({"x": _ok(big), "y": _ok([list(p) for p in big])}, True, 0.0) == [
        ((True, order_free(big)), ["x", "y"])
    ]


def test_decide_majority_plurality_and_crashes_make_no_claim() -> None:
    def groups(*sizes: int, crashes: int = 0) -> list[tuple[tuple[bool, Any], list[str]]]:
        out = [((True, k), [f"{k}.{n}" for n in range(size)]) for k, size in enumerate(sizes)]
        return [*out, *([((False, "error: x"), ["crash"] * crashes)] if crashes else [])]

    assert decide(groups(3), 3, 2.0, 2)[1] == "unanimous"
    assert decide(groups(3, 2), 5, 2.0, 2)[1] == "majority"
    # a plurality: at least min_support, and margin x the next answer
    assert decide(groups(4, 2, 2, 1), 9, 2.0, 2)[1] == "plurality"
    assert decide(groups(3, 2, 2), 7, 2.0, 2) == (None, "undecided")
    assert decide(groups(2, crashes=3), 5, 2.0, 2)[1] == "plurality"
    assert decide(groups(2, crashes=3), 5, 2.0, 3) == (None, "undecided")
    assert decide(groups(crashes=2), 2, 2.0, 1) == (None, "undecided")


def test_decide_disputed_examples_first_then_the_vote_until_nothing_changes() -> None:
    cases = [{"input": [0]}, {"input": [1]}, {"input": [2]}]
    answers = {
        "a": [1, 10, 20],
        "b": [1, 10, 20],
        "c": [2, 11, 20],  # wrong on the example: loses its vote on input 1
        "d": [1, 11, 21],
    }
    by_hash = {h: _Sol(k + 1) for k, h in enumerate(answers)}

    def view(i: int, among: list[str]) -> dict[str, dict[str, Any]]:
        return {h: _ok(answers[h][i]) for h in among}

    def example(i: int) -> Any | None:
        return {0: 1}.get(i)

    out = decide_disputed(
        "t", cases, by_hash, [0, 1, 2], view, example, tol=0.0, margin=2.0, min_support=2
    )
    assert sorted(out.wrong) == ["c", "d"] and out.open_inputs == [] and out.alternatives == []
    assert out.by == {"c": "the statement's example", "d": "the majority"}
    assert out.shown_wrong == {"c": [0], "d": [1, 2]}
    assert out.wrong["c"] == (
        "t solution #3: on input [0] answered 2, expected 1 (the statement's example)"
    )
    assert out.decision["ruled_out_by_examples"] == 1
    assert out.decision["decided_by"] == {"majority": 2}


def test_decide_disputed_leaves_a_split_undecided() -> None:
    cases = [{"input": ["x"]}]
    answers = {"a": "p", "b": "p", "c": "q", "d": "q"}
    by_hash = {h: _Sol(k) for k, h in enumerate(answers)}
    out = decide_disputed(
        "t",
        cases,
        by_hash,
        [0],
        lambda i, among: {h: _ok(answers[h]) for h in among},
        lambda i: None,
        tol=0.0,
        margin=2.0,
        min_support=2,
    )
    assert out.wrong == {} and out.open_inputs == [0]
    assert out.votes[0].sizes == [2, 2] and out.votes[0].rule == "undecided"


def test_short_cuts_long_values() -> None:
    assert short("ab") == "'ab'" and short([1, 2]) == "[1, 2]"
    assert short(list(range(100)), 20) == "[0, 1, 2, 3, 4, 5..."
