"""References in stage files: a field a stage passed on unchanged is written as where it is.

From the test-case stage on, a task's record carries its generator, its test inputs and its
expected outputs (about 200 KB at full size), and the later stages change none of them. Rather
than every stage writing them again, the runner writes a field whose value a stage returned
unchanged as a reference to the one stage file that holds it in full::

    "tests": {"$from": "testcases", "part": "shard-0003", "sha256": "<digest of the value>"}

(``part`` only when that stage is sharded: the holder is then the same shard's file, or, for an
unsharded stage after the sharded ones, the shard the task was in). Reading a stage file
(:func:`read_stage_rows`, :func:`quicksilver.pipeline.runner.read_records`, the runner's
``read_input``) puts each value back from its holder, found by the holder's index: the index
also says where each of these fields' values is in its line (``write_jsonl(spans=...)``), so a
reader reads and parses the value's bytes only (``tests``, not the answers beside it in
testcases' line), and a shard its own tasks' only. The value must have the digest the reference
carries, or the read fails with one line naming the file, the task, the field and the stage it
refers to (:class:`StageFileError`): a truncated or rewritten holder is never read as a wrong
value.

Which file holds a value is followed from the files themselves, not from the stages' ``fills``:
a value read in full from a file is held by that file; a value read through a reference is held
where the reference says; a stage's output field refers to its holder exactly when its digest
(sha256 of the value as a line holds it: :func:`~quicksilver.pipeline.files.value_digest`, the
bytes at its span, so a reader checks it without serialising the value again) is the holder's;
the writer decides on the text it makes the line of (``write_jsonl(swap=...)``), so a value is
serialised once. A stage that changes a field it does not declare (an input dropped from
``tests``) therefore writes it in full, and the stages after it refer to it.

Keys follow values: a stage's key digests its input files (:meth:`Runner.input_digest`), and a
reference carries its value's digest, so a changed value changes every file that refers to it,
and each later stage's key with it. Only the record's own fields are ever references, never
``task`` (the slug that finds a line) nor ``solutions`` (every stage edits them): readers that
need only those two, the build report's shard times (:mod:`quicksilver.report.stagefiles`), read
the files as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver.pipeline.files import (
    dumps_value,
    read_index,
    read_jsonl,
    read_jsonl_rows,
    read_spans,
    read_spans_bytes,
    value_digest,
)
from quicksilver.pipeline.records import TaskRecord

REF = "$from"

REFERABLE: tuple[str, ...] = tuple(
    name for name in TaskRecord.model_fields if name not in ("task", "solutions")
)
"""The fields a stage file may hold as references."""


class StageFileError(ValueError):
    """A stage file whose reference does not lead to its value: one line that says which."""


@dataclass(frozen=True)
class Origin:
    """Where a field's value is written in full: a stage's file (its shard ``part``, "" for an
    unsharded stage) and the value's :func:`~quicksilver.pipeline.files.value_digest`."""

    stage: str
    part: str
    sha256: str

    def ref(self) -> dict[str, str]:
        out = {REF: self.stage, "sha256": self.sha256}
        if self.part:
            out["part"] = self.part
        return out


def is_ref(value: Any) -> bool:
    return isinstance(value, dict) and REF in value


def _slug(row: Mapping[str, Any]) -> str:
    return str(row["task"]["slug"])


def origins(
    rows: Iterable[Mapping[str, Any]], stage: str, part: str
) -> dict[str, dict[str, Origin]]:
    """Per task slug, where each of its fields is held, for ``rows`` as read (unresolved) from
    ``stage``'s file (shard ``part``): a reference's holder, or that file for a full value."""
    out: dict[str, dict[str, Origin]] = {}
    for row in rows:
        held: dict[str, Origin] = {}
        for name in REFERABLE:
            value = row.get(name)
            if value is None:
                continue
            if is_ref(value):
                held[name] = Origin(str(value[REF]), str(value.get("part", "")), value["sha256"])
            else:
                held[name] = Origin(stage, part, value_digest(value))
        out[_slug(row)] = held
    return out


def swaps(held: Mapping[str, Mapping[str, Origin]]) -> dict[str, dict[str, tuple[str, str]]]:
    """What the writer of a stage's records swaps (``write_jsonl(swap=...)``), per task slug:
    each field's holder's digest and the reference to write instead of a value with it."""
    return {
        slug: {name: (o.sha256, dumps_value(o.ref())) for name, o in fields.items()}
        for slug, fields in held.items()
    }


def holder_path(stages: Path, stage: str, part: str) -> Path:
    """The file of ``stage`` (shard ``part``) under a build's ``stages/`` folder."""
    return stages / stage / (f"{part}.jsonl" if part else "records.jsonl")


def resolve(rows: list[dict[str, Any]], where: Sequence[Path]) -> list[dict[str, Any]]:
    """``rows`` (as read from the files ``where``, one per row) with every reference replaced by
    its value, read from its holder: the value's bytes (by the holder's index), else its tasks'
    lines, else the whole file (no index, or one written for another version of it). Raises
    :class:`StageFileError` for a reference whose value is missing or has another digest."""
    wanted: dict[Path, dict[str, list[tuple[int, str, str]]]] = {}
    for i, row in enumerate(rows):
        for name in REFERABLE:
            value = row.get(name)
            if isinstance(value, dict) and REF in value:
                holder = holder_path(where[i].parent.parent, value[REF], value.get("part", ""))
                wanted.setdefault(holder, {}).setdefault(_slug(row), []).append(
                    (i, name, str(value.get("sha256")))
                )
    out = list(rows)
    for holder, by_slug in wanted.items():
        found = _holder_values(holder, by_slug, where)
        for slug, items in by_slug.items():
            for i, name, sha in items:
                value, digest = found.get((slug, name), (None, ""))
                problem = (
                    f"{holder} has no {name} for it"
                    if value is None or is_ref(value)
                    else f"its value in {holder} has another digest than the reference's"
                    if digest != sha
                    else None
                )
                if problem is not None:
                    raise _error(where[i], slug, name, holder, problem)
                out[i] = {**out[i], name: value}
    return out


def _holder_values(
    holder: Path, by_slug: Mapping[str, list[tuple[int, str, str]]], where: Sequence[Path]
) -> dict[tuple[str, str], tuple[Any, str]]:
    """The holder's values of these (task, field) pairs and their digests: from the spans its
    index gives (the values' bytes only), else from its tasks' lines (by the index), else from
    the whole file."""
    pairs = {(slug, name) for slug, items in by_slug.items() for _, name, _ in items}
    try:
        spans = read_spans(holder)
        if spans is not None and all(name in spans.get(slug, {}) for slug, name in pairs):
            raw = read_spans_bytes(holder, spans, pairs)
            return {k: (json.loads(b), hashlib.sha256(b).hexdigest()) for k, b in raw.items()}
        index = read_index(holder)
        rows = read_jsonl_rows(holder, index, by_slug) if index is not None else read_jsonl(holder)
    except (OSError, ValueError) as exc:
        slug, items = next(iter(by_slug.items()))
        i, name, _ = items[0]
        raise _error(where[i], slug, name, holder, f"it cannot be read ({exc})") from exc
    found = {_slug(r): r for r in rows if _slug(r) in by_slug}
    values = {(s, n): found[s].get(n) for s, n in pairs if s in found}
    return {k: (v, value_digest(v) if v is not None else "") for k, v in values.items()}


def _error(where: Path, slug: str, name: str, holder: Path, problem: str) -> StageFileError:
    return StageFileError(
        f"{where}: task {slug}: field {name} refers to stage {holder.parent.name} and {problem}; "
        "the file was changed or cut short after it was written: run the build again to "
        "redo the stages from there"
    )


def read_stage_rows(*paths: Path) -> list[dict[str, Any]]:
    """The rows of stage files (a stage's records, a shard's), in order, every reference put
    back (:func:`resolve`). Use this, not :func:`read_jsonl`, for a stage's records."""
    rows: list[dict[str, Any]] = []
    where: list[Path] = []
    for path in paths:
        got = read_jsonl(path)
        rows += got
        where += [path] * len(got)
    return resolve(rows, where)
