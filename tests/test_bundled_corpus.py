"""The bundled corpus meets what the pipeline needs offline (see docs/bundled-corpus.md).

Annotations are read here only to check the corpus's claims; the pipeline never reads them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quicksilver.sources.check import check_snapshots
from quicksilver.sources.convert import UnsupportedSignature, parse_signature
from quicksilver.sources.snapshot import SnapshotFile, load_snapshot_dir
from tests.conftest import requires_bwrap

BUNDLED = Path(__file__).resolve().parents[1] / "data" / "snapshot" / "bundled"


@pytest.fixture(scope="module")
def corpus() -> list[SnapshotFile]:
    loaded = load_snapshot_dir(BUNDLED)
    assert loaded.rejects == [], loaded.rejects
    return loaded.files


def ann(snap: SnapshotFile) -> dict:
    return snap.annotations or {}


def supported(snap: SnapshotFile) -> bool:
    try:
        parse_signature(snap.question.metaData or "{}")
    except UnsupportedSignature:
        return False
    return True


def test_size_and_difficulty_balance(corpus: list[SnapshotFile]) -> None:
    assert len(corpus) >= 40
    by = {
        d: sum(1 for s in corpus if s.question.difficulty == d) for d in ("Easy", "Medium", "Hard")
    }
    assert sum(by.values()) == len(corpus)
    assert min(by.values()) >= len(corpus) // 4, by  # roughly a third each


def test_trees_lists_and_in_place(corpus: list[SnapshotFile]) -> None:
    nodes = 0
    in_place = 0
    for s in corpus:
        meta = s.question.meta()
        types = [p["type"] for p in meta.get("params", [])] + [
            meta.get("return", {}).get("type", "")
        ]
        nodes += any(t.replace("[]", "") in ("TreeNode", "ListNode") for t in types)
        in_place += "output" in meta
    assert nodes >= 8
    assert in_place >= 3


def test_solutions_per_question(corpus: list[SnapshotFile]) -> None:
    single = [s.slug for s in corpus if len(s.solutions) == 1]
    assert len(single) >= 1  # the min-solutions filter has work
    for s in corpus:
        if s.question.isPaidOnly or s.slug in single:
            continue
        assert 2 <= len(s.solutions) <= 16, s.slug
        correct = len(s.solutions) - len(ann(s).get("wrong_solutions", {}))
        if supported(s):
            assert 4 <= correct <= 12, (s.slug, correct)
    assert all(sol.runtime is None for s in corpus for sol in s.solutions)  # no invented runtimes
    assert all(sol.source == "bundled" for s in corpus for sol in s.solutions)


def test_enough_questions_for_performance_clusters(corpus: list[SnapshotFile]) -> None:
    rich = [
        s.slug
        for s in corpus
        if len(s.solutions) >= 6 and len(set(ann(s).get("efficiency_levels", {}).values())) >= 4
    ]
    assert len(rich) >= 12, rich


def test_every_filter_has_work(corpus: list[SnapshotFile]) -> None:
    assert any(s.question.isPaidOnly for s in corpus)
    assert any(not supported(s) for s in corpus if not s.question.isPaidOnly)
    assert any(ann(s).get("answer_any_order") for s in corpus)
    assert any(ann(s).get("multiple_valid_answers") for s in corpus)
    assert sum(len(ann(s).get("wrong_solutions", {})) for s in corpus) >= 3
    assert sum(len(ann(s).get("near_duplicates", {})) for s in corpus) >= 3


def test_examples_agree_with_statement_fields(corpus: list[SnapshotFile]) -> None:
    for s in corpus:
        if s.question.isPaidOnly or not supported(s):
            continue
        q = s.question
        assert q.content and "Constraints" in q.content, s.slug
        assert q.python3_snippet() and "class Solution" in q.python3_snippet(), s.slug
        assert s.tests and len(s.tests) == len(q.exampleTestcaseList), s.slug
        n = len(q.meta()["params"])
        for text, test in zip(q.exampleTestcaseList, s.tests, strict=True):
            values = [json.loads(line) for line in text.split("\n") if line.strip()]
            assert len(values) == n and values == test["input"], (s.slug, text)


@requires_bwrap
def test_every_correct_solution_passes_its_examples_in_the_sandbox(corpus) -> None:
    report = check_snapshots(corpus)
    wrong = {(s.slug, int(i)) for s in corpus for i in ann(s).get("wrong_solutions", {})}
    failures = [
        (c.slug, c.index, c.status, c.error)
        for c in report.checked
        if c.status != "passed" and (c.slug, c.index) not in wrong
    ]
    assert failures == []
    assert len(report.checked) >= 200
