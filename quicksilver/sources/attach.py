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

from quicksilver.samples import function_solution, load_samples, slug_form
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


def sample_code(snap: SnapshotFile, completion: str) -> str:
    if is_function_style(snap) and snap.entry_point:
        prompt = snap.question.python3_snippet() or ""
        return function_solution(prompt, snap.entry_point, completion)
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
        found = index.get(sample.task, index.get(slug_form(sample.task)))
        if found is None:
            report.unmatched.append(sample.task)
            continue
        i = found
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


@dataclass
class DatesReport:
    dated: int = 0
    unchanged: int = 0
    unmatched: list[str] = field(default_factory=list)


def attach_dates(directory: Path, dates_file: Path, provenance: str) -> DatesReport:
    """Set the ``release`` of the folder's questions from ``dates_file``, a JSON object
    ``{titleSlug or questionFrontendId: "YYYY-MM-DD"}``, each with ``provenance`` (how the dates
    are known: ``leetcode``, ``question-id``, ``contest`` or ``manual``). Questions the file does
    not name stay as they are (undated unless they had a date); keys naming no question are
    reported. Files are rewritten atomically; a ValueError names a bad date or provenance."""
    import json

    from quicksilver.sources.snapshot import Release

    try:
        raw = json.loads(Path(dates_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{dates_file}: cannot read a JSON object of dates: {exc}") from exc
    if not isinstance(raw, dict):
        raise ValueError(f"{dates_file}: expected a JSON object {{slug: date}}")
    try:
        releases = {
            str(k): Release.model_validate({"date": v, "provenance": provenance})
            for k, v in raw.items()
        }
    except ValueError as exc:
        raise ValueError(f"{dates_file}: {exc}") from exc
    loaded = load_snapshot_dir(directory)
    report = DatesReport()
    seen: set[str] = set()
    for snap, path in zip(loaded.files, loaded.paths, strict=True):
        key = next(
            (k for k in (snap.slug, snap.question.questionFrontendId) if k in releases), None
        )
        if key is None:
            continue
        seen.add(key)
        if snap.release == releases[key]:
            report.unchanged += 1
            continue
        write_snapshot(path.parent, snap.model_copy(update={"release": releases[key]}))
        report.dated += 1
    report.unmatched = sorted(set(releases) - seen)
    return report
