"""The scraper's configuration, credentials, errors and outcomes, its HTTP client (one GraphQL
endpoint, retries with backoff, rate limits, login errors), and the parsing helpers of what the
site answers (runtime distributions, Python code blocks)."""

from __future__ import annotations

import email.utils
import json
import logging
import math
import os
import re
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from quicksilver import astparse
from quicksilver.sources.leetcode.queries import (
    AUTH_MESSAGE,
    CSRF_ENV,
    DEFAULT_BASE_URL,
    PYTHON3,
    SESSION_ENV,
    USER_AGENT,
    DatesMode,
    Difficulty,
    OutcomeStatus,
)

log = logging.getLogger(__name__)

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
    dates: DatesMode = Field(
        default="none",
        description="release dates: 'contests' dates each question by the start of the first "
        "contest it appeared in (docs/scraping.md); 'none' leaves files undated",
    )
    contest_page_size: int = Field(
        default=100, ge=1, le=100, description="contests per pastContests request"
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
        self.dates: DatesSummary | None = None  # when the stop came in the date pass


class AuthError(ScrapeStopped):
    """401 / 403, or a GraphQL "not logged in": the credentials are missing or expired."""


class RateLimited(ScrapeStopped):
    """The server asked us to wait longer than ``max_retry_after``."""


class TooManyFailures(ScrapeStopped):
    """``max_consecutive_failures`` questions failed in a row."""


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
    dates: DatesSummary | None = None  # the date pass, when one ran (``dates="contests"``)

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


@dataclass
class DatesSummary:
    """What a date pass did: contests listed / fetched / read from disk / failed, and the
    question files dated (set or moved earlier), unchanged, undated (in no contest) or kept (a
    date of another provenance)."""

    contests: int = 0
    fetched: int = 0
    cached: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    dated: list[str] = field(default_factory=list)
    unchanged: int = 0
    undated: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    requests: int = 0

    def counts(self) -> dict[str, int]:
        return {
            "contests": self.contests,
            "contests_fetched": self.fetched,
            "contests_cached": self.cached,
            "contests_failed": len(self.failed),
            "dated": len(self.dated),
            "unchanged": self.unchanged,
            "undated": len(self.undated),
            "kept": len(self.kept),
            "requests": self.requests,
        }


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

    def _headers(self, referer_slug: str | None, *, referer: str | None = None) -> dict[str, str]:
        base = self.config.base_url
        page = referer or (f"problems/{referer_slug}/" if referer_slug else "problemset/")
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
        referer: str | None = None,
    ) -> dict[str, Any]:
        """The ``data`` object of one GraphQL call. ``what`` names it in errors and logs."""
        payload: dict[str, Any] = {
            "operationName": operation,
            "query": query,
            "variables": variables,
        }
        body = self._request(
            "POST",
            self.config.endpoint,
            headers=self._headers(slug, referer=referer),
            payload=payload,
            what=what,
        )
        return self._data(body, what)

    def get_json(self, path: str, *, what: str, referer: str | None = None) -> dict[str, Any]:
        """The JSON object a ``GET {base_url}{path}`` answers (LeetCode's REST pages, e.g. the
        contest info), with the same pacing, retries and errors as :meth:`graphql`."""
        headers = self._headers(None, referer=referer)
        del headers["Content-Type"]  # a GET has no body
        return self._request(
            "GET", f"{self.config.base_url}{path}", headers=headers, payload=None, what=what
        )

    def _request(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str],
        payload: dict[str, Any] | None,
        what: str,
    ) -> dict[str, Any]:
        """One request, retried on 429 / 5xx / connection errors / malformed JSON (Retry-After
        honoured up to ``max_retry_after``); the JSON object of the answer."""
        cfg = self.config
        for attempt in range(1, cfg.max_attempts + 1):
            self._pace()
            self.requests += 1
            wait: float
            try:
                send = self._session.post if method == "POST" else self._session.get
                resp = send(
                    url,
                    json=payload,
                    headers=headers,
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
                        return body
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
            astparse.parse(code)
        except (SyntaxError, ValueError):
            continue
        blocks.append(code + "\n")
    return blocks


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
