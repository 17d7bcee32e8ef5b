"""What a run sets out to do and what it met: the plan (``_plan.jsonl``), the ledgers
(``_skipped.jsonl``, ``_errors.jsonl``, ``_notes.jsonl``), complete and partial question files, and
the question list the plan is made from."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver.fsutil import write_text_atomic
from quicksilver.sources.leetcode.client import BadResponse, Credentials, LeetCodeClient, utc_now
from quicksilver.sources.leetcode.queries import (
    ERRORS_FILE,
    NOTES_FILE,
    PLAN_FILE,
    QUESTION_LIST_QUERY,
    SKIPPED_FILE,
)
from quicksilver.sources.snapshot import (
    SnapshotError,
    read_snapshot,
)

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# Ledgers and the plan
# --------------------------------------------------------------------------------------------

_LEDGER_LOCK = threading.Lock()


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file; a torn last line (a killed run) is ignored."""
    rows: list[dict[str, Any]] = []
    if not path.exists():
        return rows
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            log.warning("%s: unreadable line ignored", path)
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


class Ledger:
    """Appends to OUT/_skipped.jsonl, _errors.jsonl and _notes.jsonl (one JSON object a line).

    Skips and notes are recorded once per (slug, reason); errors are a history of attempts, each
    with its time (a slug that has a file now succeeded on a later run).
    """

    def __init__(self, out_dir: Path, credentials: Credentials | None = None) -> None:
        self.out_dir = out_dir
        self._credentials = credentials
        self._seen: dict[str, set[tuple[str, str]]] = {}

    def _append(self, name: str, slug: str, reason: str, dedupe: bool) -> None:
        if self._credentials is not None:
            reason = self._credentials.redact(reason)
        path = self.out_dir / name
        with _LEDGER_LOCK:
            if dedupe:
                seen = self._seen.get(name)
                if seen is None:
                    seen = {(str(r.get("slug")), str(r.get("reason"))) for r in read_jsonl(path)}
                    self._seen[name] = seen
                if (slug, reason) in seen:
                    return
                seen.add((slug, reason))
            line = json.dumps({"slug": slug, "reason": reason, "at": utc_now()}) + "\n"
            self.out_dir.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as fh:
                fh.write(line)
                fh.flush()

    def skipped(self, slug: str, reason: str) -> None:
        self._append(SKIPPED_FILE, slug, reason, dedupe=True)

    def error(self, slug: str, reason: str) -> None:
        self._append(ERRORS_FILE, slug, reason, dedupe=False)

    def note(self, slug: str, reason: str) -> None:
        self._append(NOTES_FILE, slug, reason, dedupe=True)


@dataclass(frozen=True)
class PlannedQuestion:
    """One row of the plan; ``paid_only`` is None when not known before the detail request."""

    slug: str
    frontend_id: str | None = None
    title: str | None = None
    difficulty: str | None = None
    paid_only: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "frontend_id": self.frontend_id,
            "title": self.title,
            "difficulty": self.difficulty,
            "paid_only": self.paid_only,
        }


def write_plan(out_dir: Path, planned: Iterable[PlannedQuestion]) -> Path:
    path = out_dir / PLAN_FILE
    write_text_atomic(path, "".join(json.dumps(p.to_dict()) + "\n" for p in planned))
    return path


def read_plan(out_dir: Path) -> list[PlannedQuestion]:
    path = out_dir / PLAN_FILE
    if not path.exists():
        raise FileNotFoundError(f"{path}: no plan; run the listing step first")
    return [
        PlannedQuestion(
            slug=str(r["slug"]),
            frontend_id=r.get("frontend_id"),
            title=r.get("title"),
            difficulty=r.get("difficulty"),
            paid_only=r.get("paid_only"),
        )
        for r in read_jsonl(path)
        if r.get("slug")
    ]


def remove_partial_files(out_dir: Path) -> int:
    """Delete temporary files a killed run left behind (``.<name>.*.tmp``)."""
    removed = 0
    if out_dir.is_dir():
        for tmp in out_dir.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
            removed += 1
    if removed:
        log.info("removed %d partial file(s) left by an interrupted run", removed)
    return removed


def is_complete(out_dir: Path, slug: str) -> bool:
    """A valid snapshot file for ``slug`` exists (then the question needs no network call)."""
    path = out_dir / f"{slug}.json"
    if not path.exists():
        return False
    try:
        read_snapshot(path)
    except SnapshotError as exc:
        log.warning("%s; fetching it again", exc)
        return False
    return True


# --------------------------------------------------------------------------------------------
# Listing
# --------------------------------------------------------------------------------------------


def iter_question_list(client: LeetCodeClient) -> Iterator[PlannedQuestion]:
    """The problem list, page by page (a short page does not end it; ``total`` does)."""
    cfg = client.config
    filters: dict[str, Any] = {} if cfg.difficulty is None else {"difficulty": cfg.difficulty}
    skip = 0
    taken = 0
    while True:
        want = cfg.page_size if cfg.limit is None else min(cfg.page_size, cfg.limit - taken)
        if want <= 0:
            return
        data = client.graphql(
            "problemsetQuestionList",
            QUESTION_LIST_QUERY,
            {"categorySlug": cfg.category_slug, "skip": skip, "limit": want, "filters": filters},
            what=f"problem list (skip {skip})",
        )
        page = data.get("problemsetQuestionList")
        if not isinstance(page, dict) or not isinstance(page.get("questions"), list):
            raise BadResponse(f"problem list (skip {skip}): no questions in the answer")
        questions = page["questions"]
        total = page.get("total")
        for q in questions:
            if not isinstance(q, dict) or not q.get("titleSlug"):
                raise BadResponse(f"problem list (skip {skip}): a row without titleSlug")
            frontend_id = q.get("questionFrontendId")
            yield PlannedQuestion(
                slug=str(q["titleSlug"]),
                frontend_id=None if frontend_id is None else str(frontend_id),
                title=q.get("title"),
                difficulty=q.get("difficulty"),
                paid_only=bool(q.get("isPaidOnly")),
            )
            taken += 1
            if cfg.limit is not None and taken >= cfg.limit:
                return
        skip += len(questions)
        if not questions or (isinstance(total, int) and skip >= total):
            return


def plan_questions(client: LeetCodeClient) -> list[PlannedQuestion]:
    """The questions a run sets out to do: ``slugs`` (no request) or the problem list."""
    cfg = client.config
    if cfg.slugs is not None:
        slugs = cfg.slugs if cfg.limit is None else cfg.slugs[: cfg.limit]
        return [PlannedQuestion(slug=s) for s in slugs]
    planned: list[PlannedQuestion] = []
    seen: set[str] = set()
    for q in iter_question_list(client):
        if q.slug not in seen:
            seen.add(q.slug)
            planned.append(q)
    return planned
