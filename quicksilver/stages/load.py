"""Stage 1, load: snapshot folders -> one :class:`TaskRecord` per question, with its normalised,
hashed Python 3 solutions.

The task is the question as scraped plus what later stages need (statement text, starter code,
example inputs, the statement's known answers). Set aside, each with its reason: malformed files
(``malformed-file``), a question already loaded from another folder (``duplicate-question``, with
its solutions), solutions in another language (``not-python3``) and code that does not parse
(``syntax-error``).

A solution that uses a name the sandbox injects and Mercury's evaluator does not (``Counter``,
``SortedList``, ...) gets the import line for it here, before it is hashed
(:mod:`quicksilver.selfcontained`): what is tested, measured and published is the self-contained
code, and ``imports_added`` records the lines.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from quicksilver import astparse
from quicksilver.config import FunctionsSection
from quicksilver.pipeline.records import Solution, Task, TaskRecord, solution_hash
from quicksilver.pipeline.stage import Context, Stage
from quicksilver.pipeline.synthesis import normalise_code
from quicksilver.selfcontained import add_imports
from quicksilver.sources.check import is_function_style
from quicksilver.sources.convert import UnsupportedSignature, parse_example_testcase
from quicksilver.sources.functions import (
    Call,
    example_calls,
    infer_signature,
    inferred_constraints,
)
from quicksilver.sources.snapshot import SnapshotFile, SnapshotSolution, load_snapshot_dir
from quicksilver.sources.text import html_to_text

log = logging.getLogger(__name__)

PYTHON3 = {"python3"}


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


def _function_style(
    snap: SnapshotFile, max_length: int
) -> tuple[dict[str, Any], str | None, list[str], list[Call]]:
    """(meta, why not, constraints, calls) of a function-style task, from its example calls."""
    assert snap.entry_point is not None
    prompt = snap.question.python3_snippet() or ""
    calls = example_calls(
        snap.entry_point, prompt=prompt, tests=snap.tests, test_code=snap.test_code
    )
    if snap.question.metaData:  # a source that states the types: they stand
        meta = snap.question.meta()
    else:
        try:
            meta = infer_signature(snap.entry_point, prompt, calls)
        except UnsupportedSignature as exc:
            log.info("%s: no signature inferred: %s", snap.slug, exc)
            return {}, str(exc), [], calls
    n = len(meta.get("params", []))
    usable = [c for c in calls if len(c.args) == n]
    return meta, None, inferred_constraints(meta, usable, max_length=max_length), usable


def task_record(snap: SnapshotFile, path: Path, *, max_length: int = 100_000) -> Task:
    """The :class:`Task` of a snapshot file (``max_length``: see ``FunctionsSection``)."""
    q = snap.question
    meta = q.meta() if q.metaData else {}
    kind: Literal["class", "function"] = "class"
    signature_error: str | None = None
    constraints: list[str] = []
    known = [
        {"input": list(t["input"]), "expected": t["expected"]}
        for t in snap.tests or []
        if isinstance(t, dict) and "input" in t and "expected" in t
    ]
    if is_function_style(snap):
        kind = "function"
        meta, signature_error, constraints, calls = _function_style(snap, max_length)
        # the task's own inputs: its tests, the asserts of its test code, its prompt's examples
        examples = [a for a in (_as_json(list(c.args)) for c in calls) if a is not None]
        example_error = None
        seen = {json.dumps(t["input"], sort_keys=True, default=repr) for t in known}
        for c in calls:  # the asserts' answers too (the prompt's prose examples are inputs only)
            plain = _as_json([list(c.args), c.expected])
            if not c.has_expected or c.origin == "prompt" or plain is None:
                continue
            key = json.dumps(plain[0], sort_keys=True)
            if key not in seen:
                seen.add(key)
                known.append({"input": plain[0], "expected": plain[1]})
    else:
        n_params = len(meta["params"]) if isinstance(meta.get("params"), list) else None
        examples, example_error = _examples(snap, n_params)
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
        kind=kind,
        signature_error=signature_error,
        constraints=constraints,
        release_date=snap.release.date.isoformat() if snap.release else None,
        release_date_source=snap.release.provenance if snap.release else None,
    )


def _as_json(value: Any) -> Any:
    """``value`` as JSON carries it (tuples become lists, as answers do); None when it cannot."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        return None


def _solution(
    slug: str, pos: int, sol: SnapshotSolution, code: str, imports_added: list[str] | None = None
) -> Solution:
    return Solution(
        slug=slug,
        position=pos,
        source=sol.source,
        model=sol.model,
        url=sol.url,
        runtime_reported=sol.runtime,
        imports_added=imports_added or [],
        lang=sol.lang,
        code=code,
        hash=solution_hash(code),
    )


def load(
    ctx: Context,
    records: list[TaskRecord],
    *,
    snapshots: list[Path],
    only: list[str] | None,
    functions: FunctionsSection = FunctionsSection(),  # noqa: B008 (a frozen default)
) -> list[TaskRecord]:
    """Every question of the snapshot folders (``only`` these slugs, when given); a
    function-style task's signature and input bounds are inferred from its example calls."""
    del records  # the first stage: it reads the snapshot folders
    out: list[TaskRecord] = []
    seen: dict[str, str] = {}
    amended: Counter[str] = Counter()  # per task: solutions given imports
    lines: Counter[str] = Counter()  # per import line: solutions given it
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
                    astparse.parse(code, filename=f"{snap.slug}#{pos}")
                except SyntaxError as exc:
                    ctx.drop(
                        _solution(snap.slug, pos, sol, code),
                        "syntax-error",
                        f"{snap.slug} solution #{pos}: line {exc.lineno}: {exc.msg}",
                    )
                    continue
                code, added = add_imports(code)
                if added:
                    log.info("%s solution #%d: added %s", snap.slug, pos, "; ".join(added))
                    amended[snap.slug] += 1
                    for line in added:
                        lines[line] += 1
                kept.append(_solution(snap.slug, pos, sol, code, added))
            task = task_record(snap, path, max_length=functions.max_length)
            out.append(TaskRecord(task=task, solutions=kept))
    if amended:
        ctx.note(
            f"{sum(amended.values())} solution(s) of {len(amended)} task(s) use names the sandbox "
            "injects and Mercury's evaluator does not; each was given the import it needs ("
            + ", ".join(f"{line}: {n}" for line, n in sorted(lines.items()))
            + "; solution_provenance[].imports_added in the rows)"
        )
    return out


def _snapshot_files(cfg: Any) -> list[Path]:
    return [p for folder in cfg.snapshots for p in Path(folder).glob("*.json")]


LOAD = Stage(
    "load",
    logic=load,
    reads=("snapshots", "only", "functions"),
    inputs=_snapshot_files,
    fills=("task", "solutions"),
)
