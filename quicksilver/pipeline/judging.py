"""How a decided task is judged and what its published cases are: what the profile stages, both
publish stages and therefore scoring share (a stage never imports another stage: its key would
cover the other's files)."""

from __future__ import annotations

from typing import Any

from quicksilver.pipeline.records import TaskRecord
from quicksilver.sources.convert import evaluate_offline_source, parse_signature


def evaluate_offline_for(record: TaskRecord) -> str:
    """The task's judge: the checker the uniqueness stage kept it with, else equality with the
    expected output (in any order when the verdict says so). The profile stage, the published
    rows and therefore scoring all judge with it."""
    assert record.verdict is not None, "the uniqueness stage has decided the task"
    if record.verdict.evaluate_offline:
        return record.verdict.evaluate_offline
    return evaluate_offline_source(
        parse_signature(record.task.meta),
        any_order=record.verdict.any_order,
        tuples_as_lists=record.task.kind == "function",  # a function's tuple is published a list
    )


def test_cases(record: TaskRecord) -> list[dict[str, Any]]:
    """The task's test cases as published: ``{"input": [args...], "expected": value}``."""
    assert record.tests is not None and record.verdict is not None
    return [
        {"input": case.input, "expected": expected}
        for case, expected in zip(record.tests.cases, record.verdict.expected, strict=True)
    ]
