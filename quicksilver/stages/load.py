"""Stage 1, load: snapshot folders -> one :class:`TaskRecord` per question, with its normalised,
hashed Python 3 solutions.

The task is the question as scraped plus what later stages need (statement text, starter code,
example inputs, the statement's known answers). Set aside, each with its reason: malformed files
(``malformed-file``), a question already loaded from another folder (``duplicate-question``, with
its solutions), solutions in another language (``not-python3``) and code that does not parse
(``syntax-error``).
"""

from __future__ import annotations

import ast
import hashlib
import logging
import textwrap
from pathlib import Path
from typing import Any

from quicksilver.pipeline.records import Solution, Task, TaskRecord, solution_hash
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.sources.convert import parse_example_testcase
from quicksilver.sources.snapshot import SnapshotFile, SnapshotSolution, load_snapshot_dir
from quicksilver.sources.text import html_to_text

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


def task_record(snap: SnapshotFile, path: Path) -> Task:
    """The :class:`Task` of a snapshot file."""
    q = snap.question
    meta = q.meta() if q.metaData else {}
    n_params = len(meta["params"]) if isinstance(meta.get("params"), list) else None
    examples, example_error = _examples(snap, n_params)
    known = [
        {"input": list(t["input"]), "expected": t["expected"]}
        for t in snap.tests or []
        if isinstance(t, dict) and "input" in t and "expected" in t
    ]
    return Task(
        slug=snap.slug,
        id=q.questionFrontendId,
        source=snap.provenance.source,
        snapshot_path=str(path),
        snapshot_sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
        question=q.model_dump(mode="json"),
        meta=meta,
        difficulty=q.difficulty,
        statement=html_to_text(q.content),
        prompt=q.python3_snippet() or "",
        examples=examples,
        example_error=example_error,
        known_tests=known,  # the file's tests with expected answers (statement examples)
        entry_point=meta.get("name") or snap.entry_point,
        release_date=snap.release.date.isoformat() if snap.release else None,
        release_date_source=snap.release.provenance if snap.release else None,
    )


def _solution(slug: str, pos: int, sol: SnapshotSolution, code: str) -> Solution:
    return Solution(
        slug=slug,
        position=pos,
        source=sol.source,
        model=sol.model,
        url=sol.url,
        runtime_reported=sol.runtime,
        lang=sol.lang,
        code=code,
        hash=solution_hash(code),
    )


def load(
    ctx: Context, records: list[TaskRecord], *, snapshots: list[Path], only: list[str] | None
) -> list[TaskRecord]:
    """Every question of the snapshot folders (``only`` these slugs, when given)."""
    del records  # the first stage: it reads the snapshot folders
    out: list[TaskRecord] = []
    seen: dict[str, str] = {}
    for directory in snapshots:
        loaded = load_snapshot_dir(directory)
        for bad in loaded.rejects:
            stem = Path(bad.path).stem
            ctx.drop(
                TaskRecord(task=Task(slug=stem)),
                "malformed-file",
                f"{bad.path}: {bad.reason}",
                path=bad.path,
            )
        for snap, path in zip(loaded.files, loaded.paths, strict=True):
            if only is not None and snap.slug not in only:
                continue
            if snap.slug in seen:
                copy = TaskRecord(
                    task=Task(slug=snap.slug),
                    solutions=[
                        _solution(snap.slug, pos, sol, sol.code)
                        for pos, sol in enumerate(snap.solutions)
                    ],
                )
                # the copy's solutions go with it
                detail = f"{snap.slug}: already loaded from {seen[snap.slug]}"
                ctx.drop(copy, "duplicate-question", detail, path=str(path))
                continue
            seen[snap.slug] = str(path)
            kept: list[Solution] = []
            for pos, sol in enumerate(snap.solutions):
                if sol.lang not in PYTHON3:
                    ctx.drop(
                        _solution(snap.slug, pos, sol, sol.code),
                        "not-python3",
                        f"{snap.slug} solution #{pos}: language {sol.lang!r}",
                    )
                    continue
                code = normalise_code(sol.code)
                try:
                    ast.parse(code, filename=f"{snap.slug}#{pos}")
                except SyntaxError as exc:
                    ctx.drop(
                        _solution(snap.slug, pos, sol, code),
                        "syntax-error",
                        f"{snap.slug} solution #{pos}: line {exc.lineno}: {exc.msg}",
                    )
                    continue
                kept.append(_solution(snap.slug, pos, sol, code))
            out.append(TaskRecord(task=task_record(snap, path), solutions=kept))
    return out


def _snapshot_files(cfg: Any) -> list[Path]:
    return [p for folder in cfg.snapshots for p in Path(folder).glob("*.json")]


LOAD = Stage(
    "load",
    logic=load,
    reads=("snapshots", "only"),
    inputs=_snapshot_files,
)
