"""quicksilver.dpe.answers: the candidate answer on the performance input and the vote on it
(the uniqueness stage's rule on a disputed test input, docs/uniqueness.md)."""

from __future__ import annotations

import pytest

from quicksilver.dpe.answers import answer_digest, candidate, vote


def test_answer_digest_is_the_value_not_its_spelling():
    assert answer_digest({"a": [1, 2], "b": None}) == answer_digest({"b": None, "a": [1, 2]})
    assert answer_digest([1, 2, 3]) != answer_digest([3, 2, 1])
    assert answer_digest(1) != answer_digest("1") != answer_digest(True)
    huge = 10**5000  # past Python's int-to-str digit limit: still a digest, still the value's
    assert answer_digest(huge) == answer_digest(10**5000) != answer_digest(huge + 1)


def test_candidate_is_the_most_common_answer_the_earlier_solution_breaking_ties():
    assert candidate({}) is None
    assert candidate({"a": "x", "b": "y", "c": "y"}) == ("y", 2)
    assert candidate({"a": "x", "b": "y"}) == ("x", 1)  # a tie: snapshot order
    assert candidate({"b": "y", "a": "x", "c": "x", "d": "y"}) == ("y", 2)


@pytest.mark.parametrize(
    ("agree", "disagree", "rule"),
    [
        (4, [], "unanimous"),
        (3, ["w"], "majority"),
        (3, ["w", "v"], "majority"),
        (2, ["w", "v"], "plurality"),  # 2 >= 2 solutions and 2 >= 2 x 1
        (2, ["w", "w"], "undecided"),  # a 2/2 split
        (1, ["w"], "undecided"),
        (1, [], "unanimous"),
        (0, ["w", "w"], "undecided"),  # the candidate convinced nobody, itself included
        (3, ["w", "v", "u"], "plurality"),  # 3 of 6, three times the next answer's 1
        (3, ["w", "w", "v", "u"], "undecided"),  # 3 of 7 and less than twice 2
    ],
)
def test_vote_is_the_uniqueness_rule(agree, disagree, rule):
    decision = vote(agree, disagree, margin=2.0, min_support=2)
    assert decision.rule == rule
    assert decision.accepted is (rule != "undecided")
    assert decision.voters == agree + len(disagree)
    assert sum(decision.disagree) == len(disagree)
    assert decision.describe() == f"{agree} of {agree + len(disagree)} solution(s) ({rule})"
    assert decision.to_dict()["voters"] == decision.voters


def test_vote_follows_its_thresholds():
    assert vote(2, ["w", "v"], margin=3.0, min_support=2).rule == "undecided"
    assert vote(2, ["w", "v"], margin=2.0, min_support=3).rule == "undecided"
