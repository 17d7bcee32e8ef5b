"""quicksilver.execute: values from code that did not come from us, in the sandbox."""

from __future__ import annotations

from quicksilver.execute import case_seeds, run_calls, run_generator, run_outputs
from tests.conftest import requires_bwrap

pytestmark = requires_bwrap

SOLUTION = """
class Solution:
    def f(self, n):
        if n == 2:
            import os
            os.abort()  # the interpreter dies (ctypes, which could crash it too, is hidden)
        if n == 3:
            while True:
                pass
        if n == 4:
            class Odd:
                pass
            return Odd()
        if n == 5:
            raise KeyError(n)
        return n * 10
"""


def test_arguments_after_the_call_are_read_only_for_in_place_answers():
    # a returned answer: what the call left in its arguments is not serialised (it can be huge,
    # or not plain data at all), so it cannot fail the call
    code = (
        "class Solution:\n    def f(self, nums):\n        nums.append(object())\n        return 7\n"
    )
    run = run_outputs(code, entry_point="f", inputs=[[[1]]])
    assert [(o.status, o.value) for o in run.outcomes] == [("ok", 7)]
    # an in-place answer: the arguments are the answer, and must be plain data
    run = run_outputs(code, entry_point="f", inputs=[[[1]]], output_param=0)
    assert run.outcomes[0].status == "error" and "not plain data" in run.outcomes[0].error


def test_each_call_fails_on_its_own_and_the_rest_go_on():
    run = run_outputs(
        SOLUTION, entry_point="f", inputs=[[1], [2], [6], [3], [7], [4], [5], [8]], cpu_seconds=0.5
    )
    assert run.load_error is None
    got = [(o.status, o.value) for o in run.outcomes]
    assert got[0] == ("ok", 10) and got[2] == ("ok", 60) and got[4] == ("ok", 70)
    assert got[7] == ("ok", 80)
    assert got[1][0] == "error" and "died" in run.outcomes[1].error
    assert got[3][0] == "timeout"
    assert got[5][0] == "error" and "not plain data" in run.outcomes[5].error
    assert got[6][0] == "error" and "KeyError" in run.outcomes[6].error
    assert not run.ok and run.first_error().startswith("call 1: error")


def test_a_batch_gives_up_after_too_many_timeouts_or_one_decisive_one():
    code = "def f(n):\n    while n > 1:\n        pass\n    return n\n"
    run = run_calls(
        code, entry_point="f", inputs=[[1], [2], [1], [3], [1]], cpu_seconds=0.2, give_up_after=2
    )
    assert [o.status for o in run.outcomes] == ["ok", "timeout", "ok", "timeout", "skipped"]
    run = run_calls(
        code, entry_point="f", inputs=[[1], [2], [1], [1]], cpu_seconds=0.2, decisive=[1]
    )
    assert [o.status for o in run.outcomes] == ["ok", "timeout", "skipped", "skipped"]
    assert "not run" in (run.outcomes[2].error or "")


def test_a_batch_stops_once_its_calls_have_spent_its_cpu_budget():
    """``cpu_budget``: the calls made stop once they have spent it (a timeout counts its limit);
    the rest are not made, and say so."""
    from quicksilver.execute import BUDGET_STOP

    code = "def f(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n"
    inputs = [[1], [3_000_000], [3_000_000], [3_000_000], [1], [1]]
    whole = run_calls(code, entry_point="f", inputs=inputs, cpu_seconds=5.0)
    assert [o.status for o in whole.outcomes] == ["ok"] * 6
    one = whole.outcomes[1].cpu_seconds  # one heavy call's CPU
    run = run_calls(code, entry_point="f", inputs=inputs, cpu_seconds=5.0, cpu_budget=one * 1.5)
    statuses = [o.status for o in run.outcomes]
    # the budget ends after the second or third heavy call, never later
    assert statuses[:2] == ["ok", "ok"] and statuses[-2:] == ["skipped", "skipped"], statuses
    assert statuses.count("ok") in (2, 3, 4), statuses
    assert all((o.error or "").startswith(BUDGET_STOP) for o in run.outcomes if o.status != "ok")
    # a timeout counts its limit: one stopped call spends a budget of its limit
    hang = "def f(n):\n    while n > 1:\n        pass\n    return n\n"
    run = run_calls(hang, entry_point="f", inputs=[[2], [1], [1]], cpu_seconds=0.2, cpu_budget=0.2)
    assert [o.status for o in run.outcomes] == ["timeout", "skipped", "skipped"]


def test_in_place_answers_are_the_argument_after_the_call():
    code = "class Solution:\n    def f(self, nums):\n        nums.reverse()\n"
    run = run_outputs(code, entry_point="f", inputs=[[[1, 2, 3]]], output_param=0)
    assert [o.value for o in run.outcomes] == [[3, 2, 1]]


def test_generators_are_seeded_per_call_and_code_that_does_not_load_says_so():
    gen = "import random\ndef generate_test_case():\n    return [random.randint(0, 10**9)]\n"
    seeds = case_seeds(42, 4)
    assert seeds == case_seeds(42, 4) and len(set(seeds)) == 4
    a = run_generator(gen, seeds=seeds)
    b = run_generator(gen, seeds=seeds)
    assert [o.value for o in a.outcomes] == [o.value for o in b.outcomes]
    assert len({o.value[0] for o in a.outcomes}) == 4
    broken = run_generator("def generate_test_case(:\n", seeds=seeds)
    assert broken.outcomes == [] and "SyntaxError" in broken.load_error


def test_a_solution_that_looks_its_module_up_loads_as_on_leetcode():
    # walkccc's maximum-sum-bst-in-binary-tree: a @dataclass at module level looks its class's
    # module up in sys.modules; LeetCode runs it, and so must the sandbox
    code = (
        "from dataclasses import dataclass\nimport sys\nimport typing\n\n\n@dataclass\n"
        "class T:\n    total: int | None = None\n\n\nclass Solution:\n"
        "    def f(self, n: int) -> int:\n        hints = typing.get_type_hints(Solution.f)\n"
        "        assert sys.modules[T.__module__].T is T and hints['n'] is int\n"
        "        return T(n * 2).total\n"
    )
    run = run_outputs(code, entry_point="f", inputs=[[3], [4]])
    assert run.load_error is None, run.load_error
    assert [(o.status, o.value) for o in run.outcomes] == [("ok", 6), ("ok", 8)]
