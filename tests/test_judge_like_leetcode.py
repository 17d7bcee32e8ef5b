"""Answers are read the way LeetCode's judge reads them for the declared type (docs/uniqueness.md,
"How answers are compared"): the build's answers (``judged_answer``) and the published rows'
``evaluate_offline`` agree with each other and with LeetCode on the cases real accepted solutions
showed."""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.agreement import answers_equal
from quicksilver.sources.convert import evaluate_offline_source, judged_answer, parse_signature


def _sig(returns: str, params: str = "integer") -> Any:
    return parse_signature(
        {"name": "f", "params": [{"name": "x", "type": params}], "return": {"type": returns}}
    )


def _judge(returns: str, *, function_style: bool = False) -> Any:
    scope: dict[str, Any] = {}
    # our own generated source, run here to check what the published rows will do
    exec(evaluate_offline_source(_sig(returns), tuples_as_lists=function_style), scope)
    return lambda got, expected: scope["evaluate_offline"]([0], got, expected)


@pytest.mark.parametrize(
    ("got", "expected", "accepted"),
    [
        (5, True, True),  # `return num == 0 or num % 10`: accepted solutions, two authors
        (0, False, True),
        (None, False, True),  # a path that falls off the end of a boolean method
        (True, True, True),
        (0, True, False),
        (2, False, False),
        ("true", True, False),  # a string is not a boolean
        ([1], True, False),
    ],
)
def test_a_boolean_answer_is_read_by_its_truth_value(got: Any, expected: bool, accepted: bool):
    assert _judge("boolean")(got, expected) is accepted
    # the build reads the answers it collects the same way, so the vote and the examples see
    # the same thing as the published judge
    assert answers_equal(judged_answer(got, "boolean"), expected, 0.0) is accepted


def test_a_boolean_list_is_read_element_by_element():
    assert judged_answer([1, 0, None, True], "boolean[]") == [True, False, False, True]
    assert judged_answer([[3], [0]], "list<list<boolean>>") == [[True], [False]]
    assert _judge("boolean[]")([1, 0, 7], [True, False, True]) is True
    assert _judge("boolean[]")([1, 0], [True, True]) is False


@pytest.mark.parametrize(
    ("got", "expected", "accepted"),
    [
        (2.0, 2, True),  # an integral float: Python's == and the Mercury authors' evaluator
        (2.5, 2, False),
        (True, 1, False),  # a bool is not an integer answer
    ],
)
def test_an_integer_answer_compares_by_value_never_a_bool(got: Any, expected: int, accepted: bool):
    assert answers_equal(judged_answer(got, "integer"), expected, 0.0) is accepted
    if not isinstance(got, bool):  # the published judge is Python's == (True == 1 there)
        assert _judge("integer")(got, expected) is accepted


def test_a_double_answer_is_within_the_relative_tolerance():
    judge = _judge("double")
    assert judge(0.333333, 1 / 3) is True
    assert judge(0.3333, 1 / 3) is False
    assert answers_equal(2.000001, 2.0, 1e-5) and not answers_equal(2.001, 2.0, 1e-5)


def test_function_style_tasks_keep_pythons_own_equality():
    # HumanEval-style functions are not judged by LeetCode's driver: 5 is not True there
    assert judged_answer(5, "boolean", leetcode=False) == 5
    assert _judge("boolean", function_style=True)(5, True) is False


def test_a_lazy_list_answer_is_iterated_as_leetcodes_driver_does():
    # accepted solutions return itertools.accumulate, map, range, dict.values() or a generator
    # for a list type; the sandbox makes them lists in the measured call, and a row's judge does
    # the same for the Mercury authors' evaluator, which hands it the raw return value
    import itertools

    judge = _judge("integer[]")
    assert judge(itertools.accumulate([1, 2, 3]), [1, 3, 6]) is True
    assert judge(map(int, "12"), [1, 2]) is True
    assert judge(range(3), [0, 1, 2]) is True
    assert judge({"a": 4, "b": 5}.values(), [4, 5]) is True
    assert judge((x for x in (7, 8)), [7, 8]) is True
    assert judge(itertools.chain([1], [2]), [2, 1]) is False
    # a scalar type is never iterated: a range is not an integer
    assert _judge("integer")(range(1), 0) is False


def test_a_set_or_tuple_at_a_list_level_is_the_list_leetcode_writes():
    # walkccc's accepted find-the-difference-of-two-arrays returns [set1 - set2, set2 - set1]
    # for a list<list<integer>>; LeetCode's driver writes each set as a list
    judge = _judge("list<list<integer>>")
    assert judge([{1, 3}, {4, 6}], [[1, 3], [4, 6]]) is True
    assert judge(((1, 3), (4, 6)), [[1, 3], [4, 6]]) is True
    assert judge([{1, 3}, {4, 7}], [[1, 3], [4, 6]]) is False
    assert judge([[[1, 3]], [4, 6]], [[1, 3], [4, 6]]) is False  # one level too deep
    # only as deep as the declared type: a set is no integer
    assert _judge("integer[]")([{1}], [1]) is False


def test_the_row_and_the_harness_iterate_the_same_lazy_types():
    import ast
    from pathlib import Path

    from quicksilver import astparse
    from quicksilver.sources.convert import LAZY_TYPES

    harness = Path(__file__).parents[1] / "quicksilver" / "sandbox" / "runtime" / "harness.py"
    (lazy,) = [
        node.value
        for node in astparse.parse(harness.read_text()).body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "_LAZY"
    ]
    assert isinstance(lazy, ast.Call) and isinstance(lazy.args[0], ast.Set)
    theirs = sorted(ast.unparse(e) for e in lazy.args[0].elts)
    ours = sorted(ast.unparse(astparse.parse(t, mode="eval").body) for t in LAZY_TYPES)
    assert theirs == ours and len(ours) == 30
