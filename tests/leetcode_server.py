"""A LeetCode-shaped GraphQL server for the scraper tests (127.0.0.1, a free port, a thread).

It speaks the protocol the scraper uses against leetcode.com: ``POST /graphql/`` with a JSON body
``{"query", "variables", "operationName"}``. It parses the query text (operation, variable
bindings, selection sets with aliases and fragment spreads), dispatches on the root field, and
answers with exactly the fields selected, so a field the client forgets to ask for is missing from
what it stores and a field the data does not have is a 400, as on the real site.

Fixture data: a handful of short original questions (``default_questions``). Per slug, faults can
be queued (``429`` with Retry-After: 0, ``500``, ``malformed`` JSON body, ``401``, ``403``,
``drop`` = close the connection without an answer) or made permanent; the server counts requests
per slug and operation and keeps the cookies and headers it received.

Contests (``default_contests``): ``pastContests(pageNo, numPerPage)`` pages the finished contests
newest first (two a page), and ``GET /contest/api/info/<contest>/`` answers a contest's REST info
page, ``{"contest": {..., "start_time"}, "questions": [{..., "title_slug"}], ...}``. Faults queue
per contest slug (``badinfo`` = a 200 whose shape is wrong) and under ``_contests`` for the list.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from local_http import LocalHTTPServer

# --------------------------------------------------------------------------------------------
# A small GraphQL reader: enough for LeetCode's query documents
# --------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r'\s+|,|#[^\n]*|(?P<tok>\.\.\.|[{}():!$\[\]=@]|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?'
    r"|[A-Za-z_][A-Za-z0-9_]*)"
)


class QueryError(ValueError):
    """A document the server cannot run: answered with HTTP 400 and a GraphQL error."""


@dataclass
class Selection:
    name: str
    alias: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    children: list[Selection] | None = None
    spread: str | None = None  # ...FragmentName


@dataclass
class Document:
    operation: str | None
    root: list[Selection]
    fragments: dict[str, list[Selection]]


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise QueryError(f"Syntax Error: unexpected character {text[pos]!r}")
        if m.group("tok") is not None:
            out.append(m.group("tok"))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, variables: dict[str, Any]) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.variables = variables

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise QueryError(f"Syntax Error: expected {expected or 'a token'}, found {tok}")
        self.i += 1
        return tok

    def skip_balanced(self, open_: str, close: str) -> None:
        depth = 0
        while True:
            tok = self.take()
            depth += tok == open_
            depth -= tok == close
            if depth == 0:
                return

    def value(self) -> Any:
        tok = self.take()
        if tok == "$":
            name = self.take()
            return self.variables.get(name)
        if tok.startswith('"'):
            return json.loads(tok)
        if tok in ("true", "false"):
            return tok == "true"
        if tok == "null":
            return None
        if tok == "[":
            items = []
            while self.peek() != "]":
                items.append(self.value())
            self.take("]")
            return items
        if tok == "{":
            obj = {}
            while self.peek() != "}":
                key = self.take()
                self.take(":")
                obj[key] = self.value()
            self.take("}")
            return obj
        if re.fullmatch(r"-?\d+", tok):
            return int(tok)
        if re.fullmatch(r"-?\d+\.\d+", tok):
            return float(tok)
        return tok  # an enum value

    def selection_set(self) -> list[Selection]:
        self.take("{")
        out: list[Selection] = []
        while self.peek() != "}":
            if self.peek() == "...":
                self.take()
                out.append(Selection(name="", spread=self.take()))
                continue
            name = self.take()
            alias = None
            if self.peek() == ":":
                self.take()
                alias, name = name, self.take()
            args: dict[str, Any] = {}
            if self.peek() == "(":
                self.take()
                while self.peek() != ")":
                    key = self.take()
                    self.take(":")
                    args[key] = self.value()
                self.take(")")
            children = self.selection_set() if self.peek() == "{" else None
            out.append(Selection(name=name, alias=alias, args=args, children=children))
        self.take("}")
        return out

    def document(self) -> Document:
        operation: str | None = None
        root: list[Selection] | None = None
        fragments: dict[str, list[Selection]] = {}
        while self.peek() is not None:
            tok = self.take()
            if tok == "fragment":
                name = self.take()
                self.take("on")
                self.take()
                fragments[name] = self.selection_set()
            elif tok == "query":
                if self.peek() not in ("(", "{"):
                    operation = self.take()
                if self.peek() == "(":
                    self.skip_balanced("(", ")")
                root = self.selection_set()
            elif tok == "{":
                self.i -= 1
                root = self.selection_set()
            else:
                raise QueryError(f"Syntax Error: unexpected {tok}")
        if root is None:
            raise QueryError("Syntax Error: no operation in the document")
        return Document(operation, root, fragments)


def parse_query(text: str, variables: dict[str, Any]) -> Document:
    return _Parser(text, variables).document()


def project(value: Any, selections: list[Selection], doc: Document, path: str) -> Any:
    """The fields a selection set asks for, as GraphQL would answer them."""
    if value is None:
        return None
    if isinstance(value, list):
        return [project(v, selections, doc, path) for v in value]
    if not isinstance(value, dict):
        raise QueryError(f'Field "{path}" of a scalar type must not have a selection of subfields')
    out: dict[str, Any] = {}
    for sel in selections:
        if sel.spread is not None:
            if sel.spread not in doc.fragments:
                raise QueryError(f'Unknown fragment "{sel.spread}"')
            out.update(project(value, doc.fragments[sel.spread], doc, path))
            continue
        if sel.name not in value:
            raise QueryError(f'Cannot query field "{sel.name}" on "{path}"')
        child = value[sel.name]
        key = sel.alias or sel.name
        if sel.children is not None:
            out[key] = project(child, sel.children, doc, f"{path}.{sel.name}")
        elif isinstance(child, dict) or (
            isinstance(child, list) and any(isinstance(c, dict) for c in child)
        ):
            raise QueryError(f'Field "{path}.{sel.name}" must have a selection of subfields')
        else:
            out[key] = child
    return out


# --------------------------------------------------------------------------------------------
# Fixture data
# --------------------------------------------------------------------------------------------


@dataclass
class Bin:
    runtime: str  # "76", as in runtimeDistribution
    percent: float
    samples: list[str]  # codeWithRuntime answers for skip = 0, 1, ...


@dataclass
class Post:
    topic_id: str
    title: str
    slug: str
    content: str  # markdown


@dataclass
class FixtureQuestion:
    question: dict[str, Any]  # question(titleSlug), every field the scraper asks for
    ac_rate: float = 50.0
    bins: list[Bin] | None = None  # runtime distribution of the account's accepted submission
    posts: list[Post] = field(default_factory=list)
    submission_id: int | None = None

    @property
    def slug(self) -> str:
        return str(self.question["titleSlug"])


def _meta(name: str, params: list[tuple[str, str]], returns: str) -> str:
    # LeetCode's own layout: pretty-printed with two spaces and a trailing newline
    data = {
        "name": name,
        "params": [{"name": n, "type": t} for n, t in params],
        "return": {"type": returns},
    }
    return json.dumps(data, indent=2) + "\n"


def _stats(accepted: int, submitted: int) -> str:
    return json.dumps(
        {
            "totalAccepted": f"{accepted / 1000:.1f}K",
            "totalSubmission": f"{submitted / 1000:.1f}K",
            "totalAcceptedRaw": accepted,
            "totalSubmissionRaw": submitted,
            "acRate": f"{100 * accepted / submitted:.1f}%",
        }
    )


def _snippets(method: str, args: str, ret: str, python: bool = True) -> list[dict[str, str]]:
    out = [
        {
            "lang": "C++",
            "langSlug": "cpp",
            "code": f"class Solution {{\npublic:\n    {ret} {method}() {{\n        \n    }}\n}};",
        },
        {
            "lang": "JavaScript",
            "langSlug": "javascript",
            "code": f"/**\n * @return {{{ret}}}\n */\nvar {method} = function() {{\n    \n}};",
        },
    ]
    if python:
        out.insert(
            1,
            {
                "lang": "Python3",
                "langSlug": "python3",
                "code": f"class Solution:\n    def {method}(self, {args}) -> {ret}:\n        ",
            },
        )
    return out


def _question(
    qid: str,
    fid: str,
    title: str,
    slug: str,
    difficulty: str,
    content: str | None,
    meta: str,
    tags: list[tuple[str, str]],
    snippets: list[dict[str, str]] | None,
    examples: list[str],
    hints: list[str],
    paid: bool = False,
) -> dict[str, Any]:
    return {
        "questionId": qid,
        "questionFrontendId": fid,
        "title": title,
        "titleSlug": slug,
        "content": content,
        "difficulty": difficulty,
        "isPaidOnly": paid,
        "topicTags": [{"name": n, "slug": s} for n, s in tags],
        "codeSnippets": snippets,
        "metaData": meta,
        "exampleTestcaseList": examples,
        "stats": _stats(1234, 2345),
        "hints": hints,
        "similarQuestions": json.dumps(
            [
                {
                    "title": "Tree Levels",
                    "titleSlug": "tree-levels",
                    "difficulty": "Easy",
                    "translatedTitle": None,
                }
            ]
        ),
    }


VOWEL_RUNS_A = (
    "class Solution:\n    def countVowelRuns(self, s: str) -> int:\n"
    "        runs, inside = 0, False\n        for ch in s:\n"
    "            v = ch in 'aeiou'\n            runs += v and not inside\n"
    "            inside = v\n        return runs\n"
)
VOWEL_RUNS_B = (
    "import re\n\nclass Solution:\n    def countVowelRuns(self, s: str) -> int:\n"
    "        return len(re.findall('[aeiou]+', s))\n"
)
VOWEL_RUNS_C = (
    "class Solution:\n    def countVowelRuns(self, s: str) -> int:\n"
    "        return sum(1 for i, c in enumerate(s)\n"
    "                   if c in 'aeiou' and (i == 0 or s[i - 1] not in 'aeiou'))\n"
)
VOWEL_RUNS_D = (
    "class Solution:\n    def countVowelRuns(self, s: str) -> int:\n"
    "        flags = [c in 'aeiou' for c in s]\n"
    "        return sum(f and (i == 0 or not flags[i - 1]) for i, f in enumerate(flags))\n"
)
VOWEL_RUNS_E = (
    "class Solution:\n    def countVowelRuns(self, s: str) -> int:\n"
    "        t = ''.join('v' if c in 'aeiou' else '.' for c in s)\n"
    "        return len([p for p in t.split('.') if p])\n"
)
VOWEL_RUNS_F = (
    "class Solution:\n    def countVowelRuns(self, s: str) -> int:\n"
    "        count = 0\n        for i in range(len(s)):\n"
    "            if s[i] in 'aeiou' and (i == 0 or s[i-1] not in 'aeiou'):\n"
    "                count += 1\n        return count\n"
)

DEPTH_A = (
    "class Solution:\n    def maxBracketDepth(self, s: str) -> int:\n"
    "        best = cur = 0\n        for c in s:\n"
    "            cur += (c == '(') - (c == ')')\n            best = max(best, cur)\n"
    "        return best\n"
)
DEPTH_B = (
    "from itertools import accumulate\n\nclass Solution:\n"
    "    def maxBracketDepth(self, s: str) -> int:\n"
    "        return max(accumulate(1 if c == '(' else -1 for c in s if c in '()'), default=0)\n"
)
DEPTH_C = (
    "class Solution:\n    def maxBracketDepth(self, s: str) -> int:\n"
    "        stack, best = [], 0\n        for c in s:\n"
    "            if c == '(':\n                stack.append(c)\n"
    "                best = max(best, len(stack))\n"
    "            elif c == ')':\n                stack.pop()\n        return best\n"
)

ROTATE_A = (
    "class Solution:\n    def bestRotation(self, digits: str, k: int) -> str:\n"
    "        return max(digits[i:] + digits[:i] for i in range(len(digits)))[:k]\n"
)
ROTATE_B = (
    "class Solution:\n    def bestRotation(self, digits: str, k: int) -> str:\n"
    "        best = ''\n        for i in range(len(digits)):\n"
    "            cand = (digits[i:] + digits[:i])[:k]\n"
    "            if cand > best:\n                best = cand\n        return best\n"
)

COAST_POST_A = """# Intuition
Every land cell adds 4 edges, minus 2 for each land neighbour.

```Python3 []
class Solution:
    def coastLength(self, grid: List[List[int]]) -> int:
        total = 0
        for r, row in enumerate(grid):
            for c, v in enumerate(row):
                if v:
                    total += 4
                    if r and grid[r - 1][c]:
                        total -= 2
                    if c and row[c - 1]:
                        total -= 2
        return total
```
```Java []
class Solution {
    public int coastLength(int[][] grid) { return 0; }
}
```
"""

COAST_A = (
    "class Solution:\n    def coastLength(self, grid: List[List[int]]) -> int:\n"
    "        total = 0\n        for r, row in enumerate(grid):\n"
    "            for c, v in enumerate(row):\n                if v:\n"
    "                    total += 4\n                    if r and grid[r - 1][c]:\n"
    "                        total -= 2\n                    if c and row[c - 1]:\n"
    "                        total -= 2\n        return total\n"
)

COAST_POST_B = """Count shared edges with zip.

```python
rows = len(grid)  # a fragment, not a solution
```

```python
class Solution:
    def coastLength(self, grid: List[List[int]]) -> int:
        land = sum(map(sum, grid))
        horiz = sum(a and b for row in grid for a, b in zip(row, row[1:]))
        vert = sum(a and b for r1, r2 in zip(grid, grid[1:]) for a, b in zip(r1, r2))
        return 4 * land - 2 * (horiz + vert)
```

```python
print "python 2 is not kept"
```
"""

COAST_B = (
    "class Solution:\n    def coastLength(self, grid: List[List[int]]) -> int:\n"
    "        land = sum(map(sum, grid))\n"
    "        horiz = sum(a and b for row in grid for a, b in zip(row, row[1:]))\n"
    "        vert = sum(a and b for r1, r2 in zip(grid, grid[1:]) for a, b in zip(r1, r2))\n"
    "        return 4 * land - 2 * (horiz + vert)\n"
)


def default_questions() -> list[FixtureQuestion]:
    """Six short original questions, in list order (frontend ids 3101..3106)."""
    vowel = FixtureQuestion(
        question=_question(
            "4020",
            "3101",
            "Count Vowel Runs",
            "count-vowel-runs",
            "Easy",
            "<p>Given a string <code>s</code> of lowercase English letters, return <em>the number "
            "of maximal runs of consecutive vowels</em> in <code>s</code>.</p>\n\n<p>&nbsp;</p>\n"
            '<p><strong class="example">Example 1:</strong></p>\n<pre>\n<strong>Input:</strong> '
            's = "aeixoou"\n<strong>Output:</strong> 2\n</pre>\n\n<p><strong>Constraints:</strong>'
            "</p>\n<ul>\n\t<li><code>1 &lt;= s.length &lt;= 10<sup>5</sup></code></li>\n</ul>\n",
            _meta("countVowelRuns", [("s", "string")], "integer"),
            [("String", "string")],
            _snippets("countVowelRuns", "s: str", "int"),
            ['"aeixoou"', '"xyz"'],
            ["A run starts at a vowel whose left neighbour is not a vowel."],
        ),
        ac_rate=71.25,
        bins=[
            Bin("76", 12.5, [VOWEL_RUNS_A, VOWEL_RUNS_B, VOWEL_RUNS_C]),
            Bin("80", 40.0, [VOWEL_RUNS_D, VOWEL_RUNS_E]),
            Bin("92", 7.5, [VOWEL_RUNS_F]),
        ],
        submission_id=1100001,
    )
    depth = FixtureQuestion(
        question=_question(
            "4025",
            "3102",
            "Nested Bracket Depth",
            "nested-bracket-depth",
            "Medium",
            "<p>A string <code>s</code> contains letters and balanced parentheses. Return the "
            "deepest nesting level of its parentheses \u2264 10<sup>4</sup>.</p>\n",
            _meta("maxBracketDepth", [("s", "string")], "integer"),
            [("String", "string"), ("Stack", "stack")],
            _snippets("maxBracketDepth", "s: str", "int"),
            ['"a(b(c))"'],
            [],
        ),
        ac_rate=55.5,
        bins=[Bin("40", 55.0, [DEPTH_A, DEPTH_B]), Bin("44", 45.0, [DEPTH_C])],
        submission_id=1100002,
    )
    locked = FixtureQuestion(
        question=_question(
            "4031",
            "3103",
            "Locked Treasure Map",
            "locked-treasure-map",
            "Medium",
            None,
            _meta("treasure", [("grid", "integer[][]")], "integer"),
            [("Graph", "graph")],
            None,
            [],
            [],
            paid=True,
        ),
        ac_rate=40.0,
    )
    debounce = FixtureQuestion(
        question=_question(
            "4033",
            "3104",
            "Debounce Calls",
            "debounce-calls",
            "Easy",
            "<p>Write a function that delays calls to <code>fn</code> by <code>t</code> "
            "milliseconds, cancelling any pending call.</p>\n",
            _meta("debounce", [("fn", "function"), ("t", "integer")], "function"),
            [],
            _snippets("debounce", "fn, t: int", "Callable", python=False),
            ["[50]\n[[50,1]]"],
            [],
        ),
        ac_rate=88.0,
    )
    coast = FixtureQuestion(
        question=_question(
            "4040",
            "3105",
            "Island Coast Length",
            "island-coast-length",
            "Hard",
            "<p>Given a binary <code>grid</code> where <code>1</code> is land, return the total "
            "length of the coast: the edges between land and water or the border.</p>\n",
            _meta("coastLength", [("grid", "integer[][]")], "integer"),
            [("Array", "array"), ("Matrix", "matrix")],
            _snippets("coastLength", "grid: List[List[int]]", "int"),
            ["[[0,1,0],[1,1,1]]"],
            ["Count land cells and shared edges."],
        ),
        ac_rate=33.3,
        posts=[
            Post("5550001", "Edges minus shared edges", "edges-minus-shared", COAST_POST_A),
            Post("5550002", "Zip the rows", "zip-the-rows", COAST_POST_B),
        ],
    )
    rotate = FixtureQuestion(
        question=_question(
            "4047",
            "3106",
            "Rotate Digit Window",
            "rotate-digit-window",
            "Medium",
            "<p>Return the largest string of length <code>k</code> that starts some rotation of "
            "<code>digits</code>.</p>\n",
            _meta("bestRotation", [("digits", "string"), ("k", "integer")], "string"),
            [("String", "string")],
            _snippets("bestRotation", "digits: str, k: int", "str"),
            ['"3141"\n2'],
            [],
        ),
        ac_rate=47.0,
        # the 128 ms bin's first sample repeats the 120 ms one: kept once, at 120 ms
        bins=[Bin("120", 60.0, [ROTATE_A]), Bin("128", 40.0, [ROTATE_A, ROTATE_B])],
        submission_id=1100006,
    )
    return [vowel, depth, locked, debounce, coast, rotate]


@dataclass
class FixtureContest:
    """A finished contest: its slug, title, start (unix seconds, UTC) and question slugs."""

    slug: str
    title: str
    start_time: int
    questions: list[str]
    duration: int = 5400


def default_contests() -> list[FixtureContest]:
    """Four contests, newest first as ``pastContests`` lists them.

    ``count-vowel-runs`` is in two (its date is the earlier, 2024-06-02, although that contest is
    listed later); ``nested-bracket-depth`` is in one that started at 23:30 UTC on 2024-06-15 (the
    16th in UTC+8); ``island-coast-length`` and ``debounce-calls`` are in none (undated);
    ``weekly-contest-9400`` has only questions outside the fixture's list.
    """
    return [
        FixtureContest(
            "weekly-contest-9402",
            "Weekly Contest 9402",
            1718505000,  # 2024-06-16 02:30 UTC
            ["split-the-lanterns", "count-vowel-runs", "rotate-digit-window"],
        ),
        FixtureContest(
            "biweekly-contest-9133",
            "Biweekly Contest 9133",
            1718494200,  # 2024-06-15 23:30 UTC
            ["nested-bracket-depth", "locked-treasure-map"],
        ),
        FixtureContest(
            "weekly-contest-9401",
            "Weekly Contest 9401",
            1717295400,  # 2024-06-02 02:30 UTC
            ["count-vowel-runs", "merge-the-lanterns"],
        ),
        FixtureContest(
            "weekly-contest-9400",
            "Weekly Contest 9400",
            1716690600,  # 2024-05-26 02:30 UTC
            ["light-the-lanterns", "count-the-lanterns"],
        ),
    ]


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------


@dataclass
class Seen:
    """One request as the server received it."""

    operation: str
    slug: str | None
    variables: dict[str, Any]
    status: int
    cookies: dict[str, str]
    csrf_header: str | None
    referer: str | None


# "429:N": Retry-After N; "badinfo": a contest info page of the wrong shape (200)
FAULTS = {"429", "500", "503", "malformed", "401", "403", "drop", "badinfo"}


def _check_fault(fault: str) -> str:
    if fault not in FAULTS and not re.fullmatch(r"429:\d+", fault):
        raise ValueError(f"unknown fault {fault!r}")
    return fault


class LeetCodeServer(LocalHTTPServer):
    """``with LeetCodeServer() as server: ... server.url``; counts in ``server.seen``."""

    def __init__(
        self,
        questions: list[FixtureQuestion] | None = None,
        *,
        page_size: int = 2,
        session: str | None = None,
        csrf: str | None = None,
        contests: list[FixtureContest] | None = None,
        contest_page_size: int = 2,
    ) -> None:
        self.questions = questions if questions is not None else default_questions()
        self.contests = contests if contests is not None else default_contests()
        self.by_contest = {c.slug: c for c in self.contests}
        self.contest_page_size = contest_page_size
        self.by_slug = {q.slug: q for q in self.questions}
        self.by_qid = {int(q.question["questionId"]): q for q in self.questions}
        self.by_submission = {q.submission_id: q for q in self.questions if q.submission_id}
        self.by_topic = {p.topic_id: q for q in self.questions for p in q.posts}
        self.page_size = page_size
        self.session = session
        self.csrf = csrf
        self.faults: dict[str, list[str]] = {}  # slug (or "_list") -> faults, one per request
        self.sticky: dict[str, str] = {}  # slug -> a fault served on every request
        self.seen: list[Seen] = []
        self._lock = threading.Lock()

    # -- lifecycle --------------------------------------------------------------------------

    def handler(self) -> type[_Handler]:
        server = self

        class Handler(_Handler):
            owner = server

        return Handler

    @property
    def url(self) -> str:
        return self.base_url

    # -- test helpers -----------------------------------------------------------------------

    def queue(self, slug: str, *faults: str) -> None:
        self.faults.setdefault(slug, []).extend(_check_fault(f) for f in faults)

    def always(self, slug: str, fault: str) -> None:
        """Serve ``fault`` on every request about ``slug`` (until ``reset``)."""
        self.sticky[slug] = _check_fault(fault)

    def count(self, slug: str | None = None, operation: str | None = None) -> int:
        with self._lock:
            return sum(
                1
                for s in self.seen
                if (slug is None or s.slug == slug)
                and (operation is None or s.operation == operation)
            )

    def per_slug(self) -> Counter[str | None]:
        with self._lock:
            return Counter(s.slug for s in self.seen)

    def reset(self) -> None:
        with self._lock:
            self.seen.clear()
            self.faults.clear()
            self.sticky.clear()

    def record(self, seen: Seen) -> None:
        with self._lock:
            self.seen.append(seen)

    def next_fault(self, slug: str | None) -> str | None:
        key = slug or "_list"
        with self._lock:
            if key in self.sticky:
                return self.sticky[key]
            queued = self.faults.get(key)
            if queued:
                return queued.pop(0)
        return None

    # -- resolvers --------------------------------------------------------------------------

    def slug_of(self, root: str, args: dict[str, Any]) -> str | None:
        if root == "pastContests":
            return "_contests"
        if "titleSlug" in args:
            return str(args["titleSlug"])
        if "questionSlug" in args:
            return str(args["questionSlug"])
        if root == "codeWithRuntime" and isinstance(args.get("questionId"), int):
            q = self.by_qid.get(args["questionId"])
            return q.slug if q else None
        if root == "submissionDetails" and isinstance(args.get("submissionId"), int):
            q = self.by_submission.get(args["submissionId"])
            return q.slug if q else None
        if root == "ugcArticleSolutionArticle":
            q = self.by_topic.get(str(args.get("topicId")))
            return q.slug if q else None
        return None

    def logged_in(self, cookies: dict[str, str]) -> bool:
        return self.session is not None and cookies.get("LEETCODE_SESSION") == self.session

    def resolve(self, root: str, args: dict[str, Any], logged_in: bool) -> Any:
        if root == "questionList":
            return self._question_list(args)
        if root == "pastContests":
            return self._past_contests(args)
        if root == "question":
            q = self.by_slug.get(str(args.get("titleSlug")))
            return None if q is None else q.question
        if root == "questionSubmissionList":
            _require(args, {"offset": int, "limit": int, "questionSlug": str})
            if not logged_in:
                raise _NotLoggedIn
            return self._submissions(args)
        if root == "submissionDetails":
            _require(args, {"submissionId": int})
            if not logged_in:
                raise _NotLoggedIn
            return self._submission_details(args["submissionId"])
        if root == "codeWithRuntime":
            _require(args, {"questionId": int, "lang": str, "runtime": int, "skip": int})
            if not logged_in:
                raise _NotLoggedIn
            return self._code_with_runtime(args)
        if root == "ugcArticleSolutionArticles":
            return self._articles(args)
        if root == "ugcArticleSolutionArticle":
            q = self.by_topic.get(str(args.get("topicId")))
            if q is None:
                return None
            post = next(p for p in q.posts if p.topic_id == str(args.get("topicId")))
            return {
                "uuid": f"uuid-{post.topic_id}",
                "title": post.title,
                "slug": post.slug,
                "topicId": post.topic_id,
                "content": post.content,
            }
        raise QueryError(f'Cannot query field "{root}" on type "Query"')

    def _question_list(self, args: dict[str, Any]) -> dict[str, Any]:
        filters = args.get("filters") or {}
        wanted = {"EASY": "Easy", "MEDIUM": "Medium", "HARD": "Hard"}.get(
            str(filters.get("difficulty") or "").upper()
        )
        rows = [q for q in self.questions if wanted is None or q.question["difficulty"] == wanted]
        skip = int(args.get("skip") or 0)
        limit = int(args.get("limit") or 50)
        page = rows[skip : skip + min(limit, self.page_size)]
        return {
            "totalNum": len(rows),
            "data": [
                {
                    "acRate": q.ac_rate,
                    "difficulty": q.question["difficulty"],
                    "questionFrontendId": q.question["questionFrontendId"],
                    "questionId": q.question["questionId"],
                    "isPaidOnly": q.question["isPaidOnly"],
                    "title": q.question["title"],
                    "titleSlug": q.slug,
                    "topicTags": q.question["topicTags"],
                    "freqBar": None,
                    "status": None,
                }
                for q in page
            ],
        }

    def _past_contests(self, args: dict[str, Any]) -> dict[str, Any]:
        page_no = int(args.get("pageNo") or 1)
        per_page = min(int(args.get("numPerPage") or 10), self.contest_page_size)
        rows = self.contests[(page_no - 1) * per_page : page_no * per_page]
        return {
            "pageNum": -(-len(self.contests) // per_page),
            "currentPage": page_no,
            "totalNum": len(self.contests),
            "numPerPage": per_page,
            "data": [
                {
                    "title": c.title,
                    "titleSlug": c.slug,
                    "startTime": c.start_time,
                    "originStartTime": c.start_time,
                    "duration": c.duration,
                    "isVirtual": False,
                    "cardImg": None,
                }
                for c in rows
            ],
        }

    def contest_info(self, slug: str) -> dict[str, Any] | None:
        """The REST info page of a contest, in the site's snake_case shape."""
        c = self.by_contest.get(slug)
        if c is None:
            return None
        number = int(slug.rsplit("-", 1)[1])
        return {
            "contest": {
                "id": 1000 + number,
                "title": c.title,
                "title_slug": c.slug,
                "description": "<p>Welcome!</p>",
                "duration": c.duration,
                "start_time": c.start_time,
                "is_virtual": False,
                "origin_start_time": c.start_time,
                "is_private": False,
                "related_contest_title": None,
                "discuss_topic_id": 200000 + number,
            },
            "questions": [
                {
                    "id": 9000 + 10 * number + i,
                    "question_id": int(self.by_slug[q].question["questionId"])
                    if q in self.by_slug
                    else 7000 + 10 * number + i,
                    "credit": (3, 4, 5, 6)[i % 4],
                    "title": self.by_slug[q].question["title"] if q in self.by_slug else q.title(),
                    "english_title": q.replace("-", " ").title(),
                    "title_slug": q,
                    "category_slug": "algorithms",
                }
                for i, q in enumerate(c.questions)
            ],
            "user_num": 31234,
            "has_chosen_contact": False,
            "company": {"name": "LeetCode", "description": "", "logo": ""},
            "registered": False,
            "containsPremium": "locked-treasure-map" in c.questions,
        }

    def _submissions(self, args: dict[str, Any]) -> dict[str, Any]:
        q = self.by_slug.get(str(args["questionSlug"]))
        subs = []
        if q is not None and q.submission_id is not None:
            sub = {
                "id": str(q.submission_id),
                "title": q.question["title"],
                "titleSlug": q.slug,
                "status": 10,
                "statusDisplay": "Accepted",
                "lang": "python3",
                "langName": "Python3",
                "runtime": f"{q.bins[0].runtime} ms" if q.bins else "N/A",
                "timestamp": "1718000000",
                "url": f"/submissions/detail/{q.submission_id}/",
                "memory": "16.8 MB",
            }
            if args.get("lang") in (None, 11) and args.get("status") in (None, 10):
                subs.append(sub)
        return {"lastKey": None, "hasNext": False, "submissions": subs}

    def _submission_details(self, submission_id: int) -> dict[str, Any] | None:
        q = self.by_submission.get(submission_id)
        if q is None or q.bins is None:
            return None
        distribution = {"lang": "python3", "distribution": [[b.runtime, b.percent] for b in q.bins]}
        return {
            "runtime": int(q.bins[0].runtime),
            "runtimeDisplay": f"{q.bins[0].runtime} ms",
            "runtimePercentile": 62.5,
            "runtimeDistribution": json.dumps(distribution),
            "statusCode": 10,
            "lang": {"name": "python3", "verboseName": "Python3"},
            "question": {"questionId": q.question["questionId"], "titleSlug": q.slug},
        }

    def _code_with_runtime(self, args: dict[str, Any]) -> dict[str, Any] | None:
        q = self.by_qid.get(args["questionId"])
        if q is None or q.bins is None or args["lang"] != "python3":
            return None
        for b in q.bins:
            if int(b.runtime) == args["runtime"]:
                skip = args["skip"]
                if skip >= len(b.samples):
                    return None
                return {
                    "code": b.samples[skip],
                    "hasPrevious": skip > 0,
                    "hasNext": skip + 1 < len(b.samples),
                }
        return None

    def _articles(self, args: dict[str, Any]) -> dict[str, Any]:
        q = self.by_slug.get(str(args.get("questionSlug")))
        posts = q.posts if q is not None else []
        skip = int(args.get("skip") or 0)
        first = int(args.get("first") or 15)
        chosen = posts[skip : skip + first]
        return {
            "totalNum": len(posts),
            "pageInfo": {"hasNextPage": skip + first < len(posts)},
            "edges": [
                {
                    "node": {
                        "uuid": f"uuid-{p.topic_id}",
                        "title": p.title,
                        "slug": p.slug,
                        "topicId": p.topic_id,
                        "canSee": True,
                        "summary": p.content[:40],
                        "tags": [{"name": "Python3", "slug": "python3"}],
                    }
                }
                for p in chosen
            ],
        }


class _NotLoggedIn(Exception):
    pass


def _require(args: dict[str, Any], types: dict[str, type]) -> None:
    for name, kind in types.items():
        value = args.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise QueryError(
                f"Variable '{name}' got invalid value {value!r}; expected type {kind.__name__}"
            )


def _cookies(header: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in (header or "").split(";"):
        if "=" in part:
            k, v = part.split("=", 1)
            out[k.strip()] = v.strip()
    return out


class _Handler(BaseHTTPRequestHandler):
    owner: LeetCodeServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet (and never echo cookies anywhere)

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj).encode())

    def do_GET(self) -> None:
        owner = self.owner
        cookies = _cookies(self.headers.get("Cookie"))
        csrf_header = self.headers.get("x-csrftoken")
        match = re.fullmatch(r"/contest/api/info/([a-z0-9-]+)/?", self.path)
        slug = match.group(1) if match else None

        def seen(status: int) -> None:
            owner.record(
                Seen(
                    "contest-info",
                    slug,
                    {},
                    status,
                    cookies,
                    csrf_header,
                    self.headers.get("Referer"),
                )
            )

        if slug is None:
            seen(405)
            self._json(405, {"detail": "Method not allowed"})
            return
        if ("csrftoken" in cookies or csrf_header) and cookies.get("csrftoken") != csrf_header:
            seen(403)
            self._json(403, {"detail": "CSRF verification failed."})
            return
        fault = owner.next_fault(slug)
        info = owner.contest_info(slug)
        if fault is not None:
            code = fault.split(":")[0]
            status = {"429": 429, "500": 500, "503": 503, "401": 401, "403": 403}.get(code, 200)
            seen(0 if fault == "drop" else status)
            if fault == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
            elif fault == "malformed":
                self._send(200, b'{"contest": {"title_slug": "' + slug.encode() + b'", "sta')
            elif fault == "badinfo":
                # the contest without its start time, the questions as a count
                contest = {k: v for k, v in (info or {}).get("contest", {}).items()}
                contest.pop("start_time", None)
                self._json(200, {"contest": contest, "questions": 4})
            elif code == "429":
                wait = fault.split(":")[1] if ":" in fault else "0"
                self._send(429, b'{"error": "rate limited"}', {"Retry-After": wait})
            else:
                self._send(status, b"<html><body>error</body></html>")
            return
        if info is None:
            seen(404)
            self._json(404, {"detail": "Not found."})
            return
        seen(200)
        self._json(200, info)

    def do_POST(self) -> None:
        owner = self.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        cookies = _cookies(self.headers.get("Cookie"))
        csrf_header = self.headers.get("x-csrftoken")

        def seen(op: str, slug: str | None, variables: dict[str, Any], status: int) -> None:
            owner.record(
                Seen(op, slug, variables, status, cookies, csrf_header, self.headers.get("Referer"))
            )

        if self.path.rstrip("/") != "/graphql":
            seen("?", None, {}, 404)
            self._json(404, {"detail": "Not found"})
            return
        try:
            body = json.loads(raw)
            query, variables = body["query"], body.get("variables") or {}
            doc = parse_query(query, variables)
        except (ValueError, KeyError, TypeError, QueryError) as exc:
            seen("?", None, {}, 400)
            self._json(400, {"errors": [{"message": f"Must provide query string: {exc}"}]})
            return
        root = doc.root[0]
        slug = owner.slug_of(root.name, root.args)
        # Django's CSRF check: a csrftoken cookie must come with the same x-csrftoken header
        if ("csrftoken" in cookies or csrf_header) and cookies.get("csrftoken") != csrf_header:
            seen(root.name, slug, variables, 403)
            self._json(403, {"detail": "CSRF verification failed."})
            return
        fault = owner.next_fault(slug)
        if fault is not None:
            code = fault.split(":")[0]
            status = {"429": 429, "500": 500, "503": 503, "401": 401, "403": 403}.get(code, 200)
            seen(root.name, slug, variables, 0 if fault == "drop" else status)
            if fault == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if fault == "malformed":
                self._send(200, b'{"data": {"' + root.name.encode() + b'": {"ti')
            elif code == "429":
                wait = fault.split(":")[1] if ":" in fault else "0"
                self._send(429, b'{"error": "rate limited"}', {"Retry-After": wait})
            else:
                self._send(status, b"<html><body>error</body></html>")
            return
        try:
            value = owner.resolve(root.name, root.args, owner.logged_in(cookies))
            answer = (
                value
                if value is None or root.children is None
                else project(value, root.children, doc, root.name)
            )
        except QueryError as exc:
            seen(root.name, slug, variables, 400)
            self._json(400, {"errors": [{"message": str(exc)}]})
            return
        except _NotLoggedIn:
            seen(root.name, slug, variables, 200)
            self._json(
                200,
                {
                    "errors": [{"message": "User is not logged in", "path": [root.name]}],
                    "data": {root.alias or root.name: None},
                },
            )
            return
        seen(root.name, slug, variables, 200)
        self._json(200, {"data": {root.alias or root.name: answer}})
