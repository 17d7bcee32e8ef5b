"""LeetCode scraper: questions and Python 3 solutions into the raw snapshot format.

Everything goes through one endpoint, ``POST {base_url}/graphql/`` with ``{"operationName",
"query", "variables"}``, using the query texts the browser sends (trimmed to the fields we keep;
docs/scraping.md lists them). For each question of the problem list (or of ``--slugs``):

1. ``question(titleSlug)`` gives the question, stored unchanged as the snapshot's ``question``;
2. Python 3 solutions per runtime bin: the account's accepted Python 3 submission
   (``questionSubmissionList``) -> ``submissionDetails(submissionId).runtimeDistribution`` (a JSON
   string, ``{"lang": "python3", "distribution": [["76", 12.5], ...]}``: runtime bin in ms, percent
   of accepted submissions) -> ``codeWithRuntime(questionId, "python3", runtime, skip)`` for up to K
   samples per bin;
3. where no distribution is visible (no accepted Python 3 submission, or no credentials): the
   community solution posts (``ugcArticleSolutionArticles`` then ``ugcArticleSolutionArticle``),
   keeping their fenced Python code blocks that define ``class Solution``.

One file per question, ``OUT/<titleSlug>.json``, written atomically once the question is complete,
so a rerun skips what is done without any network call. Beside the files, three JSONL ledgers
record what is not a plain success: ``_skipped.jsonl`` (paid-only), ``_errors.jsonl`` (failed
attempts, the run goes on) and ``_notes.jsonl`` (written, but without a Python 3 snippet or without
any solution). ``_plan.jsonl`` holds the questions a run set out to do.

Credentials come from ``LEETCODE_SESSION`` and ``LEETCODE_CSRF_TOKEN`` in the environment and are
only ever put into request headers: never logged, never written, never passed as a parameter.
This module does not import Prefect (flows/scrape_leetcode.py wraps it).
"""

from __future__ import annotations

import ast
import email.utils
import json
import logging
import math
import os
import re
import textwrap
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import requests
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from quicksilver import __version__
from quicksilver.fsutil import write_text_atomic
from quicksilver.sources.snapshot import (
    Provenance,
    Question,
    SnapshotError,
    SnapshotFile,
    SnapshotSolution,
    read_snapshot,
    write_snapshot,
)

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://leetcode.com"
SESSION_ENV = "LEETCODE_SESSION"
CSRF_ENV = "LEETCODE_CSRF_TOKEN"
AUTH_MESSAGE = "credentials expired or missing: set LEETCODE_SESSION and LEETCODE_CSRF_TOKEN"
USER_AGENT = f"quicksilver/{__version__} (code-efficiency benchmark curation)"

PYTHON3 = "python3"
PYTHON3_LANG_ID = 11  # LeetCode's numeric language code for Python 3 (submission list filter)
ACCEPTED_STATUS = 10  # LeetCode's status code for Accepted

PLAN_FILE = "_plan.jsonl"
SKIPPED_FILE = "_skipped.jsonl"
ERRORS_FILE = "_errors.jsonl"
NOTES_FILE = "_notes.jsonl"

Difficulty = Literal["EASY", "MEDIUM", "HARD"]
OutcomeStatus = Literal["written", "complete", "skipped", "failed"]

# --------------------------------------------------------------------------------------------
# The GraphQL documents (operation names, variables and arguments as the browser sends them)
# --------------------------------------------------------------------------------------------

QUESTION_LIST_QUERY = """
query problemsetQuestionList($categorySlug: String, $limit: Int, $skip: Int, $filters: QuestionListFilterInput) {
  problemsetQuestionList: questionList(
    categorySlug: $categorySlug
    limit: $limit
    skip: $skip
    filters: $filters
  ) {
    total: totalNum
    questions: data {
      acRate
      difficulty
      questionFrontendId
      questionId
      isPaidOnly
      title
      titleSlug
      topicTags {
        name
        slug
      }
    }
  }
}
"""  # noqa: E501

QUESTION_QUERY = """
query questionData($titleSlug: String!) {
  question(titleSlug: $titleSlug) {
    questionId
    questionFrontendId
    title
    titleSlug
    content
    difficulty
    isPaidOnly
    topicTags {
      name
      slug
    }
    codeSnippets {
      lang
      langSlug
      code
    }
    metaData
    exampleTestcaseList
    stats
    hints
    similarQuestions
  }
}
"""

SUBMISSION_LIST_QUERY = """
query submissionList($offset: Int!, $limit: Int!, $lastKey: String, $questionSlug: String!, $lang: Int, $status: Int) {
  questionSubmissionList(
    offset: $offset
    limit: $limit
    lastKey: $lastKey
    questionSlug: $questionSlug
    lang: $lang
    status: $status
  ) {
    lastKey
    hasNext
    submissions {
      id
      titleSlug
      status
      statusDisplay
      lang
      runtime
      timestamp
    }
  }
}
"""  # noqa: E501

SUBMISSION_DETAILS_QUERY = """
query submissionDetails($submissionId: Int!) {
  submissionDetails(submissionId: $submissionId) {
    runtime
    runtimeDisplay
    runtimePercentile
    runtimeDistribution
    statusCode
    lang {
      name
      verboseName
    }
    question {
      questionId
      titleSlug
    }
  }
}
"""

CODE_WITH_RUNTIME_QUERY = """
query codeWithRuntime($questionId: Int!, $lang: String!, $runtime: Int!, $skip: Int!) {
  codeWithRuntime(
    questionId: $questionId
    lang: $lang
    runtime: $runtime
    skip: $skip
  ) {
    code
    hasPrevious
    hasNext
  }
}
"""

SOLUTION_ARTICLES_QUERY = """
query ugcArticleSolutionArticles($questionSlug: String!, $orderBy: ArticleOrderByEnum, $userInput: String, $tagSlugs: [String!], $skip: Int, $before: String, $after: String, $first: Int, $last: Int, $isMine: Boolean) {
  ugcArticleSolutionArticles(
    questionSlug: $questionSlug
    orderBy: $orderBy
    userInput: $userInput
    tagSlugs: $tagSlugs
    skip: $skip
    first: $first
    before: $before
    after: $after
    last: $last
    isMine: $isMine
  ) {
    totalNum
    pageInfo {
      hasNextPage
    }
    edges {
      node {
        ...ugcSolutionArticleFragment
      }
    }
  }
}

fragment ugcSolutionArticleFragment on SolutionArticleNode {
  uuid
  title
  slug
  topicId
  canSee
  tags {
    name
    slug
  }
}
"""  # noqa: E501

SOLUTION_ARTICLE_QUERY = """
query ugcArticleSolutionArticle($articleId: ID, $topicId: ID) {
  ugcArticleSolutionArticle(articleId: $articleId, topicId: $topicId) {
    uuid
    title
    slug
    topicId
    content
  }
}
"""

# --------------------------------------------------------------------------------------------
# Configuration, credentials, errors
# --------------------------------------------------------------------------------------------


class ScrapeConfig(BaseModel):
    """What to fetch and how politely. Credentials are deliberately not part of it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    out_dir: Path = Field(description="snapshot folder: one <titleSlug>.json per question")
    base_url: str = Field(
        default=DEFAULT_BASE_URL, description="site root; the endpoint is /graphql/"
    )
    limit: int | None = Field(
        default=None, ge=1, description="first N questions of the list (or slugs)"
    )
    slugs: tuple[str, ...] | None = Field(
        default=None, description="these questions instead of the list"
    )
    difficulty: Difficulty | None = Field(default=None, description="list filter (not with slugs)")
    solutions_per_bin: int = Field(
        default=3, ge=1, description="codeWithRuntime samples per runtime bin"
    )
    max_bins: int | None = Field(
        default=None,
        ge=1,
        description="runtime bins sampled per question, evenly spread; None = all",
    )
    community_posts: int = Field(
        default=10, ge=0, description="community posts read in the fallback"
    )
    delay: float = Field(default=0.5, ge=0, description="seconds between two requests (politeness)")
    backoff: float = Field(default=1.0, ge=0, description="first retry wait in seconds, doubling")
    max_backoff: float = Field(default=60.0, ge=0, description="longest wait between retries")
    max_attempts: int = Field(default=5, ge=1, description="attempts per request before giving up")
    max_retry_after: float = Field(
        default=300.0, ge=0, description="longest Retry-After honoured; longer stops the run"
    )
    timeout: float = Field(default=30.0, gt=0, description="seconds per HTTP request")
    page_size: int = Field(default=50, ge=1, le=100, description="questions per list request")
    category_slug: str = Field(default="algorithms", description="questionList categorySlug")
    max_consecutive_failures: int = Field(
        default=10, ge=1, description="failed questions in a row that stop the run (site down?)"
    )

    @field_validator("base_url")
    @classmethod
    def _strip_slash(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    @field_validator("slugs")
    @classmethod
    def _clean_slugs(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is None:
            return None
        cleaned = tuple(dict.fromkeys(s.strip() for s in value if s.strip()))
        if not cleaned:
            raise ValueError("no slug given")
        for slug in cleaned:
            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", slug):
                raise ValueError(f"{slug!r} is not a LeetCode titleSlug")
        return cleaned

    @model_validator(mode="after")
    def _slugs_or_difficulty(self) -> ScrapeConfig:
        if self.slugs is not None and self.difficulty is not None:
            raise ValueError("difficulty filters the problem list; it cannot be used with slugs")
        return self

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/graphql/"


class Credentials:
    """The session cookie and CSRF token. Their values never appear in repr, logs or files."""

    __slots__ = ("_csrf", "_session")

    def __init__(self, session: str | None, csrf: str | None) -> None:
        self._session = (session or "").strip() or None
        self._csrf = (csrf or "").strip() or None

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Credentials:
        env = os.environ if environ is None else environ
        return cls(env.get(SESSION_ENV), env.get(CSRF_ENV))

    @property
    def complete(self) -> bool:
        return self._session is not None and self._csrf is not None

    @property
    def partial(self) -> bool:
        return not self.complete and (self._session is not None or self._csrf is not None)

    def apply(self, headers: dict[str, str]) -> None:
        """Add the cookies and the x-csrftoken header (only when both values are set)."""
        if self._session is None or self._csrf is None:
            return
        headers["Cookie"] = f"LEETCODE_SESSION={self._session}; csrftoken={self._csrf}"
        headers["x-csrftoken"] = self._csrf

    def redact(self, text: str) -> str:
        for secret in (self._session, self._csrf):
            if secret:
                text = text.replace(secret, "***")
        return text

    def __repr__(self) -> str:
        state = "complete" if self.complete else "partial" if self.partial else "missing"
        return f"Credentials({state})"


class ScrapeError(Exception):
    """A failure that concerns one question: recorded in _errors.jsonl, the run goes on."""


class RequestFailed(ScrapeError):
    """A request that kept failing (bounded retries), or a status that is not retried."""


class BadResponse(ScrapeError):
    """An answer that parsed but does not have the shape we need."""


class GraphQLError(ScrapeError):
    """The server answered with GraphQL errors and no data."""


class ScrapeStopped(Exception):
    """A failure that stops the run; what was written stays. ``summary`` says what was done."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.summary: ScrapeSummary | None = None


class AuthError(ScrapeStopped):
    """401 / 403, or a GraphQL "not logged in": the credentials are missing or expired."""


class RateLimited(ScrapeStopped):
    """The server asked us to wait longer than ``max_retry_after``."""


class TooManyFailures(ScrapeStopped):
    """``max_consecutive_failures`` questions failed in a row."""


# --------------------------------------------------------------------------------------------
# The HTTP client
# --------------------------------------------------------------------------------------------

_LOGIN_ERRORS = ("not logged in", "login required", "log in", "authenticat")


def _retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP date); None when absent/bad."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


class LeetCodeClient:
    """POSTs GraphQL documents with pacing, bounded retries and the credentials in headers."""

    def __init__(
        self,
        config: ScrapeConfig,
        credentials: Credentials | None = None,
        *,
        session: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.credentials = credentials if credentials is not None else Credentials.from_env()
        self._session = session if session is not None else requests.Session()
        self._own_session = session is None
        self._sleep = sleep
        self._clock = clock
        self._last_request: float | None = None
        self.requests = 0

    @property
    def authenticated(self) -> bool:
        return self.credentials.complete

    def close(self) -> None:
        if self._own_session:
            self._session.close()

    def __enter__(self) -> LeetCodeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pace(self) -> None:
        if self._last_request is not None and self.config.delay > 0:
            wait = self._last_request + self.config.delay - self._clock()
            if wait > 0:
                self._sleep(wait)
        self._last_request = self._clock()

    def _backoff(self, attempt: int) -> float:
        return min(self.config.backoff * 2 ** (attempt - 1), self.config.max_backoff)

    def _headers(self, referer_slug: str | None) -> dict[str, str]:
        base = self.config.base_url
        page = f"problems/{referer_slug}/" if referer_slug else "problemset/"
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Origin": base,
            "Referer": f"{base}/{page}",
            "User-Agent": USER_AGENT,
        }
        self.credentials.apply(headers)
        return headers

    def graphql(
        self,
        operation: str,
        query: str,
        variables: dict[str, Any],
        *,
        what: str,
        slug: str | None = None,
    ) -> dict[str, Any]:
        """The ``data`` object of one GraphQL call. ``what`` names it in errors and logs."""
        payload: dict[str, Any] = {
            "operationName": operation,
            "query": query,
            "variables": variables,
        }
        cfg = self.config
        for attempt in range(1, cfg.max_attempts + 1):
            self._pace()
            self.requests += 1
            wait: float
            try:
                resp = self._session.post(
                    cfg.endpoint,
                    json=payload,
                    headers=self._headers(slug),
                    timeout=cfg.timeout,
                    allow_redirects=False,
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                problem = f"connection error ({type(exc).__name__})"
                wait = self._backoff(attempt)
            else:
                status = resp.status_code
                if status in (401, 403):
                    raise AuthError(f"{AUTH_MESSAGE} (HTTP {status} on {what})")
                if status == 429 or status >= 500:
                    problem = f"HTTP {status}"
                    asked = _retry_after(resp.headers.get("Retry-After"))
                    if asked is not None and asked > cfg.max_retry_after:
                        raise RateLimited(
                            f"{what}: HTTP {status} with Retry-After {asked:.0f} s, more than "
                            f"the {cfg.max_retry_after:.0f} s we wait; stopping (rerun later "
                            "to resume)"
                        )
                    wait = asked if asked is not None else self._backoff(attempt)
                elif status >= 300:
                    snippet = " ".join(resp.text[:200].split())
                    raise RequestFailed(f"{what}: HTTP {status} (not retried): {snippet}")
                else:
                    try:
                        body = json.loads(resp.content)
                    except ValueError:
                        body = None
                    if not isinstance(body, dict):
                        problem = "malformed JSON body"
                        wait = self._backoff(attempt)
                    else:
                        return self._data(body, what)
            if attempt == cfg.max_attempts:
                raise RequestFailed(f"{what}: gave up after {attempt} attempts: {problem}")
            log.warning(
                "%s: %s; retry %d of %d in %.1f s",
                what,
                problem,
                attempt,
                cfg.max_attempts - 1,
                wait,
            )
            if wait > 0:
                self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _data(body: dict[str, Any], what: str) -> dict[str, Any]:
        data = body.get("data")
        errors = body.get("errors") or []
        messages = [
            str(e.get("message", e)) if isinstance(e, dict) else str(e)
            for e in (errors if isinstance(errors, list) else [errors])
        ]
        empty = not isinstance(data, dict) or all(v is None for v in data.values())
        if messages and empty:
            text = "; ".join(messages)[:300]
            if any(marker in text.lower() for marker in _LOGIN_ERRORS):
                raise AuthError(f"{AUTH_MESSAGE} ({what}: {text})")
            raise GraphQLError(f"{what}: GraphQL error: {text}")
        if not isinstance(data, dict):
            raise BadResponse(f"{what}: the answer has no data object")
        if messages:
            log.warning("%s: GraphQL errors beside data: %s", what, "; ".join(messages)[:300])
        return data


# --------------------------------------------------------------------------------------------
# Parsing helpers
# --------------------------------------------------------------------------------------------


def parse_runtime_distribution(raw: Any) -> list[tuple[str, float]]:
    """``runtimeDistribution`` -> [(bin in ms as a string, percent)], fastest first.

    LeetCode sends a JSON string ``{"lang": "python3", "distribution": [["76", 12.5], ...]}``;
    a bare list of pairs is accepted too. None or "" means no distribution is visible.
    """
    if raw is None or raw == "":
        return []
    obj = raw
    if isinstance(raw, str):
        try:
            obj = json.loads(raw)
        except ValueError as exc:
            raise BadResponse(f"runtimeDistribution is not JSON: {exc}") from exc
    if isinstance(obj, dict):
        lang = obj.get("lang")
        if lang is not None and lang != PYTHON3:
            raise BadResponse(f"runtimeDistribution is for {lang!r}, not python3")
        obj = obj.get("distribution")
    if obj is None:
        return []
    if not isinstance(obj, list):
        raise BadResponse("runtimeDistribution.distribution is not a list")
    bins: dict[str, tuple[float, float]] = {}
    for entry in obj:
        if not isinstance(entry, list | tuple) or len(entry) != 2:
            raise BadResponse(f"runtimeDistribution entry {entry!r} is not [runtime, percent]")
        runtime, percent = entry
        try:
            value = float(str(runtime).strip().removesuffix("ms").strip())
            share = float(percent)
        except ValueError as exc:
            raise BadResponse(f"runtimeDistribution entry {entry!r}: {exc}") from exc
        if not math.isfinite(value) or value < 0:
            raise BadResponse(f"runtimeDistribution entry {entry!r}: bad runtime")
        label = str(int(value)) if value.is_integer() else str(value)
        bins.setdefault(label, (value, share))
    return [(label, share) for label, (_, share) in sorted(bins.items(), key=lambda kv: kv[1][0])]


def pick_bins(bins: list[tuple[str, float]], max_bins: int | None) -> list[tuple[str, float]]:
    """At most ``max_bins`` bins, evenly spread from the fastest to the slowest."""
    if max_bins is None or len(bins) <= max_bins:
        return list(bins)
    if max_bins == 1:
        return [bins[0]]
    step = (len(bins) - 1) / (max_bins - 1)
    picked = sorted({round(i * step) for i in range(max_bins)})
    return [bins[i] for i in picked]


_FENCE = re.compile(
    r"^[ \t]*```[ \t]*(?P<lang>[A-Za-z0-9_+#.-]*)[^\n]*\n(?P<code>.*?)^[ \t]*```",
    re.MULTILINE | re.DOTALL,
)
PYTHON_FENCES = frozenset({"python3", "py3", "python", "py"})


def extract_python_blocks(markdown: str) -> list[str]:
    """Fenced code blocks tagged python3 / python / py that parse as Python 3, in order.

    Posts whose body arrives with escaped newlines (a literal backslash-n and no real newline)
    are unescaped first. ``python`` fences are taken too (most Python 3 posts use them); a block
    that does not parse as Python 3 (Python 2 prints, pseudo-code) is left out.
    """
    if "\n" not in markdown and "\\n" in markdown:
        markdown = markdown.replace("\\n", "\n").replace("\\t", "\t")
    blocks: list[str] = []
    for match in _FENCE.finditer(markdown):
        if match.group("lang").lower() not in PYTHON_FENCES:
            continue
        code = textwrap.dedent(match.group("code")).strip("\n")
        if not code.strip():
            continue
        try:
            ast.parse(code)
        except (SyntaxError, ValueError):
            continue
        blocks.append(code + "\n")
    return blocks


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


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
            line = json.dumps({"slug": slug, "reason": reason, "at": _utc_now()}) + "\n"
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


# --------------------------------------------------------------------------------------------
# One question
# --------------------------------------------------------------------------------------------


@dataclass
class QuestionOutcome:
    slug: str
    status: OutcomeStatus
    reason: str | None = None
    solutions: int = 0
    source: str | None = None  # "runtime-bin", "community" or None


@dataclass
class ScrapeSummary:
    planned: int = 0
    written: list[str] = field(default_factory=list)
    complete: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    requests: int = 0

    def add(self, outcome: QuestionOutcome) -> None:
        if outcome.status == "written":
            self.written.append(outcome.slug)
        elif outcome.status == "complete":
            self.complete.append(outcome.slug)
        elif outcome.status == "skipped":
            self.skipped.append((outcome.slug, outcome.reason or ""))
        else:
            self.failed.append((outcome.slug, outcome.reason or ""))

    def counts(self) -> dict[str, int]:
        return {
            "planned": self.planned,
            "written": len(self.written),
            "complete": len(self.complete),
            "skipped": len(self.skipped),
            "failed": len(self.failed),
            "requests": self.requests,
        }


def fetch_question(client: LeetCodeClient, slug: str) -> dict[str, Any]:
    data = client.graphql(
        "questionData", QUESTION_QUERY, {"titleSlug": slug}, what=f"{slug}: questionData", slug=slug
    )
    question = data.get("question")
    if question is None:
        raise BadResponse(f"{slug}: no such question")
    if not isinstance(question, dict):
        raise BadResponse(f"{slug}: questionData: question is not an object")
    if question.get("titleSlug") != slug:
        raise BadResponse(f"{slug}: questionData answered for {question.get('titleSlug')!r}")
    return question


def _int_id(value: Any, what: str) -> int:
    try:
        return int(str(value))
    except ValueError as exc:
        raise BadResponse(f"{what}: {value!r} is not a numeric id") from exc


def runtime_bin_solutions(
    client: LeetCodeClient, question: Question
) -> list[SnapshotSolution] | None:
    """Samples per runtime bin, or None when the account sees no Python 3 distribution."""
    if not client.authenticated:
        return None
    cfg = client.config
    slug = question.titleSlug
    data = client.graphql(
        "submissionList",
        SUBMISSION_LIST_QUERY,
        {
            "questionSlug": slug,
            "offset": 0,
            "limit": 20,
            "lastKey": None,
            "lang": PYTHON3_LANG_ID,
            "status": ACCEPTED_STATUS,
        },
        what=f"{slug}: submissionList",
        slug=slug,
    )
    listing = data.get("questionSubmissionList")
    submissions = (listing.get("submissions") or []) if isinstance(listing, dict) else []
    accepted = [
        s
        for s in submissions
        if isinstance(s, dict)
        and s.get("lang") == PYTHON3
        and (s.get("statusDisplay") == "Accepted" or s.get("status") == ACCEPTED_STATUS)
    ]
    if not accepted:
        log.debug("%s: no accepted Python 3 submission on this account", slug)
        return None
    submission_id = _int_id(accepted[0].get("id"), f"{slug}: submission id")
    data = client.graphql(
        "submissionDetails",
        SUBMISSION_DETAILS_QUERY,
        {"submissionId": submission_id},
        what=f"{slug}: submissionDetails",
        slug=slug,
    )
    details = data.get("submissionDetails")
    if not isinstance(details, dict):
        return None
    try:
        bins = parse_runtime_distribution(details.get("runtimeDistribution"))
    except BadResponse as exc:
        raise BadResponse(f"{slug}: {exc}") from exc
    if not bins:
        return None
    question_id = _int_id(question.questionId, f"{slug}: questionId")
    solutions: list[SnapshotSolution] = []
    seen: set[str] = set()
    for label, share in pick_bins(bins, cfg.max_bins):
        runtime = int(float(label))
        for skip in range(cfg.solutions_per_bin):
            data = client.graphql(
                "codeWithRuntime",
                CODE_WITH_RUNTIME_QUERY,
                {"questionId": question_id, "lang": PYTHON3, "runtime": runtime, "skip": skip},
                what=f"{slug}: codeWithRuntime({label} ms, skip {skip})",
                slug=slug,
            )
            sample = data.get("codeWithRuntime")
            if not isinstance(sample, dict) or not str(sample.get("code") or "").strip():
                break
            code = str(sample["code"])
            if code not in seen:
                seen.add(code)
                solutions.append(
                    SnapshotSolution(
                        code=code,
                        lang=PYTHON3,
                        runtime=f"{label}ms",
                        source="runtime-bin",
                        note=f"runtime bin {label}ms holds {share:g}% of accepted Python 3 "
                        f"submissions; sample {skip + 1}",
                    )
                )
            if not sample.get("hasNext"):
                break
    return solutions


def community_solutions(client: LeetCodeClient, question: Question) -> list[SnapshotSolution]:
    """Python 3 ``class Solution`` blocks from the most-voted community posts."""
    cfg = client.config
    slug = question.titleSlug
    if cfg.community_posts == 0:
        return []
    data = client.graphql(
        "ugcArticleSolutionArticles",
        SOLUTION_ARTICLES_QUERY,
        {
            "questionSlug": slug,
            "orderBy": "MOST_VOTES",
            "userInput": "",
            "tagSlugs": [PYTHON3],
            "skip": 0,
            "first": cfg.community_posts,
            "before": None,
            "after": None,
            "last": None,
            "isMine": False,
        },
        what=f"{slug}: ugcArticleSolutionArticles",
        slug=slug,
    )
    articles = data.get("ugcArticleSolutionArticles")
    edges = (articles.get("edges") or []) if isinstance(articles, dict) else []
    solutions: list[SnapshotSolution] = []
    seen: set[str] = set()
    for edge in edges[: cfg.community_posts]:
        node = edge.get("node") if isinstance(edge, dict) else None
        if not isinstance(node, dict) or node.get("canSee") is False or not node.get("topicId"):
            continue
        topic_id = str(node["topicId"])
        data = client.graphql(
            "ugcArticleSolutionArticle",
            SOLUTION_ARTICLE_QUERY,
            {"articleId": None, "topicId": topic_id},
            what=f"{slug}: ugcArticleSolutionArticle({topic_id})",
            slug=slug,
        )
        article = data.get("ugcArticleSolutionArticle")
        if not isinstance(article, dict) or not isinstance(article.get("content"), str):
            continue
        post_slug = article.get("slug") or node.get("slug") or ""
        url = f"{cfg.base_url}/problems/{slug}/solutions/{topic_id}/"
        if post_slug:
            url += f"{post_slug}/"
        for code in extract_python_blocks(article["content"]):
            if "class Solution" not in code or code in seen:
                continue
            seen.add(code)
            solutions.append(
                SnapshotSolution(
                    code=code,
                    lang=PYTHON3,
                    runtime=None,
                    source="community",
                    url=url,
                    note=f"community post {topic_id}: {article.get('title') or node.get('title')}",
                )
            )
    return solutions


def scrape_question(
    client: LeetCodeClient, planned: PlannedQuestion, ledger: Ledger
) -> QuestionOutcome:
    """Fetch one question and its solutions and write its file; per-question failures raise
    ScrapeError (the caller records them), run-stopping ones ScrapeStopped."""
    cfg = client.config
    slug = planned.slug
    if is_complete(cfg.out_dir, slug):
        return QuestionOutcome(slug, "complete")
    if planned.paid_only:
        ledger.skipped(slug, "paid-only")
        return QuestionOutcome(slug, "skipped", "paid-only")
    raw = fetch_question(client, slug)
    if raw.get("isPaidOnly"):
        ledger.skipped(slug, "paid-only")
        return QuestionOutcome(slug, "skipped", "paid-only")
    try:
        question = Question.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadResponse(f"{slug}: questionData: {where}: {first['msg']}") from exc

    solutions: list[SnapshotSolution] = []
    source: str | None = None
    if question.python3_snippet() is None:
        ledger.note(slug, "no python3 code snippet: written without solutions")
        log.info("%s: no Python 3 code snippet; written without solutions", slug)
    else:
        binned = runtime_bin_solutions(client, question)
        if binned is not None:
            solutions, source = binned, "runtime-bin"
        else:
            solutions, source = community_solutions(client, question), "community"
        if not solutions:
            ledger.note(slug, f"no python3 solutions found ({source})")
            log.info("%s: no Python 3 solutions found (%s)", slug, source)

    snap = SnapshotFile(
        question=question,
        solutions=solutions,
        provenance=Provenance(
            source="leetcode",
            endpoint=cfg.base_url,
            fetched_at=_utc_now(),
            tool=f"quicksilver {__version__}",
        ),
    )
    path = write_snapshot(cfg.out_dir, snap)
    log.debug("%s: %d solution(s) (%s) -> %s", slug, len(solutions), source, path)
    return QuestionOutcome(slug, "written", solutions=len(solutions), source=source)


# --------------------------------------------------------------------------------------------
# Runs
# --------------------------------------------------------------------------------------------

PlanHook = Callable[[int], None]
QuestionHook = Callable[[QuestionOutcome], None]


def scrape_planned(
    client: LeetCodeClient,
    planned: list[PlannedQuestion],
    *,
    on_question: QuestionHook | None = None,
    summary: ScrapeSummary | None = None,
) -> ScrapeSummary:
    """Do the given questions in order; stops (ScrapeStopped, with ``summary``) on auth errors,
    long Retry-After or too many failures in a row."""
    cfg = client.config
    summary = summary if summary is not None else ScrapeSummary(planned=len(planned))
    ledger = Ledger(cfg.out_dir, client.credentials)
    failures_in_a_row = 0
    start_requests = client.requests
    try:
        for item in planned:
            try:
                outcome = scrape_question(client, item, ledger)
            except ScrapeError as exc:
                reason = client.credentials.redact(str(exc))
                if not reason.startswith(item.slug):
                    reason = f"{item.slug}: {reason}"
                ledger.error(item.slug, reason)
                log.error("%s (recorded in %s; the run goes on)", reason, ERRORS_FILE)
                outcome = QuestionOutcome(item.slug, "failed", reason)
                failures_in_a_row += 1
            else:
                failures_in_a_row = 0
            summary.add(outcome)
            summary.requests += client.requests - start_requests
            start_requests = client.requests
            if on_question is not None:
                on_question(outcome)
            if failures_in_a_row >= cfg.max_consecutive_failures:
                raise TooManyFailures(
                    f"{failures_in_a_row} questions failed in a row (last: {outcome.reason}); "
                    "stopping: is the site reachable? Rerun to resume."
                )
    except ScrapeStopped as exc:
        summary.requests += client.requests - start_requests
        exc.summary = summary
        raise
    return summary


def check_credentials(credentials: Credentials | None = None) -> Credentials:
    """The credentials to use (from the environment by default), with a warning if missing."""
    credentials = credentials if credentials is not None else Credentials.from_env()
    if credentials.partial:
        log.warning("only one of %s / %s is set: both are needed", SESSION_ENV, CSRF_ENV)
    if not credentials.complete:
        log.warning(
            "no LeetCode credentials (%s, %s): runtime-bin solutions need a logged-in account; "
            "only community solutions will be fetched",
            SESSION_ENV,
            CSRF_ENV,
        )
    return credentials


def plan_run(
    config: ScrapeConfig,
    *,
    credentials: Credentials | None = None,
    session: requests.Session | None = None,
) -> list[PlannedQuestion]:
    """List what a run will do and write it to OUT/_plan.jsonl (also clears partial files)."""
    credentials = check_credentials(credentials)
    config.out_dir.mkdir(parents=True, exist_ok=True)
    remove_partial_files(config.out_dir)
    with LeetCodeClient(config, credentials, session=session) as client:
        try:
            planned = plan_questions(client)
        except ScrapeError as exc:
            raise ScrapeStopped(f"cannot list the questions: {exc}") from exc
    write_plan(config.out_dir, planned)
    return planned


def scrape_plan_slice(
    config: ScrapeConfig,
    start: int,
    stop: int,
    *,
    credentials: Credentials | None = None,
    session: requests.Session | None = None,
    on_question: QuestionHook | None = None,
) -> ScrapeSummary:
    """Do rows ``start:stop`` of OUT/_plan.jsonl (one shard of a Prefect flow)."""
    planned = read_plan(config.out_dir)[start:stop]
    with LeetCodeClient(config, credentials, session=session) as client:
        return scrape_planned(client, planned, on_question=on_question)


def scrape(
    config: ScrapeConfig,
    *,
    credentials: Credentials | None = None,
    session: requests.Session | None = None,
    on_plan: PlanHook | None = None,
    on_question: QuestionHook | None = None,
) -> ScrapeSummary:
    """A whole run: list (or take ``slugs``), write the plan, then every question in order."""
    credentials = check_credentials(credentials)
    config.out_dir.mkdir(parents=True, exist_ok=True)
    remove_partial_files(config.out_dir)
    with LeetCodeClient(config, credentials, session=session) as client:
        try:
            planned = plan_questions(client)
        except ScrapeError as exc:
            stopped = ScrapeStopped(f"cannot list the questions: {exc}")
            stopped.summary = ScrapeSummary(requests=client.requests)
            raise stopped from exc
        except ScrapeStopped as exc:
            exc.summary = ScrapeSummary(requests=client.requests)
            raise
        write_plan(config.out_dir, planned)
        if on_plan is not None:
            on_plan(len(planned))
        summary = ScrapeSummary(planned=len(planned), requests=client.requests)
        summary = scrape_planned(client, planned, on_question=on_question, summary=summary)
    log.info(
        "leetcode: %d written, %d already complete, %d skipped, %d failed (%d requests) in %s",
        len(summary.written),
        len(summary.complete),
        len(summary.skipped),
        len(summary.failed),
        summary.requests,
        config.out_dir,
    )
    return summary
