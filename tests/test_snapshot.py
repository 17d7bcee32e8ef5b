"""The raw snapshot format, HumanEval conversion, model samples and snapshot stats."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from quicksilver.sources.attach import attach_samples
from quicksilver.sources.check import check_snapshots, snapshot_task
from quicksilver.sources.convert import (
    UnsupportedSignature,
    convert_offline_source,
    evaluate_offline_source,
    parse_example_testcase,
    parse_signature,
)
from quicksilver.sources.humaneval import convert_humaneval, extract_tests
from quicksilver.sources.snapshot import (
    SnapshotError,
    SnapshotFile,
    load_snapshot_dir,
    read_snapshot,
    write_snapshot,
)
from quicksilver.sources.stats import snapshot_stats
from tests.conftest import requires_bwrap

RUNTIME = Path(__file__).resolve().parents[1] / "quicksilver" / "sandbox" / "runtime"
META = '{"name": "addUp", "params": [{"name": "nums", "type": "integer[]"}], "return": {"type": "integer"}}'


def snapshot(slug: str = "add-up", **question: object) -> dict:
    q = {
        "questionId": "7",
        "questionFrontendId": "7",
        "title": "Add Up",
        "titleSlug": slug,
        "content": "<p>Return the sum of <code>nums</code>.</p>",
        "difficulty": "Easy",
        "isPaidOnly": False,
        "topicTags": [{"name": "Array", "slug": "array"}],
        "codeSnippets": [
            {
                "lang": "Python3",
                "langSlug": "python3",
                "code": "class Solution:\n    def addUp(self, nums: List[int]) -> int:\n        ",
            }
        ],
        "metaData": META,
        "exampleTestcaseList": ["[1,2,3]"],
        "stats": '{"totalAccepted": "1.2M", "acRate": "55.1%"}',
        "hints": [],
        "similarQuestions": "[]",
        "questionTypeExtra": {"kept": True},  # a field we do not model survives
    }
    q.update(question)
    return {
        "question": q,
        "solutions": [
            {
                "code": "class Solution:\n    def addUp(self, nums):\n        return sum(nums)\n",
                "source": "runtime-bin",
                "runtime": "40ms",
            },
            {
                "code": "class Solution:\n    def addUp(self, nums):\n        t = 0\n        for x in nums:\n            t += x\n        return t\n",
                "source": "community",
            },
        ],
        "tests": [{"input": [[1, 2, 3]], "expected": 6}, {"input": [[]], "expected": 0}],
        "provenance": {
            "source": "leetcode",
            "endpoint": "http://127.0.0.1/graphql/",
            "fetched_at": "2026-11-21T05:00:00Z",
        },
    }


def test_round_trip_keeps_graphql_fields_unchanged(tmp_path: Path) -> None:
    snap = SnapshotFile.model_validate(snapshot())
    path = write_snapshot(tmp_path, snap)
    assert path.name == "add-up.json"
    data = json.loads(path.read_text())
    assert data["question"]["metaData"] == META  # still LeetCode's JSON string, byte for byte
    assert data["question"]["stats"] == '{"totalAccepted": "1.2M", "acRate": "55.1%"}'
    assert data["question"]["questionTypeExtra"] == {"kept": True}
    assert data["solutions"][0]["runtime"] == "40ms"
    assert data["solutions"][1]["runtime"] is None  # unknown stays empty, never invented
    again = read_snapshot(path)
    assert again.model_dump() == snap.model_dump()
    assert again.question.meta()["name"] == "addUp"


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["question"].pop("titleSlug"), "question.titleSlug"),
        (lambda d: d["question"].update(metaData="{not json"), "question.metaData"),
        (lambda d: d["question"].update(difficulty="Impossible"), "question.difficulty"),
        (lambda d: d["solutions"][0].update(source="scraped-somehow"), "solutions.0.source"),
        (lambda d: d["solutions"][0].update(code="   "), "solutions.0.code"),
        (lambda d: d.pop("provenance"), "provenance"),
    ],
)
def test_malformed_file_is_set_aside_naming_file_and_field(
    tmp_path: Path, mutate, field: str
) -> None:
    good = SnapshotFile.model_validate(snapshot("good-one"))
    write_snapshot(tmp_path, good)
    bad = snapshot("bad-one")
    mutate(bad)
    (tmp_path / "bad-one.json").write_text(json.dumps(bad))
    loaded = load_snapshot_dir(tmp_path)
    assert [f.slug for f in loaded.files] == ["good-one"]
    assert len(loaded.rejects) == 1
    assert loaded.rejects[0].path.endswith("bad-one.json")
    assert field in loaded.rejects[0].reason


def test_truncated_and_misnamed_files(tmp_path: Path) -> None:
    text = json.dumps(snapshot("cut"))
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    (tmp_path / "wrong-name.json").write_text(json.dumps(snapshot("other-slug")))
    loaded = load_snapshot_dir(tmp_path)
    reasons = {Path(r.path).name: r.reason for r in loaded.rejects}
    assert "not valid JSON" in reasons["cut.json"]
    assert "titleSlug is 'other-slug'" in reasons["wrong-name.json"]
    with pytest.raises(SnapshotError, match=r"cut\.json"):
        read_snapshot(tmp_path / "cut.json")


def test_atomic_write_keeps_the_old_file_on_a_crash(tmp_path: Path, monkeypatch) -> None:
    first = SnapshotFile.model_validate(snapshot())
    write_snapshot(tmp_path, first)
    changed = SnapshotFile.model_validate(snapshot(title="Changed"))

    def boom(*_a: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("quicksilver.fsutil.os.replace", boom)
    with pytest.raises(OSError, match="disk full"):
        write_snapshot(tmp_path, changed)
    assert read_snapshot(tmp_path / "add-up.json").question.title == "Add Up"
    assert [p.name for p in tmp_path.iterdir()] == ["add-up.json"]  # no temp file left behind


class _EvaluatorTreeNode:
    """The TreeNode an evaluator injects (Mercury's: LeetCode's constructor, nothing else)."""

    def __init__(self, val=0, left=None, right=None) -> None:
        self.val, self.left, self.right = val, left, right


@pytest.mark.parametrize(
    "meta",
    [
        '{"name": "f", "params": [{"name": "root", "type": "TreeNode"}], "return": {"type": "TreeNode"}}',
        '{"name": "f", "params": [{"name": "root", "type": "TreeNode"}], "return": {"type": "void"},'
        ' "output": {"paramindex": 0}}',
    ],
)
def test_tree_rows_judge_exactly_whatever_lctk_is_installed(meta: str) -> None:
    """A row with a tree carries its own helpers: a last 0 counts (lctk 0.0.6's binaryTree2Arr
    would drop it and pass an answer without that leaf), and nodes are the evaluator's class."""
    sig = parse_signature(meta)
    convert, evaluate = convert_offline_source(sig), evaluate_offline_source(sig)
    assert "lctk.binaryTree" not in convert + evaluate
    ns: dict = {"TreeNode": _EvaluatorTreeNode, "lctk": None}
    exec(convert.replace("    import lctk\n", ""), ns)
    exec(evaluate.replace("    import lctk\n", ""), ns)

    def judge(root: object, expected: object) -> bool:
        if sig.output_param is None:
            return ns["evaluate_offline"]([None], root, expected)
        return ns["evaluate_offline"]([root], None, expected)

    for arr in ([1, 2, 0], [0], [5, None, 0, 0], [3, 1, None, None, 2], []):
        (root,), expected = ns["convert_offline"](([arr], arr))
        assert root is None if not arr else type(root) is _EvaluatorTreeNode
        assert judge(root, expected) is True, arr
    (wrong,), _ = ns["convert_offline"](([[1, 2]], None))  # the last leaf, a 0, is missing
    assert judge(wrong, [1, 2, 0]) is False
    shared = _EvaluatorTreeNode(0)
    with pytest.raises(ValueError, match="not a tree"):
        judge(_EvaluatorTreeNode(1, shared, shared), [1, 0, 0])


def test_signature_and_generated_code_fields() -> None:
    sig = parse_signature(
        '{"name": "f", "params": [{"name": "root", "type": "TreeNode"}, {"name": "k", "type": "integer"}],'
        ' "return": {"type": "ListNode"}}'
    )
    assert sig.name == "f" and sig.types == ["TreeNode", "integer", "ListNode"]
    sys.path.insert(0, str(RUNTIME))
    try:
        import lctk

        ns: dict = {"TreeNode": lctk.TreeNode}  # injected by every evaluator (the prelude's)
        exec(convert_offline_source(sig), ns)
        exec(evaluate_offline_source(sig), ns)
        inputs, _expected = ns["convert_offline"](([[1, 2, None, 3], 2], [4, 5]))
        assert type(inputs[0]) is lctk.TreeNode
        assert lctk.binaryTree2Arr(inputs[0]) == [1, 2, None, 3] and inputs[1] == 2
        assert ns["evaluate_offline"](inputs, lctk.linkedList([4, 5]), [4, 5]) is True
        assert ns["evaluate_offline"](inputs, lctk.linkedList([5, 4]), [4, 5]) is False
        in_place = parse_signature(
            '{"name": "g", "params": [{"name": "nums", "type": "integer[]"}], "return": {"type": "void"},'
            ' "output": {"paramindex": 0}}'
        )
        ns2: dict = {}
        exec(evaluate_offline_source(in_place), ns2)
        assert ns2["evaluate_offline"]([[1, 2]], None, [1, 2]) is True
        ns3: dict = {}
        exec(evaluate_offline_source(parse_signature(META), any_order=True), ns3)
        assert ns3["evaluate_offline"]([], [[2, 1], [3]], [[3], [1, 2]]) is True
    finally:
        sys.path.remove(str(RUNTIME))
    with pytest.raises(UnsupportedSignature, match="Node"):
        parse_signature(
            '{"name": "copy", "params": [{"name": "head", "type": "Node"}], "return": {"type": "Node"}}'
        )
    with pytest.raises(UnsupportedSignature, match="design"):
        parse_signature('{"classname": "LRUCache", "systemdesign": true, "methods": []}')
    assert parse_example_testcase("[2,7,11,15]\n9", 2) == [[2, 7, 11, 15], 9]
    with pytest.raises(ValueError, match="expected 2 lines"):
        parse_example_testcase("[1]", 2)


def test_humaneval_converts_every_task() -> None:
    snaps = convert_humaneval()
    assert len(snaps) == 164
    first = snaps[0]
    assert first.slug == "humaneval-0" and first.question.questionId == "HumanEval/0"
    assert first.entry_point == "has_close_elements"
    assert first.solutions[0].source == "canonical"
    assert "def has_close_elements" in first.solutions[0].code
    assert first.test_code is not None and "def check(candidate)" in first.test_code
    assert first.tests and first.tests[0] == {
        "input": [[1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3],
        "expected": True,
    }
    assert first.provenance.source == "humaneval"
    assert sum(1 for s in snaps if s.tests) > 140


def test_extract_tests_keeps_only_plain_asserts() -> None:
    code = (
        "def check(candidate):\n"
        "    assert candidate([1, 2], 3) == 6\n"
        "    assert abs(candidate(2.0) - 1.4) < 1e-6\n"
        "    assert candidate(x) == 1\n"
        "    assert candidate('a') == 'b', 'message'\n"
    )
    assert extract_tests(code) == [
        {"input": [[1, 2], 3], "expected": 6},
        {"input": ["a"], "expected": "b"},
    ]


@requires_bwrap
def test_humaneval_canonical_solutions_pass_in_the_sandbox() -> None:
    snaps = [s for s in convert_humaneval()[:6] if s.tests]
    report = check_snapshots(snaps)
    assert len(report.checked) == len(snaps)
    assert all(c.status == "passed" for c in report.checked), report.checked
    assert snapshot_task(snaps[0]).kind == "function"


def test_attach_model_samples(tmp_path: Path) -> None:
    for snap in convert_humaneval()[:2]:
        write_snapshot(tmp_path, snap)
    samples = tmp_path / "samples.jsonl"
    samples.write_text(
        "\n".join(
            json.dumps(x)
            for x in [
                {"task_id": "HumanEval/0", "completion": "    return False\n"},  # a body
                {
                    "task_id": "humaneval-1",
                    "completion": "def separate_paren_groups(s):\n    return []\n",
                },
                {"task_id": "HumanEval/999", "completion": "pass"},
                {"task_id": "HumanEval/0"},
            ]
        )
        + "\n"
    )
    rep = attach_samples(tmp_path, samples, "tiny-model-1b")
    assert rep.attached == 2 and rep.files_written == 2
    assert rep.unmatched == ["HumanEval/999"]
    assert len(rep.rejects) == 1 and "no completion" in rep.rejects[0][1]
    first = read_snapshot(tmp_path / "humaneval-0.json")
    model = [s for s in first.solutions if s.source == "model"]
    assert len(model) == 1 and model[0].model == "tiny-model-1b"
    assert model[0].code.startswith("from typing import List") and model[0].code.endswith(
        "return False\n"
    )
    again = attach_samples(tmp_path, samples, "tiny-model-1b")
    assert again.attached == 0 and again.duplicates == 2
    with pytest.raises(ValueError, match="model name"):
        attach_samples(tmp_path, samples, " ")


def test_stats_counts_and_problems(tmp_path: Path) -> None:
    write_snapshot(tmp_path, SnapshotFile.model_validate(snapshot("a")))
    write_snapshot(
        tmp_path, SnapshotFile.model_validate(snapshot("b", difficulty="Hard", isPaidOnly=True))
    )
    tree = snapshot(
        "c",
        metaData='{"name": "t", "params": [{"name": "root", "type": "TreeNode"}], "return": {"type": "integer"}}',
    )
    tree["solutions"] = tree["solutions"][:1]
    write_snapshot(tmp_path, SnapshotFile.model_validate(tree))
    (tmp_path / "d.json").write_text("{")
    st = snapshot_stats(tmp_path)
    assert st.questions == 3
    assert st.by_difficulty == {"Easy": 2, "Hard": 1}
    assert st.paid_only == 1 and st.node_types == 1
    assert st.histogram == {1: 1, 2: 2}
    assert st.solutions_per_task == {"min": 1, "median": 2, "mean": 1.67, "max": 2}
    assert st.by_source == {"community": 2, "runtime-bin": 3}
    assert len(st.problems) == 1 and st.problems[0]["file"].endswith("d.json")


def test_nested_node_lists_are_unsupported() -> None:
    with pytest.raises(UnsupportedSignature, match=r"TreeNode\[\]\[\]"):
        parse_signature(
            '{"name": "f", "params": [{"name": "t", "type": "TreeNode[][]"}], "return": {"type": "integer"}}'
        )
    sig = parse_signature(
        '{"name": "f", "params": [{"name": "ls", "type": "ListNode[]"}], "return": {"type": "ListNode"}}'
    )
    assert "[lctk.linkedList(x) for x in inputs[0]]" in convert_offline_source(sig)
