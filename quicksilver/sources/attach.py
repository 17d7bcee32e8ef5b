"""Attaching model samples to a snapshot's questions as solutions marked with the model's name.

Samples come in the formats of ``quicksilver.samples`` (JSONL of {task_id, completion} or
Mercury's {slug: [{task_id, completion}]}). A sample names its question by titleSlug,
questionFrontendId or questionId (``HumanEval/0`` works). For function-style tasks a completion
that does not define the entry point is taken as a body and prefixed with the prompt, as
HumanEval's harness does. Files are rewritten atomically; attaching the same sample twice is a
no-op.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from quicksilver.samples import load_samples
from quicksilver.sources.check import is_function_style
from quicksilver.sources.snapshot import (
    SnapshotFile,
    SnapshotSolution,
    load_snapshot_dir,
    write_snapshot,
)

log = logging.getLogger(__name__)


@dataclass
class AttachReport:
    attached: int = 0
    duplicates: int = 0
    unmatched: list[str] = field(default_factory=list)
    rejects: list[tuple[str, str]] = field(default_factory=list)
    files_written: int = 0


def _defines(code: str, name: str) -> bool:
    return f"def {name}(" in code or f"def {name} (" in code


def sample_code(snap: SnapshotFile, completion: str) -> str:
    if is_function_style(snap) and snap.entry_point and not _defines(completion, snap.entry_point):
        return (snap.question.python3_snippet() or "") + completion
    return completion


def attach_samples(snapshot_dir: str | Path, samples_path: str | Path, model: str) -> AttachReport:
    if not model.strip():
        raise ValueError("a model name is required: every attached solution records it")
    loaded = load_snapshot_dir(snapshot_dir)
    sample_set = load_samples(samples_path)
    report = AttachReport(rejects=list(sample_set.rejects))
    index: dict[str, int] = {}
    for i, snap in enumerate(loaded.files):
        q = snap.question
        for name in (q.titleSlug, q.questionFrontendId, q.questionId):
            index.setdefault(name, i)
    changed: set[int] = set()
    for sample in sample_set.samples:
        i = index.get(sample.task)
        if i is None:
            report.unmatched.append(sample.task)
            continue
        snap = loaded.files[i]
        code = sample_code(snap, sample.code)
        if any(s.code == code and s.source == "model" and s.model == model for s in snap.solutions):
            report.duplicates += 1
            continue
        snap.solutions.append(
            SnapshotSolution(code=code, source="model", model=model, note=f"from {sample.source}")
        )
        report.attached += 1
        changed.add(i)
    for i in sorted(changed):
        write_snapshot(loaded.paths[i].parent, loaded.files[i])
        report.files_written += 1
    if report.unmatched:
        log.warning(
            "%d sample(s) name no question of %s: %s",
            len(report.unmatched),
            snapshot_dir,
            ", ".join(sorted(set(report.unmatched))[:10]),
        )
    return report
