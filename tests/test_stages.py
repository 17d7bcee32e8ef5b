"""Unit tests of the Mercury build's core stages on small records: what each keeps, drops, why."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from quicksilver.agreement import answers_equal, order_free
from quicksilver.config import ConfigError, load_build_config
from quicksilver.pipeline.records import solution_hash
from quicksilver.pipeline.stage import StageCounts
from quicksilver.stages.load import normalise_code
from quicksilver.stages.splits import split_tasks
from tests.conftest import requires_bwrap
from tests.stagekit import filter_stage, load_stage, uniqueness_for_task

META = {
    "name": "f",
    "params": [{"name": "nums", "type": "integer[]"}],
    "return": {"type": "integer[]"},
}


def _task(slug="t", statement="Return the values.", meta=None, known=None, **q):
    question = {
        "isPaidOnly": False,
        "metaData": json.dumps(meta or META),
        "content": "<p>x</p>",
        "difficulty": "Easy",
        **q,
    }
    return {
        "slug": slug,
        "meta": meta or META,
        "statement": statement,
        "question": question,
        "prompt": "class Solution:\n    def f(self, nums): pass\n",
        "known_tests": known or [],
    }


def _sols(n, slug="t"):
    return [{"slug": slug, "hash": 1000 + i, "position": i, "code": f"# {i}\n"} for i in range(n)]


def _record(answers_by_solution, inputs, slug="t"):
    """answers_by_solution: list (per solution) of list (per input) of values or ("error", msg)."""
    answers = {}
    for i, per_input in enumerate(answers_by_solution):
        answers[str(1000 + i)] = [
            {"status": "error", "value": None, "error": a[1]}
            if isinstance(a, tuple)
            else {"status": "ok", "value": a, "error": None}
            for a in per_input
        ]
    return {
        "slug": slug,
        "seed": 7,
        "base_seed": 1,
        "cases": [{"input": x, "kind": "generated", "seed": j} for j, x in enumerate(inputs)],
        "answers": answers,
        "solutions": [1000 + i for i in range(len(answers_by_solution))],
        "n_generated": len(inputs),
        "n_examples": 0,
    }


def _run_uniqueness(task, answers, inputs):
    counts, rejects = StageCounts("uniqueness"), []
    sols = _sols(len(answers))
    out, kept = uniqueness_for_task(task, _record(answers, inputs), sols, 1e-5, counts, rejects)
    return out, kept, counts, rejects


# ------------------------------------------------------------------------------ load


def test_normalise_code_strips_and_dedents():
    code = (
        "\r\n\r\n    class Solution:  \r\n        def f(self):\t\r\n            return 1   \r\n\r\n"
    )
    assert normalise_code(code) == "class Solution:\n    def f(self):\n        return 1\n"
    # whitespace-only variants hash the same (exact duplicates)
    assert solution_hash(normalise_code(code)) == solution_hash(
        normalise_code("class Solution:\n    def f(self):\n        return 1")
    )


def _snapshot(slug, solutions, **question):
    q = {
        "questionId": "1",
        "questionFrontendId": "1",
        "title": slug,
        "titleSlug": slug,
        "content": "<p>Return it.</p>",
        "difficulty": "Easy",
        "isPaidOnly": False,
        "metaData": json.dumps(META),
        "exampleTestcaseList": ["[1,2]"],
        "codeSnippets": [{"lang": "Python3", "langSlug": "python3", "code": "class Solution:\n"}],
        **question,
    }
    return {"question": q, "solutions": solutions, "provenance": {"source": "test"}}


def test_load_keeps_python3_that_parses_and_rejects_the_rest(tmp_path: Path):
    good = "class Solution:\n    def f(self, nums):\n        return nums\n"
    snap = _snapshot(
        "alpha",
        [
            {"code": good, "source": "bundled"},
            {"code": "class Solution:\n    def f(self, nums)\n", "source": "bundled"},
            {"code": "int main() {}", "lang": "cpp", "source": "bundled"},
        ],
    )
    (tmp_path / "alpha.json").write_text(json.dumps(snap))
    (tmp_path / "broken.json").write_text('{"question": {"titleSlug": "bro')
    out = load_stage([tmp_path])
    assert [s["position"] for s in out["solutions"]] == [0]
    assert out["solutions"][0]["hash"] == solution_hash(good)
    reasons = {(r.get("position"), r["reason"]) for r in out["rejects"]}
    assert reasons == {(1, "syntax-error"), (2, "not-python3"), (None, "malformed-file")}
    syntax = next(r for r in out["rejects"] if r["reason"] == "syntax-error")
    assert "alpha solution #1" in syntax["detail"] and "line 2" in syntax["detail"]
    assert out["tasks"][0]["examples"] == [[[1, 2]]]
    assert out["counts"].drops == {"syntax-error": 1, "not-python3": 1, "malformed-file": 1}


# ------------------------------------------------------------------------------ filters


def test_filters_drop_each_kind_with_its_reason():
    tasks = [
        _task("ok"),
        _task("paid", isPaidOnly=True),
        _task(
            "node",
            meta={
                "name": "f",
                "params": [{"name": "h", "type": "Node"}],
                "return": {"type": "Node"},
            },
        ),
        _task("lonely"),
        _task("unrated", difficulty=None),  # difficulty is optional: kept
        _task("no-statement", content=None),
    ]
    tasks[2]["question"]["metaData"] = json.dumps(tasks[2]["meta"])
    sols = (
        _sols(2, "ok")
        + _sols(2, "paid")
        + _sols(2, "node")
        + _sols(1, "lonely")
        + _sols(3, "unrated")
        + _sols(2, "no-statement")
    )
    out = filter_stage(tasks, sols, min_solutions_=2)
    assert [t["slug"] for t in out["tasks"]] == ["ok", "unrated"]
    assert len(out["solutions"]) == 5
    assert out["counts"].drops == {
        "paid-only": 1,
        "unsupported-type": 1,
        "min-solutions": 1,
        "missing-field": 1,
    }
    node = [r for r in out["rejects"] if r["slug"] == "node"]
    assert len(node) == 3 and all("Node" in r["detail"] for r in node)  # task + its 2 solutions
    lonely = next(r for r in out["rejects"] if r["slug"] == "lonely" and "hash" not in r)
    assert "1 solution(s) after dedup, fewer than 2" in lonely["detail"]
    missing = next(r for r in out["rejects"] if r["reason"] == "missing-field" and "hash" not in r)
    assert missing["slug"] == "no-statement" and "no statement" in missing["detail"]


# ------------------------------------------------------------------------------ uniqueness


def test_uniqueness_all_agree_keeps_everything():
    out, kept, _counts, rejects = _run_uniqueness(_task(), [[[1], [2]]] * 3, [[[1]], [[2]]])
    assert out["classification"] == "all-agree" and out["any_order"] is False
    assert out["test_cases"] == [
        {"input": [[1]], "expected": [1]},
        {"input": [[2]], "expected": [2]},
    ]
    assert len(kept) == 3 and not rejects


def test_answers_equal_only_up_to_order_are_no_evidence_that_order_is_free():
    # only one arrangement may be right (the one that maximises an advantage): without a word in
    # the statement or an example, the task takes the several-valid-answers path; with no
    # checker endpoint it is dropped with its reason, never published order-free
    answers = [[[1, 2, 3]], [[3, 2, 1]], [[2, 1, 3]]]
    out, kept, counts, rejects = _run_uniqueness(_task(), answers, [[[9]]])
    assert out is None and not kept
    assert counts.drops == {"multiple-valid-answers": 1}
    assert "agree only up to order" in rejects[0]["detail"]
    assert "no LLM endpoint" in rejects[0]["detail"]


def test_an_example_answered_in_another_order_makes_order_free():
    # the statement's example says [1, 2]; every solution answers [2, 1]: the example is ground
    # truth, so order is free and a solution answering [1, 2] must pass
    known = [{"input": [[5]], "expected": [1, 2]}]
    answers = [[[2, 1], [3, 4]]] * 2 + [[[2, 1], [4, 3]]]
    out, kept, _, rejects = _run_uniqueness(_task(known=known), answers, [[[5]], [[7]]])
    assert out["classification"] == "equal-up-to-order" and out["any_order"] is True
    assert "[1, 2]" in out["decision"]["order_free"] and len(kept) == 3 and not rejects


def test_an_example_answered_as_given_keeps_order_strict():
    # the example's answer as given rules out the other order, as any example answer does
    known = [{"input": [[5]], "expected": [2, 1]}]
    answers = [[[2, 1], [3, 4]]] * 2 + [[[1, 2], [3, 4]]]
    out, kept, _, rejects = _run_uniqueness(_task(known=known), answers, [[[5]], [[7]]])
    assert out["any_order"] is False and out["classification"] == "minority-wrong"
    assert len(kept) == 2 and "answered [1, 2], expected [2, 1]" in rejects[0]["detail"]


def test_uniqueness_statement_any_order_is_order_free_even_when_all_agree():
    task = _task(statement="Return the groups. You may return the answer in any order.")
    out, _, _, _ = _run_uniqueness(task, [[[1, 2]]] * 2, [[[1]]])
    assert out["any_order"] is True


def test_uniqueness_drops_a_wrong_minority_with_its_failing_input():
    answers = [[[1], [5]]] * 3 + [[[1], [6]], [[1], ("error", "ZeroDivisionError")]]
    out, kept, counts, rejects = _run_uniqueness(_task(), answers, [[[1]], [[0, 5]]])
    assert out["classification"] == "minority-wrong"
    assert [s["position"] for s in kept] == [0, 1, 2]
    assert counts.drops == {"wrong-answer": 2}
    wrong = {r["position"]: r["detail"] for r in rejects}
    assert "answered [6], expected [5]" in wrong[3] and "[[0, 5]]" in wrong[3]
    assert "ZeroDivisionError" in wrong[4]
    assert out["test_cases"][1]["expected"] == [5]


def test_uniqueness_example_answer_outranks_the_majority():
    task = _task(known=[{"input": [[4]], "expected": [7]}])
    answers = [[[8]], [[8]], [[7]]]  # two wrong solutions agree; the statement says 7
    _out, kept, counts, rejects = _run_uniqueness(task, answers, [[[4]]])
    assert [s["position"] for s in kept] == [2]
    assert counts.drops["wrong-answer"] == 2
    assert "(the statement's example)" in rejects[0]["detail"]


def test_uniqueness_drops_task_with_several_valid_answers():
    task = _task(statement="If several substrings tie, you may return any of them.")
    out, kept, counts, rejects = _run_uniqueness(task, [["aba"], ["aba"], ["bab"]], [["ababa"]])
    assert out is None and kept == []
    assert counts.drops == {"multiple-valid-answers": 1}
    assert len(rejects) == 4  # the task and its three solutions


def test_uniqueness_drops_task_without_a_majority():
    out, _, counts, rejects = _run_uniqueness(_task(), [[1], [1], [2], [2]], [[[3]]])
    assert out is None and counts.drops == {"ambiguous-output": 1}
    assert "split 2/2" in rejects[0]["detail"]


def test_uniqueness_clear_plurality_decides_without_a_majority():
    # largest-rectangle style: 6 right, 2 sharing one wrong answer, 4 each wrong their own way
    answers = [[10]] * 6 + [[8]] * 2 + [[7], [6], [5], ("error", "IndexError")]
    out, kept, counts, rejects = _run_uniqueness(_task(), answers, [[[2, 1, 5, 6, 2, 3]]])
    assert out is not None and len(kept) == 6
    assert counts.drops == {"wrong-answer": 6}
    assert out["decision"]["decided_by"] == {"plurality": 1}
    assert out["decision"]["narrowest"] == [6, 2, 1, 1, 1, 1]
    assert all("(the plurality)" in r["detail"] for r in rejects)
    assert out["test_cases"][0]["expected"] == 10


def test_uniqueness_plurality_needs_a_clear_margin_and_support():
    # 3 against 2: no majority of 6 voters, and not twice the next answer
    answers = [[1]] * 3 + [[2]] * 2 + [[3]]
    out, _, counts, rejects = _run_uniqueness(_task(), answers, [[[0]]])
    assert out is None and counts.drops == {"ambiguous-output": 1}
    assert "split 3/2/1" in rejects[0]["detail"] and "clear plurality" in rejects[0]["detail"]
    # a lone answer against singletons is no evidence either
    out, _, counts, _ = _run_uniqueness(_task(), [[1], [2], [3]], [[[0]]])
    assert out is None and counts.drops == {"ambiguous-output": 1}


def test_uniqueness_examples_rule_out_first_and_wrong_solutions_lose_their_votes():
    # input 0 is the statement's example (answer 4); on input 1 the vote is 2/2 among all four,
    # but the two that got the example wrong have no vote left: the other two agree
    task = _task(known=[{"input": [[1, 3]], "expected": [4]}])
    answers = [[[4], [9]], [[4], [9]], [[5], [8]], [[5], [8]]]
    out, kept, counts, rejects = _run_uniqueness(task, answers, [[[1, 3]], [[4, 5]]])
    assert out is not None and [s["position"] for s in kept] == [0, 1]
    assert counts.drops == {"wrong-answer": 2}
    assert out["decision"]["ruled_out_by_examples"] == 2
    assert out["decision"]["decided_by"] == {"unanimous": 1}
    assert all("(the statement's example)" in r["detail"] for r in rejects)
    # votes propagate between generated inputs too: input 0 has a majority against #3, so on
    # input 1 (2/1/1 among all four) #3 no longer votes, and 2 of 3 is a majority
    answers = [[[1], [7]], [[1], [7]], [[1], [6]], [[2], [5]]]
    out, kept, counts, _ = _run_uniqueness(_task(), answers, [[[0]], [[1]]])
    assert out is not None and [s["position"] for s in kept] == [0, 1]
    assert counts.drops == {"wrong-answer": 2}


def test_uniqueness_example_answer_no_solution_gives_is_not_used():
    # the statement's answer is written another way than any solution's (e.g. a float format):
    # it cannot rule anybody out, the vote decides
    task = _task(known=[{"input": [[2]], "expected": "4.00"}])
    answers = [[[4]], [[4]], [[4]], [[5]]]
    out, kept, _counts, _ = _run_uniqueness(task, answers, [[[2]]])
    assert out is not None and len(kept) == 3
    assert out["decision"]["examples_no_solution_gives"] == 1


def test_uniqueness_removes_near_duplicates_only_among_passing_solutions():
    counts, rejects = StageCounts("uniqueness"), []
    sols = _sols(4)
    # #0 and #1 are near-duplicates (one token apart): #0 is wrong, listed first; #2 and #3 are
    # near-duplicates that behave the same
    sols[0]["near_group"] = sols[1]["near_group"] = 1000
    sols[2]["near_group"] = sols[3]["near_group"] = 1002
    sols[3]["near_detail"] = "Jaccard 0.97 >= 0.95"
    answers = [[[3]], [[1]], [[1]], [[1]]]
    result, kept = uniqueness_for_task(
        _task(), _record(answers, [[[0]]]), sols, 1e-5, counts, rejects
    )
    assert result is not None and [s["position"] for s in kept] == [1, 2]
    assert counts.drops == {"wrong-answer": 1, "near-duplicate": 1}
    near = next(r for r in rejects if r["reason"] == "near-duplicate")
    assert near["position"] == 3 and "near-duplicate of solution #2" in near["detail"]
    assert "Jaccard 0.97" in near["detail"] and "same answers on all 1 inputs" in near["detail"]


def test_uniqueness_doubles_agree_within_tolerance():
    meta = {"name": "f", "params": [{"name": "x", "type": "integer"}], "return": {"type": "double"}}
    out, kept, _, rejects = _run_uniqueness(_task(meta=meta), [[0.1 + 0.2], [0.3], [0.3]], [[1]])
    assert out["classification"] == "all-agree" and len(kept) == 3 and not rejects
    assert answers_equal(1.0, 1.0000001, 1e-5) and not answers_equal(1.0, 1.1, 1e-5)
    assert not answers_equal(True, 1, 0.0) and not answers_equal([1], [1, 2], 0.0)


def test_order_free_sorts_at_every_depth():
    assert order_free([[3, 1], [2]]) == [[1, 3], [2]]
    assert order_free([["b", "a"], ["c"]]) == order_free([["c"], ["a", "b"]])


# ------------------------------------------------------------------------------ splits


def test_splits_are_balanced_seeded_and_report_shortfalls():
    rows = [{"slug": f"e{i}", "difficulty": "Easy"} for i in range(10)]
    rows += [{"slug": f"m{i}", "difficulty": "Medium"} for i in range(10)]
    rows += [{"slug": f"h{i}", "difficulty": "Hard"} for i in range(2)]
    splits, notes = split_tasks(rows, eval_size=12, seed=3)
    diffs = [s[0] for s in splits["eval"]]
    assert diffs.count("e") == 4 and diffs.count("m") == 4 and diffs.count("h") == 2
    assert notes == ["eval: 2 Hard task(s) of the 4 wanted (all there are)"]
    assert set(splits["train"]) | set(splits["eval"]) == {r["slug"] for r in rows}
    assert not set(splits["train"]) & set(splits["eval"])
    assert split_tasks(rows, eval_size=12, seed=3)[0] == splits
    assert split_tasks(rows, eval_size=12, seed=4)[0] != splits
    assert split_tasks(list(reversed(rows)), eval_size=12, seed=3)[0] == splits


def _difficulty_rows(easy: int, medium: int, hard: int) -> list[dict[str, str]]:
    return (
        [{"slug": f"e{i}", "difficulty": "Easy"} for i in range(easy)]
        + [{"slug": f"m{i}", "difficulty": "Medium"} for i in range(medium)]
        + [{"slug": f"h{i}", "difficulty": "Hard"} for i in range(hard)]
    )


def test_splits_with_fewer_tasks_than_eval_size_leave_train_out_and_say_so(caplog):
    """The user's build: 5 tasks built, eval_size 12. Everything goes to eval (drawn as usual),
    and the train split is not made: publish would refuse an empty split."""
    rows = _difficulty_rows(2, 2, 1)
    with caplog.at_level("WARNING", logger="quicksilver.stages.splits"):
        splits, notes = split_tasks(rows, eval_size=12, seed=3)
    assert splits == {"eval": ["e0", "e1", "m0", "m1", "h0"]}
    train_note = (
        "train: no task (all 5 task(s) built went to eval, which wanted 12 (splits.eval_size)); "
        "the train split is left out of the dataset"
    )
    assert notes == [
        "eval: 2 Easy task(s) of the 4 wanted (all there are)",
        "eval: 2 Medium task(s) of the 4 wanted (all there are)",
        "eval: 1 Hard task(s) of the 4 wanted (all there are)",
        train_note,
    ]
    assert [r.getMessage() for r in caplog.records] == [f"splits: {train_note}"]


def test_splits_leave_out_an_empty_eval_and_make_nothing_from_no_task():
    rows = _difficulty_rows(1, 2, 0)
    splits, notes = split_tasks(rows, eval_size=0, seed=3)
    assert splits == {"train": ["e0", "m0", "m1"]}
    assert notes == [
        "eval: no task (splits.eval_size is 0); the eval split is left out of the dataset"
    ]
    # eval_size 1 draws one Easy task; there is none
    splits, notes = split_tasks(_difficulty_rows(0, 2, 1), eval_size=1, seed=3)
    assert splits == {"train": ["h0", "m0", "m1"]}
    assert notes[-1] == (
        "eval: no task (splits.eval_size 1 draws 1 Easy; none of the 3 task(s) built is Easy); "
        "the eval split is left out of the dataset"
    )
    assert split_tasks([], eval_size=12, seed=3) == (
        {},
        ["no task reached the splits stage: no split, and no dataset to publish"],
    )
    # one task more than eval takes: train keeps it
    splits, _ = split_tasks(_difficulty_rows(2, 1, 1), eval_size=3, seed=3)
    assert len(splits["eval"]) == 3 and len(splits["train"]) == 1


# ------------------------------------------------------------------------------ config


def test_config_rejects_bad_values_with_the_key(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("testcases:\n  n: 0\nrunner:\n  kind: spark\n")
    with pytest.raises(ConfigError) as exc:
        load_build_config(bad)
    assert "testcases.n" in str(exc.value) and "runner.kind" in str(exc.value)
    with pytest.raises(ConfigError, match="unknown_section"):
        load_build_config(None, ["unknown_section.x=1"])
    with pytest.raises(ConfigError, match="not valid YAML"):
        (tmp_path / "y.yaml").write_text("a: [1,\n")
        load_build_config(tmp_path / "y.yaml")
    # an override whose value the shell cut short is one line naming it, not YAML's traceback
    with pytest.raises(ConfigError, match=r"override 'only=\[two-sum': the value is not valid"):
        load_build_config(None, ["only=[two-sum"])
    cfg = load_build_config(Path("configs/mercury.yaml"), ["testcases.n=5"])
    assert (
        cfg.testcases.n == 5
        and cfg.synthesis.mode == "offline"
        and cfg.profile.measure.meter == "icount"
    )


def test_dpe_config_with_the_old_profile_section_fails_at_load_naming_sandbox(tmp_path: Path):
    """DPEBuildConfig had a profile: section (inherited from the Mercury build) that only
    carried the correctness stages' sandbox; it is now the top-level sandbox: section. An old
    config fails when it is loaded, saying where its sandbox went, not mid-build."""
    from quicksilver.config import DPEBuildConfig

    old = tmp_path / "old-dpe.yaml"
    old.write_text("profile:\n  sandbox:\n    limits:\n      cpu_seconds: 120\n")
    with pytest.raises(ConfigError) as exc:
        load_build_config(old, cls=DPEBuildConfig)
    message = str(exc.value)
    assert message.startswith(f"{old}: profile: the DPE build has no profile stage"), message
    assert "is the section sandbox (it was profile.sandbox)" in message
    assert "pe_profile" in message  # where its profiling is configured
    # an override is read the same way; the new key loads
    with pytest.raises(ConfigError, match=r"profile: .*the section sandbox"):
        load_build_config(None, ["profile.sandbox.limits.cpu_seconds=120"], cls=DPEBuildConfig)
    cfg = load_build_config(None, ["sandbox.limits.cpu_seconds=120"], cls=DPEBuildConfig)
    assert cfg.sandbox.limits.cpu_seconds == 120
    cfg = load_build_config(Path("configs/dpe.yaml"), cls=DPEBuildConfig)
    assert not hasattr(cfg, "profile")


# ------------------------------------------------------------------------------ testcases


@requires_bwrap
def test_an_offline_generators_input_that_breaks_its_spec_is_a_generator_bug():
    """Every input of an offline generator is checked against its own spec by a second
    implementation (synth/offline/checker.py): one that breaks a stated constraint is set aside
    as generator-bug, naming the constraint, and the others are used."""
    from quicksilver.config import CasesSection, SandboxConfig
    from quicksilver.synth import OFFLINE_SYNTHESIZER, SynthInput
    from quicksilver.synth.offline import synthesize_offline
    from tests.stagekit import testcases_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer"},
    }
    content = (
        "<p><strong>Constraints:</strong></p><ul><li><code>0 &lt;= n &lt;= 50</code></li></ul>"
    )
    res = synthesize_offline(SynthInput("sq", "Sq", content, meta, "class Solution:"))
    assert res.generator_code is not None, res.reason
    # the same generator with a bug: now and then one past the stated maximum
    buggy = res.generator_code + (
        "\n_right = generate_test_case\n"
        "def generate_test_case():\n"
        "    return [51] if random.random() < 0.3 else _right()\n"
    )
    task = {**_task("sq", meta=meta), "examples": [[3]]}
    square = "class Solution:\n    def f(self, n):\n        return n * n\n"
    sols = [
        {"slug": "sq", "hash": 1, "position": 0, "code": square},
        {"slug": "sq", "hash": 2, "position": 1, "code": square.replace("n * n", "n ** 2")},
    ]
    section = CasesSection(n=20, seed=5, min_cases=3)
    generator = {"slug": "sq", "generator_code": buggy, "generator_model": OFFLINE_SYNTHESIZER}
    out = testcases_shard([task], sols, [generator], section, sandbox=SandboxConfig())
    bugs = [r for r in out["rejects"] if r["reason"] == "generator-bug"]
    assert bugs and all(r["input"] == [51] and r["dropped"] == "input" for r in bugs), bugs
    assert "n = 51 breaks 0 <= n <= 50" in bugs[0]["detail"], bugs[0]["detail"]
    (rec,) = out["records"]
    assert all(0 <= c["input"][0] <= 50 for c in rec["cases"])
    # an LLM's generator has no spec: the same inputs are not checked (the solutions judge them)
    llm = {**generator, "generator_model": "some-model"}
    out = testcases_shard([task], sols, [llm], section, sandbox=SandboxConfig())
    assert not [r for r in out["rejects"] if r["reason"] == "generator-bug"]


@requires_bwrap
def test_inputs_whose_answer_breaks_the_statements_guarantee_are_discarded():
    """ "The answer is guaranteed to fit in a 32-bit integer": no generator can aim for that, so
    the build keeps only the inputs whose answer does (answer-out-of-range for the others)."""
    from quicksilver.config import CasesSection, SandboxConfig
    from quicksilver.synth import OFFLINE_SYNTHESIZER, SynthInput
    from quicksilver.synth.offline import synthesize_offline
    from tests.stagekit import testcases_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "long"},
    }
    content = (
        "<p><strong>Constraints:</strong></p><ul><li><code>0 &lt;= n &lt;= 60</code></li>"
        "<li>The answer is guaranteed to fit in a <strong>32-bit</strong> integer.</li></ul>"
    )
    res = synthesize_offline(SynthInput("pw", "Pw", content, meta, "class Solution:"))
    assert res.generator_code is not None, res.reason
    task = {**_task("pw", meta=meta), "examples": [[3]]}
    power = "class Solution:\n    def f(self, n):\n        return 2 ** n\n"
    sols = [
        {"slug": "pw", "hash": 1, "position": 0, "code": power},
        {"slug": "pw", "hash": 2, "position": 1, "code": power.replace("2 ** n", "1 << n")},
    ]
    generator = {
        "slug": "pw",
        "generator_code": res.generator_code,
        "generator_model": OFFLINE_SYNTHESIZER,
    }
    section = CasesSection(n=40, seed=5, min_cases=3)
    out = testcases_shard([task], sols, [generator], section, sandbox=SandboxConfig())
    gone = [r for r in out["rejects"] if r["reason"] == "answer-out-of-range"]
    assert gone and all(r["input"][0] >= 31 for r in gone), gone
    assert "which the statement guarantees" in gone[0]["detail"]
    (rec,) = out["records"]
    assert rec["cases"] and all(c["input"][0] <= 30 for c in rec["cases"])


@requires_bwrap
def test_testcases_discard_bad_inputs_and_slow_solutions_with_reasons():
    from quicksilver.config import CasesSection, SandboxConfig
    from tests.stagekit import testcases_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer"},
    }
    task = {**_task("sq", meta=meta), "examples": [[3], [3]]}  # a repeated example
    gen = (
        "import random\n"
        "def generate_test_case():\n"
        "    r = random.random()\n"
        "    if r < 0.15:\n"
        "        raise ValueError('unlucky')\n"
        "    if r < 0.25:\n"
        "        return ['not an int']\n"
        "    if r < 0.35:\n"
        "        return [-1]\n"  # the task does not accept negatives: most solutions raise
        "    if r < 0.45:\n"
        "        return [10**9]\n"  # too big for the slow solution
        "    return [random.randint(0, 50)]\n"
    )
    fast = "class Solution:\n    def f(self, n):\n        assert n >= 0\n        return n * n\n"
    slow = (
        "class Solution:\n    def f(self, n):\n        assert n >= 0\n        s = 0\n"
        "        for _ in range(n):\n            s += n\n        return s\n"
    )
    lenient = "class Solution:\n    def f(self, n):\n        return n * n\n"
    broken = "class Solution\n"  # never loads (would be caught earlier; checked here too)
    sols = [
        {"slug": "sq", "hash": 1, "position": 0, "code": fast},
        {"slug": "sq", "hash": 2, "position": 1, "code": slow},
        {"slug": "sq", "hash": 3, "position": 2, "code": lenient},
        {"slug": "sq", "hash": 4, "position": 3, "code": broken},
        {"slug": "sq", "hash": 5, "position": 4, "code": slow.replace("s += n", "s += n + 0")},
    ]
    section = CasesSection(
        n=40, seed=5, solution_cpu_seconds=0.5, call_floor_seconds=0.2, min_cases=3
    )
    out = testcases_shard(
        [task],
        sols,
        [{"slug": "sq", "generator_code": gen}],
        section,
        sandbox=SandboxConfig(),
    )
    drops = out["counts"].drops
    for reason in (
        "generator-error",
        "input-type-mismatch",
        "duplicate-input",
        "invalid-input",
        "slower-than-peers",
        "does-not-load",
    ):
        assert drops[reason] > 0, (reason, drops)
    (rec,) = out["records"]
    # the two slow solutions do not finish 10**9 and the two fast ones do: with 2 of 4 finishing
    # (peers_finish_share 0.5) the slow solutions go, not the input ... (see the next test for
    # the input-too-heavy side)
    assert rec["solutions"] == [1, 3] and rec["n_examples"] == 1, out["rejects"]
    inputs = [c["input"][0] for c in rec["cases"]]
    assert 10**9 in inputs and all(0 <= x <= 50 or x == 10**9 for x in inputs)
    for h in ("1", "3"):
        assert [a["value"] for a in rec["answers"][h]] == [x * x for x in inputs]
    by_reason = {r["reason"]: r["detail"] for r in out["rejects"]}
    assert "unlucky" in by_reason["generator-error"] and "sq:" in by_reason["generator-error"]
    assert "argument 0 (integer)" in by_reason["input-type-mismatch"]
    assert "sq solution #" in by_reason["slower-than-peers"]
    assert "which 2 of the 3 other solutions finish" in by_reason["slower-than-peers"]
    assert "3 of 4 solutions raised" in by_reason["invalid-input"]
    # every input's limit is recorded: the floor where the median solution is quick
    limits = rec["call_limits"]
    assert limits["per_input"] == [0.2] * len(inputs) and limits["ceiling_seconds"] == 0.5
    # reproducible: the same seed gives the same inputs
    again = testcases_shard(
        [task], sols, [{"slug": "sq", "generator_code": gen}], section, sandbox=SandboxConfig()
    )
    assert [c["input"] for c in again["records"][0]["cases"]] == [c["input"] for c in rec["cases"]]


@requires_bwrap
def test_testcases_limits_follow_the_evidence_and_hopeless_solutions_stop_early():
    from quicksilver.config import CasesSection, SandboxConfig
    from tests.stagekit import testcases_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer"},
    }
    # 777: only one solution finishes it (the input goes); 999: every solution works a while,
    # D four times longer than the median (its limit is scaled up, so it stays)
    task = {**_task("ev", meta=meta), "examples": [[777], [999]]}
    gen = "import random\ndef generate_test_case():\n    return [random.randint(0, 60)]\n"

    def solution(work: int, hang_on_777: bool = True, hang_above: int | None = None) -> str:
        lines = ["class Solution:", "    def f(self, n):"]
        if hang_above is not None:
            lines += [f"        while n > {hang_above}:", "            pass"]
        if hang_on_777:
            lines += ["        while n == 777:", "            pass"]
        lines += [
            "        if n == 999:",
            f"            s = sum(i % 7 for i in range({work}))",
            "            return n * n + s - s",
            "        return n * n",
        ]
        return "\n".join(lines) + "\n"

    sols = [
        {"slug": "ev", "hash": 1, "position": 0, "code": solution(3_000_000)},
        {"slug": "ev", "hash": 2, "position": 1, "code": solution(2_800_000)},
        {"slug": "ev", "hash": 3, "position": 2, "code": solution(3_200_000)},
        {"slug": "ev", "hash": 4, "position": 3, "code": solution(20_000_000, hang_on_777=False)},
        {"slug": "ev", "hash": 5, "position": 4, "code": solution(10, hang_above=5)},
    ]
    section = CasesSection(
        n=10,
        seed=3,
        solution_cpu_seconds=3.0,
        call_floor_seconds=0.3,
        call_limit_factor=20,
        min_cases=3,
    )
    out = testcases_shard(
        [task], sols, [{"slug": "ev", "generator_code": gen}], section, sandbox=SandboxConfig()
    )
    drops = out["counts"].drops
    assert drops["slower-than-peers"] == 1 and drops["solution-timeout"] == 1, (
        drops,
        out["rejects"],
    )
    assert drops["too-slow"] == 0
    by_reason = {r["reason"]: r for r in out["rejects"] if r["reason"] != "duplicate-input"}
    # the hanging solution runs last: by then the other four have finished its inputs within
    # floor / factor, so its first timeout settles it and it is stopped at once
    hang = by_reason["slower-than-peers"]
    assert hang["hash"] == 5 and "which 4 of the 4 other solutions finish" in hang["detail"]
    not_run = int(re.search(r"stopped there, (\d+) input\(s\) not run", hang["detail"])[1])
    assert not_run >= len(out["records"][0]["cases"]) - 4
    assert "and too few others did" in by_reason["solution-timeout"]["detail"]
    (rec,) = out["records"]
    assert rec["solutions"] == [1, 2, 3, 4]
    inputs = [c["input"][0] for c in rec["cases"]]
    assert 777 not in inputs and 999 in inputs
    at = inputs.index(999)
    limit = rec["call_limits"]["per_input"][at]
    # 20 x the median solution's time: above the floor, below the ceiling
    assert 0.3 < limit <= 3.0, rec["call_limits"]
    assert all(x == 0.3 for i, x in enumerate(rec["call_limits"]["per_input"]) if i != at)
    d = rec["answers"]["4"][at]
    assert d["status"] == "ok" and d["value"] == 999 * 999 and d["cpu"] > 0.3


def _judged_int_task(slug: str, gen_hi: str, codes: list[str], **section: Any) -> dict[str, Any]:
    """The testcases stage on one task ``f(n) -> int`` with examples 3 and 4, inputs drawn
    from [0, ``gen_hi``], and ``codes`` as solutions #0.. (hashes 1..), with ``section``'s
    settings (the judge's-budget tests below)."""
    from quicksilver.config import CasesSection, SandboxConfig
    from tests.stagekit import testcases_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer"},
    }
    task = {**_task(slug, meta=meta), "examples": [[3], [4]]}
    gen = f"import random\ndef generate_test_case():\n    return [random.randint(0, {gen_hi})]\n"
    sols = [
        {"slug": slug, "hash": h, "position": h - 1, "code": code}
        for h, code in enumerate(codes, start=1)
    ]
    return testcases_shard(
        [task],
        sols,
        [{"slug": slug, "generator_code": gen}],
        CasesSection(**section),
        sandbox=SandboxConfig(),
    )


@requires_bwrap
def test_testcases_keeps_an_accepted_solution_within_the_judges_budget():
    """Issue 26: an accepted solution that needs seconds where its peers need milliseconds is
    not the slow one while it finishes within the ceiling; the test set is sized to it. One that
    hangs still goes (one ceiling spent on it), and so does one whose examples alone cost more
    than the test set's budget."""
    burn = "        s = sum(i % 7 for i in range(12_000_000))\n        return n * n + s - s\n"
    fast = "class Solution:\n    def f(self, n):\n        return n * n\n"
    search = "class Solution:\n    def f(self, n):\n        if n < 40:\n            return n * n\n"
    search += burn  # seconds of CPU, only on the largest inputs
    hang = "class Solution:\n    def f(self, n):\n        while n >= 40:\n            pass\n"
    hang += "        return n * n\n"
    # three times the search's work on every input: the two examples alone are over budget
    heavy = "class Solution:\n    def f(self, n):\n" + burn.replace("12_000", "36_000")
    codes = [fast, fast.replace("n * n", "n ** 2"), search, hang, heavy]
    out = _judged_int_task(
        "jb",
        "60",
        codes,
        n=24,
        seed=11,
        solution_cpu_seconds=4.0,
        call_floor_seconds=0.05,
        judge_seconds=6.0,
        test_set_cpu_seconds=1.5,
        min_cases=3,
    )
    by_hash = {r["hash"]: r for r in out["rejects"] if r.get("hash")}
    assert set(by_hash) == {4, 5}, out["rejects"]
    # the hanging one: one ceiling on an input its peers finish, then stopped
    assert by_hash[4]["reason"] == "slower-than-peers", by_hash[4]
    assert "limit 4 s of CPU" in by_hash[4]["detail"] and "stopped there" in by_hash[4]["detail"]
    # the one slow everywhere: the statement's examples alone cost more than the budget
    assert by_hash[5]["reason"] == "over-budget", by_hash[5]
    # (found on the examples alone, or once its largest input, run first, spent the budget
    # before an example ran)
    assert "the statement's example" in by_hash[5]["detail"], by_hash[5]
    (rec,) = out["records"]
    assert rec["solutions"] == [1, 2, 3], rec["solutions"]
    inputs = [c["input"][0] for c in rec["cases"]]
    big = [k for k, x in enumerate(inputs) if x >= 40]
    assert big, inputs  # the largest inputs stay, as many as the budget holds for the slow one
    search_cpu = [a["cpu"] for a in rec["answers"]["3"]]
    assert all(search_cpu[k] > 0.05 for k in big)  # answered above the floor ...
    limits = rec["call_limits"]["per_input"]
    assert all(limits[k] == 4.0 for k in big), limits  # ... under the ceiling, recorded
    # the examples come first: answered at the floor by all (the calls its screening did not
    # make after its first timeouts ran with the ceiling too)
    assert limits[:2] == [0.05, 0.05], limits
    # the test set is sized to it: within the budget, and inputs were left out for it, by the
    # fit or because its calls run again had spent the budget before them
    b = rec["budget"]
    assert sum(search_cpu) <= 1.5 and b["left_out"] + b["left_out_unrun"] > 0, b
    assert b["slowest_solution"] == 2
    # the inputs left out, and the solution over budget on the examples
    assert out["counts"].drops["over-budget"] == b["left_out"] + b["left_out_unrun"] + 1


@requires_bwrap
def test_testcases_leaves_out_what_a_solution_could_not_run_within_the_judges_budget():
    """A solution slow on most inputs (its peers are quick) runs the calls it did not finish at
    the floor again until it has spent the test set's budget: it stays, the inputs it could not run
    then are left out, and the test set it runs fits the budget."""
    fast = "class Solution:\n    def f(self, n):\n        return n % 7\n"
    steady = (  # quick on even inputs only
        "class Solution:\n    def f(self, n):\n        if n % 2 == 0:\n            return n % 7\n"
        "        s = sum(i % 7 for i in range(2_500_000))\n        return n % 7 + s - s\n"
    )
    out = _judged_int_task(
        "bs",
        "10**6",
        [fast, fast.replace("n % 7", "(n + 7) % 7"), steady],
        n=20,
        seed=2,
        solution_cpu_seconds=1.0,
        call_floor_seconds=0.02,
        judge_seconds=1.0,
        test_set_cpu_seconds=1.0,
        min_cases=3,
    )
    assert not [r for r in out["rejects"] if r.get("dropped") == "solution"], out["rejects"]
    spent = [r for r in out["rejects"] if "spent the test set's budget" in r["detail"]]
    assert spent and all(r["reason"] == "over-budget" for r in spent), out["rejects"]
    assert all("solution(s) #2 spent" in r["detail"] for r in spent)
    # what the screening never ran is tried with the floor once the budget is spent: the quick
    # (even) inputs stay, only slow ones are left out
    assert all(r["input"][0] % 2 == 1 for r in spent), [r["input"] for r in spent]
    (rec,) = out["records"]
    assert rec["solutions"] == [1, 2, 3] and len(rec["cases"]) >= 3
    assert rec["n_examples"] == 2  # the examples stay
    steady_cpu = [a["cpu"] for a in rec["answers"]["3"]]
    odd = [k for k, c in enumerate(rec["cases"]) if c["input"][0] % 2 == 1]
    assert odd and all(steady_cpu[k] > 0.02 for k in odd) and sum(steady_cpu) <= 1.0
    assert len(rec["cases"]) > len(odd)  # even inputs it never ran before the budget stay
    kept = {json.dumps(c["input"]) for c in rec["cases"]}
    assert not kept & {json.dumps(r["input"]) for r in spent}
    # recorded: how many it never ran, and the solution the test set was sized to
    assert rec["budget"]["left_out_unrun"] == len(spent) and rec["budget"]["slowest_solution"] == 2


@requires_bwrap
def test_testcases_runs_an_input_no_majority_finished_with_the_budgets_room_only():
    """An input every solution needs more than the floor for (no majority finished it, so no
    one is the slow one) runs again with what the test set's budget has left, not the ceiling:
    not finishing within that room leaves the input out (``over-budget``, the limit named), and
    no solution goes, since none of them could run a test set that holds it."""
    # every solution burns seconds on n >= 80: within the ceiling, far past the budget
    burn = "        if n >= 80:\n            s = sum(i % 7 for i in range(30_000_000))\n"
    burn += "            return n % 7 + s - s\n"
    head = "class Solution:\n    def f(self, n):\n" + burn
    out = _judged_int_task(
        "rm",
        "99",
        [
            head + "        return n % 7\n",
            head + "        return (n + 7) % 7\n",
            head + "        return n - n // 7 * 7\n",
        ],
        n=16,
        seed=5,
        solution_cpu_seconds=30.0,
        call_floor_seconds=0.05,
        judge_seconds=30.0,
        test_set_cpu_seconds=0.3,
        min_cases=3,
    )
    assert not [r for r in out["rejects"] if r.get("dropped") == "solution"], out["rejects"]
    (rec,) = out["records"]
    assert rec["solutions"] == [1, 2, 3]
    assert all(c["input"][0] < 80 for c in rec["cases"]), rec["cases"]
    heavy = [r for r in out["rejects"] if r.get("input") and r["input"][0] >= 80]
    assert heavy, out["rejects"]  # the seed draws some: each is left out, and says why
    assert all(r["reason"] == "over-budget" for r in heavy), heavy
    # the first one ran again with the room the budget had left (0.3 s), not the 30 s ceiling;
    # after it nothing was left, so the others were not run again at all
    assert all("the test set's budget is spent" in r["detail"] for r in heavy), heavy
    room = [
        r
        for r in heavy
        if "within the 0.3 s of CPU the test set's budget (0.3 s) had" in r["detail"]
    ]
    assert len(room) == 1, heavy
    assert all("not run, " in r["detail"] for r in heavy if r not in room), heavy
    assert all(limit < 30.0 for limit in rec["call_limits"]["per_input"])


# ------------------------------------------------------------------------------ generators


LONE_VALUE_GENERATOR = """Here is the generator.

```python
import random

def generate_test_case():
    k = random.randint(0, 20)
    values = random.sample(range(-30000, 30001), k + 1)
    nums = values[:k] * 2 + [values[k]]
    random.shuffle(nums)
    return [nums]
```
"""


@requires_bwrap
def test_generators_stage_auto_mode_sends_what_the_offline_path_reports_to_the_llm(tmp_path):
    from openai_server import OpenAIServer

    from quicksilver.config import SandboxConfig, SynthesisSection
    from tests.stagekit import synthesis_stage

    loaded = load_stage(
        [Path("data/snapshot/bundled")], ["lone-value", "has-repeated-value", "pair-sum-indices"]
    )
    with OpenAIServer() as server:
        server.queue(
            "I am sorry, I cannot write code for this.",  # lone-value, attempt 1: no code
            LONE_VALUE_GENERATOR,  # lone-value, attempt 2
            "```python\ndef generate_test_case(:\n```",  # pair-sum-indices: syntax error ...
            "```python\ndef generate_test_case():\n    return [[1, 2], 'x']\n```",  # wrong type
        )
        section = SynthesisSection(
            mode="auto",
            size_cap=50,
            cache_dir=tmp_path / "llm",
            llm={
                "base_url": server.url,
                "model": "test-model",
                "max_attempts": 2,
                "max_retries": 0,
            },
        )
        out = synthesis_stage(
            loaded["tasks"], loaded["solutions"], section, sandbox=SandboxConfig()
        )
        asked = server.count
    gens = {g["slug"]: g for g in out["generators"]}
    assert gens["has-repeated-value"]["generator_path"] == "offline"
    lone = gens["lone-value"]
    assert lone["generator_path"] == "llm" and lone["generator_model"] == "test-model"
    assert "exactly twice" in lone["offline_report"]
    assert [a["verdict"] for a in lone["attempts"]] == ["rejected", "ok"]
    assert "def generate_test_case" in lone["generator_code"]
    assert "pair-sum-indices" not in gens and asked == 4
    (failed,) = [r for r in out["rejects"] if "hash" not in r]
    assert failed["reason"] == "generator-synthesis-failed" and failed["slug"] == "pair-sum-indices"
    assert "offline" in failed["detail"] and "llm" in failed["detail"]
    assert out["counts"].drops == {"generator-synthesis-failed": 1}


# ------------------------------------------------------------------------------ profile


@requires_bwrap
def test_profile_stage_records_runtimes_and_drops_what_fails():
    from quicksilver.config import MeasureConfig, ProfileSection, SandboxConfig
    from tests.stagekit import profile_shard

    meta = {
        "name": "f",
        "params": [{"name": "n", "type": "integer"}],
        "return": {"type": "integer"},
    }
    task = _task("sq", meta=meta)
    fast = "class Solution:\n    def f(self, n):\n        return n * n\n"
    slow = "class Solution:\n    def f(self, n):\n        return sum(n for _ in range(n))\n"
    off = "class Solution:\n    def f(self, n):\n        return n * n + (n == 7)\n"
    sols = [
        {"slug": "sq", "hash": h, "position": i, "code": c}
        for i, (h, c) in enumerate([(11, fast), (12, slow), (13, off)])
    ]
    record = {
        "slug": "sq",
        "any_order": False,
        "test_cases": [{"input": [n], "expected": n * n} for n in (3, 7, 300)],
        "solutions": [11, 12, 13],
        "seed": 1,
    }
    section = ProfileSection(measure=MeasureConfig(), sandbox=SandboxConfig())  # icount
    out = profile_shard([task], sols, [record], section, min_solutions_=2)
    (rec,) = out["records"]
    assert rec["solutions"] == [11, 12]
    assert rec["meter"] == "icount" and rec["unit"] == "instructions"
    runtimes = {r["hash"]: r for r in rec["runtimes"]}
    assert set(runtimes) == {11, 12}
    assert runtimes[12]["runtime"] > 10 * runtimes[11]["runtime"] > 0
    assert all(
        r["ci_low"] == r["runtime"] == r["ci_high"] and r["rounds"] == 1 and r["converged"]
        for r in runtimes.values()
    )
    assert rec["machine_id"]
    (bad,) = out["rejects"]
    assert bad["reason"] == "profile-failed" and bad["hash"] == 13
    assert "sq solution #2: failed: case 1: wrong answer" in bad["detail"]
    # with a higher minimum the task itself goes, its solutions with it
    again = profile_shard([task], sols, [record], section, min_solutions_=3)
    assert again["records"] == [] and again["counts"].drops["min-solutions"] == 1


def test_stage_keys_follow_config_inputs_and_logic(tmp_path, monkeypatch):
    from quicksilver.builds import MERCURY
    from quicksilver.pipeline import keys
    from quicksilver.pipeline.runner import Runner

    def code_digest(stage: str) -> str:
        return keys.code_digest(MERCURY.stage(stage).code)

    cfg = load_build_config(Path("configs/mercury.yaml"), [f"out_dir={tmp_path}"])
    build = Runner(MERCURY, cfg)
    assert code_digest("generators") != code_digest("dedup")
    key = build.key("dedup")
    assert build.key("dedup") == key
    assert Runner(MERCURY, cfg.model_copy(update={"name": "other"})).key("dedup") == key  # not read
    other = load_build_config(
        Path("configs/mercury.yaml"), [f"out_dir={tmp_path}", "dedup.ngram=4"]
    )
    assert Runner(MERCURY, other).key("dedup") != key
    (tmp_path / "stages" / "load").mkdir(parents=True)
    (tmp_path / "stages" / "load" / "records.jsonl").write_text('{"task": {"slug": "a"}}\n')
    assert build.key("dedup") != key  # its input changed
    changed = build.key("dedup")
    monkeypatch.setattr(keys, "code_digest", lambda modules: "edited")
    assert build.key("dedup") != changed  # its logic changed


def test_a_time_meter_profiles_alone_in_both_builds():
    """A cpu meter must not measure beside other work: Mercury's profile stage, like DPE's
    pe_profile, runs shard after shard with nothing beside it; icount counts beside anything."""
    from quicksilver.config import DPEBuildConfig
    from quicksilver.stages.pe_profile import PE_PROFILE
    from quicksilver.stages.profile import PROFILE

    for stage, cls, section in (
        (PROFILE, None, "profile"),
        (PE_PROFILE, DPEBuildConfig, "pe_profile"),
    ):
        assert stage.alone is not None
        for meter, alone in (("cpu", True), ("icount", False)):
            kwargs = {"cls": cls} if cls else {}
            cfg = load_build_config(None, [f"{section}.measure.meter={meter}"], **kwargs)
            assert stage.alone(cfg) is alone, (stage.name, meter)
