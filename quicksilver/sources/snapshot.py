"""The raw snapshot format: one JSON file per question, ``data/snapshot/<source>/<titleSlug>.json``.

The ``question`` part keeps LeetCode's GraphQL field names and values exactly as the API returns
them (``content`` as HTML, ``metaData`` / ``stats`` / ``similarQuestions`` as JSON *strings*), so
what the scraper receives is stored as it came. Beside it: the solutions with where each came from,
optional kept tests, and provenance. See docs/snapshot-format.md.

Loading validates every file; a malformed one is set aside with an error naming the file and the
field, and the others still load.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from quicksilver.fsutil import write_text_atomic

log = logging.getLogger(__name__)

FORMAT: Literal["quicksilver-snapshot/1"] = "quicksilver-snapshot/1"

SolutionSource = Literal["runtime-bin", "community", "canonical", "model", "bundled"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class TopicTag(_Model):
    name: str
    slug: str


class CodeSnippet(_Model):
    lang: str
    langSlug: str
    code: str


class Question(_Model):
    """LeetCode's ``question(titleSlug)`` answer, field names and value types unchanged."""

    questionId: str
    questionFrontendId: str
    title: str
    titleSlug: str
    content: str | None  # HTML; None for paid-only questions seen without a subscription
    difficulty: Literal["Easy", "Medium", "Hard"] | None  # None: the source has no rating
    isPaidOnly: bool
    topicTags: list[TopicTag] = Field(default_factory=list)
    codeSnippets: list[CodeSnippet] | None = None
    metaData: str | None = None  # a JSON string, as LeetCode sends it
    exampleTestcaseList: list[str] = Field(default_factory=list)
    stats: str | None = None  # a JSON string
    hints: list[str] = Field(default_factory=list)
    similarQuestions: str | None = None

    @field_validator("metaData", "stats", "similarQuestions")
    @classmethod
    def _json_string(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                json.loads(value)
            except ValueError as exc:
                raise ValueError(f"must be a JSON string ({exc})") from exc
        return value

    def meta(self) -> dict[str, Any]:
        """metaData parsed (empty when absent)."""
        return json.loads(self.metaData) if self.metaData else {}

    def python3_snippet(self) -> str | None:
        for snip in self.codeSnippets or []:
            if snip.langSlug == "python3":
                return snip.code
        return None


class SnapshotSolution(_Model):
    code: str
    lang: str = "python3"
    runtime: str | None = None  # as the judge reported it ("76ms"); None where unknown
    source: SolutionSource
    model: str | None = None  # for source == "model"
    url: str | None = None  # community post or submission, where known
    note: str | None = None  # free text (e.g. the approach); the pipeline never reads it

    @field_validator("code")
    @classmethod
    def _non_empty(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("is empty")
        return value


class Provenance(_Model):
    source: str  # "leetcode", "bundled", "humaneval", ...
    endpoint: str | None = None
    fetched_at: str | None = None  # ISO 8601, UTC
    tool: str | None = None


ReleaseProvenance = Literal["leetcode", "question-id", "contest", "manual"]
"""Where a release date came from: ``leetcode`` (a date LeetCode reports for the question),
``question-id`` (a date tied to the question's id), ``contest`` (the start of the contest that
introduced it), ``manual`` (given by hand, e.g. with ``quicksilver snapshot attach-dates``)."""


class Release(_Model):
    """When the question was released, and how that is known. A question without one is
    *undated*: nothing guesses a date for it."""

    date: dt.date  # YYYY-MM-DD
    provenance: ReleaseProvenance


class SnapshotFile(_Model):
    format: Literal["quicksilver-snapshot/1"] = FORMAT
    question: Question
    solutions: list[SnapshotSolution] = Field(default_factory=list)
    tests: list[dict[str, Any]] | None = None  # [{"input": [...], "expected": ...}] when known
    test_code: str | None = None  # a source's own test code kept verbatim (HumanEval's check)
    entry_point: str | None = None  # for function-style sources without metaData
    provenance: Provenance
    release: Release | None = None  # None: undated
    # For docs and tests only: neither the build pipeline nor `quicksilver snapshot check`
    # reads them (both decide order-free answers from the statement).
    annotations: dict[str, Any] | None = None

    @property
    def slug(self) -> str:
        return self.question.titleSlug


class SnapshotError(ValueError):
    """A snapshot file that cannot be used, with the file and the field named."""


@dataclass
class SnapshotReject:
    path: str
    reason: str


@dataclass
class SnapshotLoad:
    files: list[SnapshotFile] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    rejects: list[SnapshotReject] = field(default_factory=list)


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "(file)"
        parts.append(f"{loc}: {err['msg']}")
    more = len(exc.errors()) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def parse_snapshot(data: Any, path: str | Path = "<memory>") -> SnapshotFile:
    try:
        snap = SnapshotFile.model_validate(data)
    except ValidationError as exc:
        raise SnapshotError(f"{path}: {_describe(exc)}") from exc
    expected = Path(path).stem
    if Path(path).suffix == ".json" and expected != snap.slug:
        raise SnapshotError(
            f"{path}: question.titleSlug is {snap.slug!r} but the file is named {expected!r}"
        )
    return snap


def read_snapshot(path: str | Path) -> SnapshotFile:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SnapshotError(f"{path}: cannot read: {exc}") from exc
    except ValueError as exc:
        raise SnapshotError(f"{path}: not valid JSON (truncated?): {exc}") from exc
    return parse_snapshot(data, path)


def write_snapshot(directory: str | Path, snap: SnapshotFile) -> Path:
    """Write ``<directory>/<titleSlug>.json`` atomically (a crash leaves no partial file)."""
    text = json.dumps(snap.model_dump(mode="json"), indent=1, ensure_ascii=False)
    return write_text_atomic(Path(directory) / f"{snap.slug}.json", text + "\n")


def iter_snapshot_paths(directory: str | Path) -> Iterator[Path]:
    # "_name.json" and ".name.json" are bookkeeping files (a scraper's plan, a temp file)
    yield from sorted(
        p for p in Path(directory).glob("*.json") if not p.name.startswith((".", "_"))
    )


def load_snapshot_dir(directory: str | Path) -> SnapshotLoad:
    """Load every ``*.json`` of a snapshot folder; malformed files are set aside with a reason."""
    out = SnapshotLoad()
    directory = Path(directory)
    if not directory.is_dir():
        raise SnapshotError(f"{directory}: not a snapshot folder")
    for path in iter_snapshot_paths(directory):
        try:
            snap = read_snapshot(path)
        except SnapshotError as exc:
            log.warning("snapshot file set aside: %s", exc)
            out.rejects.append(SnapshotReject(str(path), str(exc).removeprefix(f"{path}: ")))
            continue
        out.files.append(snap)
        out.paths.append(path)
    return out
