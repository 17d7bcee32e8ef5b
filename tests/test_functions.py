"""Function-style tasks: signatures and input bounds inferred from the task's own example calls
(quicksilver/sources/functions.py), the load stage's task for them, the filters' reasons, the
splits over unrated tasks, and HumanEval-style completions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quicksilver.config import BuildConfig
from quicksilver.samples import function_solution, slug_form
from quicksilver.sources.convert import UnsupportedSignature, parse_signature
from quicksilver.sources.functions import (
    Call,
    calls_in_asserts,
    calls_in_prompt,
    constraints_html,
    example_calls,
    infer_signature,
    inferred_constraints,
    value_type,
)
from quicksilver.sources.humaneval import convert_humaneval
from quicksilver.sources.snapshot import (
    CodeSnippet,
    Provenance,
    Question,
    SnapshotFile,
    SnapshotSolution,
    write_snapshot,
)
from quicksilver.sources.text import constraint_lines
from quicksilver.stages.generators import synth_input
from quicksilver.stages.splits import split_tasks
from quicksilver.synth.offline import synthesize_offline, synthesize_offline_perf
from tests.conftest import requires_bwrap
from tests.stagekit import filter_stage, load_stage

PROMPT = '''from typing import List


def pair_sum(nums: List[int], target: int) -> bool:
    """Whether two numbers of nums add up to target.
    >>> pair_sum([1, 2, 3], 5)
    True
    >>> pair_sum([1, 2], 7)
    False
    pair_sum([], 0) == False
    """
'''


def _calls(*rows: tuple[tuple[object, ...], object]) -> list[Call]:
    return [Call(args, expected, True) for args, expected in rows]


def test_value_types() -> None:
    assert value_type(3) == "integer" and value_type(2**40) == "long"
    assert value_type(True) == "boolean" and value_type(1.5) == "double"
    assert value_type("ab") == "string"
    assert value_type([1, 2.5]) == "double[]"
    assert value_type((1, 2)) == "integer[]"  # a tuple travels as a list
    assert value_type([[1], []]) == "integer[][]"
    assert value_type([]) == "?[]"


def test_signature_from_calls_and_annotations() -> None:
    calls = _calls((([1, 2, 3], 5), True), (([], 0), False), (([1, 2], 7), False))
    meta = infer_signature("pair_sum", PROMPT, calls)
    assert meta == {
        "name": "pair_sum",
        "params": [{"name": "nums", "type": "integer[]"}, {"name": "target", "type": "integer"}],
        "return": {"type": "boolean"},
    }
    parse_signature(meta)  # what every later stage reads


def test_ints_and_floats_make_double_and_annotation_fills_empty_lists() -> None:
    prompt = "def f(xs: List[float], k):\n    pass\n"
    meta = infer_signature("f", prompt, _calls((([], 2), 1), (([], 3.5), 2.0)))
    assert [p["type"] for p in meta["params"]] == ["double[]", "double"]
    assert meta["return"]["type"] == "double"


@pytest.mark.parametrize(
    ("prompt", "calls", "why"),
    [
        ("def f(d):\n    pass\n", [((({"a": 1}),), 1)], "parameter d is not inferable: a dict"),
        ("def f(x):\n    pass\n", [((1,), 1), (("a",), 2)], "values of two types"),
        ("def f(x):\n    pass\n", [((1,), "a"), ((2,), 3)], "return type is not inferable"),
        ("def f(xs):\n    pass\n", [(([],), 1)], "element type open"),
        ("def f(x, y=0):\n    pass\n", [((1,), 1), ((1, 2), 3)], "with 1 and 2 arguments"),
        ("def f(x):\n    pass\n", [], "no example call of f"),
    ],
)
def test_not_inferable_says_why(prompt: str, calls: list, why: str) -> None:
    with pytest.raises(UnsupportedSignature, match=why):
        infer_signature("f", prompt, _calls(*calls))


def test_calls_from_asserts_and_prompt() -> None:
    code = (
        "def check(candidate):\n"
        "    assert candidate([1, 2], 3) == True\n"
        "    assert pair_sum([5], 5) == False\n"
        "    assert candidate(x) == 1\n"  # not literal: skipped
    )
    got = calls_in_asserts(code, ("candidate", "pair_sum"))
    assert [(c.args, c.expected) for c in got] == [(([1, 2], 3), True), (([5], 5), False)]
    prompt = calls_in_prompt(PROMPT, "pair_sum")
    assert [(c.args, c.expected, c.has_expected) for c in prompt] == [
        (([1, 2, 3], 5), True, True),  # doctest: the answer on the next line
        (([1, 2], 7), False, True),
        (([], 0), False, True),  # f(x) == y in prose
    ]
    both = example_calls("pair_sum", prompt=PROMPT, tests=None, test_code=code)
    assert len(both) == 5 and {c.origin for c in both} == {"test_code", "prompt"}


def test_bounds_are_read_by_the_offline_synthesizer() -> None:
    calls = _calls((([3, -4, 9], 5), True), (([1, 2], 7), False))
    meta = infer_signature("pair_sum", PROMPT, calls)
    lines = inferred_constraints(meta, calls, max_length=5000)
    assert lines == ["2 <= nums.length <= 5000", "-4 <= nums[i] <= 9", "5 <= target <= 7"]
    html = "<pre>statement</pre>" + constraints_html(lines)
    assert constraint_lines(html) == lines
    from quicksilver.synth import SynthInput

    inp = SynthInput(slug="t", title="t", content_html=html, meta=meta, prompt=PROMPT)
    assert synthesize_offline(inp).generator_code, "the Mercury generator"
    assert synthesize_offline_perf(inp).generator_code, "the DPE perf generator"


def test_string_bounds_name_the_classes_seen() -> None:
    meta = {"name": "f", "params": [{"name": "s", "type": "string"}], "return": {"type": "string"}}
    calls = _calls((("ab(c)",), "x"), (("Z9",), "y"))
    lines = inferred_constraints(meta, calls, max_length=100)
    assert lines[0] == "2 <= s.length <= 100"
    assert lines[1] == (
        "s consists of lowercase English letters, uppercase English letters, digits, '(', ')'"
    )


def test_single_value_widens_to_zero() -> None:
    meta = {"name": "f", "params": [{"name": "x", "type": "double"}], "return": {"type": "double"}}
    assert inferred_constraints(meta, _calls(((3.5,), 0.5)), max_length=9) == ["0 <= x <= 3.5"]


def _function_snapshot(
    directory: Path, slug: str, prompt: str, entry: str, **extra: object
) -> None:
    snap = SnapshotFile(
        question=Question(
            questionId=f"Toy/{slug}",
            questionFrontendId="7",
            title=entry,
            titleSlug=slug,
            content=f"<pre>{prompt}</pre>",
            difficulty=None,
            isPaidOnly=False,
            codeSnippets=[CodeSnippet(lang="Python3", langSlug="python3", code=prompt)],
        ),
        solutions=[SnapshotSolution(code=prompt + "    return False\n", source="canonical")],
        entry_point=entry,
        provenance=Provenance(source="toy"),
        **extra,  # type: ignore[arg-type]
    )
    write_snapshot(directory, snap)


def test_load_infers_function_tasks_and_filters_say_why(tmp_path: Path) -> None:
    _function_snapshot(
        tmp_path,
        "pair-sum",
        PROMPT,
        "pair_sum",
        tests=[{"input": [[4, 4], 8], "expected": True}],
        test_code="def check(candidate):\n    assert candidate((1, 2), 9) == False\n",
    )
    _function_snapshot(
        tmp_path,
        "by-key",
        "def by_key(d):\n    '''>>> by_key({'a': 1})\n    1\n    '''\n",
        "by_key",
    )
    out = load_stage([tmp_path])
    tasks = {t["slug"]: t for t in out["tasks"]}
    pair = tasks["pair-sum"]
    assert pair["kind"] == "function" and pair["entry_point"] == "pair_sum"
    assert pair["meta"]["params"][0] == {"name": "nums", "type": "integer[]"}
    assert pair.get("difficulty") is None
    assert [4, 4] in [e[0] for e in pair["examples"]] and [1, 2] in [e[0] for e in pair["examples"]]
    # the tests' and asserts' answers are known (a tuple as a list); the prompt's are inputs only
    assert {"input": [[1, 2], 9], "expected": False} in pair["known_tests"]
    assert len(pair["known_tests"]) == 2
    assert pair["constraints"][0] == "0 <= nums.length <= 100000"
    html = synth_input_html(pair)
    assert "Constraints:" in html and "0 &lt;= nums.length &lt;= 100000" in html
    assert tasks["by-key"]["signature_error"].startswith("parameter d is not inferable: a dict")

    sols = [
        {"slug": s, "hash": 100 + i, "position": i, "code": f"# {i}\n"}
        for s in tasks
        for i in range(2)
    ]
    kept = filter_stage(list(tasks.values()), sols, min_solutions_=2)
    assert [t["slug"] for t in kept["tasks"]] == ["pair-sum"]  # no difficulty: kept
    why = next(r for r in kept["rejects"] if r["slug"] == "by-key" and "hash" not in r)
    assert why["reason"] == "unsupported-type" and "a dict value" in why["detail"]


def synth_input_html(task: dict) -> str:
    from quicksilver.pipeline.records import Task

    return synth_input(Task.model_validate(task), []).content_html


def test_humaneval_signatures_are_inferred_for_most_tasks() -> None:
    snaps = convert_humaneval()
    inferred, reasons = 0, []
    for snap in snaps:
        assert snap.entry_point is not None
        calls = example_calls(
            snap.entry_point,
            prompt=snap.question.python3_snippet() or "",
            tests=snap.tests,
            test_code=snap.test_code,
        )
        try:
            infer_signature(snap.entry_point, snap.question.python3_snippet() or "", calls)
            inferred += 1
        except UnsupportedSignature as exc:
            reasons.append(f"{snap.slug}: {exc}")
    assert inferred >= 145, reasons  # 149 of 164 when written; each other one says why
    assert any("humaneval-95: parameter dict is not inferable: a dict" in r for r in reasons)


def test_splits_balance_what_is_present() -> None:
    unrated = [{"slug": f"u{i}", "difficulty": None} for i in range(6)]
    chosen, notes = split_tasks(unrated, eval_size=4, seed=0)
    assert len(chosen["eval"]) == 4 and len(chosen["train"]) == 2, notes
    rated = [{"slug": f"e{i}", "difficulty": "Easy"} for i in range(6)]
    chosen, notes = split_tasks(rated + unrated, eval_size=8, seed=0)
    # four groups present (Easy, Medium, Hard, unrated): two each, Medium and Hard have none
    assert sum(s.startswith("u") for s in chosen["eval"]) == 2
    assert sum(s.startswith("e") for s in chosen["eval"]) == 2
    assert any("0 Medium task(s) of the 2 wanted" in n for n in notes)


def test_completions_as_evalplus_and_bigcode_write_them() -> None:
    prompt = 'def add(x: int, y: int) -> int:\n    """Add."""\n'
    assert function_solution(prompt, "add", "    return x + y\n") == prompt + "    return x + y\n"
    whole = "import math\n\ndef add(x, y):\n    return x + y\n"
    assert function_solution(prompt, "add", whole) == whole
    assert slug_form("HumanEval/12") == "humaneval-12" and slug_form("Mbpp/2") == "mbpp-2"
    assert json.dumps(slug_form("two-sum")) == '"two-sum"'


def test_dpe_preflight_says_one_solution_per_task_is_not_enough(tmp_path: Path, caplog) -> None:
    from quicksilver.config import DPEBuildConfig
    from quicksilver.preflight import solutions_check

    for n in range(3):
        _function_snapshot(tmp_path / "snap", f"t-{n}", PROMPT, "pair_sum")
    cfg = DPEBuildConfig(snapshots=[tmp_path / "snap"], out_dir=tmp_path / "out")
    problem = solutions_check(cfg)
    assert problem is not None and problem.startswith(
        "every one of the 3 question(s) has fewer than 10 solutions (at most 1;"
    )
    assert "attach-samples" in problem and "candidates.sample_files" in problem
    with_samples = cfg.model_copy(
        update={
            "candidates": cfg.candidates.model_copy(
                update={"sample_files": [{"path": tmp_path / "s.jsonl", "model": "m"}]}
            )
        }
    )
    assert solutions_check(with_samples) is None  # the candidates stage may add enough
    assert "3 of 3 question(s) have fewer than 10 solutions" in caplog.text
    assert solutions_check(BuildConfig(snapshots=[tmp_path / "snap"])) is None  # Mercury: no


def test_a_tuple_answer_compares_as_the_list_it_is_published_as(monkeypatch) -> None:
    import quicksilver
    from quicksilver.sources.convert import evaluate_offline_source

    runtime = Path(quicksilver.__file__).parent / "sandbox" / "runtime"
    monkeypatch.syspath_prepend(str(runtime))  # for the source's `import lctk`

    sig = parse_signature(
        {"name": "f", "params": [{"name": "x", "type": "integer"}], "return": {"type": "integer[]"}}
    )
    scope: dict = {}
    exec(evaluate_offline_source(sig, tuples_as_lists=True), scope)  # our own generated source
    assert scope["evaluate_offline"]([1], (3, (4,)), [3, [4]]) is True
    assert scope["evaluate_offline"]([1], (3, 5), [3, 4]) is False
    # LeetCode rows: a tuple at a list level of the declared type is the list LeetCode's driver
    # writes (tests/test_judge_like_leetcode.py), and no deeper than the declared type
    exec(evaluate_offline_source(sig), scope)
    assert scope["evaluate_offline"]([1], (3, 4), [3, 4]) is True
    assert scope["evaluate_offline"]([1], (3, (4,)), [3, [4]]) is False


@requires_bwrap
def test_snapshot_check_passes_a_tuple_answer_against_its_json_list(tmp_path: Path) -> None:
    from quicksilver.sources.check import check_snapshot_dir

    prompt = "def split_sum(xs):\n    '''>>> split_sum([1, 2])\n    (1, 2)\n    '''\n"
    _function_snapshot(
        tmp_path, "split-sum", prompt, "split_sum", tests=[{"input": [[1, 2]], "expected": [1, 2]}]
    )
    path = tmp_path / "split-sum.json"
    data = json.loads(path.read_text())
    data["solutions"] = [
        {"code": prompt + "    return (min(xs), max(xs))\n", "source": "canonical"},
        {"code": prompt + "    return (max(xs), min(xs))\n", "source": "model", "model": "m"},
    ]
    path.write_text(json.dumps(data))
    report = check_snapshot_dir(tmp_path)
    assert [c.status for c in report.checked] == ["passed", "failed"]


def test_snapshot_stats_name_the_functions_the_build_cannot_type(tmp_path: Path) -> None:
    from quicksilver.sources.stats import snapshot_stats

    _function_snapshot(tmp_path, "pair-sum", PROMPT, "pair_sum")
    _function_snapshot(
        tmp_path, "by-key", "def by_key(d):\n    '''by_key({'a': 1}) == 1'''\n", "by_key"
    )
    st = snapshot_stats(tmp_path)
    assert list(st.unsupported) == ["by-key"]
    assert st.unsupported["by-key"].startswith("parameter d is not inferable: a dict value")
    assert st.by_difficulty == {"Unrated": 2}
