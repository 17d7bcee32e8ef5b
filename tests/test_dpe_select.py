"""EvalPerf's task selection (each filter's boundary), the figures taken from a profile, and the
EvalPerf-format rows' schema checks."""

from __future__ import annotations

import json
import math

import pytest

from quicksilver.config import SelectionSection
from quicksilver.dpe.select import (
    ACCEPT_ANY,
    figures,
    min_cost_in_unit,
    p99,
    pe_cost_task,
    pe_profile_task,
    select_task,
)
from quicksilver.profiler import CaseResult, RunResult
from quicksilver.publishing.dpe_schema import DPE_FEATURES, validate_dpe_splits
from quicksilver.publishing.schema import SchemaError

SEL = SelectionSection(min_solutions=4, instruction_rate=3e9)  # a rate as if measured
# four levels, each 2x apart, well above w's share at millisecond costs
COSTS = [0.008, 0.0081, 0.004, 0.002, 0.001]
CVS = [0.01] * 5


def test_kept_task_has_clusters_references_and_scores():
    v = select_task("t", COSTS, CVS, SEL, "s")
    assert v.kept and v.reason is None
    cl = v.clustering
    assert cl is not None
    assert [len(c.members) for c in cl.clusters] == [2, 1, 1, 1]
    assert cl.references == [1, 2, 3, 4]  # the slowest member (0.0081) represents cluster 0
    assert list(cl.scores) == [40.0, 60.0, 80.0, 100.0]
    assert v.stats["clusters"] == 4


def test_too_few_solutions_boundary():
    assert select_task("t", COSTS[:4], CVS[:4], SEL, "s").kept is False  # 3 clusters, 4 sols
    v = select_task("t", COSTS[:3], CVS[:3], SEL, "s")
    assert v.reason == "too-few-solutions" and "3 profiled solution(s), fewer than 4" in v.detail


def test_too_cheap_is_strictly_above_the_minimum():
    floor = min_cost_in_unit(SEL, "s")
    assert floor == pytest.approx(10_000 / 3e9)
    with pytest.raises(ValueError, match="measured instruction rate"):  # never assumed
        min_cost_in_unit(SelectionSection(), "s")
    costs = [floor * 16, floor * 8, floor * 4, floor]
    v = select_task("t", costs, [0.0] * 4, SEL, "s")
    assert v.reason == "too-cheap" and "not above the minimum" in v.detail
    assert min_cost_in_unit(SEL, "instructions") == 10_000


def test_unstable_uses_p99_of_cv_and_5_percent_is_allowed():
    assert select_task("t", COSTS, [0.05] * 5, SEL, "s").kept
    v = select_task("t", COSTS, [0.01, 0.01, 0.01, 0.01, 0.2], SEL, "s")
    assert v.reason == "unstable" and v.stats["p99_cv"] > 0.05
    assert select_task("t", COSTS, [0.01, 0.01, 0.01, 0.01, math.inf], SEL, "s").reason == (
        "unstable"
    )


def test_too_few_clusters():
    v = select_task("t", [0.010, 0.0099, 0.0098, 0.0097, 0.001], CVS, SEL, "s")
    assert v.reason == "too-few-clusters" and "2 performance cluster(s)" in v.detail


def test_p99_interpolates():
    assert p99([1.0]) == 1.0
    assert p99([0.0, 1.0]) == pytest.approx(0.99)
    assert p99(list(range(101))) == pytest.approx(99.0)


def test_figures_take_median_and_robust_cv_after_warmup():
    res = RunResult("t", "passed", "cpu", "s", "bwrap", runtime=0.011, runtime_ci=(0.01, 0.012))
    samples = [0.030, 0.020, 0.010, 0.012, 0.010, 0.012, 0.011, 0.050]
    res.cases = [CaseResult(0, True, rounds=8, samples=[s - 0.001 for s in samples])]
    res.round_costs, res.rounds = samples, 8  # a pass's cost: load + calls + charges
    f = figures(res, warmup_rounds=2)
    kept = samples[2:]
    assert f["rounds"] == 6 and f["cost"] == pytest.approx(0.0115)  # median of the 6 kept
    # MAD of the kept rounds: |x - 0.0115| -> 0.0015, 0.0005, 0.0015, 0.0005, 0.0005, 0.0385
    assert f["cv"] == pytest.approx(1.4826 * 0.001 / 0.0115)
    mean = sum(kept) / 6
    sd = math.sqrt(sum((x - mean) ** 2 for x in kept) / 5)
    assert f["cv_classic"] == pytest.approx(sd / mean)
    assert f["cv_classic"] > 0.5 > f["cv"]  # one slow burst: the classic CV explodes
    # fewer than 3 rounds would remain: warm-up rounds are kept
    res.round_costs, res.rounds = [0.01, 0.01, 0.02], 3
    assert figures(res, warmup_rounds=2)["rounds"] == 3


def test_pe_profile_task_judges_each_input_against_its_expected_answer():
    judge = "def evaluate_offline(inputs, outputs, expected):\n    return outputs == expected\n"
    convert = "def convert_offline(c): return c\n"
    t = pe_profile_task(
        "t",
        "f",
        [[[1, 2, 3]], [[4]]],
        expected=[6, 4],
        convert_offline=convert,
        evaluate_offline=judge,
    )
    assert [(c.inputs, c.expected) for c in t.cases] == [([[1, 2, 3]], 6), ([[4]], 4)]
    assert t.evaluate_offline == judge  # the task's own judge, not one that accepts anything
    with pytest.raises(ValueError, match="1 expected answer"):
        pe_profile_task(
            "t", "f", [[1], [2]], expected=[1], convert_offline=convert, evaluate_offline=judge
        )
    # costing a candidate input (the worst-case search) judges nothing, and says so by its name
    cost = pe_cost_task("t", "f", [[[1, 2, 3]]], convert_offline=convert)
    assert [c.expected for c in cost.cases] == [None] and cost.evaluate_offline == ACCEPT_ANY


def _row(**over):
    ref = "class Solution:\n    def f(self, n):\n        return n\n"
    row = {
        "task_id": "t",
        "reference": [ref, ref],
        "pe_input": json.dumps([[5]]),
        "scores": [50.0, 100.0],
        "entry_point": "f",
        "prompt": "class Solution:\n    def f(self, n: int) -> int:\n        ",
        "id": "1",
        "slug_name": "t",
        "difficulty": "Easy",
        "pretty_content": ["statement"],
        "task_kind": "class",
        "test_cases": json.dumps([{"input": [1], "expected": 1}]),
        "convert_offline": "def convert_offline(case):\n    return case\n",
        "evaluate_offline": "def evaluate_offline(i, o, e):\n    return o == e\n",
        "pe_expected": json.dumps([5]),
        "solutions": [],
        "source": "bundled",
        "snapshot_sha256": "0" * 64,
        "answer_any_order": False,
        "test_generator_path": "offline",
        "test_generator_model": "x",
        "test_seed": 1,
        "pe_generator_code": "def perf_input_gen(scale):\n    return (scale,)\n",
        "pe_generator_path": "offline",
        "pe_generator_model": "x",
        "pe_generators_tried": 1,
        "pe_scale": 4,
        "pe_seed": 1,
        "pe_input_bytes": 5,
        "pe_input_sha256": "0" * 64,
        "pe_sampling_stop": "time-wall",
        "pe_sampling_reference": 3,
        "pe_input_pattern": "k=sqrt",
        "pe_input_pattern_gain": 4.3,
        "pe_input_search": '{"seed": 20260501, "label": "k=sqrt"}',
        "pe_expected_vote": '{"agree": 2, "disagree": [], "rule": "unanimous", "voters": 2}',
        "reference_hashes": [1, 2],
        "reference_costs": [2.0, 1.0],
        "reference_peak_memory": [1 << 20, None],
        "cluster_sizes": [1, 1],
        "solution_costs": [
            {
                "hash": 1,
                "cost": 2.0,
                "cv": 0.01,
                "cv_classic": 0.02,
                "rounds": 5,
                "converged": True,
                "flags": [],
                "cluster": 0,
                "source": "b",
                "model": None,
            },
            {
                "hash": 2,
                "cost": 1.0,
                "cv": 0.01,
                "cv_classic": 0.02,
                "rounds": 5,
                "converged": True,
                "flags": [],
                "cluster": 1,
                "source": "b",
                "model": None,
            },
        ],
        "p99_cv": 0.01,
        "clustering_bias": 0.2,
        "clustering_w": 3e-6,
        "instruction_rate": 1e10,
        "instruction_rate_source": "configured",
        "cost_meter": "cpu",
        "cost_unit": "s",
        "machine_id": "m",
        "machine": "{}",
        "quicksilver_version": "0",
        "build_config_sha256": "0" * 64,
    }
    row.update(over)
    return row


def test_a_valid_row_passes_and_matches_the_features():
    row = _row()
    assert list(row) == list(DPE_FEATURES)
    validate_dpe_splits({"test": [row]})


@pytest.mark.parametrize(
    ("over", "field", "fragment"),
    [
        ({"scores": [60.0, 90.0]}, "scores", "not 100"),
        ({"scores": [100.0, 50.0]}, "scores[1]", "non-decreasing"),
        ({"reference_costs": [1.0, 2.0]}, "reference_costs", "slowest to the fastest"),
        ({"pe_input": "[5]"}, "pe_input", "list of argument lists"),
        ({"pe_input": "{bad"}, "pe_input", "not valid JSON"),
        ({"cluster_sizes": [1, 2]}, "cluster_sizes", "do not add up"),
        ({"reference": ["def g(:\n"] * 2}, "reference[0]", "not valid Python"),
        ({"task_id": "other"}, "task_id", "slug_name"),
        ({"pe_generator_path": "magic"}, "pe_generator_path", "offline or llm"),
        ({"pe_input_search": "[1]"}, "pe_input_search", "JSON object or null"),
        ({"pe_input_search": "{x"}, "pe_input_search", "not valid JSON"),
        ({"pe_expected": "[5, 6]"}, "pe_expected", "one answer per pe_input call"),
        ({"pe_expected": "5"}, "pe_expected", "one answer per pe_input call"),
        ({"pe_expected": "null"}, "pe_expected", "one answer per pe_input call"),
        ({"pe_expected": "[5"}, "pe_expected", "not valid JSON"),
        ({"pe_expected_vote": "{}"}, "pe_expected_vote", "the rule that decided"),
    ],
)
def test_bad_rows_name_the_field(over, field, fragment):
    with pytest.raises(SchemaError) as err:
        validate_dpe_splits({"test": [_row(**over)]})
    assert any(p.field == field and fragment in p.message for p in err.value.problems), str(
        err.value
    )


def test_duplicate_tasks_and_mixed_meters_are_refused():
    with pytest.raises(SchemaError, match="repeats"):
        validate_dpe_splits({"test": [_row(), _row()]})
    with pytest.raises(SchemaError, match="one dataset, one value"):
        validate_dpe_splits(
            {"test": [_row(), _row(task_id="u", slug_name="u", cost_meter="callgrind")]}
        )
