"""Release dates from LeetCode's contests: a question is dated by the start of the first contest
it appeared in (``release: {date, provenance: "contest"}``), a date LeetCode itself reports.

LeetCode's question answer carries no date. Its contests do: ``pastContests`` (GraphQL, paged)
lists the finished contests, and each contest's REST page ``GET /contest/api/info/<slug>/``
answers ``{"contest": {"title_slug", "start_time" (unix seconds), ...}, "questions":
[{"question_id", "title", "title_slug", "credit", ...}, ...]}``. The pass:

1. reads the contest list (a few requests; read again on every pass so new contests show up);
2. reads each contest's info page, or its copy in ``OUT/_contests/<contest>.json`` when an
   earlier pass stored it: a finished contest does not change, so a page is fetched once, ever,
   and a rerun after an interruption fetches only the pages still missing;
3. maps each question slug to the earliest start among its contests (UTC calendar date), written
   to ``OUT/_contests/_dates.json`` for inspection;
4. sets ``release`` in every question file of ``OUT`` whose slug is in the map. Files whose
   question never appeared in a contest stay undated: nothing is inferred from the question id or
   from neighbours. A date of another provenance (``manual``, ``leetcode``, ``question-id``) is
   left alone; a ``contest`` date is updated when an earlier contest turns up.

A contest whose page keeps failing or does not have the expected shape is one line in
``OUT/_contests/_errors.jsonl`` (``{"slug": <contest>, "reason", "at"}``) and in the log; the pass
goes on, and the next pass retries it. Question pages are never fetched here: the pass works on
the files on disk, so an existing scrape can be dated on its own.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from quicksilver.fsutil import write_text_atomic
from quicksilver.sources.leetcode.client import (
    AuthError,
    BadResponse,
    Credentials,
    DatesSummary,
    LeetCodeClient,
    ScrapeConfig,
    ScrapeError,
    ScrapeStopped,
    TooManyFailures,
)
from quicksilver.sources.leetcode.plan import Ledger
from quicksilver.sources.leetcode.queries import (
    CONTEST_DATES_FILE,
    CONTEST_ERRORS_FILE,
    CONTEST_INFO_PATH,
    CONTEST_LIST_FILE,
    CONTESTS_DIR,
    PAST_CONTESTS_QUERY,
)
from quicksilver.sources.snapshot import (
    Release,
    SnapshotError,
    iter_snapshot_paths,
    read_snapshot,
    write_snapshot,
)

log = logging.getLogger(__name__)

_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True)
class Contest:
    """A row of the contest list."""

    slug: str
    title: str | None
    start_time: int  # unix seconds, as listed


@dataclass(frozen=True)
class ContestInfo:
    """What a contest's info page says: when it started and which questions it had."""

    slug: str
    start_time: int  # unix seconds
    questions: tuple[str, ...]  # title slugs

    @property
    def date(self) -> dt.date:
        return dt.datetime.fromtimestamp(self.start_time, dt.UTC).date()


def _unix_seconds(value: Any) -> int | None:
    """An integer number of seconds (LeetCode sends ints; digit strings are accepted)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def list_contests(client: LeetCodeClient, now: float | None = None) -> list[Contest]:
    """The finished contests, newest first as listed; pages are read until ``totalNum`` rows
    were seen, or a page is empty or brings nothing new (a server that ignores ``pageNo``)."""
    cfg = client.config
    current = time.time() if now is None else now
    contests: list[Contest] = []
    seen: set[str] = set()
    page_no = 1
    while True:
        what = f"contest list (page {page_no})"
        data = client.graphql(
            "pastContests",
            PAST_CONTESTS_QUERY,
            {"pageNo": page_no, "numPerPage": cfg.contest_page_size},
            what=what,
            referer="contest/",
        )
        page = data.get("pastContests")
        if not isinstance(page, dict) or not isinstance(page.get("data"), list):
            raise BadResponse(f"{what}: no data list in the answer")
        fresh = 0
        for row in page["data"]:
            slug = row.get("titleSlug") if isinstance(row, dict) else None
            start = _unix_seconds(row.get("startTime")) if isinstance(row, dict) else None
            if not isinstance(slug, str) or not _SLUG.fullmatch(slug) or start is None:
                raise BadResponse(f"{what}: a row without a titleSlug and a startTime: {row!r}")
            if slug in seen:
                continue
            seen.add(slug)
            fresh += 1
            if start > current:
                continue  # not started: its questions are not public yet
            contests.append(Contest(slug, row.get("title"), start))
        total = page.get("totalNum")
        if fresh == 0 or (isinstance(total, int) and len(seen) >= total):
            return contests
        page_no += 1


def parse_contest_info(slug: str, body: Any) -> ContestInfo:
    """Check an info page's shape; BadResponse names the contest and the field."""
    what = f"contest {slug}: info"
    if not isinstance(body, dict):
        raise BadResponse(f"{what}: the answer is not a JSON object")
    contest = body.get("contest")
    if not isinstance(contest, dict):
        raise BadResponse(f"{what}: no contest object")
    if contest.get("title_slug") not in (None, slug):
        raise BadResponse(f"{what}: answered for {contest.get('title_slug')!r}")
    start = _unix_seconds(contest.get("start_time"))
    if start is None:
        raise BadResponse(f"{what}: contest.start_time is {contest.get('start_time')!r}")
    questions = body.get("questions")
    if not isinstance(questions, list):
        raise BadResponse(f"{what}: questions is {type(questions).__name__}, not a list")
    slugs: list[str] = []
    for i, q in enumerate(questions):
        qslug = q.get("title_slug") if isinstance(q, dict) else None
        if not isinstance(qslug, str) or not _SLUG.fullmatch(qslug):
            raise BadResponse(f"{what}: questions[{i}].title_slug is {qslug!r}")
        slugs.append(qslug)
    return ContestInfo(slug, start, tuple(slugs))


def _read_cached(path: Path, slug: str) -> ContestInfo | None:
    if not path.exists():
        return None
    try:
        return parse_contest_info(slug, json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:  # BadResponse is not a ValueError: caught below
        log.warning("%s: unreadable (%s); fetching it again", path, exc)
    except BadResponse as exc:
        log.warning("%s: %s; fetching it again", path, exc)
    return None


def contest_info(client: LeetCodeClient, slug: str, cache_dir: Path) -> tuple[ContestInfo, bool]:
    """The contest's info, from its stored page or fetched (then stored, as served, once it
    has the expected shape); the flag says whether it was fetched."""
    path = cache_dir / f"{slug}.json"
    cached = _read_cached(path, slug)
    if cached is not None:
        return cached, False
    body = client.get_json(
        CONTEST_INFO_PATH.format(slug=slug),
        what=f"contest {slug}: info",
        referer=f"contest/{slug}/",
    )
    info = parse_contest_info(slug, body)
    write_text_atomic(path, json.dumps(body, indent=1, ensure_ascii=False) + "\n")
    return info, True


def earliest_dates(infos: list[ContestInfo]) -> dict[str, ContestInfo]:
    """Question slug -> the contest that started first among those that had it."""
    first: dict[str, ContestInfo] = {}
    for info in infos:
        for qslug in info.questions:
            known = first.get(qslug)
            if known is None or (info.start_time, info.slug) < (known.start_time, known.slug):
                first[qslug] = info
    return first


def apply_dates(out_dir: Path, first: dict[str, ContestInfo], summary: DatesSummary) -> None:
    """Set ``release`` (provenance ``contest``) in the question files of ``out_dir``."""
    for path in iter_snapshot_paths(out_dir):
        try:
            snap = read_snapshot(path)
        except SnapshotError as exc:
            log.warning("not dated (file set aside): %s", exc)
            continue
        info = first.get(snap.slug)
        if info is None:
            if snap.release is None:
                summary.undated.append(snap.slug)
            continue
        release = Release(date=info.date, provenance="contest")
        if snap.release == release:
            summary.unchanged += 1
        elif snap.release is not None and snap.release.provenance != "contest":
            summary.kept.append(snap.slug)
            log.info(
                "%s: keeps its %s date %s (contest %s started %s)",
                snap.slug,
                snap.release.provenance,
                snap.release.date,
                info.slug,
                info.date,
            )
        else:
            write_snapshot(path.parent, snap.model_copy(update={"release": release}))
            summary.dated.append(snap.slug)
            log.debug("%s: released %s (contest %s)", snap.slug, info.date, info.slug)


ContestHook = Callable[[str, str], None]  # (contest slug, "fetched" / "cached" / "failed")


def date_from_contests(
    client: LeetCodeClient, *, on_contest: ContestHook | None = None
) -> DatesSummary:
    """The whole pass with an open client (see the module docstring). Stops (ScrapeStopped, with
    ``summary``) when the list cannot be read, on auth errors, a long Retry-After or
    ``max_consecutive_failures`` contests failing in a row; pages stored before stay."""
    cfg = client.config
    cache_dir = cfg.out_dir / CONTESTS_DIR
    cache_dir.mkdir(parents=True, exist_ok=True)
    ledger = Ledger(cache_dir, client.credentials)
    summary = DatesSummary()
    start_requests = client.requests
    try:
        try:
            contests = list_contests(client)
        except ScrapeError as exc:
            raise ScrapeStopped(f"cannot list the contests: {exc}") from exc
        summary.contests = len(contests)
        listed = [
            {"titleSlug": c.slug, "title": c.title, "startTime": c.start_time} for c in contests
        ]
        text = json.dumps(listed, indent=1, ensure_ascii=False)
        write_text_atomic(cache_dir / CONTEST_LIST_FILE, text + "\n")
        infos: list[ContestInfo] = []
        failures_in_a_row = 0
        for contest in contests:
            try:
                info, fetched = contest_info(client, contest.slug, cache_dir)
            except AuthError as exc:
                raise AuthError(
                    f"{exc}; LeetCode also refuses this page to scripts it challenges "
                    "(Cloudflare). No date was written; pages stored so far are kept"
                ) from exc
            except ScrapeError as exc:
                reason = client.credentials.redact(str(exc))
                ledger.error(contest.slug, reason)
                log.error(
                    "%s (recorded in %s/%s; the pass goes on)",
                    reason,
                    CONTESTS_DIR,
                    CONTEST_ERRORS_FILE,
                )
                summary.failed.append((contest.slug, reason))
                failures_in_a_row += 1
                if on_contest is not None:
                    on_contest(contest.slug, "failed")
                if failures_in_a_row >= cfg.max_consecutive_failures:
                    raise TooManyFailures(
                        f"{failures_in_a_row} contest pages failed in a row (last: {reason}); "
                        "stopping: is the site reachable? Rerun to resume."
                    ) from exc
                continue
            failures_in_a_row = 0
            infos.append(info)
            if fetched:
                summary.fetched += 1
            else:
                summary.cached += 1
            if on_contest is not None:
                on_contest(contest.slug, "fetched" if fetched else "cached")
        first = earliest_dates(infos)
        write_text_atomic(
            cache_dir / CONTEST_DATES_FILE,
            json.dumps(
                {
                    slug: {"date": info.date.isoformat(), "contest": info.slug}
                    for slug, info in sorted(first.items())
                },
                indent=1,
            )
            + "\n",
        )
        apply_dates(cfg.out_dir, first, summary)
    except ScrapeStopped as exc:
        summary.requests = client.requests - start_requests
        exc.dates = summary
        raise
    summary.requests = client.requests - start_requests
    if summary.failed:
        log.warning(
            "%d contest page(s) failed (%s/%s): a question seen only in them stays undated, and "
            "one also in an earlier failed contest got a later date; rerun to complete",
            len(summary.failed),
            CONTESTS_DIR,
            CONTEST_ERRORS_FILE,
        )
    log.info(
        "leetcode dates: %d dated, %d unchanged, %d undated (in no contest), %d kept; "
        "%d contests (%d fetched, %d stored, %d failed; %d requests)",
        len(summary.dated),
        summary.unchanged,
        len(summary.undated),
        len(summary.kept),
        summary.contests,
        summary.fetched,
        summary.cached,
        len(summary.failed),
        summary.requests,
    )
    return summary


def date_questions(
    config: ScrapeConfig,
    *,
    credentials: Credentials | None = None,
    session: requests.Session | None = None,
    on_contest: ContestHook | None = None,
) -> DatesSummary:
    """Date the question files already in ``config.out_dir`` (no question page is fetched)."""
    if not config.out_dir.is_dir():
        raise FileNotFoundError(f"{config.out_dir}: no such snapshot folder")
    with LeetCodeClient(config, credentials, session=session) as client:
        return date_from_contests(client, on_contest=on_contest)
