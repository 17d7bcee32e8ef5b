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

The package is in four parts: :mod:`~quicksilver.sources.leetcode.queries` (the GraphQL documents
and constants), :mod:`~quicksilver.sources.leetcode.client` (configuration, credentials, errors,
the HTTP client, parsing helpers), :mod:`~quicksilver.sources.leetcode.plan` (the plan and the
ledgers), :mod:`~quicksilver.sources.leetcode.scrape` (one question, whole runs) and
:mod:`~quicksilver.sources.leetcode.dates` (release dates from the contests a question was in).
"""

from quicksilver.sources.leetcode.client import (
    AuthError,
    BadResponse,
    Credentials,
    DatesSummary,
    GraphQLError,
    LeetCodeClient,
    QuestionOutcome,
    RateLimited,
    RequestFailed,
    ScrapeConfig,
    ScrapeError,
    ScrapeStopped,
    ScrapeSummary,
    TooManyFailures,
    extract_python_blocks,
    parse_runtime_distribution,
    pick_bins,
)
from quicksilver.sources.leetcode.dates import (
    Contest,
    ContestInfo,
    date_from_contests,
    date_questions,
    earliest_dates,
    parse_contest_info,
)
from quicksilver.sources.leetcode.plan import (
    Ledger,
    PlannedQuestion,
    is_complete,
    plan_questions,
    read_jsonl,
    read_plan,
    write_plan,
)
from quicksilver.sources.leetcode.queries import (
    AUTH_MESSAGE,
    CONTESTS_DIR,
    DEFAULT_BASE_URL,
    ERRORS_FILE,
    NOTES_FILE,
    PLAN_FILE,
    QUESTION_QUERY,
    SKIPPED_FILE,
)
from quicksilver.sources.leetcode.scrape import (
    check_credentials,
    fetch_question,
    plan_run,
    scrape,
    scrape_plan_slice,
    scrape_planned,
    scrape_question,
)

__all__ = [
    "AUTH_MESSAGE",
    "CONTESTS_DIR",
    "DEFAULT_BASE_URL",
    "ERRORS_FILE",
    "NOTES_FILE",
    "PLAN_FILE",
    "QUESTION_QUERY",
    "SKIPPED_FILE",
    "AuthError",
    "BadResponse",
    "Contest",
    "ContestInfo",
    "Credentials",
    "DatesSummary",
    "GraphQLError",
    "Ledger",
    "LeetCodeClient",
    "PlannedQuestion",
    "QuestionOutcome",
    "RateLimited",
    "RequestFailed",
    "ScrapeConfig",
    "ScrapeError",
    "ScrapeStopped",
    "ScrapeSummary",
    "TooManyFailures",
    "check_credentials",
    "date_from_contests",
    "date_questions",
    "earliest_dates",
    "extract_python_blocks",
    "fetch_question",
    "is_complete",
    "parse_contest_info",
    "parse_runtime_distribution",
    "pick_bins",
    "plan_questions",
    "plan_run",
    "read_jsonl",
    "read_plan",
    "scrape",
    "scrape_plan_slice",
    "scrape_planned",
    "scrape_question",
    "write_plan",
]
