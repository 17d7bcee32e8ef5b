"""Release dates from LeetCode's contests, against the LeetCode-shaped server (tests/leetcode_server).

The fixture's contests (``default_contests``), newest first, two per ``pastContests`` page:
``weekly-contest-9402`` (2024-06-16 02:30 UTC: count-vowel-runs, rotate-digit-window),
``biweekly-contest-9133`` (2024-06-15 23:30 UTC: nested-bracket-depth, the paid-only
locked-treasure-map), ``weekly-contest-9401`` (2024-06-02 02:30 UTC: count-vowel-runs again) and
``weekly-contest-9400`` (none of the fixture's questions). ``island-coast-length`` and
``debounce-calls`` were in no contest: they must stay undated.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from leetcode_server import LeetCodeServer
from typer.testing import CliRunner

from quicksilver.sources.leetcode import (
    CONTESTS_DIR,
    BadResponse,
    ContestInfo,
    Credentials,
    LeetCodeClient,
    RateLimited,
    ScrapeConfig,
    date_from_contests,
    date_questions,
    earliest_dates,
    parse_contest_info,
    read_jsonl,
    scrape,
)
from quicksilver.sources.leetcode_cli import scrape_app

SESSION = "sessD4t3sA1b2c3d4e5f6ZZ"
CSRF = "csrfD4t3sK0d9e8f7a6b5WW"
CREDS = Credentials(SESSION, CSRF)
CONTESTS = [
    "weekly-contest-9402",
    "biweekly-contest-9133",
    "weekly-contest-9401",
    "weekly-contest-9400",
]
DATED = {
    "count-vowel-runs": "2024-06-02",  # in 9402 and 9401: the earlier, listed later
    "nested-bracket-depth": "2024-06-15",  # 23:30 UTC: the 16th in Shanghai, the 15th in UTC
    "rotate-digit-window": "2024-06-16",
}
UNDATED = {"island-coast-length", "debounce-calls"}


@pytest.fixture
def server():
    with LeetCodeServer(session=SESSION, csrf=CSRF) as srv:
        yield srv


@pytest.fixture(autouse=True)
def far_east(monkeypatch):
    """Local time in UTC+8, so a date taken in local time instead of UTC shows."""
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def cfg(out: Path, server: LeetCodeServer, **kw: Any) -> ScrapeConfig:
    base: dict[str, Any] = {"delay": 0, "backoff": 0, "solutions_per_bin": 1, "max_bins": 1}
    base.update(kw)
    return ScrapeConfig(out_dir=out, base_url=server.url, **base)


def release(out: Path, slug: str) -> dict[str, str] | None:
    return json.loads((out / f"{slug}.json").read_text(encoding="utf-8")).get("release")


def assert_dated(out: Path) -> None:
    for slug, date in DATED.items():
        assert release(out, slug) == {"date": date, "provenance": "contest"}, slug
    for slug in UNDATED:
        assert release(out, slug) is None, slug


def contest_requests(server: LeetCodeServer) -> dict[str, int]:
    return {c: server.count(c, "contest-info") for c in CONTESTS}


class InterruptingSession(requests.Session):
    """Raises KeyboardInterrupt instead of GETting the info page of ``contest``."""

    def __init__(self, contest: str) -> None:
        super().__init__()
        self.contest = contest

    def get(self, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        if f"/contest/api/info/{self.contest}/" in str(url):
            raise KeyboardInterrupt
        return super().get(url, *args, **kwargs)


# --------------------------------------------------------------------------------------------


def test_scrape_dates_contest_questions_and_leaves_the_others_undated(server, tmp_path):
    server.queue("biweekly-contest-9133", "500")  # fails once, then answers
    server.queue("weekly-contest-9401", "429")  # rate limited once (Retry-After: 0)
    summary = scrape(cfg(tmp_path, server, dates="contests"), credentials=CREDS)

    assert summary.failed == []
    assert_dated(tmp_path)
    assert summary.dates is not None
    assert summary.dates.counts() | {"requests": 0} == {
        "contests": 4,
        "contests_fetched": 4,
        "contests_cached": 0,
        "contests_failed": 0,
        "dated": 3,
        "unchanged": 0,
        "undated": 2,
        "kept": 0,
        "requests": 0,
    }
    assert sorted(summary.dates.undated) == sorted(UNDATED)
    # two list pages, each info page once plus the retried ones; all counted
    assert server.count("_contests", "pastContests") == 2
    assert contest_requests(server) == {
        "weekly-contest-9402": 1,
        "biweekly-contest-9133": 2,
        "weekly-contest-9401": 2,
        "weekly-contest-9400": 1,
    }
    assert summary.requests == len(server.seen)
    # the info pages are stored as served, with the list and the slug -> date map beside them
    stored = tmp_path / CONTESTS_DIR
    assert sorted(p.stem for p in stored.glob("*.json") if not p.name.startswith("_")) == sorted(
        CONTESTS
    )
    served = server.contest_info("weekly-contest-9401")
    assert json.loads((stored / "weekly-contest-9401.json").read_text()) == served
    assert json.loads((stored / "_dates.json").read_text())["count-vowel-runs"] == {
        "date": "2024-06-02",
        "contest": "weekly-contest-9401",
    }
    assert [c["titleSlug"] for c in json.loads((stored / "_list.json").read_text())] == CONTESTS
    assert not (stored / "_errors.jsonl").exists()
    # the info requests look like the browser's: JSON accepted, the contest page as referer
    info = next(s for s in server.seen if s.operation == "contest-info" and s.status == 200)
    assert info.referer == f"{server.url}/contest/{info.slug}/"
    assert info.cookies.get("LEETCODE_SESSION") == SESSION and info.csrf_header == CSRF


def test_an_existing_scrape_is_dated_without_fetching_question_pages(server, tmp_path):
    scrape(cfg(tmp_path, server), credentials=CREDS)
    assert all(release(tmp_path, s) is None for s in [*DATED, *UNDATED])  # dates are opt-in
    # a date given by hand stays; a contest date that is later than the first contest moves
    manual = json.loads((tmp_path / "count-vowel-runs.json").read_text())
    manual["release"] = {"date": "2020-01-01", "provenance": "manual"}
    (tmp_path / "count-vowel-runs.json").write_text(json.dumps(manual))
    late = json.loads((tmp_path / "rotate-digit-window.json").read_text())
    late["release"] = {"date": "2030-01-01", "provenance": "contest"}
    (tmp_path / "rotate-digit-window.json").write_text(json.dumps(late))
    before = {p.name: p.read_text() for p in tmp_path.glob("*.json")}

    server.reset()
    dates = date_questions(cfg(tmp_path, server), credentials=CREDS)

    assert {s.operation for s in server.seen} == {"pastContests", "contest-info"}
    assert release(tmp_path, "count-vowel-runs") == {"date": "2020-01-01", "provenance": "manual"}
    assert release(tmp_path, "rotate-digit-window") == {
        "date": "2024-06-16",
        "provenance": "contest",
    }
    assert release(tmp_path, "nested-bracket-depth") == {
        "date": "2024-06-15",
        "provenance": "contest",
    }
    assert sorted(dates.dated) == ["nested-bracket-depth", "rotate-digit-window"]
    assert dates.kept == ["count-vowel-runs"]
    assert sorted(dates.undated) == sorted(UNDATED)
    # only the release changed in the files that were dated; the others are untouched
    for name, text in before.items():
        now = json.loads((tmp_path / name).read_text())
        if name.removesuffix(".json") in dates.dated:
            now.pop("release")
            was = json.loads(text)
            was.pop("release", None)
            assert now == was, name
        else:
            assert (tmp_path / name).read_text() == text, name


def test_an_interrupted_date_pass_resumes_without_refetching_stored_pages(server, tmp_path):
    scrape(cfg(tmp_path, server), credentials=CREDS)
    server.reset()

    # 1. interrupted before the third contest's page: two pages stored, no file dated yet
    with pytest.raises(KeyboardInterrupt):
        date_questions(
            cfg(tmp_path, server),
            credentials=CREDS,
            session=InterruptingSession("weekly-contest-9401"),
        )
    stored = tmp_path / CONTESTS_DIR
    assert {p.stem for p in stored.glob("*-contest-*.json")} == set(CONTESTS[:2])
    assert all(release(tmp_path, s) is None for s in DATED)
    assert list(stored.glob(".*")) == []  # no partial page

    # 2. the rerun fetches only the pages still missing
    server.reset()
    dates = date_questions(cfg(tmp_path, server), credentials=CREDS)
    assert contest_requests(server) == {
        "weekly-contest-9402": 0,
        "biweekly-contest-9133": 0,
        "weekly-contest-9401": 1,
        "weekly-contest-9400": 1,
    }
    assert (dates.fetched, dates.cached) == (2, 2)
    assert_dated(tmp_path)

    # 3. once every page is stored, a pass asks only for the list and changes nothing
    server.reset()
    again = date_questions(cfg(tmp_path, server), credentials=CREDS)
    assert {s.operation for s in server.seen} == {"pastContests"}
    assert (again.fetched, again.cached, again.unchanged, again.dated) == (0, 4, 3, [])
    assert_dated(tmp_path)

    # a stored page that was damaged is fetched again
    (stored / "weekly-contest-9400.json").write_text('{"contest": {"title_sl')
    server.reset()
    date_questions(cfg(tmp_path, server), credentials=CREDS)
    assert contest_requests(server)["weekly-contest-9400"] == 1
    assert sum(contest_requests(server).values()) == 1


def test_a_malformed_contest_page_is_one_line_and_the_pass_goes_on(server, tmp_path, caplog):
    scrape(cfg(tmp_path, server), credentials=CREDS)
    server.reset()
    server.always("weekly-contest-9401", "badinfo")  # a 200 without start_time
    server.always("weekly-contest-9400", "malformed")  # a truncated body, every time

    with caplog.at_level(logging.WARNING, logger="quicksilver"):
        dates = date_questions(cfg(tmp_path, server), credentials=CREDS)

    assert dates.failed == [
        ("weekly-contest-9401", "contest weekly-contest-9401: info: contest.start_time is None"),
        (
            "weekly-contest-9400",
            "contest weekly-contest-9400: info: gave up after 5 attempts: malformed JSON body",
        ),
    ]
    assert server.count("weekly-contest-9401") == 1  # a wrong shape is not retried
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len([m for m in errors if "weekly-contest-9401" in m]) == 1
    assert len([m for m in errors if "weekly-contest-9400" in m]) == 1
    ledger = read_jsonl(tmp_path / CONTESTS_DIR / "_errors.jsonl")
    assert [(r["slug"], r["reason"]) for r in ledger] == dates.failed
    assert not (tmp_path / CONTESTS_DIR / "weekly-contest-9401.json").exists()
    # the pass went on: what the other contests say is written; count-vowel-runs has, for now,
    # the date of the later contest it was in
    assert release(tmp_path, "count-vowel-runs") == {"date": "2024-06-16", "provenance": "contest"}
    assert release(tmp_path, "nested-bracket-depth") == {
        "date": "2024-06-15",
        "provenance": "contest",
    }

    # the next pass, the site mended, fetches only the failed pages and moves the date earlier
    server.reset()
    fixed = date_questions(cfg(tmp_path, server), credentials=CREDS)
    assert (fixed.fetched, fixed.cached, fixed.failed) == (2, 2, [])
    assert fixed.dated == ["count-vowel-runs"]
    assert_dated(tmp_path)


def test_retry_after_is_honoured_and_a_long_one_stops_the_pass(server, tmp_path):
    scrape(cfg(tmp_path, server), credentials=CREDS)
    server.reset()
    server.queue("_contests", "500")
    server.queue("weekly-contest-9400", "429:7")
    slept: list[float] = []
    with LeetCodeClient(cfg(tmp_path, server), CREDS, sleep=slept.append) as client:
        dates = date_from_contests(client)
    assert 7.0 in slept
    assert server.count("weekly-contest-9400") == 2
    assert dates.failed == [] and dates.fetched == 4

    # a Retry-After longer than max_retry_after stops the pass; stored pages stay
    for page in (tmp_path / CONTESTS_DIR).glob("weekly-contest-940*.json"):
        page.unlink()
    server.reset()
    server.queue("weekly-contest-9401", "429:900")
    with (
        LeetCodeClient(cfg(tmp_path, server), CREDS, sleep=slept.append) as client,
        pytest.raises(RateLimited, match="weekly-contest-9401: info: HTTP 429 with Retry-After"),
    ):
        date_from_contests(client)
    assert (tmp_path / CONTESTS_DIR / "weekly-contest-9402.json").exists()


def test_cli_scrape_with_dates_and_the_dates_command(server, tmp_path, monkeypatch):
    monkeypatch.setenv("LEETCODE_SESSION", SESSION)
    monkeypatch.setenv("LEETCODE_CSRF_TOKEN", CSRF)
    runner = CliRunner()
    out = tmp_path / "out"
    common = ["--out", str(out), "--base-url", server.url, "--delay", "0", "--backoff", "0"]
    result = runner.invoke(
        scrape_app, ["leetcode", *common, "--max-bins", "1", "--dates", "contests"]
    )
    assert result.exit_code == 0, result.output
    assert "dates: 3 dated, 0 unchanged, 2 undated" in result.output
    assert_dated(out)

    server.reset()
    result = runner.invoke(scrape_app, ["leetcode-dates", *common])
    assert result.exit_code == 0, result.output
    assert "dates: 0 dated, 3 unchanged, 2 undated" in result.output
    assert "4 stored before" in result.output
    assert {s.operation for s in server.seen} == {"pastContests"}

    server.always("weekly-contest-9401", "badinfo")
    for page in (out / CONTESTS_DIR).glob("weekly-contest-9401.json"):
        page.unlink()
    result = runner.invoke(scrape_app, ["leetcode-dates", *common])
    assert result.exit_code == 1
    assert "failed contests (rerun to retry them)" in result.output

    missing = runner.invoke(scrape_app, ["leetcode-dates", "--out", str(tmp_path / "nope")])
    assert missing.exit_code == 2


# --- small inputs ---------------------------------------------------------------------------------


def test_contest_info_shape_and_earliest_dates():
    body = {
        "contest": {"title_slug": "weekly-contest-1", "start_time": 1717295400},
        "questions": [{"question_id": 1, "title_slug": "a-b"}, {"title_slug": "c"}],
    }
    info = parse_contest_info("weekly-contest-1", body)
    assert info.questions == ("a-b", "c") and info.date.isoformat() == "2024-06-02"
    for broken, field in [
        ({"questions": []}, "no contest object"),
        ({**body, "contest": {"start_time": "soon"}}, "contest.start_time is 'soon'"),
        ({**body, "contest": {"title_slug": "other", "start_time": 1}}, "answered for 'other'"),
        ({**body, "questions": None}, "questions is NoneType"),
        ({**body, "questions": [{"title": "x"}]}, r"questions\[0\].title_slug is None"),
    ]:
        with pytest.raises(BadResponse, match=f"contest weekly-contest-1: info: {field}"):
            parse_contest_info("weekly-contest-1", broken)
    # earliest start wins, whatever the order; a tie goes to the smaller slug
    late = ContestInfo("weekly-contest-2", 1718505000, ("a-b", "d"))
    tie = ContestInfo("biweekly-contest-1", 1717295400, ("c",))
    first = earliest_dates([late, info, tie])
    assert {k: v.slug for k, v in first.items()} == {
        "a-b": "weekly-contest-1",
        "c": "biweekly-contest-1",
        "d": "weekly-contest-2",
    }
