"""Reading model samples: the formats code-generation harnesses write.

- JSONL, one sample per line: ``{"task_id" | "slug_name": ..., "completion" | "solution": ...}``
  (extra fields are kept, e.g. ``model``);
- Mercury's JSON: ``{slug: [{"task_id": ..., "completion": ...}, ...], ...}``;
- a JSON list of the JSONL objects;
- bigcode-evaluation-harness's ``generations.json``: a list per task of the task's programs, in
  the dataset's order, with no task names: the i-th list belongs to the split's i-th row (the
  sample's task is ``#i``, :data:`POSITIONAL`; scoring resolves it against the split it scores);
- an evalplus sample folder: one folder per task (``HumanEval_0``, ``two-sum``), its ``.py``
  files the samples (``0.py``, ``1.py``, ... in numeric order).

A malformed line or entry (invalid JSON, a byte that is not UTF-8, no task or code) is set aside
with its place (``file:line`` or ``file[i]``) and reason; the others still load.

For function-style tasks (HumanEval) a ``completion`` is often only the body that continues the
task's prompt: :func:`function_solution` makes the whole solution of it, as evalplus and the
bigcode harness do; for LeetCode's class-style tasks :func:`class_solution` does the same with
a completion that holds only the method's body. A sample's ``task_id`` may be the benchmark's
own (``HumanEval/0``): its :func:`slug_form` is the slug the snapshot converter gave the task.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver import astparse


@dataclass(frozen=True)
class Sample:
    task: str  # the task_id or slug_name the sample names
    code: str
    index: int  # position among the samples of its task, in file order
    source: str  # file:line or file:slug[i]
    extra: dict[str, Any] = field(default_factory=dict)
    position: int = field(default=0, compare=False)  # place in the file, across tasks


@dataclass
class SampleSet:
    samples: list[Sample] = field(default_factory=list)
    rejects: list[tuple[str, str]] = field(default_factory=list)  # (source, reason)

    def by_task(self) -> dict[str, list[Sample]]:
        out: dict[str, list[Sample]] = {}
        for s in self.samples:
            out.setdefault(s.task, []).append(s)
        return out


_TASK_KEYS = ("task_id", "slug_name", "slug", "problem")
POSITIONAL = re.compile(r"#(\d+)")
"""A task named by its place in the split (bigcode's generations.json): ``#0`` is the first row."""
_CODE_KEYS = ("completion", "solution", "code")


def _pick(obj: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for k in keys:
        if obj.get(k) not in (None, ""):
            return obj[k]
    return None


def _looks_like_jsonl(text: str) -> bool:
    """Several lines, the first a JSON object of its own: JSONL, whatever the other lines hold."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if len(lines) < 2:
        return False
    try:
        return isinstance(json.loads(lines[0]), dict)
    except ValueError:
        return False


def _undecodable(value: Any) -> str | None:
    """Where ``value`` holds text that was not UTF-8 (read with surrogateescape), in words."""
    if isinstance(value, str):
        for column, ch in enumerate(value, 1):
            if "\udc80" <= ch <= "\udcff":
                return f"not UTF-8 text: byte 0x{ord(ch) - 0xDC00:02x} at column {column}"
            if "\ud800" <= ch <= "\udfff":
                return f"not UTF-8 text: a lone surrogate U+{ord(ch):04X} at column {column}"
        return None
    if isinstance(value, dict):
        items: list[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, list):
        items = value
    else:
        return None
    for item in items:
        found = _undecodable(item)
        if found:
            return found.split(" at column")[0]  # columns of a nested value mean nothing
    return None


def slug_form(name: str) -> str:
    """A benchmark's task id as the snapshot converters make slugs of it: ``HumanEval/0`` ->
    ``humaneval-0`` (``Mbpp/2`` -> ``mbpp-2``); a LeetCode slug is its own slug form."""
    return name.strip().lower().replace("/", "-").replace("_", "-")


def defines_function(code: str, name: str) -> bool:
    """Whether ``code`` defines a top-level function ``name`` (a textual check when it does not
    parse: the judge reports the syntax error)."""
    try:
        tree = astparse.parse(code)
    except (SyntaxError, ValueError):
        return re.search(rf"^def\s+{re.escape(name)}\s*\(", code, re.M) is not None
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        for node in tree.body
    )


def function_solution(prompt: str, entry_point: str, completion: str) -> str:
    """A function-style task's solution from a completion, as HumanEval's harness, evalplus and
    the bigcode harness take it: a completion that defines the entry point is the whole solution;
    otherwise it is the body that continues the prompt, and the prompt is put before it."""
    if defines_function(completion, entry_point):
        return completion
    return prompt + completion


def class_solution(prompt: str, completion: str) -> str:
    """A LeetCode (class-style) task's solution from a completion: a completion that defines
    ``class Solution`` is the whole solution; otherwise it is the body of the prompt's last
    method, put under it (indented as the prompt's body when it is not already). A completion
    that still does not parse is returned as it is: the judge reports its error."""
    if re.search(r"^class\s+Solution\b", completion, re.M):
        return completion
    lines = prompt.rstrip().split("\n")
    defs = [i for i, ln in enumerate(lines) if re.match(r"\s*def\s+\w+\s*\(", ln)]
    if not defs or not completion.strip():
        return completion
    head = "\n".join(lines[: defs[-1] + 1])
    indent = " " * (len(lines[defs[-1]]) - len(lines[defs[-1]].lstrip()) + 4)
    body = completion.strip("\n")
    first = next(ln for ln in body.split("\n") if ln.strip())
    if not first.startswith(indent):
        body = textwrap.indent(textwrap.dedent(body), indent)
    code = f"{head}\n{body}\n"
    try:
        astparse.parse(code)
    except (SyntaxError, ValueError):
        return completion
    return code


def _load_folder(path: Path) -> SampleSet:
    """An evalplus sample folder: ``<task>/<n>.py`` (module docstring)."""
    result = SampleSet()
    for folder in sorted(p for p in path.iterdir() if p.is_dir()):
        files = sorted(
            folder.glob("*.py"),
            key=lambda f: (0, int(f.stem), "") if f.stem.isdigit() else (1, 0, f.name),
        )
        for idx, f in enumerate(files):
            source = str(f)
            try:
                code = f.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                result.rejects.append((source, f"cannot read: {exc}"))
                continue
            if not code.strip():
                result.rejects.append((source, f"task {folder.name}: an empty file"))
                continue
            result.samples.append(Sample(folder.name, code, idx, source, {}, len(result.samples)))
    if not result.samples and not result.rejects:
        result.rejects.append((str(path), "a folder with no <task>/<n>.py sample files"))
    return result


def load_samples(path: str | Path) -> SampleSet:
    path = Path(path)
    if path.is_dir():
        return _load_folder(path)
    result = SampleSet()
    counts: dict[str, int] = {}
    try:
        raw = path.read_bytes()
    except OSError as exc:
        result.rejects.append((str(path), f"cannot read: {exc}"))
        return result
    # A byte that is not UTF-8 becomes a lone surrogate here, so that it costs only the line or
    # the entry that holds it (set aside with its place), never the whole file.
    text = raw.decode("utf-8", errors="surrogateescape")

    def add(obj: Any, source: str, task_hint: str | None = None) -> None:
        if not isinstance(obj, dict):
            result.rejects.append((source, f"expected an object, got {type(obj).__name__}"))
            return
        bad = _undecodable(obj)
        if bad:
            result.rejects.append((source, bad))
            return
        task = task_hint or _pick(obj, _TASK_KEYS)
        code = _pick(obj, _CODE_KEYS)
        if not isinstance(task, str | int) or task == "":
            result.rejects.append((source, "no task_id or slug_name"))
            return
        if not isinstance(code, str) or not code.strip():
            result.rejects.append((source, f"task {task}: no completion or solution text"))
            return
        key = str(task)
        idx = counts.get(key, 0)
        counts[key] = idx + 1
        extra = {k: v for k, v in obj.items() if k not in _TASK_KEYS + _CODE_KEYS}
        result.samples.append(Sample(key, code, idx, source, extra, len(result.samples)))

    doc: Any = None
    whole = path.suffix != ".jsonl"
    if whole:
        try:
            doc = json.loads(text)
        except ValueError as exc:
            if path.suffix == ".json" and not _looks_like_jsonl(text):
                result.rejects.append((str(path), f"invalid JSON: {exc}"))
                return result
            whole = False  # not one JSON document: read it as JSONL, line by line
    if not whole:
        # "\n" only: str.splitlines() also splits on U+2028 and friends, which JSON strings may
        # hold unescaped
        for n, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            bad = _undecodable(line)
            if bad:
                result.rejects.append((f"{path}:{n}", bad))
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                result.rejects.append((f"{path}:{n}", f"invalid JSON: {exc}"))
                continue
            add(obj, f"{path}:{n}")
        return result
    if isinstance(doc, list) and doc and all(isinstance(x, list) for x in doc):
        # bigcode-evaluation-harness: a list of programs per task, in the dataset's order
        for i, programs in enumerate(doc):
            for j, code in enumerate(programs):
                add({"solution": code}, f"{path}[{i}][{j}]", task_hint=f"#{i}")
    elif isinstance(doc, list):
        for i, obj in enumerate(doc):
            add(obj, f"{path}[{i}]")
    elif isinstance(doc, dict) and not _pick(doc, _CODE_KEYS):
        # Mercury: {slug: [{task_id, completion}, ...]}; the key names the task.
        for slug, items in doc.items():
            if not isinstance(items, list):
                result.rejects.append((f"{path}:{slug}", "expected a list of samples"))
                continue
            for i, obj in enumerate(items):
                add(obj, f"{path}:{slug}[{i}]", task_hint=str(slug))
    else:
        add(doc, str(path))
    return result
