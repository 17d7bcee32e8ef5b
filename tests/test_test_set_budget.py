"""The test set's budget (issue 29 item 1): every kept solution runs the whole
test set within ``testcases.test_set_cpu_seconds`` (at most the judge's ``judge_seconds``)."""

from __future__ import annotations

import json

import pytest

from quicksilver.config import CasesSection
from quicksilver.stages.testcases import fit_to_budget
from tests.conftest import requires_bwrap


def test_the_examples_stay_then_edges_the_heaviest_input_and_the_rest_in_order():
    kinds = [
        "example",
        "example",
        "edge",
        "edge",
        "generated",
        "generated",
        "generated",
        "generated",
    ]
    costs = [
        [0.1, 0.1, 0.2, 3.0, 1.0, 5.0, 0.5, 0.5],  # the slow solution decides
        [0.0, 0.0, 0.1, 0.3, 0.1, 0.5, 0.1, 0.1],
    ]
    fit = fit_to_budget(kinds, costs, budget=9.0)
    # examples 0.2, edges 3.2 -> 3.4, the heaviest (5.0) -> 8.4, then 1.0 does not fit, 0.5 does
    assert fit.kept == [0, 1, 2, 3, 5, 6] and fit.left_out == [4, 7] and fit.over == []
    assert fit.cost == pytest.approx(8.9)
    assert all(sum(c[i] for i in fit.kept) <= 9.0 for c in costs)


def test_a_budget_that_holds_everything_leaves_nothing_out():
    kinds = ["example", "generated", "edge", "generated"]
    costs = [[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]]
    fit = fit_to_budget(kinds, costs, budget=1.0)
    assert fit.kept == [0, 1, 2, 3] and fit.left_out == [] and fit.cost == pytest.approx(1.0)


def test_the_heaviest_input_goes_when_it_cannot_fit_and_lighter_ones_fill_the_budget():
    kinds = ["example", "edge", "generated", "generated", "generated"]
    costs = [[0.5, 2.0, 0.4, 9.0, 0.4]]
    fit = fit_to_budget(kinds, costs, budget=3.5)
    assert fit.kept == [0, 1, 2, 4] and fit.left_out == [3]


def test_a_solution_over_the_budget_on_the_examples_alone_is_named_and_not_fitted():
    kinds = ["example", "generated", "generated"]
    costs = [[5.0, 0.1, 0.1], [0.1, 0.4, 0.4]]
    fit = fit_to_budget(kinds, costs, budget=1.0)
    assert fit.over == [0] and fit.kept == [0, 1, 2] and fit.cost == pytest.approx(0.9)


def test_the_budget_may_not_exceed_the_judges():
    with pytest.raises(ValueError, match="above judge_seconds"):
        CasesSection(judge_seconds=30, test_set_cpu_seconds=31)
    section = CasesSection()
    assert section.test_set_cpu_seconds <= section.judge_seconds == 30


@requires_bwrap
def test_testcases_sizes_a_heavy_test_set_to_its_budget_and_records_it():
    from quicksilver.config import SandboxConfig
    from tests.stagekit import testcases_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer"},
    }
    task = {
        "slug": "heavy",
        "meta": meta,
        "statement": "Return the sum of 0 .. n-1.",
        "question": {
            "isPaidOnly": False,
            "metaData": json.dumps(meta),
            "content": "<p>x</p>",
            "difficulty": "Hard",
        },
        "prompt": "class Solution:\n    def f(self, n): pass\n",
        "known_tests": [],
        "examples": [[3], [10]],
    }
    # sizes spread over [0, 3e6]: the loop costs ~0.1 s of CPU at the top, the formula nothing
    gen = (
        "import random\n"
        "def generate_test_case():\n    return [random.randint(0, 3_000_000)]\n"
        "def generate_edge_cases():\n    return [[0], [1], [3_000_000]]\n"
    )
    loop = "class Solution:\n    def f(self, n):\n        s = 0\n        for i in range(n):\n            s += i\n        return s\n"
    formula = "class Solution:\n    def f(self, n):\n        return n * (n - 1) // 2\n"
    sols = [
        {"slug": "heavy", "hash": 1, "position": 0, "code": loop},
        {"slug": "heavy", "hash": 2, "position": 1, "code": formula},
    ]
    wide = CasesSection(n=24, seed=9, min_cases=3, test_set_cpu_seconds=30)
    everything = testcases_shard(
        [task], sols, [{"slug": "heavy", "generator_code": gen}], wide, sandbox=SandboxConfig()
    )
    (full,) = everything["records"]
    loop_total = sum(a["cpu"] for a in full["answers"]["1"])
    assert full["budget"]["left_out"] == 0 and loop_total > 0.6, full["budget"]
    budget = round(loop_total / 3, 3)
    tight = CasesSection(n=24, seed=9, min_cases=3, test_set_cpu_seconds=budget)
    out = testcases_shard(
        [task], sols, [{"slug": "heavy", "generator_code": gen}], tight, sandbox=SandboxConfig()
    )
    (rec,) = out["records"]
    b = rec["budget"]
    assert b["budget_seconds"] == budget and b["judge_seconds"] == 30 and b["left_out"] > 0
    # every kept solution runs the whole test set within the budget; both solutions stay
    assert rec["solutions"] == [1, 2]
    for h in ("1", "2"):
        assert sum(a["cpu"] for a in rec["answers"][h]) <= budget + 1e-6
    assert b["cost_seconds"] == pytest.approx(sum(a["cpu"] for a in rec["answers"]["1"]), abs=2e-3)
    inputs = [c["input"][0] for c in rec["cases"]]
    kinds = [c["kind"] for c in rec["cases"]]
    # the examples and the small edge cases stay; the answers are still every input's own
    assert kinds.count("example") == 2 and {3, 10, 0, 1} <= set(inputs)
    assert [a["value"] for a in rec["answers"]["2"]] == [n * (n - 1) // 2 for n in inputs]
    # not every case at the maximum, and not only the smallest: a large input stays
    assert max(inputs) > 1_000_000 and len(inputs) < len(full["cases"])
    left = [r for r in out["rejects"] if r["reason"] == "over-budget"]
    # left out by the fit, or never run by the loop once its screening spent twice the budget
    unrun = b["left_out_unrun"]
    assert len(left) == b["left_out"] + unrun == len(full["cases"]) - len(rec["cases"])
    assert all("heavy:" in r["detail"] and "budget" in r["detail"] for r in left)
    assert out["counts"].drops["over-budget"] == len(left)


def test_the_inputs_run_in_the_order_the_budget_keeps_them_known_before_anything_runs():
    """What the test set's budget pays for is what the test set keeps first: the examples, the
    edge cases, the largest generated input (by its JSON text, then its numbers' magnitude),
    then the generated ones in the generator's order; the order needs no run."""
    from quicksilver.pipeline.solution_runs import fit_order
    from quicksilver.stages.testcases import _size

    kinds = ["example", "example", "edge", "generated", "generated", "generated", "edge"]
    inputs = [[1], [2], [[]], [[5, 6]], [[10, 20, 30]], [[70, 80, 90]], [[1, 2, 3, 4, 5]]]
    order = fit_order(kinds, [_size(x) for x in inputs])
    # the examples, the edges in their order, the largest generated (5: as long a text as 4,
    # with larger numbers), then 3 and 4 in the generator's order
    assert order == [0, 1, 2, 6, 5, 3, 4]
    assert _size([45]) > _size([39]) and _size([100]) > _size([99])
    # the fit keeps in that order: with 4 too heavy, 3 and then 5 fill the budget
    costs = [[0.1, 0.1, 0.1, 0.2, 5.0, 0.3, 0.1]]
    fit = fit_to_budget(kinds, costs, budget=1.0, order=order)
    assert fit.kept == [0, 1, 2, 3, 5, 6] and fit.left_out == [4]
    # the same costs without the order: the most expensive generated input is the heaviest
    assert fit_to_budget(kinds, costs, budget=1.0).kept == fit.kept


def _runs(inputs: list[list[int]], kinds: list[str], section: CasesSection):
    from quicksilver.config import SandboxConfig
    from quicksilver.pipeline.solution_runs import SolutionRuns

    return SolutionRuns(
        entry_point="f",
        convert_offline="def convert_offline(case):\n    return case\n",
        output_param=None,
        inputs=inputs,
        section=section,
        sandbox=SandboxConfig(),
        kinds=kinds,
        sizes=[float(x[0]) for x in inputs],
    )


_LOOP = "class Solution:\n    def f(self, n):\n        s = 0\n        for i in range(n):\n            s += i\n        return s\n"
_FORMULA = "class Solution:\n    def f(self, n):\n        return n * (n - 1) // 2\n"
_PAST = "past the last input the test set's budget could keep"


@requires_bwrap
def test_solutions_after_a_slow_one_run_only_what_its_budget_could_keep():
    """The screening's horizon (issue 29 item 1, the long pole in testcases): once a solution
    has been screened, the solutions after it run only the inputs up to the last one the test
    set's budget could keep for it; the rest is left out unrun, as the fit would leave it."""
    from quicksilver.pipeline.records import Solution

    inputs = [[3], [10]] + [[1_500_000 + 50_000 * k] for k in range(24)]
    kinds = ["example"] * 2 + ["generated"] * 24
    section = CasesSection(call_floor_seconds=1, test_set_cpu_seconds=0.5)
    sols = [
        Solution(slug="t", hash=1, position=0, code=_LOOP),
        Solution(slug="t", hash=2, position=1, code=_FORMULA),
        Solution(slug="t", hash=3, position=2, code=_FORMULA),
    ]
    runs = _runs(inputs, kinds, section)
    outcomes, _, _ = runs.run_all(sols)
    loop_reach = max(runs.order.index(i) for i, o in enumerate(outcomes[1]) if o.status == "ok")
    # the loop sets the horizon: the formulas run the inputs its own fit could keep, in the
    # test set's order, and none past them (the loop itself was screened further)
    for h in (2, 3):
        ran = sorted(runs.order.index(i) for i, o in enumerate(outcomes[h]) if o.status == "ok")
        past = sorted(
            runs.order.index(i) for i, o in enumerate(outcomes[h]) if _PAST in (o.error or "")
        )
        assert ran == list(range(len(ran))) and past == list(range(len(ran), len(inputs)))
        assert 2 < len(ran) <= loop_reach + 1 < len(inputs), (ran, loop_reach)
    # the test set is what it would be with every solution screened on every input
    whole, _, _ = runs.run_all(sols, horizon=False)
    assert not any(_PAST in (o.error or "") for outs in whole.values() for o in outs)
    assert all(whole[h][i].status == "ok" for h in (2, 3) for i in range(len(inputs)))

    # nothing the fit keeps was left unrun: fitted with this run's own costs for the loop (the
    # horizon's measure; another run's CPU seconds differ under load, so two runs' fits are not
    # compared) and the formulas' costs from the run without a horizon, every input it keeps is
    # one the formulas ran under the horizon
    costs = [[o.cpu_seconds if o.ok else 99.0 for o in outcomes[1]]]
    costs += [[o.cpu_seconds for o in whole[h]] for h in (2, 3)]
    keep = fit_to_budget(kinds, costs, 0.5, runs.order).kept
    for h in (2, 3):
        ran_inputs = {i for i, o in enumerate(outcomes[h]) if o.status == "ok"}
        assert set(keep) <= ran_inputs, (keep, sorted(ran_inputs))


@requires_bwrap
def test_a_horizon_set_by_a_solution_that_later_proves_slow_is_given_up():
    """Should the solution that set the horizon not finish, within the ceiling, an input its
    peers finish (it is then dropped, and the test set is not sized to it), everything is
    screened again without a horizon: the others' inputs are not lost with it."""
    from quicksilver.pipeline.records import Solution

    hangs_on_one = _LOOP.replace("s = 0\n", "s = 0\n        while n == 7:\n            pass\n")
    inputs = [[3], [10], [7]] + [[1_500_000 + 50_000 * k] for k in range(24)]
    kinds = ["example"] * 2 + ["edge"] + ["generated"] * 24
    section = CasesSection(
        call_floor_seconds=0.3, solution_cpu_seconds=0.6, test_set_cpu_seconds=0.5
    )
    sols = [
        Solution(slug="t", hash=1, position=0, code=hangs_on_one),
        Solution(slug="t", hash=2, position=1, code=_FORMULA),
        Solution(slug="t", hash=3, position=2, code=_FORMULA),
    ]
    outcomes, _, _ = _runs(inputs, kinds, section).run_all(sols)
    assert outcomes[1][2].status == "timeout"
    assert not any(_PAST in (o.error or "") for outs in outcomes.values() for o in outs)
    assert all(outcomes[h][i].status == "ok" for h in (2, 3) for i in range(len(inputs)))
