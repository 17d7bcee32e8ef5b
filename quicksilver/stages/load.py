"""Stage 1, load: snapshot folders -> task records and normalised, hashed Python 3 solutions.

Outputs (``stages/load/``): ``tasks.jsonl`` (one record per question, the question as scraped plus
what later stages need: statement text, starter code, example inputs), ``solutions.jsonl`` (one
record per solution: slug, hash, normalised code, position in the file, where it came from) and
``rejects.jsonl`` (malformed files, repeated questions, other languages, code that does not
parse).
"""

from __future__ import annotations

import ast
import hashlib
import logging
import textwrap
from pathlib import Path
from typing import Any

from quicksilver.sources.convert import parse_example_testcase
from quicksilver.sources.snapshot import SnapshotFile, load_snapshot_dir
from quicksilver.sources.text import html_to_text
from quicksilver.stages.base import StageCounts, reject, solution_hash

log = logging.getLogger(__name__)

PYTHON3 = {"python3"}


def normalise_code(code: str) -> str:
    """Line endings to LF, trailing spaces off each line, common indent and blank edges removed."""
    lines = [ln.rstrip() for ln in code.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return textwrap.dedent("\n".join(lines)).strip("\n") + "\n"


def _examples(snap: SnapshotFile, n_params: int | None) -> tuple[list[list[Any]], str | None]:
    """The statement's example inputs: exampleTestcaseList, else the file's kept tests."""
    q = snap.question
    if q.exampleTestcaseList and n_params is not None:
        out = []
        for i, text in enumerate(q.exampleTestcaseList):
            try:
                out.append(parse_example_testcase(text, n_params))
            except ValueError as exc:
                return [], f"exampleTestcaseList[{i}]: {exc}"
        return out, None
    return [list(t["input"]) for t in snap.tests or [] if isinstance(t.get("input"), list)], None


def task_record(snap: SnapshotFile, path: Path) -> dict[str, Any]:
    q = snap.question
    meta = q.meta() if q.metaData else {}
    n_params = len(meta["params"]) if isinstance(meta.get("params"), list) else None
    examples, example_error = _examples(snap, n_params)
    known = [
        {"input": list(t["input"]), "expected": t["expected"]}
        for t in snap.tests or []
        if isinstance(t, dict) and "input" in t and "expected" in t
    ]
    return {
        "slug": snap.slug,
        "id": q.questionFrontendId,
        "source": snap.provenance.source,
        "snapshot_path": str(path),
        "snapshot_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "question": q.model_dump(mode="json"),
        "meta": meta,
        "difficulty": q.difficulty,
        "statement": html_to_text(q.content),
        "prompt": q.python3_snippet() or "",
        "examples": examples,
        "example_error": example_error,
        "known_tests": known,  # the file's tests with expected answers (statement examples)
        "entry_point": meta.get("name") or snap.entry_point,
    }


def load_stage(snapshot_dirs: list[Path], only: list[str] | None = None) -> dict[str, Any]:
    """Returns {"tasks", "solutions", "rejects", "counts"} (lists of records, StageCounts)."""
    counts = StageCounts("load")
    tasks: list[dict[str, Any]] = []
    solutions: list[dict[str, Any]] = []
    rejects: list[dict[str, Any]] = []
    seen: dict[str, str] = {}
    for directory in snapshot_dirs:
        loaded = load_snapshot_dir(directory)
        for bad in loaded.rejects:
            counts.tasks_in += 1
            counts.drops["malformed-file"] += 1
            rejects.append(
                {
                    "slug": Path(bad.path).stem,
                    "path": bad.path,
                    "reason": "malformed-file",
                    "detail": f"{bad.path}: {bad.reason}",
                }
            )
        for snap, path in zip(loaded.files, loaded.paths, strict=True):
            if only is not None and snap.slug not in only:
                continue
            counts.tasks_in += 1
            counts.solutions_in += len(snap.solutions)
            if snap.slug in seen:
                counts.drops["duplicate-question"] += 1
                detail = f"{snap.slug}: already loaded from {seen[snap.slug]}"
                rejects.append(
                    {
                        "slug": snap.slug,
                        "path": str(path),
                        "reason": "duplicate-question",
                        "detail": detail,
                    }
                )
                # the copy's solutions go with it (counted in solutions_in above)
                rejects.extend(
                    reject(
                        {"slug": snap.slug, "path": str(path), "position": pos, "code": sol.code},
                        "duplicate-question",
                        detail,
                    )
                    for pos, sol in enumerate(snap.solutions)
                )
                continue
            seen[snap.slug] = str(path)
            tasks.append(task_record(snap, path))
            for pos, sol in enumerate(snap.solutions):
                rec = {
                    "slug": snap.slug,
                    "position": pos,
                    "source": sol.source,
                    "model": sol.model,
                    "url": sol.url,
                    "runtime_reported": sol.runtime,
                    "lang": sol.lang,
                }
                if sol.lang not in PYTHON3:
                    counts.drops["not-python3"] += 1
                    rejects.append(
                        reject(
                            {**rec, "code": sol.code},
                            "not-python3",
                            f"{snap.slug} solution #{pos}: language {sol.lang!r}",
                        )
                    )
                    continue
                code = normalise_code(sol.code)
                try:
                    ast.parse(code, filename=f"{snap.slug}#{pos}")
                except SyntaxError as exc:
                    counts.drops["syntax-error"] += 1
                    rejects.append(
                        reject(
                            {**rec, "code": code},
                            "syntax-error",
                            f"{snap.slug} solution #{pos}: line {exc.lineno}: {exc.msg}",
                        )
                    )
                    continue
                solutions.append({**rec, "code": code, "hash": solution_hash(code)})
    counts.tasks_out = len(tasks)
    counts.solutions_out = len(solutions)
    return {"tasks": tasks, "solutions": solutions, "rejects": rejects, "counts": counts}
