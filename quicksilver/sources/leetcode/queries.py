"""LeetCode's GraphQL documents (operation names, variables and arguments as the browser sends
them, trimmed to the fields we keep; docs/scraping.md lists them), and the scraper's constants."""

from __future__ import annotations

import logging
from typing import Literal

from quicksilver import __version__

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
CONTESTS_DIR = "_contests"  # contest info pages, the contest list, the dates and their errors
CONTEST_LIST_FILE = "_list.json"
CONTEST_DATES_FILE = "_dates.json"
CONTEST_ERRORS_FILE = "_errors.jsonl"

Difficulty = Literal["EASY", "MEDIUM", "HARD"]
OutcomeStatus = Literal["written", "complete", "skipped", "failed"]
DatesMode = Literal["none", "contests"]

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

PAST_CONTESTS_QUERY = """
query pastContests($pageNo: Int, $numPerPage: Int) {
  pastContests(pageNo: $pageNo, numPerPage: $numPerPage) {
    totalNum
    data {
      title
      titleSlug
      startTime
    }
  }
}
"""

CONTEST_INFO_PATH = "/contest/api/info/{slug}/"  # REST, GET: {"contest": {...}, "questions": [...]}
