"""Scraping: one question (the question, then Python 3 solutions per runtime bin or from the
community posts), and whole runs over a plan (resumable, shardable, stopped cleanly on an auth
error, a rate limit or too many failures)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import requests
from pydantic import (
    ValidationError,
)

from quicksilver import __version__
from quicksilver.sources.leetcode.client import (
    BadResponse,
    Credentials,
    LeetCodeClient,
    QuestionOutcome,
    ScrapeConfig,
    ScrapeError,
    ScrapeStopped,
    ScrapeSummary,
    TooManyFailures,
    extract_python_blocks,
    parse_runtime_distribution,
    pick_bins,
    utc_now,
)
from quicksilver.sources.leetcode.dates import date_from_contests
from quicksilver.sources.leetcode.plan import (
    Ledger,
    PlannedQuestion,
    is_complete,
    plan_questions,
    read_plan,
    remove_partial_files,
    write_plan,
)
from quicksilver.sources.leetcode.queries import (
    ACCEPTED_STATUS,
    CODE_WITH_RUNTIME_QUERY,
    CSRF_ENV,
    ERRORS_FILE,
    PYTHON3,
    PYTHON3_LANG_ID,
    QUESTION_QUERY,
    SESSION_ENV,
    SOLUTION_ARTICLE_QUERY,
    SOLUTION_ARTICLES_QUERY,
    SUBMISSION_DETAILS_QUERY,
    SUBMISSION_LIST_QUERY,
)
from quicksilver.sources.snapshot import (
    Provenance,
    Question,
    SnapshotFile,
    SnapshotSolution,
    write_snapshot,
)

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# One question
# --------------------------------------------------------------------------------------------


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
            fetched_at=utc_now(),
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
        if config.dates == "contests":
            try:
                summary.dates = date_from_contests(client)
            except ScrapeStopped as exc:
                summary.dates = exc.dates
                summary.requests += exc.dates.requests if exc.dates is not None else 0
                exc.summary = summary
                raise
            summary.requests += summary.dates.requests
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
