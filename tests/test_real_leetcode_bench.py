"""bench/leetcode_corpora.py: public corpora read as snapshot files (bench/real_leetcode.py).

The corpora's content is never committed, so these tests build tiny git repositories in the
shapes of doocs/leetcode, walkccc/LeetCode and theabbie/leetcode, with statements we wrote in LeetCode's form, and
check what the bench makes of them: the metaData inferred from the signature (character and long
included), the statement's examples as tests, the paid-only lock, the solutions of both authors,
and the questions kept out of the pool with their reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import load_bench

ROOT = Path(__file__).resolve().parents[1]

README = """---
difficulty: {difficulty}
tags:
    - Array
---

# [{number}. {title}](https://leetcode.com/problems/{slug})

## Description

<!-- description:start -->

{content}

<!-- description:end -->
"""

GRID = """<p>You are given an <code>m x n</code> board of characters.</p>
<p><strong class="example">Example 1:</strong></p>
<pre>
<strong>Input:</strong> board = [[&quot;a&quot;,&quot;b&quot;],[&quot;c&quot;,&quot;d&quot;]], k = 3
<strong>Output:</strong> true
</pre>
<div class="example-block">
<p><strong>Input:</strong> <span class="example-io">board = [[&quot;x&quot;]], k = 10000000000</span></p>
<p><strong>Output:</strong> <span class="example-io">false</span></p>
</div>
<p><strong>Constraints:</strong></p>
<ul>
<li><code>1 &lt;= board.length, board[i].length &lt;= 10</code></li>
<li><code>1 &lt;= k &lt;= 10<sup>15</sup></code></li>
</ul>"""

GRID_SOLUTION = """class Solution:
    def hasWord(self, board: List[List[str]], k: int) -> bool:
        return k < 5
"""

PAID = "<p>Locked.</p>"


def _load_bench() -> ModuleType:
    """bench/leetcode_corpora.py as a module."""
    return load_bench("leetcode_corpora")


def _repo(path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_text(text)
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "PATH": "/usr/bin:/bin",
    }
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "corpus"]):
        subprocess.run(["git", *argv], cwd=path, check=True, env=env)
    return path


@pytest.fixture
def corpora(tmp_path: Path) -> tuple[ModuleType, Path, Path]:
    doocs = _repo(
        tmp_path / "doocs",
        {
            "solution/9900-9999/9901.Has Word/README_EN.md": README.format(
                difficulty="Medium", number=9901, title="Has Word", slug="has-word", content=GRID
            ),
            "solution/9900-9999/9901.Has Word/Solution.py": GRID_SOLUTION,
            "solution/9900-9999/9902.Locked/README_EN.md": README.format(
                difficulty="Easy", number=9902, title="Locked 🔒", slug="locked", content=PAID
            ),
            "solution/9900-9999/9902.Locked/Solution.py": GRID_SOLUTION,
        },
    )
    walkccc = _repo(
        tmp_path / "walkccc",
        {"solutions/9901. Has Word/9901.py": GRID_SOLUTION.replace("k < 5", "not k >= 5")},
    )
    return _load_bench(), doocs, walkccc


def test_a_question_becomes_a_snapshot_with_inferred_types_and_examples(corpora) -> None:
    bench, doocs, walkccc = corpora
    problems, repos = bench.load_corpora(doocs, walkccc, None)
    snap = bench.snapshot(problems[9901], repos)
    meta = json.loads(snap.question.metaData)
    # one-character strings in a grid: character[][]; a bound past 32 bits: long
    assert meta["params"] == [
        {"name": "board", "type": "character[][]"},
        {"name": "k", "type": "long"},
    ]
    assert meta["return"] == {"type": "boolean"}
    # both example forms: <pre> and LeetCode's newer example-block
    assert snap.tests == [
        {"input": [[["a", "b"], ["c", "d"]], 3], "expected": True},
        {"input": [[["x"]], 10000000000], "expected": False},
    ]
    assert snap.question.titleSlug == "has-word" and snap.question.difficulty == "Medium"
    assert [s.note for s in snap.solutions] == ["doocs/leetcode", "walkccc/LeetCode"]
    assert all(s.url and s.url.startswith("https://github.com/") for s in snap.solutions)
    assert "metaData read from the first doocs solution's annotations" in snap.provenance.tool


def test_paid_questions_and_design_questions_stay_out_of_the_pool(corpora) -> None:
    bench, doocs, walkccc = corpora
    problems, repos = bench.load_corpora(doocs, walkccc, None)
    with pytest.raises(bench.Unsupported, match="paid-only"):
        bench.snapshot(problems[9902], repos)
    with pytest.raises(bench.Unsupported, match="no class Solution"):
        bench.signature("class MinStack:\n    def push(self, x: int) -> None:\n        pass\n")
    with pytest.raises(bench.Unsupported, match="annotation Node"):
        bench.signature(
            "class Solution:\n    def f(self, root: 'Node') -> int:\n        return 0\n"
        )


def test_theabbie_solutions_join_doocs_questions_by_slug(corpora, tmp_path: Path) -> None:
    """theabbie/leetcode names files by titleSlug: they join by slug, after the numbered corpora;
    a file of another language, a README or a slug no doocs question has joins nothing."""
    bench, doocs, walkccc = corpora
    theabbie = _repo(
        tmp_path / "theabbie",
        {
            "has-word.py": GRID_SOLUTION.replace("k < 5", "5 > k"),
            "locked.cpp": "class Solution {};",
            "README.md": "# leetcode",
            "no-such-question.py": GRID_SOLUTION,
        },
    )
    problems, repos = bench.load_corpora(doocs, walkccc, None, theabbie)
    assert [r.name for r in repos] == ["doocs/leetcode", "walkccc/LeetCode", "theabbie/leetcode"]
    snap = bench.snapshot(problems[9901], repos)
    assert [s.note for s in snap.solutions] == [
        "doocs/leetcode",
        "walkccc/LeetCode",
        "theabbie/leetcode",
    ]
    assert "5 > k" in snap.solutions[2].code
    assert snap.solutions[2].url.endswith("/has-word.py")
    assert [len(p.solutions) for _, p in sorted(problems.items())] == [3, 1]


def test_an_examples_strings_keep_their_spaces() -> None:
    """Whitespace between values is LeetCode's layout; inside a string it is the value (a board of
    ``"O  "`` rows: squashed, the statement's own example failed an accepted solution)."""
    bench = _load_bench()
    html = (
        "<pre>\n<strong>Input:</strong> board = [&quot;O&nbsp;&nbsp;&quot;,&quot;   &quot;,\n"
        "  &quot; X &quot;],   k =  2\n<strong>Output:</strong> false\n</pre>"
    )
    assert bench.examples(html, ["board", "k"]) == [
        {"input": [["O  ", "   ", " X "], 2], "expected": False}
    ]


def test_the_bench_never_writes_inside_the_repository() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "real_leetcode.py"),
            "--doocs",
            str(ROOT),
            "--out",
            str(ROOT / "data" / "real"),
            "--no-build",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode != 0 and "inside the repository" in proc.stderr, proc.stderr[-500:]
