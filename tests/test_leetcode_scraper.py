"""The LeetCode scraper against a LeetCode-shaped GraphQL server on 127.0.0.1 (tests/leetcode_server).

The default fixture: six questions served two per list page; ``nested-bracket-depth`` answers 429
(Retry-After: 0) twice, ``island-coast-length`` 500 once (and has no runtime distribution, so its
solutions come from community posts), ``rotate-digit-window`` a malformed JSON body once;
``locked-treasure-map`` is paid-only and ``debounce-calls`` has no Python 3 snippet.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from leetcode_server import (
    COAST_A,
    COAST_B,
    DEPTH_A,
    DEPTH_B,
    DEPTH_C,
    ROTATE_A,
    ROTATE_B,
    VOWEL_RUNS_A,
    VOWEL_RUNS_B,
    VOWEL_RUNS_D,
    VOWEL_RUNS_E,
    VOWEL_RUNS_F,
    LeetCodeServer,
    default_questions,
)
from typer.testing import CliRunner

from quicksilver.sources.leetcode import (
    AUTH_MESSAGE,
    ERRORS_FILE,
    NOTES_FILE,
    PLAN_FILE,
    QUESTION_QUERY,
    SKIPPED_FILE,
    AuthError,
    BadResponse,
    Credentials,
    LeetCodeClient,
    QuestionOutcome,
    RateLimited,
    RequestFailed,
    ScrapeConfig,
    extract_python_blocks,
    parse_runtime_distribution,
    pick_bins,
    read_jsonl,
    scrape,
)
from quicksilver.sources.leetcode_cli import scrape_app
from quicksilver.sources.snapshot import load_snapshot_dir

SESSION = "sessQ7f3c9a1e5b2d4c6aZZ"
CSRF = "csrfK0d9e8f7a6b5c4d3eWW"
CREDS = Credentials(SESSION, CSRF)
ROOT = Path(__file__).resolve().parents[1]

FIXTURE = {q.slug: q for q in default_questions()}
WRITTEN = {
    "count-vowel-runs",
    "nested-bracket-depth",
    "debounce-calls",
    "island-coast-length",
    "rotate-digit-window",
}


@pytest.fixture
def server():
    with LeetCodeServer(session=SESSION, csrf=CSRF) as srv:
        srv.queue("nested-bracket-depth", "429", "429")
        srv.queue("island-coast-length", "500")
        srv.queue("rotate-digit-window", "malformed")
        yield srv


def cfg(out: Path, server: LeetCodeServer, **kw: Any) -> ScrapeConfig:
    base: dict[str, Any] = {"delay": 0, "backoff": 0, "solutions_per_bin": 2}
    base.update(kw)
    return ScrapeConfig(out_dir=out, base_url=server.url, **base)


def snapshot_names(out: Path) -> set[str]:
    return {p.stem for p in out.glob("*.json") if not p.name.startswith((".", "_"))}


def load(out: Path, slug: str) -> dict[str, Any]:
    return json.loads((out / f"{slug}.json").read_text(encoding="utf-8"))


def solutions(out: Path, slug: str) -> list[tuple[str | None, str]]:
    return [(s["runtime"], s["code"]) for s in load(out, slug)["solutions"]]


def without_time(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    data["provenance"].pop("fetched_at")
    return data


# --------------------------------------------------------------------------------------------


def test_full_scrape_writes_questions_as_served(server, tmp_path):
    summary = scrape(cfg(tmp_path, server), credentials=CREDS)

    assert snapshot_names(tmp_path) == WRITTEN
    assert summary.counts() | {"requests": 0} == {
        "planned": 6,
        "written": 5,
        "complete": 0,
        "skipped": 1,
        "failed": 0,
        "requests": 0,
    }
    assert summary.requests == len(server.seen)
    # the question part is LeetCode's answer, unchanged (HTML, metaData / stats JSON strings)
    for slug in WRITTEN:
        assert load(tmp_path, slug)["question"] == FIXTURE[slug].question, slug
    vowel = load(tmp_path, "count-vowel-runs")["question"]
    assert vowel["metaData"] == FIXTURE["count-vowel-runs"].question["metaData"]
    assert vowel["metaData"].startswith('{\n  "name": "countVowelRuns"')
    assert "1 &lt;= s.length &lt;= 10<sup>5</sup>" in vowel["content"]
    assert "\u2264" in load(tmp_path, "nested-bracket-depth")["question"]["content"]

    # K = 2 samples per runtime bin, fastest bin first, runtimes as the judge shows them
    assert solutions(tmp_path, "count-vowel-runs") == [
        ("76ms", VOWEL_RUNS_A),
        ("76ms", VOWEL_RUNS_B),
        ("80ms", VOWEL_RUNS_D),
        ("80ms", VOWEL_RUNS_E),
        ("92ms", VOWEL_RUNS_F),
    ]
    assert solutions(tmp_path, "nested-bracket-depth") == [
        ("40ms", DEPTH_A),
        ("40ms", DEPTH_B),
        ("44ms", DEPTH_C),
    ]
    # the 128 ms bin repeats the 120 ms sample: kept once
    assert solutions(tmp_path, "rotate-digit-window") == [("120ms", ROTATE_A), ("128ms", ROTATE_B)]
    for sol in load(tmp_path, "count-vowel-runs")["solutions"]:
        assert (sol["lang"], sol["source"], sol["url"]) == ("python3", "runtime-bin", None)

    # no distribution -> community posts: python3 class Solution blocks only
    coast = load(tmp_path, "island-coast-length")["solutions"]
    assert [(s["runtime"], s["code"]) for s in coast] == [(None, COAST_A), (None, COAST_B)]
    assert [s["source"] for s in coast] == ["community", "community"]
    assert coast[0]["url"] == (
        f"{server.url}/problems/island-coast-length/solutions/5550001/edges-minus-shared/"
    )

    # no Python 3 snippet: written without solutions, noted, and no solution request made
    assert load(tmp_path, "debounce-calls")["solutions"] == []
    notes = read_jsonl(tmp_path / NOTES_FILE)
    assert [(n["slug"], n["reason"]) for n in notes] == [
        ("debounce-calls", "no python3 code snippet: written without solutions")
    ]
    assert server.count("debounce-calls") == 1

    # paid-only: recorded, never requested
    skipped = read_jsonl(tmp_path / SKIPPED_FILE)
    assert [(s["slug"], s["reason"]) for s in skipped] == [("locked-treasure-map", "paid-only")]
    assert server.count("locked-treasure-map") == 0
    assert not (tmp_path / ERRORS_FILE).exists()

    # retries happened, as many as the faults
    statuses = [s.status for s in server.seen if s.slug == "nested-bracket-depth"]
    assert statuses[:3] == [429, 429, 200]
    assert server.count("nested-bracket-depth", "question") == 3
    assert server.count("island-coast-length", "question") == 2
    assert server.count("rotate-digit-window", "question") == 2

    # the list was paged (the server gives 2 a page) and the plan kept
    pages = [s.variables for s in server.seen if s.operation == "questionList"]
    assert [(p["skip"], p["categorySlug"], p["filters"]) for p in pages] == [
        (0, "algorithms", {}),
        (2, "algorithms", {}),
        (4, "algorithms", {}),
    ]
    assert [r["slug"] for r in read_jsonl(tmp_path / PLAN_FILE)] == [
        q.slug for q in default_questions()
    ]
    # codeWithRuntime takes the internal questionId (an Int), not the frontend id
    cwr = [s.variables for s in server.seen if s.operation == "codeWithRuntime"]
    assert {v["questionId"] for v in cwr} == {4020, 4025, 4047}
    assert server.count("island-coast-length", "codeWithRuntime") == 0

    prov = load(tmp_path, "count-vowel-runs")["provenance"]
    assert prov["source"] == "leetcode"
    assert prov["endpoint"] == server.url
    assert prov["tool"] == "quicksilver 0.1.0"
    assert prov["fetched_at"].endswith("Z") and prov["fetched_at"][:2] == "20"

    loaded = load_snapshot_dir(tmp_path)
    assert loaded.rejects == []
    assert {f.slug for f in loaded.files} == WRITTEN


def test_credentials_sent_but_never_logged_or_written(server, tmp_path, caplog, monkeypatch):
    caplog.set_level(logging.DEBUG)
    # the project's logger too: an earlier in-process Prefect run may have left it at WARNING
    caplog.set_level(logging.DEBUG, logger="quicksilver")
    server.always("rotate-digit-window", "malformed")  # an error path, logged and recorded
    monkeypatch.setenv("LEETCODE_SESSION", SESSION)
    monkeypatch.setenv("LEETCODE_CSRF_TOKEN", CSRF)
    summary = scrape(cfg(tmp_path / "core", server, max_attempts=3))  # credentials from env
    assert [slug for slug, _ in summary.failed] == ["rotate-digit-window"]

    result = CliRunner().invoke(
        scrape_app,
        [
            *("leetcode", "--out", str(tmp_path / "cli"), "--base-url", server.url),
            *("--delay", "0", "--backoff", "0", "--verbose"),
            *("--slugs", "count-vowel-runs,rotate-digit-window"),
        ],
    )
    assert result.exit_code == 1, result.output  # rotate-digit-window failed
    assert "rotate-digit-window" in result.output

    # every request carried the session cookie, the csrftoken cookie and the x-csrftoken header
    assert len(server.seen) > 20
    for seen in server.seen:
        assert seen.cookies.get("LEETCODE_SESSION") == SESSION
        assert seen.cookies.get("csrftoken") == CSRF
        assert seen.csrf_header == CSRF
    # ... and the account's data was reachable with them
    assert server.count("count-vowel-runs", "codeWithRuntime") > 0

    texts = [r.getMessage() for r in caplog.records]
    texts += [logging.Formatter().formatException(r.exc_info) for r in caplog.records if r.exc_info]
    texts.append(result.output)
    assert len(caplog.records) > 10
    for text in texts:
        assert SESSION not in text and CSRF not in text
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {ERRORS_FILE, "count-vowel-runs.json", PLAN_FILE}
    for path in files:
        data = path.read_bytes()
        assert SESSION.encode() not in data and CSRF.encode() not in data, path
    assert SESSION not in repr(CREDS) and CSRF not in repr(CREDS)


def test_401_stops_the_run_and_keeps_what_was_written(server, tmp_path, monkeypatch):
    monkeypatch.setenv("LEETCODE_SESSION", SESSION)
    monkeypatch.setenv("LEETCODE_CSRF_TOKEN", CSRF)
    server.always("island-coast-length", "401")
    with pytest.raises(AuthError) as info:
        scrape(cfg(tmp_path, server), credentials=CREDS)
    message = str(info.value)
    assert AUTH_MESSAGE in message
    assert "island-coast-length" in message and "401" in message
    assert snapshot_names(tmp_path) == {
        "count-vowel-runs",
        "nested-bracket-depth",
        "debounce-calls",
    }
    assert server.count("rotate-digit-window") == 0  # nothing after the stop
    assert info.value.summary is not None
    assert info.value.summary.written == [
        "count-vowel-runs",
        "nested-bracket-depth",
        "debounce-calls",
    ]
    kept = {slug: load(tmp_path, slug) for slug in snapshot_names(tmp_path)}

    # the command says the same, exits 3, and asks nothing again for the complete questions
    server.reset()
    server.always("island-coast-length", "403")
    result = CliRunner().invoke(
        scrape_app,
        ["leetcode", "--out", str(tmp_path), "--base-url", server.url, "--delay", "0"],
    )
    assert result.exit_code == 3, result.output
    assert "credentials expired or missing" in " ".join(result.output.split())
    assert {slug for slug, n in server.per_slug().items() if n} == {None, "island-coast-length"}
    assert {slug: load(tmp_path, slug) for slug in snapshot_names(tmp_path)} == kept


def test_graphql_not_logged_in_is_an_auth_stop(tmp_path):
    with (
        LeetCodeServer(session="another-session", csrf=CSRF) as srv,
        pytest.raises(AuthError) as info,
    ):
        scrape(cfg(tmp_path, srv, slugs=("count-vowel-runs",)), credentials=CREDS)
    assert AUTH_MESSAGE in str(info.value)
    assert "User is not logged in" in str(info.value)
    assert snapshot_names(tmp_path) == set()


def test_without_credentials_only_community_solutions(server, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    summary = scrape(cfg(tmp_path, server), credentials=Credentials(None, None))
    assert len(summary.written) == 5
    assert server.count(operation="questionSubmissionList") == 0
    assert server.count(operation="codeWithRuntime") == 0
    assert all("LEETCODE_SESSION" not in s.cookies for s in server.seen)
    assert all(s.csrf_header is None for s in server.seen)
    assert [s["source"] for s in load(tmp_path, "island-coast-length")["solutions"]] == [
        "community",
        "community",
    ]
    # no community posts for this one: written without solutions, and noted
    assert load(tmp_path, "count-vowel-runs")["solutions"] == []
    notes = {(n["slug"], n["reason"]) for n in read_jsonl(tmp_path / NOTES_FILE)}
    assert ("count-vowel-runs", "no python3 solutions found (community)") in notes
    assert any("no LeetCode credentials" in r.getMessage() for r in caplog.records)


class InterruptingSession(requests.Session):
    """Raises KeyboardInterrupt instead of sending the request that ``stop_at`` matches."""

    def __init__(self, stop_at: tuple[str, str]) -> None:
        super().__init__()
        self.stop_at = stop_at

    def post(self, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        payload = kwargs.get("json") or {}
        slug = payload.get("variables", {}).get("questionSlug")
        if (payload.get("operationName"), slug) == self.stop_at:
            raise KeyboardInterrupt
        return super().post(url, *args, **kwargs)


def test_interrupted_run_redoes_only_unfinished_questions(server, tmp_path):
    reference = tmp_path / "reference"
    out = tmp_path / "out"
    scrape(cfg(reference, server), credentials=CREDS)
    server.reset()

    # 1. stopped between questions, after two were written
    def stop_after_two(outcome: QuestionOutcome) -> None:
        if outcome.slug == "nested-bracket-depth":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        scrape(cfg(out, server), credentials=CREDS, on_question=stop_after_two)
    assert snapshot_names(out) == {"count-vowel-runs", "nested-bracket-depth"}

    # 2. stopped in the middle of a question (between its requests)
    server.reset()
    with pytest.raises(KeyboardInterrupt):
        scrape(
            cfg(out, server),
            credentials=CREDS,
            session=InterruptingSession(("ugcArticleSolutionArticles", "island-coast-length")),
        )
    assert server.count("count-vowel-runs") == 0 and server.count("nested-bracket-depth") == 0
    assert server.count("island-coast-length", "question") == 1
    assert snapshot_names(out) == {"count-vowel-runs", "nested-bracket-depth", "debounce-calls"}
    assert list(out.glob(".*")) == []  # no partial file

    # 3. the rerun asks nothing about the complete questions and finishes the others
    server.reset()
    summary = scrape(cfg(out, server), credentials=CREDS)
    asked = {slug for slug, n in server.per_slug().items() if n}
    assert asked == {None, "island-coast-length", "rotate-digit-window"}  # None: the list
    assert sorted(summary.complete) == [
        "count-vowel-runs",
        "debounce-calls",
        "nested-bracket-depth",
    ]
    assert summary.written == ["island-coast-length", "rotate-digit-window"]
    assert snapshot_names(out) == snapshot_names(reference) == WRITTEN
    for slug in WRITTEN:
        assert without_time(load(out, slug)) == without_time(load(reference, slug)), slug


KILLED_RUN = """
import sys
from pathlib import Path
from quicksilver.sources.leetcode import ScrapeConfig, scrape
scrape(ScrapeConfig(out_dir=Path(sys.argv[1]), base_url=sys.argv[2], delay=0.05, backoff=0,
                    solutions_per_bin=2))
"""


def test_killed_run_leaves_only_complete_files(server, tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, LEETCODE_SESSION=SESSION, LEETCODE_CSRF_TOKEN=CSRF)
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, str(out), server.url],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while len(snapshot_names(out)) < 2 and proc.poll() is None:
            assert time.monotonic() < deadline, "the scraper wrote nothing in 30 s"
            time.sleep(0.01)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    done = snapshot_names(out)
    assert 2 <= len(done) < len(WRITTEN)  # killed in the middle of the run
    loaded = load_snapshot_dir(out)
    assert loaded.rejects == [] and {f.slug for f in loaded.files} == done

    server.reset()
    scrape(cfg(out, server), credentials=CREDS)
    assert not {slug for slug, n in server.per_slug().items() if n} & done
    assert snapshot_names(out) == WRITTEN
    assert list(out.glob(".*")) == []


def test_complete_files_need_no_request_and_bad_files_are_redone(server, tmp_path):
    slugs = ("count-vowel-runs", "debounce-calls")
    scrape(cfg(tmp_path, server, slugs=slugs), credentials=CREDS)
    assert snapshot_names(tmp_path) == set(slugs)

    server.reset()
    summary = scrape(cfg(tmp_path, server, slugs=slugs), credentials=CREDS)
    assert server.seen == []
    assert summary.complete == list(slugs) and summary.written == []

    # a truncated file (not ours: writes are atomic) and a stale temp file from a killed run
    (tmp_path / "count-vowel-runs.json").write_text('{"format": "quicksilver-snap')
    (tmp_path / ".count-vowel-runs.abc123.tmp").write_text("{")
    summary = scrape(cfg(tmp_path, server, slugs=slugs), credentials=CREDS)
    assert summary.written == ["count-vowel-runs"] and summary.complete == ["debounce-calls"]
    assert server.count("debounce-calls") == 0
    assert load(tmp_path, "count-vowel-runs")["question"]["titleSlug"] == "count-vowel-runs"
    assert list(tmp_path.glob(".*")) == []


def test_malformed_every_time_is_recorded_and_the_run_goes_on(server, tmp_path, caplog):
    server.always("count-vowel-runs", "malformed")
    summary = scrape(cfg(tmp_path, server, max_attempts=3), credentials=CREDS)

    assert [slug for slug, _ in summary.failed] == ["count-vowel-runs"]
    reason = summary.failed[0][1]
    assert reason.startswith("count-vowel-runs:")
    assert "gave up after 3 attempts" in reason and "malformed JSON" in reason
    assert server.count("count-vowel-runs") == 3
    errors = read_jsonl(tmp_path / ERRORS_FILE)
    assert [(e["slug"], e["reason"]) for e in errors] == [("count-vowel-runs", reason)]
    assert snapshot_names(tmp_path) == WRITTEN - {"count-vowel-runs"}
    assert any(reason in r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)

    server.reset()
    summary = scrape(cfg(tmp_path, server), credentials=CREDS)
    assert summary.written == ["count-vowel-runs"]
    assert snapshot_names(tmp_path) == WRITTEN


def test_retries_back_off_honour_retry_after_and_pace(server, tmp_path):
    sleeps: list[float] = []
    config = cfg(tmp_path, server, backoff=1.0, max_attempts=4)

    def ask(client: LeetCodeClient, slug: str) -> dict[str, Any]:
        return client.graphql(
            "questionData", QUESTION_QUERY, {"titleSlug": slug}, what=f"{slug}: questionData"
        )

    with LeetCodeClient(config, CREDS, sleep=sleeps.append) as client:
        # 5xx without Retry-After: exponential backoff, bounded, then an error naming it all
        server.always("count-vowel-runs", "500")
        with pytest.raises(RequestFailed) as info:
            ask(client, "count-vowel-runs")
        assert (
            str(info.value) == "count-vowel-runs: questionData: gave up after 4 attempts: HTTP 500"
        )
        assert sleeps == [1.0, 2.0, 4.0]
        assert server.count("count-vowel-runs") == 4

        # 429 with Retry-After: 0 (already queued twice by the fixture): no wait, then the answer
        sleeps.clear()
        assert ask(client, "nested-bracket-depth")["question"]["questionId"] == "4025"
        assert sleeps == []
        # dropped connections are retried with backoff
        server.queue("debounce-calls", "drop", "drop")
        assert ask(client, "debounce-calls")["question"]["questionId"] == "4033"
        assert sleeps == [1.0, 2.0]

        # a Retry-After longer than we are willing to wait stops the run
        server.queue("rotate-digit-window", "429:3600")
        with pytest.raises(RateLimited, match="Retry-After 3600 s"):
            ask(client, "rotate-digit-window")

    # politeness: the delay separates consecutive requests
    sleeps.clear()
    paced = cfg(tmp_path, server, delay=0.5)
    with LeetCodeClient(paced, CREDS, sleep=sleeps.append, clock=lambda: 100.0) as client:
        for _ in range(3):
            ask(client, "debounce-calls")
    assert sleeps == [0.5, 0.5]


def test_list_filter_limit_and_bins(server, tmp_path):
    scrape(cfg(tmp_path / "easy", server, difficulty="EASY"), credentials=CREDS)
    assert snapshot_names(tmp_path / "easy") == {"count-vowel-runs", "debounce-calls"}
    lists = [s.variables for s in server.seen if s.operation == "questionList"]
    assert [v["filters"] for v in lists] == [{"difficulty": "EASY"}]

    server.reset()
    summary = scrape(cfg(tmp_path / "three", server, limit=3), credentials=CREDS)
    assert summary.planned == 3
    assert snapshot_names(tmp_path / "three") == {"count-vowel-runs", "nested-bracket-depth"}
    lists = [s.variables for s in server.seen if s.operation == "questionList"]
    assert [(v["skip"], v["limit"]) for v in lists] == [(0, 3), (2, 1)]

    server.reset()
    scrape(
        cfg(
            tmp_path / "bins",
            server,
            slugs=("count-vowel-runs",),
            max_bins=2,
            solutions_per_bin=1,
        ),
        credentials=CREDS,
    )
    assert [r for r, _ in solutions(tmp_path / "bins", "count-vowel-runs")] == ["76ms", "92ms"]
    assert server.count("count-vowel-runs", "codeWithRuntime") == 2

    with pytest.raises(ValueError, match="cannot be used with slugs"):
        cfg(tmp_path, server, slugs=("count-vowel-runs",), difficulty="EASY")


def test_cli_scrapes_like_the_core(server, tmp_path, monkeypatch):
    monkeypatch.setenv("LEETCODE_SESSION", SESSION)
    monkeypatch.setenv("LEETCODE_CSRF_TOKEN", CSRF)
    args = ["leetcode", "--out", str(tmp_path), "--base-url", server.url, "--delay", "0"]
    args += ["--backoff", "0", "--solutions-per-bin", "2"]
    result = CliRunner().invoke(scrape_app, args)
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "5 written, 0 already complete, 1 skipped, 0 failed" in flat
    assert snapshot_names(tmp_path) == WRITTEN
    assert solutions(tmp_path, "nested-bracket-depth")[0] == ("40ms", DEPTH_A)

    bad = CliRunner().invoke(
        scrape_app, ["leetcode", "--out", str(tmp_path), "--slugs", "a", "--difficulty", "easy"]
    )
    assert bad.exit_code == 2
    assert "cannot be used with slugs" in " ".join(bad.output.split())


def test_runtime_distribution_bins_and_code_blocks():
    raw = json.dumps({"lang": "python3", "distribution": [["80", 40.0], ["76", 12.5], [92, 7.5]]})
    assert parse_runtime_distribution(raw) == [("76", 12.5), ("80", 40.0), ("92", 7.5)]
    assert parse_runtime_distribution('[["44ms", 45.0], ["40", 55]]') == [
        ("40", 55.0),
        ("44", 45.0),
    ]
    assert parse_runtime_distribution(None) == []
    assert parse_runtime_distribution('{"lang": "python3", "distribution": null}') == []
    with pytest.raises(BadResponse, match="java"):
        parse_runtime_distribution('{"lang": "java", "distribution": [["3", 100]]}')
    with pytest.raises(BadResponse):
        parse_runtime_distribution("[[1, 2, 3]]")
    with pytest.raises(BadResponse):
        parse_runtime_distribution("{not json")

    bins = [(str(i), 10.0) for i in range(10)]
    assert [b for b, _ in pick_bins(bins, 3)] == ["0", "4", "9"]
    assert pick_bins(bins, None) == bins and pick_bins(bins, 20) == bins
    assert pick_bins(bins, 1) == [("0", 10.0)]

    escaped = (
        "Idea\\n```python3 []\\nclass Solution:\\n    def f(self) -> int:\\n        return 1\\n```"
    )
    assert extract_python_blocks(escaped) == [
        "class Solution:\n    def f(self) -> int:\n        return 1\n"
    ]
    mixed = "```java\nclass A {}\n```\n```py\nx = 1\n```\n```python\nprint 'old'\n```\n"
    assert extract_python_blocks(mixed) == ["x = 1\n"]


# --------------------------------------------------------------------------------------------
# The Prefect flow (one test; the harness start dominates)
# --------------------------------------------------------------------------------------------


def _flow_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "scrape_leetcode_flow", ROOT / "flows" / "scrape_leetcode.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_prefect_flow_runs_the_core(server, tmp_path, monkeypatch, prefect_harness):
    monkeypatch.setenv("LEETCODE_SESSION", SESSION)
    monkeypatch.setenv("LEETCODE_CSRF_TOKEN", CSRF)
    flow = _flow_module()
    params = {"out": str(tmp_path), "base_url": server.url, "delay": 0.0, "backoff": 0.0}
    params |= {"solutions_per_bin": 2, "shard_size": 2}

    result = flow.run(**params)
    assert result["planned"] == 6
    assert (result["written"], result["skipped"], result["failed"]) == (5, 1, 0)
    assert snapshot_names(tmp_path) == WRITTEN
    assert solutions(tmp_path, "count-vowel-runs")[:2] == [
        ("76ms", VOWEL_RUNS_A),
        ("76ms", VOWEL_RUNS_B),
    ]
    assert load(tmp_path, "island-coast-length")["question"] == (
        FIXTURE["island-coast-length"].question
    )

    assert all(load(tmp_path, slug)["release"] is None for slug in WRITTEN)  # dates are opt-in

    # a second run with dates finds every question complete: only the lists and the contest
    # pages are asked for, and the last task dates the files
    server.reset()
    again = flow.run(**params, dates="contests")
    assert (again["written"], again["complete"], again["skipped"]) == (0, 5, 1)
    assert {slug for slug, n in server.per_slug().items() if n} == {
        None,
        "_contests",
        "weekly-contest-9402",
        "biweekly-contest-9133",
        "weekly-contest-9401",
        "weekly-contest-9400",
    }
    assert (again["dates"]["dated"], again["dates"]["undated"]) == (3, 2)
    assert load(tmp_path, "count-vowel-runs")["release"] == {
        "date": "2024-06-02",
        "provenance": "contest",
    }

    # Prefect stored the parameters and logs; the credentials are not among them
    db = prefect_harness.read_bytes() + b"".join(
        p.read_bytes() for p in prefect_harness.parent.glob("*.db-wal")
    )
    assert str(tmp_path).encode() in db  # the flow run and its parameters are there...
    assert SESSION.encode() not in db and CSRF.encode() not in db  # ...the tokens are not
    assert os.environ["LEETCODE_SESSION"] == SESSION
