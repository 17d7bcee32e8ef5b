"""The messy corpus (tests/data/messy/) is what its README says it is, and its ground truth holds.

15 questions with ~15 model-style solutions each, of mixed quality (see tests/data/messy/README.md).
Annotations are read here only to check the corpus's claims; the pipeline never reads them. The
full verification against a trusted reference on hundreds of random inputs is
``tests/data/messy/make_messy.py --check`` (minutes); the sandbox tests here replay the cheap part
of it: every solution labelled correct passes its file's tests, and every recorded failure
(wrong answer, exception, syntax error) happens as recorded. Hanging and slow inputs are not run.
"""

from __future__ import annotations

import difflib
import html
import importlib.util
import io
import json
import re
import sys
import tokenize
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from quicksilver.agreement import order_free
from quicksilver.config import SandboxConfig, SandboxLimits
from quicksilver.execute import run_outputs
from quicksilver.sources.convert import convert_offline_source, parse_signature
from quicksilver.sources.snapshot import SnapshotFile, load_snapshot_dir
from quicksilver.sources.text import constraint_lines, says_any_order
from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]
MESSY = ROOT / "tests" / "data" / "messy"
BUNDLED = ROOT / "data" / "snapshot" / "bundled"

PLAIN_LABELS = {
    "correct",
    "rambling-correct",
    "wrong",
    "raises",
    "slow",
    "exponential",
    "hanging",
    "does-not-compile",
}
NEAR = re.compile(r"near-duplicate-of-(\d+)")
COSTLY = {"slow", "exponential", "hanging"}
# right whenever they finish (near-duplicates in this corpus are all right: see the README)
RIGHT = {"correct", "rambling-correct", "slow", "exponential"}
# the build's solution sandbox: LeetCode-style recursion needs more than Python's 1000 frames
SANDBOX = SandboxConfig(limits=SandboxLimits(recursion_limit=10000, memory_mb=2048))


@pytest.fixture(scope="module")
def corpus() -> list[SnapshotFile]:
    loaded = load_snapshot_dir(MESSY)
    assert loaded.rejects == [], loaded.rejects
    return loaded.files


def ann(snap: SnapshotFile) -> dict[str, Any]:
    assert snap.annotations is not None, snap.slug
    return snap.annotations


def labels(snap: SnapshotFile) -> dict[int, str]:
    return {int(k): v for k, v in ann(snap)["labels"].items()}


def kind(label: str) -> str:
    return "near-duplicate" if NEAR.fullmatch(label) else label


def right_when_done(label: str) -> bool:
    return label in RIGHT or bool(NEAR.fullmatch(label))


def norm(snap: SnapshotFile, value: Any) -> Any:
    """An answer as the statement writes it: an empty list or tree as [], sorted at every depth
    when the order is free."""
    if value is None and snap.question.meta()["return"]["type"] in ("ListNode", "TreeNode"):
        value = []
    return order_free(value) if ann(snap)["answer_any_order"] else value


def readme_counts() -> dict[str, dict[str, int]]:
    """The README's generated labels table: slug -> column -> count."""
    text = (MESSY / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- generated:labels -->", 1)[1].split("<!-- /generated:labels -->")[0]
    rows = [r.strip().strip("|").split("|") for r in block.strip().splitlines()]
    head = [c.strip() for c in rows[0]]
    out = {}
    for row in rows[2:]:
        cells = [c.strip() for c in row]
        slug = cells[0].strip("`*")
        out[slug] = {h: int(c) for h, c in zip(head[2:], cells[2:], strict=True)}
    return out


README_COLUMNS = {
    "correct": "correct",
    "rambling": "rambling-correct",
    "near-dup": "near-duplicate",
    "wrong": "wrong",
    "raises": "raises",
    "slow": "slow",
    "exp.": "exponential",
    "hanging": "hanging",
    "no compile": "does-not-compile",
}


# ---------------------------------------------------------------------------- shape and counts


def test_fifteen_questions_of_about_fifteen_solutions_as_the_readme_says(corpus) -> None:
    assert len(corpus) == 15
    table = readme_counts()
    total: Counter[str] = Counter()
    for snap in corpus:
        assert 13 <= len(snap.solutions) <= 17, snap.slug
        counts = Counter(kind(v) for v in labels(snap).values())
        assert sum(counts.values()) == len(snap.solutions), snap.slug
        row = table[snap.slug]
        assert row["solutions"] == len(snap.solutions), snap.slug
        assert {README_COLUMNS[c]: n for c, n in row.items() if c in README_COLUMNS} == {
            lab: counts[lab] for lab in README_COLUMNS.values()
        }, snap.slug
        total.update(counts)
    n = sum(len(s.solutions) for s in corpus)
    assert 210 <= n <= 240
    assert {README_COLUMNS[c]: v for c, v in table["all"].items() if c in README_COLUMNS} == {
        lab: total[lab] for lab in README_COLUMNS.values()
    }
    # a fifth of them cannot finish some input within the constraints
    assert sum(total[c] for c in COSTLY) * 5 >= n, total
    for lab in PLAIN_LABELS | {"near-duplicate"}:
        assert total[lab] >= 2, (lab, total)


def test_every_solution_is_a_labelled_synthetic_model_sample(corpus) -> None:
    models = set()
    for snap in corpus:
        assert snap.provenance.source == "messy-synthetic"
        assert "not produced by any model" in (snap.provenance.tool or "")
        assert "written by hand" in ann(snap)["synthetic"]
        assert set(labels(snap)) == set(range(len(snap.solutions))), snap.slug
        for i, sol in enumerate(snap.solutions):
            lab = labels(snap)[i]
            assert lab in PLAIN_LABELS or NEAR.fullmatch(lab), (snap.slug, i, lab)
            assert sol.source == "model" and sol.runtime is None
            assert sol.model and sol.model.startswith("synthetic-sample-"), (snap.slug, i)
            assert sol.note and "synthetic" in sol.note
            models.add(sol.model)
    assert len(models) == 7


def test_the_questions_cover_what_the_issue_asks_for(corpus) -> None:
    bundled = {p.stem for p in BUNDLED.glob("*.json")}
    assert not bundled & {s.slug for s in corpus}
    assert {s.question.difficulty for s in corpus} == {"Easy", "Medium", "Hard"}
    types: set[str] = set()
    for snap in corpus:
        meta = snap.question.meta()
        types.update([p["type"] for p in meta["params"]] + [meta["return"]["type"]])
        assert parse_signature(meta).output_param is None  # nothing in place
        q = snap.question
        assert q.python3_snippet() and "class Solution" in q.python3_snippet()
        assert constraint_lines(q.content), snap.slug
    nodes = {
        t: sum(any(p["type"].startswith(t) for p in s.question.meta()["params"]) for s in corpus)
        for t in ("ListNode", "TreeNode")
    }
    assert nodes["ListNode"] >= 2 and nodes["TreeNode"] >= 2, nodes
    wanted = {"integer", "integer[]", "integer[][]", "string", "string[]", "character[][]"}
    assert wanted | {"boolean", "ListNode", "ListNode[]", "TreeNode"} <= types, types
    order_free_ = [s.slug for s in corpus if says_any_order(s.question.content or "")]
    assert order_free_ == [s.slug for s in corpus if ann(s)["answer_any_order"]]
    assert len(order_free_) >= 2


def test_constraints_use_leetcodes_own_wording(corpus) -> None:
    by_slug = {s.slug: constraint_lines(s.question.content) for s in corpus}
    # as LeetCode writes it on its reverse-linked-list problem, "is the range" included
    assert "The number of nodes in the list is the range [0, 5000]." in by_slug["reverse-node-list"]
    assert "1 <= nums.length <= 10^5" in by_slug["top-k-frequent-values"]
    assert (
        "s consists of English letters, digits, symbols and spaces."
        in by_slug["longest-repeat-free-substring"]
    )
    assert (
        "The number of nodes in the tree is in the range [1, 3 * 10^4]."
        in by_slug["tree-max-path-sum"]
    )
    assert all(ann(s)["constraints_wording"].startswith("LeetCode's own") for s in corpus)


# ---------------------------------------------------------------------------- statement vs tests


def html_examples(snap: SnapshotFile) -> list[tuple[list[Any], Any]]:
    """(arguments, output) of every example block of the statement's HTML."""
    names = [p["name"] for p in snap.question.meta()["params"]]
    pattern = re.compile("^" + ", ".join(f"{re.escape(n)} = (.+?)" for n in names) + "$")
    out = []
    for block in re.findall(r"<pre>(.*?)</pre>", snap.question.content or "", flags=re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", block))
        given = re.search(r"^Input:\s*(.*)$", text, flags=re.M)
        shown = re.search(r"^Output:\s*(.*)$", text, flags=re.M)
        assert given and shown, (snap.slug, text)
        m = pattern.match(given.group(1).strip())
        assert m, (snap.slug, given.group(1))
        out.append(([json.loads(v) for v in m.groups()], json.loads(shown.group(1))))
    return out


def test_the_statements_examples_agree_with_tests(corpus) -> None:
    for snap in corpus:
        q = snap.question
        shown = html_examples(snap)
        assert snap.tests and len(shown) == len(snap.tests) == len(q.exampleTestcaseList)
        n = len(q.meta()["params"])
        for (args, output), test, text in zip(
            shown, snap.tests, q.exampleTestcaseList, strict=True
        ):
            assert args == test["input"], snap.slug
            assert norm(snap, output) == norm(snap, test["expected"]), snap.slug
            lines = [json.loads(line) for line in text.split("\n") if line.strip()]
            assert len(lines) == n and lines == test["input"], (snap.slug, text)


# ---------------------------------------------------------------------------- ground truth


def test_labels_and_their_evidence_are_consistent(corpus) -> None:
    caught = passing = 0
    sections = {
        "wrong": "wrong_solutions",
        "raises": "raising_solutions",
        "hanging": "hanging_solutions",
        "does-not-compile": "non_compiling_solutions",
    }
    for snap in corpus:
        a, labs = ann(snap), labels(snap)
        for lab, section in sections.items():
            assert {int(k) for k in a[section]} == {i for i, v in labs.items() if v == lab}
        assert {int(k) for k in a["slow_solutions"]} == {
            i for i, v in labs.items() if v in ("slow", "exponential")
        }
        assert {int(k) for k in a["near_duplicates"]} == {
            i for i, v in labs.items() if NEAR.fullmatch(v)
        }
        for k, w in a["wrong_solutions"].items():
            assert norm(snap, w["expected"]) != norm(snap, w["got"]), (snap.slug, k)
            assert w["why"] and isinstance(w["passes_examples"], bool)
        for k, r in a["raising_solutions"].items():
            assert re.fullmatch(r"[A-Z]\w*Error", r["error"]), (snap.slug, k)
        for k, h in a["hanging_solutions"].items():
            assert h["input"] is not None and h["why"], (snap.slug, k)
        for k, s in a["slow_solutions"].items():
            assert s["complexity"] and s["input"], (snap.slug, k)
        assert a["multiple_valid_answers"] is False and a["in_place"] is False
        passing += sum(w["passes_examples"] for w in a["wrong_solutions"].values())
        caught += sum(not w["passes_examples"] for w in a["wrong_solutions"].values())
    # the statement's examples catch some of the wrong samples, not all of them
    assert caught >= 10 and passing >= 10, (caught, passing)


def tokens(code: str) -> list[tuple[int, str]]:
    """(type, text) of every token that is not a comment or layout."""
    skip = {
        tokenize.COMMENT,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENCODING,
        tokenize.ENDMARKER,
    }
    return [
        (t.type, t.string)
        for t in tokenize.generate_tokens(io.StringIO(code).readline)
        if t.type not in skip
    ]


def test_near_duplicates_differ_by_one_token_or_by_names_only(corpus) -> None:
    differing = []
    for snap in corpus:
        labs = labels(snap)
        for k, nd in ann(snap)["near_duplicates"].items():
            i, j = int(k), nd["of"]
            assert j < i, (snap.slug, i)  # the original is listed first, so dedup keeps it
            assert labs[i] == f"near-duplicate-of-{j}"
            a, b = tokens(snap.solutions[j].code), tokens(snap.solutions[i].code)
            if nd["behaviour"] == "differs":
                assert labs[j] == "wrong", (snap.slug, i, j)  # the wrong one comes first
                ops = [
                    op
                    for op in difflib.SequenceMatcher(None, a, b).get_opcodes()
                    if op[0] != "equal"
                ]
                assert len(ops) == 1, (snap.slug, i, ops)
                _, i1, i2, j1, j2 = ops[0]
                assert i2 - i1 <= 1 and j2 - j1 <= 1, (snap.slug, a[i1:i2], b[j1:j2])
                differing.append(snap.slug)
            else:
                assert nd["behaviour"] == "same" and labs[j] == "correct", (snap.slug, i)
                assert len(a) == len(b), (snap.slug, i)
                renamed = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
                assert renamed and all(x[0] == y[0] == tokenize.NAME for x, y in renamed), (
                    snap.slug,
                    i,
                    renamed[:3],
                )
    assert len(differing) >= 2, differing


def test_plurality_splits_are_pluralities_without_a_majority(corpus) -> None:
    readme = (MESSY / "README.md").read_text(encoding="utf-8")
    with_split = []
    for snap in corpus:
        p = ann(snap)["plurality"]
        if p is None:
            continue
        with_split.append(snap.slug)
        sizes = [int(x) for x in p["split"].split("/")]
        assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[1], (snap.slug, sizes)
        assert sizes[0] * 2 <= sum(sizes), (snap.slug, sizes)  # no strict majority
        n_loading = sum(1 for v in labels(snap).values() if v != "does-not-compile")
        assert sum(sizes) == n_loading, snap.slug
        passing = [int(x) for x in p["split_among_solutions_passing_the_examples"].split("/")]
        assert sum(passing) < sum(sizes) and passing[0] >= passing[-1]
        assert f"`{snap.slug}`" in readme
    assert len(with_split) >= 3, with_split


def make_messy() -> ModuleType:
    """tests/data/messy/make_messy.py, imported by path (it is a script, not a package)."""
    name = "messy_make_messy"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, MESSY / "make_messy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_files_are_what_the_generator_writes() -> None:
    mm = make_messy()
    specs = mm.load_specs()
    assert sorted(s.slug for s in specs) == sorted(p.stem for p in MESSY.glob("*.json"))
    for spec in specs:
        assert (MESSY / f"{spec.slug}.json").read_text(encoding="utf-8") == mm.render(spec)
    readme = (MESSY / "README.md").read_text(encoding="utf-8")
    assert mm.readme_text(specs, readme) == readme


# ---------------------------------------------------------------------------- in the sandbox


def run(snap: SnapshotFile, index: int, inputs: list[list[Any]], cpu: float = 2.0) -> Any:
    sig = parse_signature(snap.question.meta())
    return run_outputs(
        snap.solutions[index].code,
        entry_point=sig.name,
        inputs=inputs,
        convert_offline=convert_offline_source(sig),
        cpu_seconds=cpu,
        sandbox=SANDBOX,
    )


@requires_bwrap
def test_every_solution_that_should_pass_passes_its_examples_in_the_sandbox(corpus) -> None:
    """Correct, rambling, near-duplicate, slow and exponential samples on the statement's examples
    (small: the slow ones finish); hanging ones are not run."""
    jobs = [(snap, i) for snap in corpus for i, lab in labels(snap).items() if right_when_done(lab)]

    def one(job: tuple[SnapshotFile, int]) -> tuple[str, int, str] | None:
        snap, i = job
        tests = snap.tests or []
        batch = run(snap, i, [t["input"] for t in tests])
        if batch.load_error:
            return snap.slug, i, batch.load_error
        for o, t in zip(batch.outcomes, tests, strict=True):
            if not o.ok or norm(snap, o.value) != norm(snap, t["expected"]):
                return snap.slug, i, f"{t['input']}: {o.status} {o.value!r} {o.error}"
        return None

    with ThreadPoolExecutor(2) as pool:
        failures = [f for f in pool.map(one, jobs) if f is not None]
    assert failures == []
    assert len(jobs) >= 100  # 112: correct, rambling, near-duplicates, slow, exponential


@requires_bwrap
def test_recorded_failures_happen_as_recorded_in_the_sandbox(corpus) -> None:
    """Wrong answers, exceptions and syntax errors on their recorded inputs; and a correct
    sample answers each wrong one's input with the recorded right answer."""
    jobs: list[tuple[SnapshotFile, int, str, list[list[Any]]]] = []
    for snap in corpus:
        a = ann(snap)
        first_correct = min(i for i, v in labels(snap).items() if v == "correct")
        witnesses = [w["input"] for w in a["wrong_solutions"].values()]
        jobs.append((snap, first_correct, "right", witnesses))
        for k, w in a["wrong_solutions"].items():
            jobs.append((snap, int(k), "wrong", [w["input"]]))
        for k, r in a["raising_solutions"].items():
            if isinstance(r["input"], list):  # big inputs are described, not stored
                jobs.append((snap, int(k), "raises", [r["input"]]))
        for k in a["non_compiling_solutions"]:
            jobs.append((snap, int(k), "no-compile", [snap.tests[0]["input"]]))

    def one(job: tuple[SnapshotFile, int, str, list[list[Any]]]) -> str | None:
        snap, i, what, inputs = job
        a = ann(snap)
        batch = run(snap, i, inputs)
        where = f"{snap.slug} #{i} ({what})"
        if what == "no-compile":
            error = a["non_compiling_solutions"][str(i)]["error"]
            return None if batch.load_error and error in batch.load_error else where
        if batch.load_error:
            return f"{where}: {batch.load_error}"
        if what == "right":
            wanted = [w["expected"] for w in a["wrong_solutions"].values()]
            got = [norm(snap, o.value) if o.ok else o.error for o in batch.outcomes]
            return None if got == [norm(snap, w) for w in wanted] else f"{where}: {got}"
        (o,) = batch.outcomes
        if what == "wrong":
            recorded = a["wrong_solutions"][str(i)]["got"]
            ok = o.ok and norm(snap, o.value) == norm(snap, recorded)
            return None if ok else f"{where}: {o.status} {o.value!r} {o.error}"
        error = a["raising_solutions"][str(i)]["error"]
        ok = (o.status == "error" and (o.error or "").startswith(error)) or (
            error == "MemoryError" and o.status == "memory"
        )
        return None if ok else f"{where}: {o.status} {o.error}"

    with ThreadPoolExecutor(2) as pool:
        failures = [f for f in pool.map(one, jobs) if f is not None]
    assert failures == []
    assert len(jobs) >= 90
