"""Reading model samples: the formats code-generation harnesses write.

- JSONL, one sample per line: ``{"task_id" | "slug_name": ..., "completion" | "solution": ...}``
  (extra fields are kept, e.g. ``model``);
- Mercury's JSON: ``{slug: [{"task_id": ..., "completion": ...}, ...], ...}``;
- a JSON list of the JSONL objects.

A malformed line or entry is set aside with its reason; the others still load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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
_CODE_KEYS = ("completion", "solution", "code")


def _pick(obj: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for k in keys:
        if obj.get(k) not in (None, ""):
            return obj[k]
    return None


def _all_lines_parse(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    try:
        for ln in lines:
            json.loads(ln)
    except ValueError:
        return False
    return len(lines) > 1


def load_samples(path: str | Path) -> SampleSet:
    path = Path(path)
    result = SampleSet()
    counts: dict[str, int] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        result.rejects.append((str(path), f"cannot read: {exc}"))
        return result

    def add(obj: Any, source: str, task_hint: str | None = None) -> None:
        if not isinstance(obj, dict):
            result.rejects.append((source, f"expected an object, got {type(obj).__name__}"))
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
            if path.suffix == ".json" and not _all_lines_parse(text):
                result.rejects.append((str(path), f"invalid JSON: {exc}"))
                return result
            whole = False  # not one JSON document: read it as JSONL, line by line
    if not whole:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                result.rejects.append((f"{path}:{n}", f"invalid JSON: {exc}"))
                continue
            add(obj, f"{path}:{n}")
        return result
    if isinstance(doc, list):
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
