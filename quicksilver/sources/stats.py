"""``quicksilver snapshot stats``: what a snapshot folder holds, and what is wrong with it."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver.sources.check import is_function_style
from quicksilver.sources.convert import UnsupportedSignature, parse_signature
from quicksilver.sources.functions import example_calls, infer_signature
from quicksilver.sources.snapshot import load_snapshot_dir


@dataclass
class SnapshotStats:
    questions: int = 0
    by_difficulty: dict[str, int] = field(default_factory=dict)
    paid_only: int = 0
    unsupported: dict[str, str] = field(default_factory=dict)  # slug -> why
    no_python3_snippet: list[str] = field(default_factory=list)
    node_types: int = 0  # questions using TreeNode or ListNode
    solutions_total: int = 0
    solutions_per_task: dict[str, float] = field(default_factory=dict)  # min/median/mean/max
    histogram: dict[int, int] = field(default_factory=dict)  # #solutions -> #questions
    by_source: dict[str, int] = field(default_factory=dict)
    with_tests: int = 0
    problems: list[dict[str, str]] = field(default_factory=list)  # files set aside

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))


def snapshot_stats(directory: str | Path) -> SnapshotStats:
    loaded = load_snapshot_dir(directory)
    st = SnapshotStats(questions=len(loaded.files))
    st.problems = [{"file": r.path, "reason": r.reason} for r in loaded.rejects]
    diff: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    counts = []
    for snap in loaded.files:
        q = snap.question
        diff[q.difficulty or "Unrated"] += 1
        st.paid_only += q.isPaidOnly
        if q.python3_snippet() is None:
            st.no_python3_snippet.append(q.titleSlug)
        if q.metaData:
            try:
                sig = parse_signature(q.metaData)
                if any(t.replace("[]", "") in ("TreeNode", "ListNode") for t in sig.types):
                    st.node_types += 1
            except UnsupportedSignature as exc:
                st.unsupported[q.titleSlug] = str(exc)
        elif is_function_style(snap) and snap.entry_point:
            # the build infers a function's types from its example calls (docs/function-tasks.md)
            prompt = q.python3_snippet() or ""
            calls = example_calls(
                snap.entry_point, prompt=prompt, tests=snap.tests, test_code=snap.test_code
            )
            try:
                infer_signature(snap.entry_point, prompt, calls)
            except UnsupportedSignature as exc:
                st.unsupported[q.titleSlug] = str(exc)
        n = sum(1 for s in snap.solutions if s.lang == "python3")
        counts.append(n)
        sources.update(s.source for s in snap.solutions)
        st.with_tests += bool(snap.tests)
    st.by_difficulty = dict(sorted(diff.items()))
    st.by_source = dict(sorted(sources.items()))
    st.solutions_total = sum(counts)
    if counts:
        st.solutions_per_task = {
            "min": min(counts),
            "median": statistics.median(counts),
            "mean": round(statistics.fmean(counts), 2),
            "max": max(counts),
        }
        st.histogram = dict(sorted(Counter(counts).items()))
    return st
