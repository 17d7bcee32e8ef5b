"""Write and verify the messy corpus: tests/data/messy/*.json (see README.md beside this file).

The questions, solutions and ground truth are data in ``source/qNN_<slug>.py``. This script

- writes one snapshot file per question (docs/snapshot-format.md) and the generated tables of
  README.md, deterministically and without a sandbox::

      .venv/bin/python tests/data/messy/make_messy.py

- with ``--check``, verifies every claim in the sandbox (quicksilver.execute.run_calls, the
  build's solution sandbox: recursion limit 10000, 2 GiB): a trusted reference solution answers the
  statement's examples as stated and a few hundred random inputs within the constraints; every
  solution is judged against it according to its label (right on every input, wrong on its
  recorded input with the recorded answers, raising the recorded exception, hanging, not
  compiling, exceeding the limit on a big input while the correct ones finish it); the recorded
  plurality splits are recomputed with the uniqueness stage's own grouping::

      .venv/bin/python tests/data/messy/make_messy.py --check [--only SLUG] [--workers 2]

  It exits 1 when a claim does not hold and prints what was found instead.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "source"
README = HERE / "README.md"
if str(SOURCE) not in sys.path:
    sys.path.insert(0, str(SOURCE))

from messy_spec import (  # noqa: E402
    COSTLY,
    EXPONENTIAL,
    HANGING,
    LABELS,
    MODELS,
    NEAR_DUP,
    NO_COMPILE,
    RAISES,
    RIGHT_WHEN_DONE,
    SLOW,
    WRONG,
    Input,
    Spec,
)

FORMAT = "quicksilver-snapshot/1"
TOOL = (
    "tests/data/messy/make_messy.py (hand-written for this project: synthetic solutions in the "
    "style of model samples, not produced by any model)"
)
PY_TYPES = {
    "integer": "int",
    "integer[]": "List[int]",
    "integer[][]": "List[List[int]]",
    "string": "str",
    "string[]": "List[str]",
    "boolean": "bool",
    "character[][]": "List[List[str]]",
    "list<list<string>>": "List[List[str]]",
    "ListNode": "Optional[ListNode]",
    "ListNode[]": "List[Optional[ListNode]]",
    "TreeNode": "Optional[TreeNode]",
}
LIST_HEADER = (
    "# Definition for singly-linked list.\n"
    "# class ListNode:\n"
    "#     def __init__(self, val=0, next=None):\n"
    "#         self.val = val\n"
    "#         self.next = next\n"
)
TREE_HEADER = (
    "# Definition for a binary tree node.\n"
    "# class TreeNode:\n"
    "#     def __init__(self, val=0, left=None, right=None):\n"
    "#         self.val = val\n"
    "#         self.left = left\n"
    "#         self.right = right\n"
)


# ============================================================================ the specs


def load_specs() -> list[Spec]:
    """Every ``source/q*.py`` module's SPEC, in file-name order."""
    specs = []
    for path in sorted(SOURCE.glob("q[0-9][0-9]_*.py")):
        name = f"messy_source_{path.stem}"
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None, path
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        specs.append(module.SPEC)
    return specs


def indices(spec: Spec) -> dict[str, int]:
    return {s.key: i for i, s in enumerate(spec.solutions) if s.key}


def label_of(spec: Spec, i: int) -> str:
    sol = spec.solutions[i]
    if sol.label == NEAR_DUP:
        assert sol.dup_of is not None, (spec.slug, i)
        return f"near-duplicate-of-{indices(spec)[sol.dup_of]}"
    return sol.label


# ============================================================================ writing


def compact(value: Any) -> str:
    """A value as LeetCode prints it in a statement: JSON without spaces."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def example_block(spec: Spec, n: int) -> str:
    ex = spec.examples[n - 1]
    args = ", ".join(
        f"{name} = {html.escape(compact(v), quote=False)}"
        for (name, _), v in zip(spec.params, ex.inputs, strict=True)
    )
    lines = [
        f'<p><strong class="example">Example {n}:</strong></p>',
        "<pre>",
        f"<strong>Input:</strong> {args}",
        f"<strong>Output:</strong> {html.escape(compact(ex.output), quote=False)}",
    ]
    if ex.explanation:
        lines.append(f"<strong>Explanation:</strong> {ex.explanation}")
    lines.append("</pre>")
    return "\n".join(lines)


def content(spec: Spec) -> str:
    parts = [spec.description.strip(), "", "<p>&nbsp;</p>"]
    for n in range(1, len(spec.examples) + 1):
        parts += [example_block(spec, n), ""]
    parts += ["<p>&nbsp;</p>", "<p><strong>Constraints:</strong></p>", "<ul>"]
    parts += [f"\t<li>{item}</li>" for item in spec.constraints]
    parts.append("</ul>")
    if spec.follow_up:
        parts += ["", "<p>&nbsp;</p>", f"<p><strong>Follow-up:</strong> {spec.follow_up}</p>"]
    return "\n".join(parts) + "\n"


def snippet(spec: Spec) -> str:
    types = [t for _, t in spec.params] + [spec.returns]
    header = ""
    if any(t.startswith("ListNode") for t in types):
        header += LIST_HEADER
    if any(t.startswith("TreeNode") for t in types):
        header += TREE_HEADER
    args = ", ".join(f"{name}: {PY_TYPES[t]}" for name, t in spec.params)
    return (
        f"{header}class Solution:\n"
        f"    def {spec.method}(self, {args}) -> {PY_TYPES[spec.returns]}:\n        "
    )


def annotations(spec: Spec) -> dict[str, Any]:
    """The ground truth, for documentation and tests only: the pipeline never reads it."""
    idx = indices(spec)
    labels = {str(i): label_of(spec, i) for i in range(len(spec.solutions))}
    wrong, raises, hanging, slow, no_compile, near = {}, {}, {}, {}, {}, {}
    for i, s in enumerate(spec.solutions):
        k = str(i)
        if s.label == WRONG:
            wrong[k] = {
                "input": s.witness,
                "expected": s.expected,
                "got": s.got,
                "passes_examples": not s.fails_examples,
                "why": s.why,
            }
        elif s.label == RAISES:
            shown = spec.big[s.witness_big][0] if s.witness_big else s.witness
            raises[k] = {"input": shown, "error": s.error, "why": s.why}
        elif s.label == HANGING:
            hanging[k] = {"input": s.witness, "why": s.why}
        elif s.label in (SLOW, EXPONENTIAL):
            assert s.slow_input is not None, (spec.slug, i)
            slow[k] = {
                "complexity": s.complexity,
                "input": spec.big[s.slow_input][0],
                "limit": "wall time (it sleeps)" if s.sleeps else "CPU time",
                "why": s.why,
            }
        elif s.label == NO_COMPILE:
            no_compile[k] = {"error": s.error, "why": s.why}
        elif s.label == NEAR_DUP:
            assert s.dup_of is not None
            near[k] = {
                "of": idx[s.dup_of],
                "behaviour": "differs" if s.differs else "same",
                "diff": s.diff,
                "jaccard_when_written": s.jaccard,
                "original_label": label_of(spec, idx[s.dup_of]),
            }
    out: dict[str, Any] = {
        "synthetic": (
            "every solution was written by hand for this project in the style of a model "
            "sample (the model names are invented); see tests/data/messy/README.md"
        ),
        "labels": labels,
        "wrong_solutions": wrong,
        "raising_solutions": raises,
        "hanging_solutions": hanging,
        "slow_solutions": slow,
        "non_compiling_solutions": no_compile,
        "near_duplicates": near,
        "plurality": None,
        "answer_any_order": spec.any_order,
        "multiple_valid_answers": False,
        "in_place": False,
        "constraints_wording": f"LeetCode's own for this problem: {spec.leetcode_constraints}",
    }
    if spec.plurality is not None:
        p = spec.plurality
        out["plurality"] = {
            "input": p.input,
            "split": p.split,
            "split_among_solutions_passing_the_examples": p.split_passing,
            "note": p.note,
        }
    return out


def meta_data(spec: Spec) -> dict[str, Any]:
    return {
        "name": spec.method,
        "params": [{"name": n, "type": t} for n, t in spec.params],
        "return": {"type": spec.returns},
    }


def snapshot(spec: Spec) -> dict[str, Any]:
    meta = meta_data(spec)
    question = {
        "questionId": str(spec.qid),
        "questionFrontendId": str(spec.qid),
        "title": spec.title,
        "titleSlug": spec.slug,
        "content": content(spec),
        "difficulty": spec.difficulty,
        "isPaidOnly": False,
        "topicTags": [{"name": n, "slug": s} for n, s in spec.tags],
        "codeSnippets": [{"lang": "Python3", "langSlug": "python3", "code": snippet(spec)}],
        "metaData": json.dumps(meta),
        "exampleTestcaseList": [
            "\n".join(json.dumps(v, ensure_ascii=False) for v in ex.inputs) for ex in spec.examples
        ],
        "stats": json.dumps({"totalAccepted": None, "totalSubmission": None, "acRate": None}),
        "hints": spec.hints,
        "similarQuestions": "[]",
    }
    solutions = [
        {
            "code": s.code,
            "lang": "python3",
            "runtime": None,
            "source": "model",
            "model": MODELS["abcdefg".index(s.model)],
            "url": None,
            "note": f"{s.note} (synthetic sample)",
        }
        for s in spec.solutions
    ]
    return {
        "format": FORMAT,
        "question": question,
        "solutions": solutions,
        "tests": [{"input": ex.inputs, "expected": ex.output} for ex in spec.examples],
        "test_code": None,
        "entry_point": None,
        "provenance": {
            "source": "messy-synthetic",
            "endpoint": None,
            "fetched_at": None,
            "tool": TOOL,
        },
        "annotations": annotations(spec),
    }


def render(spec: Spec) -> str:
    return json.dumps(snapshot(spec), indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------- README tables

TABLE_COLUMNS = (
    ("correct", ("correct",)),
    ("rambling", ("rambling-correct",)),
    ("near-dup", ("near-duplicate",)),
    ("wrong", ("wrong",)),
    ("raises", ("raises",)),
    ("slow", ("slow",)),
    ("exp.", ("exponential",)),
    ("hanging", ("hanging",)),
    ("no compile", ("does-not-compile",)),
)


def label_counts(labels: Sequence[str]) -> Counter[str]:
    return Counter(
        "near-duplicate" if lab.startswith("near-duplicate-of-") else lab for lab in labels
    )


def labels_table(specs: Sequence[Spec]) -> str:
    head = ["slug", "difficulty", "solutions", *(c for c, _ in TABLE_COLUMNS)]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    total: Counter[str] = Counter()
    n_total = 0
    for spec in specs:
        counts = label_counts([label_of(spec, i) for i in range(len(spec.solutions))])
        total.update(counts)
        n_total += len(spec.solutions)
        cells = [f"`{spec.slug}`", spec.difficulty, str(len(spec.solutions))]
        cells += [str(sum(counts[lab] for lab in labs)) for _, labs in TABLE_COLUMNS]
        rows.append("| " + " | ".join(cells) + " |")
    cells = ["**all**", "", str(n_total)]
    cells += [str(sum(total[lab] for lab in labs)) for _, labs in TABLE_COLUMNS]
    rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def plurality_table(specs: Sequence[Spec]) -> str:
    rows = [
        "| slug | input | split (all that load) | split (those passing the examples) | note |",
        "|---|---|---|---|---|",
    ]
    for spec in specs:
        p = spec.plurality
        if p is not None:
            shown = ", ".join(compact(v) for v in p.input)
            rows.append(f"| `{spec.slug}` | `{shown}` | {p.split} | {p.split_passing} | {p.note} |")
    return "\n".join(rows)


def near_dup_table(specs: Sequence[Spec]) -> str:
    rows = [
        "| slug | first listed (kept by dedup) | near-duplicate | behaviour | change | Jaccard |",
        "|---|---|---|---|---|---|",
    ]
    for spec in specs:
        idx = indices(spec)
        for i, s in enumerate(spec.solutions):
            if s.label != NEAR_DUP or s.dup_of is None:
                continue
            j = idx[s.dup_of]
            first = f"#{j} ({label_of(spec, j)})"
            rows.append(
                f"| `{spec.slug}` | {first} | #{i} | {'differs' if s.differs else 'same'} "
                f"| {s.diff} | {s.jaccard:.3f} |"
                if s.jaccard is not None
                else f"| `{spec.slug}` | {first} | #{i} | {'differs' if s.differs else 'same'} "
                f"| {s.diff} | ? |"
            )
    return "\n".join(rows)


def constraints_table(specs: Sequence[Spec]) -> str:
    rows = ["| slug | Constraints items (as they appear, HTML decoded) |", "|---|---|"]
    for spec in specs:
        items = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in spec.constraints]
        rows.append(f"| `{spec.slug}` | " + "<br>".join(f"`{c}`" for c in items) + " |")
    return "\n".join(rows)


GENERATED = {
    "labels": labels_table,
    "plurality": plurality_table,
    "near-duplicates": near_dup_table,
    "constraints": constraints_table,
}


def readme_text(specs: Sequence[Spec], text: str) -> str:
    """README.md with every ``<!-- generated:NAME -->`` ... ``<!-- /generated:NAME -->`` block
    rewritten from the specs."""
    for name, make in GENERATED.items():
        pattern = re.compile(
            rf"(<!-- generated:{name} -->\n)(?:.*?\n)?(<!-- /generated:{name} -->)", flags=re.S
        )
        if not pattern.search(text):
            raise SystemExit(f"{README}: no <!-- generated:{name} --> block")
        table = make(specs)
        text = pattern.sub(lambda m, t=table: m.group(1) + t + "\n" + m.group(2), text)
    return text


def write_all(specs: Sequence[Spec]) -> list[Path]:
    written = []
    for spec in specs:
        path = HERE / f"{spec.slug}.json"
        text = render(spec)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    text = readme_text(specs, README.read_text(encoding="utf-8"))
    if README.read_text(encoding="utf-8") != text:
        README.write_text(text, encoding="utf-8")
        written.append(README)
    return written


# ============================================================================ checking

SMALL_CPU = 1.0  # per call on the examples and the random inputs
BIG_CPU = 1.0  # per call on a big input: the correct finish it (in ms), the slow ones do not
# A slow solution exceeds BIG_CPU on its big input, or takes SLOW_FACTOR x the reference's CPU
# time there (the reference's time counted as at least REF_FLOOR).
SLOW_FACTOR = 50
REF_FLOOR = 0.005
TIMEOUT_STOP = 3  # a solution's run on the random inputs stops after this many timeouts


@dataclass
class Outcome:
    status: str  # ok | error | timeout | memory | skipped | load-error
    value: Any = None
    error: str | None = None
    cpu: float = 0.0

    def as_answer(self) -> dict[str, Any]:
        return {"status": self.status, "value": self.value, "error": self.error}


@dataclass
class Checker:
    """Runs code in the sandbox the way the build runs solutions."""

    workers: int = 2
    _sandbox: Any = None

    def sandbox(self) -> Any:
        if self._sandbox is None:
            from quicksilver.config import SandboxConfig, SandboxLimits

            self._sandbox = SandboxConfig(
                limits=SandboxLimits(memory_mb=2048, recursion_limit=10000)
            )
        return self._sandbox

    def run(
        self,
        spec: Spec,
        source: str,
        inputs: Sequence[Input],
        *,
        cpu: float,
        wall: float | None = None,
        stop_after: int | None = None,
        chunk: int = 60,
    ) -> tuple[str | None, list[Outcome]]:
        """(load error, one outcome per input); after ``stop_after`` timeouts the rest is
        ``skipped`` (a hanging solution would cost the limit on each)."""
        from quicksilver.execute import run_calls
        from quicksilver.sources.convert import convert_offline_source, parse_signature

        sig = parse_signature(meta_data(spec))
        out: list[Outcome] = []
        timeouts = 0
        for start in range(0, len(inputs), chunk):
            part = inputs[start : start + chunk]
            if stop_after is not None and timeouts >= stop_after:
                out += [Outcome("skipped") for _ in part]
                continue
            batch = run_calls(
                source,
                entry_point=spec.method,
                inputs=part,
                kind="class",
                convert_offline=convert_offline_source(sig),
                cpu_seconds=cpu,
                wall_seconds=wall if wall is not None else cpu * 3 + 2,
                sandbox=self.sandbox(),
            )
            if batch.load_error is not None:
                return batch.load_error, []
            for o in batch.outcomes:
                out.append(Outcome(o.status, o.value, o.error, o.cpu_seconds))
                timeouts += o.status == "timeout"
        return None, out


def norm(spec: Spec, value: Any) -> Any:
    """An answer as the statement writes it: an empty list or tree (None) as [], and sorted at
    every depth when the order is free."""
    from quicksilver.agreement import order_free

    if value is None and spec.returns in ("ListNode", "TreeNode"):
        value = []
    return order_free(value) if spec.any_order else value


def same(spec: Spec, a: Any, b: Any) -> bool:
    from quicksilver.agreement import answers_equal

    return answers_equal(norm(spec, a), norm(spec, b), 0.0)


def random_inputs(spec: Spec, n: int) -> list[Input]:
    """``n`` distinct inputs from the question's small generator, seeded by its slug."""
    rng = random.Random(f"messy:{spec.slug}")
    seen: set[str] = set()
    out: list[Input] = []
    tries = 0
    while len(out) < n and tries < n * 20:
        tries += 1
        inp = spec.small(rng)
        key = json.dumps(inp)
        if key not in seen:
            seen.add(key)
            out.append(inp)
    return out


def big_input(spec: Spec, name: str) -> Input:
    """The question's big input ``name``, from its generator seeded by the slug and the name."""
    return spec.big[name][1](random.Random(f"messy-big:{spec.slug}:{name}"))


def jaccard_of(a: str, b: str) -> float:
    from quicksilver.config import DedupSection
    from quicksilver.stages.dedup import jaccard, shingles, solution_tokens

    p = DedupSection()
    return jaccard(
        shingles(solution_tokens(a, p), p.ngram), shingles(solution_tokens(b, p), p.ngram)
    )


@dataclass
class SolutionReport:
    index: int
    label: str
    problems: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    loads: bool = True
    passes_examples: bool = True
    small: list[Outcome] = field(default_factory=list)


def split_of(spec: Spec, outcomes: dict[int, Outcome], right: Any) -> tuple[str, bool, bool]:
    """(sizes, right answer is the largest group, right answer has a strict majority)."""
    from quicksilver.agreement import group_answers

    answers = {str(i): o.as_answer() for i, o in outcomes.items()}
    groups = group_answers(answers, spec.any_order, 0.0)
    sizes = "/".join(str(len(m)) for _, m in groups)
    right_size = next(
        (len(m) for (ok, v), m in groups if ok and same(spec, v, right)),
        0,
    )
    top = max(len(m) for _, m in groups)
    plural = right_size == top and sum(len(m) == top for _, m in groups) == 1
    return sizes, plural, right_size * 2 > len(outcomes)


def check_spec(spec: Spec, checker: Checker, n_random: int, pool: ThreadPoolExecutor) -> list[str]:
    """Every claim of one question; returns the problems found (empty: all hold)."""
    problems: list[str] = []
    t0 = time.monotonic()
    idx = indices(spec)
    assert len(MODELS) == 7 and all(s.model in "abcdefg" for s in spec.solutions)
    assert all(s.label in LABELS for s in spec.solutions)

    examples = [ex.inputs for ex in spec.examples]
    inputs = examples + random_inputs(spec, n_random)
    load_err, ref = checker.run(spec, spec.reference, inputs, cpu=10.0)
    if load_err or any(o.status != "ok" for o in ref):
        return [f"{spec.slug}: the reference failed: {load_err or [o.error for o in ref]}"]
    for n, (ex, o) in enumerate(zip(spec.examples, ref, strict=False), 1):
        if not same(spec, o.value, ex.output):
            problems.append(f"example {n}: stated {ex.output!r}, reference {o.value!r}")
    right = [o.value for o in ref]
    big = {name: big_input(spec, name) for name in spec.big}
    big_ref: dict[str, Any] = {}
    big_cpu: dict[str, float] = {}
    for name, inp in big.items():
        err, (o,) = checker.run(spec, spec.reference, [inp], cpu=10.0, wall=30.0)
        if err or o.status != "ok":
            problems.append(f"the reference failed on big input {name}: {err or o.error}")
            continue
        big_ref[name] = o.value
        big_cpu[name] = o.cpu
        if o.cpu > 0.5:
            problems.append(f"the reference took {o.cpu:.2f}s CPU on big input {name}")

    def one(i: int) -> SolutionReport:
        s = spec.solutions[i]
        rep = SolutionReport(i, label_of(spec, i))
        if s.label == NO_COMPILE:
            err, _ = checker.run(spec, s.code, examples[:1], cpu=SMALL_CPU)
            rep.loads = False
            if err is None or (s.error or "?") not in err:
                rep.problems.append(f"expected a load error {s.error}, got {err!r}")
            return rep
        stop = TIMEOUT_STOP if s.label in (HANGING, RAISES, WRONG) else None
        wall = 30.0 if s.sleeps else None
        err, outs = checker.run(
            spec,
            s.code,
            inputs,
            cpu=SMALL_CPU,
            wall=wall,
            stop_after=stop,
            chunk=8 if stop else 60,
        )
        if err is not None:
            rep.loads = False
            rep.problems.append(f"does not load: {err}")
            return rep
        rep.small = outs
        rep.passes_examples = all(
            o.status == "ok" and same(spec, o.value, r)
            for o, r in zip(outs[: len(examples)], right[: len(examples)], strict=True)
        )
        bad = [
            (inputs[k], o)
            for k, o in enumerate(outs)
            if o.status != "skipped" and not (o.status == "ok" and same(spec, o.value, right[k]))
        ]
        rep.facts.append(f"disagrees on {len(bad)}/{len(inputs)} inputs")
        if s.label in RIGHT_WHEN_DONE and bad:
            inp, o = bad[0]
            rep.problems.append(
                f"labelled {s.label} but on {compact(inp)[:200]} gives "
                f"{o.status} {o.value!r} {o.error or ''} (right: {right[inputs.index(inp)]!r})"
            )
        if s.label == NEAR_DUP:
            assert s.dup_of is not None
            j = jaccard_of(spec.solutions[idx[s.dup_of]].code, s.code)
            rep.facts.append(f"Jaccard with #{idx[s.dup_of]}: {j:.4f}")
            if s.jaccard is None or abs(j - s.jaccard) > 5e-4:
                rep.problems.append(
                    f"Jaccard with #{idx[s.dup_of]} is {j:.4f}, recorded {s.jaccard}"
                )
        if s.label in (s for s in RIGHT_WHEN_DONE if s not in (SLOW, EXPONENTIAL)):
            for name, inp in big.items():
                if name not in big_ref or name in spec.slow_only:
                    continue
                e2, (o,) = checker.run(spec, s.code, [inp], cpu=BIG_CPU, wall=10.0)
                if e2 or o.status != "ok" or not same(spec, o.value, big_ref[name]):
                    rep.problems.append(
                        f"labelled {s.label} but on big input {name}: {o.status} {o.error or ''}"
                    )
        if s.label in (SLOW, EXPONENTIAL):
            assert s.slow_input in big, (spec.slug, i)
            wall = BIG_CPU * 2 + 1
            e2, (o,) = checker.run(spec, s.code, [big[s.slow_input]], cpu=BIG_CPU, wall=wall)
            floor = max(big_cpu.get(s.slow_input, 0.0), REF_FLOOR)
            if o.status == "timeout":
                rep.facts.append(f"{s.slow_input}: {o.error}")
            elif o.status == "ok" and o.cpu >= SLOW_FACTOR * floor:
                rep.facts.append(
                    f"{s.slow_input}: {o.cpu:.2f}s CPU, {o.cpu / floor:.0f}x the reference"
                )
            else:
                rep.problems.append(
                    f"labelled {s.label} but big input {s.slow_input} gave {o.status} "
                    f"in {o.cpu:.3f}s CPU (reference {floor:.3f}s)"
                )
        if s.label in (WRONG, RAISES, HANGING):
            witness = big[s.witness_big] if s.witness_big else s.witness
            if witness is None:
                rep.problems.append("no witness input recorded")
                return rep
            _, ref_w = checker.run(spec, spec.reference, [witness], cpu=10.0)
            _, (o,) = checker.run(spec, s.code, [witness], cpu=SMALL_CPU, wall=4.0)
            want = ref_w[0].value
            if s.label == WRONG:
                if not same(spec, want, s.expected):
                    rep.problems.append(f"recorded expected {s.expected!r}, reference {want!r}")
                if o.status != "ok" or not same(spec, o.value, s.got):
                    rep.problems.append(
                        f"recorded got {s.got!r}, this run: {o.status} {o.value!r} {o.error or ''}"
                    )
                if same(spec, o.value, want):
                    rep.problems.append("its answer on the witness is right")
                if s.fails_examples is None or s.fails_examples == rep.passes_examples:
                    rep.problems.append(
                        f"fails_examples recorded {s.fails_examples}, "
                        f"found {not rep.passes_examples}"
                    )
            elif s.label == RAISES:
                if s.error == "MemoryError" and o.status == "memory":
                    pass  # the sandbox reports a MemoryError as the memory status
                elif o.status != "error" or not (o.error or "").startswith(s.error or "?"):
                    rep.problems.append(
                        f"expected {s.error} on the witness, got {o.status} {o.error!r}"
                    )
            elif o.status != "timeout":
                rep.problems.append(f"expected a timeout on the witness, got {o.status}")
        return rep

    reports = list(pool.map(one, range(len(spec.solutions))))
    for rep in reports:
        for p in rep.problems:
            problems.append(f"#{rep.index} ({rep.label}): {p}")

    # plurality: the recorded split on the recorded input, and how often it happens at random
    loading = [r for r in reports if r.loads]
    if spec.plurality is not None:
        p = spec.plurality
        _, (r0,) = checker.run(spec, spec.reference, [p.input], cpu=10.0)
        outs = {}
        for r in loading:
            s = spec.solutions[r.index]
            wall = 30.0 if s.sleeps else None
            _, (o,) = checker.run(spec, s.code, [p.input], cpu=SMALL_CPU, wall=wall)
            outs[r.index] = o
        sizes, plural, majority = split_of(spec, outs, r0.value)
        passing = {i: o for i, o in outs.items() if reports[i].passes_examples}
        sizes_p, _, majority_p = split_of(spec, passing, r0.value)
        if not plural or majority:
            problems.append(
                f"plurality input: split {sizes}, plurality {plural}, majority {majority}"
            )
        if sizes != p.split or sizes_p != p.split_passing:
            problems.append(
                f"plurality input: split {sizes} (recorded {p.split}), among those passing the "
                f"examples {sizes_p} (recorded {p.split_passing}, majority {majority_p})"
            )
    no_majority = 0
    for k in range(len(examples), len(inputs)):
        outs = {r.index: r.small[k] for r in loading if r.small[k].status != "skipped"}
        _, _, majority = split_of(spec, outs, right[k])
        no_majority += not majority
    counts = label_counts([label_of(spec, i) for i in range(len(spec.solutions))])
    costly = sum(counts[c] for c in COSTLY)
    print(
        f"{spec.slug}: {len(spec.solutions)} solutions {dict(sorted(counts.items()))}; "
        f"{costly} slow/exponential/hanging; the right answer lacks a strict majority on "
        f"{no_majority}/{len(inputs) - len(examples)} random inputs; "
        f"{time.monotonic() - t0:.0f}s",
        flush=True,
    )
    for rep in reports:
        if rep.facts:
            ex = "passes" if rep.passes_examples else "fails"
            print(f"  #{rep.index} {rep.label}: {ex} the examples; {'; '.join(rep.facts)}")
    return [f"{spec.slug}: {p}" for p in problems]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="verify every claim in the sandbox")
    ap.add_argument("--only", action="append", default=[], help="a slug (repeatable)")
    ap.add_argument("--random", type=int, default=250, help="random inputs per question")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    specs = load_specs()
    if not args.check:
        for path in write_all(specs):
            print(f"wrote {path.relative_to(HERE.parents[2])}")
        return 0
    chosen = [s for s in specs if not args.only or s.slug in args.only]
    t0 = time.monotonic()
    problems: list[str] = []
    with ThreadPoolExecutor(args.workers) as pool:
        for spec in chosen:
            problems += check_spec(spec, Checker(args.workers), args.random, pool)
    print(f"checked {len(chosen)} questions in {time.monotonic() - t0:.0f}s")
    for p in problems:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
