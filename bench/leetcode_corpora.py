"""Public LeetCode corpora, mirrored locally, read as Quicksilver snapshot files (bench only).

Four public repositories carry LeetCode's real English statements and accepted Python 3
solutions by independent authors; ``fetch`` (or ``git clone``) brings them, and nothing read from
them is ever committed here:

- ``doocs/leetcode``: ``solution/<range>/<NNNN>.<Title>/README_EN.md`` holds the statement as
  LeetCode serves it (HTML between ``<!-- description:start -->`` and ``<!-- description:end -->``,
  Constraints included), the difficulty and topic tags in its front matter, a lock (``🔒``) in the
  heading for paid-only questions, and the question's URL (hence its titleSlug); ``Solution*.py``
  beside it are the author's Python 3 solutions;
- ``walkccc/LeetCode``: ``solutions/<N>. <Title>/<N>.py``, one solution per question;
- ``neetcode-gh/leetcode``: ``python/<NNNN>-<slug>.py``, one per question (about 400);
- ``theabbie/leetcode``: ``<slug>.py`` at the top, one per question (about 2,300), its README
  says "a dump of all my accepted leetcode solutions", written by a tool from LeetCode's own
  submission list (the latest accepted Python 3 submission of each question). Files are named by
  titleSlug, so they join doocs' questions by slug, not by number.

A snapshot file needs LeetCode's ``metaData`` (method name, parameter and return types), which no
corpus carries: it is read from the first doocs solution's annotations (``List[int]`` ->
``integer[]``, ``Optional[TreeNode]`` -> ``TreeNode``, ``-> None`` -> ``void`` with the first
parameter as the output, as LeetCode's in-place questions have it). A ``str`` parameter whose
every example value is one character is LeetCode's ``character`` (``character[][]`` boards),
unless a constraint names its length; an ``int`` whose examples or constraints reach past 32 bits
is ``long``. The statement's examples (``Input: a = ..., b = ...`` /
``Output: ...``) become the file's ``tests`` and ``exampleTestcaseList``. Everything inferred is
said in the file's provenance (``tool``), so a reader knows which parts LeetCode did not give.

A repository is read from its git objects (``git show HEAD:path``), so a bare mirror such as
``fetch`` leaves works as well as a checkout.
"""

from __future__ import annotations

import ast
import html
import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver.sources.snapshot import SnapshotFile, parse_snapshot

TOOL = "bench/leetcode_corpora.py"


class Repo:
    """Files of one git repository at HEAD (bare or with a work tree)."""

    def __init__(self, path: Path, name: str) -> None:
        self.path = path
        self.name = name
        self._batch: subprocess.Popen[bytes] | None = None
        self.commit = self._git("rev-parse", "HEAD").strip()
        listing = self._git("ls-tree", "-r", "--name-only", "-z", "HEAD")
        self.files = [f for f in listing.split("\0") if f]

    def _git(self, *args: str) -> str:
        proc = subprocess.run(
            ["git", "--git-dir", str(self._git_dir()), *args],
            capture_output=True,
            check=True,
        )
        return proc.stdout.decode("utf-8", "replace")

    def _git_dir(self) -> Path:
        return self.path / ".git" if (self.path / ".git").exists() else self.path

    def show(self, path: str) -> str:
        """One file's text, through one ``git cat-file --batch`` process (thousands are read)."""
        if self._batch is None:
            self._batch = subprocess.Popen(
                ["git", "--git-dir", str(self._git_dir()), "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        assert self._batch.stdin is not None and self._batch.stdout is not None
        self._batch.stdin.write(f"HEAD:{path}\n".encode())
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) != 3:
            raise FileNotFoundError(f"{self.name}: {path}")
        body = self._batch.stdout.read(int(header[2]) + 1)[:-1]
        return body.decode("utf-8", "replace")

    def url(self, path: str) -> str:
        return f"https://github.com/{self.name}/blob/{self.commit}/{path}"


@dataclass
class Problem:
    """One question as the corpora give it."""

    number: int
    title: str
    slug: str
    difficulty: str
    paid: bool
    tags: list[str]
    content: str  # LeetCode's statement HTML
    solutions: list[tuple[str, str, str]] = field(default_factory=list)  # (code, author, url)


# --- doocs/leetcode --------------------------------------------------------------------------

_DOOCS_README = re.compile(r"^solution/\d{4}-\d{4}/(\d{4})\.[^/]+/README_EN\.md$")
_HEADING = re.compile(r"^# \[(\d+)\. (.*?)\]\(https://leetcode\.com/problems/([\w-]+)/?\)", re.M)


def doocs_problems(repo: Repo) -> dict[int, Problem]:
    """Every question of doocs/leetcode with its statement and its Python 3 solutions."""
    by_dir: dict[str, list[str]] = {}
    for f in repo.files:
        by_dir.setdefault(f.rsplit("/", 1)[0], []).append(f)
    out: dict[int, Problem] = {}
    for f in repo.files:
        if not _DOOCS_README.match(f):
            continue
        text = repo.show(f)
        head = _HEADING.search(text)
        desc = re.search(r"<!-- description:start -->(.*?)<!-- description:end -->", text, re.S)
        diff = re.search(r"^difficulty:\s*(\w+)", text, re.M)
        if not (head and desc and diff):
            continue
        number = int(head.group(1))
        title = head.group(2).replace("🔒", "").strip()
        tags = re.findall(r"^\s+- (.+)$", text.split("---", 2)[1], re.M) if "---" in text else []
        prob = Problem(
            number=number,
            title=title,
            slug=head.group(3),
            difficulty=diff.group(1),
            paid="🔒" in head.group(2),
            tags=[t.strip() for t in tags],
            content=desc.group(1).strip(),
        )
        folder = f.rsplit("/", 1)[0]
        for sol in sorted(p for p in by_dir[folder] if re.search(r"/Solution\d*\.py$", p)):
            prob.solutions.append((repo.show(sol), repo.name, repo.url(sol)))
        out[number] = prob
    return out


def _solutions_by_number(repo: Repo, pattern: str) -> dict[int, list[tuple[str, str, str]]]:
    """The files whose path matches ``pattern`` (group 1: the question's number), by number."""
    out: dict[int, list[tuple[str, str, str]]] = {}
    for f in repo.files:
        m = re.match(pattern, f)
        if m:
            out.setdefault(int(m.group(1)), []).append((repo.show(f), repo.name, repo.url(f)))
    return out


def walkccc_solutions(repo: Repo) -> dict[int, list[tuple[str, str, str]]]:
    return _solutions_by_number(repo, r"^solutions/(\d+)\. [^/]+/\1\.py$")


def neetcode_solutions(repo: Repo) -> dict[int, list[tuple[str, str, str]]]:
    return _solutions_by_number(repo, r"^python/(\d{4})-[\w-]+\.py$")


def theabbie_solutions(repo: Repo) -> dict[str, list[tuple[str, str, str]]]:
    """theabbie/leetcode's solutions by titleSlug (``two-sum.py`` at the top level)."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for f in repo.files:
        m = re.fullmatch(r"([a-z0-9]+(?:-[a-z0-9]+)*)\.py", f)
        if m:
            out.setdefault(m.group(1), []).append((repo.show(f), repo.name, repo.url(f)))
    return out


# --- signature -------------------------------------------------------------------------------

_SCALARS = {
    "int": "integer",
    "float": "double",
    "bool": "boolean",
    "str": "string",
    "TreeNode": "TreeNode",
    "ListNode": "ListNode",
}


class Unsupported(ValueError):
    """A question the Mercury build cannot take (design problems, other node types, ...)."""


def _annotation(node: ast.expr | None) -> str:
    """LeetCode's type for a Python annotation; raises Unsupported."""
    if node is None:
        raise Unsupported("a parameter without an annotation")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _annotation(ast.parse(node.value, mode="eval").body)
    if isinstance(node, ast.Constant) and node.value is None:
        return "void"
    if isinstance(node, ast.Name) and node.id in _SCALARS:
        return _SCALARS[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # X | None
        sides = [s for s in (node.left, node.right) if not _is_none(s)]
        if len(sides) == 1:
            return _annotation(sides[0])
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        if node.value.id == "Optional":
            return _annotation(node.slice)
        if node.value.id in ("List", "list"):
            return _annotation(node.slice) + "[]"
    raise Unsupported(f"annotation {ast.unparse(node)}")


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def entry_method(code: str) -> ast.FunctionDef:
    """The first public method of ``class Solution`` (LeetCode's starter has one)."""
    tree = ast.parse(code)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    return item
    raise Unsupported("no class Solution with a public method (a design question?)")


def signature(code: str) -> dict[str, Any]:
    """LeetCode-shaped metaData from a solution's annotated entry method."""
    fn = entry_method(code)
    args = fn.args.args[1:]
    if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or not args:
        raise Unsupported("an entry method LeetCode would not write")
    meta: dict[str, Any] = {
        "name": fn.name,
        "params": [{"name": a.arg, "type": _annotation(a.annotation)} for a in args],
        "return": {"type": _annotation(fn.returns) if fn.returns is not None else "void"},
    }
    if meta["return"]["type"] == "void":
        meta["output"] = {"paramindex": 0}
    return meta


# --- examples --------------------------------------------------------------------------------


def _plain(fragment: str) -> str:
    text = re.sub(r"<[^>]+>", "", fragment)
    return html.unescape(text).replace("\xa0", " ")


def _value(text: str) -> Any:
    text = text.strip().rstrip(",").strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    py = re.sub(
        r"\bnull\b", "None", re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", text))
    )
    return ast.literal_eval(py)


def _assignments(text: str, names: list[str]) -> list[Any] | None:
    """``a = [1,2], b = "x"`` -> the values in ``names``' order (None if the names differ)."""
    starts = [
        m
        for m in re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)\s*=\s*", text)
        if _depth(text, m.start()) == 0
    ]
    found: dict[str, Any] = {}
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        try:
            found[m.group(1)] = _value(text[m.end() : end])
        except (ValueError, SyntaxError):
            return None
    if set(found) != set(names):
        if len(names) == 1 and not starts:
            try:
                return [_value(text)]
            except (ValueError, SyntaxError):
                return None
        return None
    return [found[n] for n in names]


def _depth(text: str, pos: int) -> int:
    depth, quoted = 0, False
    for ch in text[:pos]:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{(":
            depth += 1
        elif not quoted and ch in "]})":
            depth -= 1
    return depth + (1 if quoted else 0)


def _squash(text: str) -> str:
    """Runs of whitespace made one space, outside double quotes only: a string's own spaces are
    its value (valid-tic-tac-toe-state's ``board = ["O  ","   ","   "]``)."""
    parts = re.split(r'("(?:[^"\\]|\\.)*")', text.strip())
    return "".join(p if i % 2 else re.sub(r"\s+", " ", p) for i, p in enumerate(parts))


def examples(content: str, names: list[str]) -> list[dict[str, Any]]:
    """The statement's examples as tests (``input`` in parameter order, ``expected``)."""
    out = []
    blocks = re.findall(r"<pre>(.*?)</pre>", content, re.S) + re.findall(
        r'<div class="example-block">(.*?)</div>', content, re.S
    )
    for block in blocks:
        text = _plain(block)
        m = re.search(r"Input:\s*(.*?)\s*Output:\s*(.*?)\s*(?:\n|Explanation:|$)", text, re.S)
        if not m:
            continue
        args = _assignments(_squash(m.group(1)), names)
        try:
            expected = _value(m.group(2))
        except (ValueError, SyntaxError):
            continue
        if args is not None:
            out.append({"input": args, "expected": expected})
    return out


def _characters(meta: dict[str, Any], tests: list[dict[str, Any]], content: str) -> None:
    """``string`` parameters whose every example value is one character are ``character``."""
    for i, p in enumerate(meta["params"]):
        if not p["type"].startswith("string") or not tests:
            continue
        depth = p["type"].count("[]")  # the string itself: name[i][j].length for string[][]
        own = rf"\b{re.escape(p['name'])}" + r"\[\w+\]" * depth + r"\.length\b"
        if re.search(own, _plain(content)):
            continue
        values = list(_flatten([t["input"][i] for t in tests]))
        if values and all(isinstance(v, str) and len(v) == 1 for v in values):
            p["type"] = p["type"].replace("string", "character", 1)


def _longs(meta: dict[str, Any], tests: list[dict[str, Any]], content: str) -> None:
    """``integer`` parameters whose examples or Constraints items reach past 32 bits are
    LeetCode's ``long`` (``0 <= num <= 10^15``): Python's ``int`` annotation says neither."""
    items = re.findall(r"<li>(.*?)</li>", content.split("Constraints:")[-1], re.S)
    lines = [_plain(re.sub(r"<sup>(.*?)</sup>", r"^\1", i)) for i in items]
    for i, p in enumerate(meta["params"]):
        if not p["type"].startswith("integer"):
            continue
        values = [v for t in tests for v in _flatten(t["input"][i]) if isinstance(v, int)]
        big = any(abs(v) >= 2**31 for v in values)
        for line in lines:
            if re.search(rf"\b{re.escape(p['name'])}\b", line):
                for base, exp in re.findall(r"\b(10|2)\s*\^\s*(\d+)", line):
                    big |= int(base) ** int(exp) > 2**31
        if big:
            p["type"] = p["type"].replace("integer", "long", 1)


def _flatten(x: Any) -> Iterator[Any]:
    if isinstance(x, list):
        for v in x:
            yield from _flatten(v)
    else:
        yield x


def _prompt(code: str) -> str:
    fn = entry_method(code)
    args = ", ".join(ast.unparse(a) for a in fn.args.args)
    ret = f" -> {ast.unparse(fn.returns)}" if fn.returns is not None else ""
    return f"class Solution:\n    def {fn.name}({args}){ret}:\n        "


def snapshot(problem: Problem, repos: list[Repo]) -> SnapshotFile:
    """The question as a snapshot file; raises Unsupported (with why) where the build cannot
    take it."""
    if problem.paid:
        raise Unsupported("paid-only")
    if not problem.solutions or problem.solutions[0][1] != "doocs/leetcode":
        raise Unsupported("no doocs Python 3 solution to read the signature from")
    first = problem.solutions[0][0]
    meta = signature(first)
    names = [p["name"] for p in meta["params"]]
    tests = examples(problem.content, names)
    _characters(meta, tests, problem.content)
    _longs(meta, tests, problem.content)
    entry = meta["name"]
    sols = []
    for code, author, url in problem.solutions:
        try:
            if entry_method(code).name != entry:
                continue
        except (Unsupported, SyntaxError):
            continue
        sols.append({"code": code, "source": "community", "url": url, "note": author})
    data = {
        "question": {
            "questionId": str(problem.number),
            "questionFrontendId": str(problem.number),
            "title": problem.title,
            "titleSlug": problem.slug,
            "content": problem.content,
            "difficulty": problem.difficulty,
            "isPaidOnly": False,
            "topicTags": [
                {"name": t, "slug": re.sub(r"\W+", "-", t.lower())} for t in problem.tags
            ],
            "codeSnippets": [{"lang": "Python3", "langSlug": "python3", "code": _prompt(first)}],
            "metaData": json.dumps(meta),
            "exampleTestcaseList": [
                "\n".join(json.dumps(a, separators=(",", ":")) for a in t["input"]) for t in tests
            ],
            "stats": json.dumps({"totalAccepted": None, "totalSubmission": None, "acRate": None}),
            "hints": [],
            "similarQuestions": "[]",
        },
        "solutions": sols,
        "tests": tests or None,
        "provenance": {
            "source": "public-corpora",
            "endpoint": " ".join(f"https://github.com/{r.name}@{r.commit[:12]}" for r in repos),
            "fetched_at": None,
            "tool": (
                f"{TOOL}: statement, difficulty and tags from doocs/leetcode; metaData read from "
                "the first doocs solution's annotations (character from one-character examples); "
                "tests from the statement's examples; questionId is the frontend id"
            ),
        },
    }
    return parse_snapshot(data, f"{problem.slug}.json")


def load_corpora(
    doocs: Path, walkccc: Path | None, neetcode: Path | None, theabbie: Path | None = None
) -> tuple[dict[int, Problem], list[Repo]]:
    """Every doocs question, with the other corpora's solutions added (doocs' first)."""
    d = Repo(doocs, "doocs/leetcode")
    repos = [d]
    problems = doocs_problems(d)
    for path, name, reader in (
        (walkccc, "walkccc/LeetCode", walkccc_solutions),
        (neetcode, "neetcode-gh/leetcode", neetcode_solutions),
    ):
        if path is None:
            continue
        repo = Repo(path, name)
        repos.append(repo)
        for number, sols in reader(repo).items():
            if number in problems:
                problems[number].solutions.extend(sols)
    if theabbie is not None:
        repo = Repo(theabbie, "theabbie/leetcode")
        repos.append(repo)
        by_slug = {p.slug: p for p in problems.values()}
        for slug, sols in theabbie_solutions(repo).items():
            if slug in by_slug:
                by_slug[slug].solutions.extend(sols)
    return problems, repos
