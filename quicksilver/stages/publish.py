"""Stage 9, publish: validated Mercury-format rows -> Parquet, ``save_to_disk`` and a dataset card;
and the release of such a folder to the Hugging Face Hub.

The rows carry Mercury's published columns unchanged (names, types, meanings), so the original
Mercury tooling reads them, plus Quicksilver's provenance columns. :data:`MERCURY_FEATURES` pins
every type explicitly: nothing is inferred from the data, so one odd row cannot change a column's
type, and the Hub, ``load_dataset`` and ``load_from_disk`` all see the same schema.

Nothing is written or pushed unless every row of every split passes :func:`validate_rows` (and
the cross-split checks): a :class:`SchemaError` lists each problem with its split, row index,
``slug_name`` and field.

Layout written by :func:`write_dataset` (see docs/publishing.md)::

    OUT/parquet/<split>.parquet   one file per split (HF features in the Parquet metadata)
    OUT/hf/                       DatasetDict.save_to_disk
    OUT/README.md                 the dataset card; written last, removed first when rewriting:
                                  a folder without it is an unfinished write
"""

from __future__ import annotations

import ast
import json
import logging
import math
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import yaml
from datasets import Features, List, Value

from quicksilver import __version__
from quicksilver.stages.report import drop_totals, drops_summary

if TYPE_CHECKING:
    from datasets import DatasetDict

log = logging.getLogger(__name__)

DIFFICULTIES = ("Easy", "Medium", "Hard")
GENERATOR_PATHS = ("offline", "llm")
CARD_FILENAME = "README.md"
TOKEN_ENV_VARS = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")

# --- the schema ---------------------------------------------------------------------------------

_S = Value("string")

_QUESTION = {
    "questionId": _S,
    "questionFrontendId": _S,
    "questionTitle": _S,
    "questionTitleSlug": _S,
    "content": _S,
    "difficulty": _S,
    "categoryTitle": _S,
    "stats": _S,
    "topicTags": List({"name": _S, "slug": _S}),
    "similarQuestions": _S,
}

_MERCURY = {
    "id": _S,
    "slug_name": _S,
    "meta_info": {"data": {"question": _QUESTION}},
    "difficulty": _S,
    "pretty_content": List(_S),
    "solutions": List({"hash": Value("int64"), "runtime": _S, "solution": _S}),
    "prompt": _S,
    "entry_point": _S,
    "generator_code": _S,
    "test_cases": _S,
    "convert_online": _S,
    "convert_offline": _S,
    "evaluate_offline": _S,
}

_PROVENANCE = {
    "source": _S,
    "snapshot_sha256": _S,
    "generator_path": _S,
    "generator_model": _S,
    "test_seed": Value("int64"),
    "n_generated_cases": Value("int32"),
    "n_example_cases": Value("int32"),
    "answer_any_order": Value("bool"),
    "solution_provenance": List(
        {"hash": Value("int64"), "source": _S, "model": _S, "url": _S, "runtime_reported": _S}
    ),
    "runtime_meter": _S,
    "runtime_unit": _S,
    "instruction_rate": Value("float64"),
    "reference_runtimes": List(
        {
            "hash": Value("int64"),
            "runtime": Value("float64"),
            "ci_low": Value("float64"),
            "ci_high": Value("float64"),
            "rounds": Value("int32"),
            "converged": Value("bool"),
            "flags": List(_S),
        }
    ),
    "machine_id": _S,
    "machine": _S,
    "quicksilver_version": _S,
    "build_config_sha256": _S,
}

MERCURY_FIELDS: tuple[str, ...] = tuple(_MERCURY)
"""Mercury's published columns, in Mercury's order."""
PROVENANCE_FIELDS: tuple[str, ...] = tuple(_PROVENANCE)
"""Quicksilver's columns: where each row came from and how its references were measured."""

MERCURY_FEATURES = Features({**_MERCURY, **_PROVENANCE})
"""Explicit ``datasets`` features of a published row: Mercury's columns, then provenance."""

NULLABLE_FIELDS = frozenset(
    {
        # Mercury's own rows (and quicksilver.records) allow a solution without a judge runtime.
        "solutions[].runtime",
        "solution_provenance[].model",
        "solution_provenance[].url",
        "solution_provenance[].runtime_reported",
        "instruction_rate",  # only an instruction meter needs it
    }
)
"""Generic paths (list indices as ``[]``) of the only values that may be null."""

FIELD_DOCS: dict[str, str] = {
    "id": "LeetCode frontend question id, as a string of digits",
    "slug_name": "LeetCode title slug (`two-sum`); unique in the dataset",
    "meta_info": "`{data: {question: {...}}}`: the question as LeetCode's GraphQL API returns it "
    "(`stats` and `similarQuestions` are JSON strings)",
    "difficulty": "`Easy`, `Medium` or `Hard`",
    "pretty_content": "`[statement]`: the problem statement as plain text",
    "solutions": "reference solutions `{hash, runtime, solution}`: int64 content hash, runtime "
    'as a judge-style string ("1.2ms"; Quicksilver writes its own measurement, the judge\'s is '
    "in `solution_provenance`; null allowed for Mercury's rows), Python 3 source",
    "prompt": "starter code (the `class Solution` stub) given to a model",
    "entry_point": "name of the method (or function) the tests call",
    "generator_code": "Python source of the test-input generator",
    "test_cases": 'JSON list of `{"input": [args...], "expected": value}`',
    "convert_online": "code formatting a case as LeetCode's online judge takes it",
    "convert_offline": "code turning a stored case into call arguments (empty: identity)",
    "evaluate_offline": "code judging an output against the expected value (empty: equality; "
    "any order when `answer_any_order`)",
    "source": "where the question came from: `bundled`, `leetcode`, ...",
    "snapshot_sha256": "sha256 of the snapshot file the row was built from",
    "generator_path": "`offline` (constraint-driven synthesizer) or `llm` (model-written)",
    "generator_model": "model that wrote the generator (`llm` rows); for `offline` rows the "
    "synthesizer's name and version",
    "test_seed": "seed the generator ran with for this task",
    "n_generated_cases": "test cases drawn from the generator",
    "n_example_cases": "test cases taken from the statement's examples",
    "answer_any_order": "whether a list answer is accepted in any order",
    "solution_provenance": "per solution hash: `source`, `model`, `url`, `runtime_reported` "
    "(nulls when unknown)",
    "runtime_meter": "meter of `reference_runtimes`: `icount`, `cpu`, `instructions`",
    "instruction_rate": "instruction meters: instructions per CPU second of the build machine, "
    "measured against the cpu meter; it converts the counts into `solutions[].runtime` strings "
    "(null for the cpu meter)",
    "runtime_unit": "unit of `reference_runtimes` (`s` or `instructions`)",
    "reference_runtimes": "per solution hash: measured cost over all test cases, its 95% CI, "
    "the passes taken, whether the measurement converged (always for icount) and why not "
    "(`flags`: budget, max-rounds, unconverged, few-rounds)",
    "machine_id": "short id of the machine the references were measured on",
    "machine": "that machine as JSON (CPU, cores, arch, kernel, Python)",
    "quicksilver_version": "version of Quicksilver that built the row",
    "build_config_sha256": "sha256 of the build configuration",
}

_DIGITS = re.compile(r"[0-9]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_SPLIT_NAME = re.compile(r"\w+(\.\w+)*")
_INDEX = re.compile(r"\[\d+\]")
_INT_RANGE = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
# Values that describe the build, not the task: one dataset, one value.
_ONE_PER_DATASET = ("runtime_meter", "runtime_unit", "build_config_sha256", "quicksilver_version")
_MAX_LISTED = 25


# --- validation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one row (or with a split, when ``index`` is None)."""

    split: str
    index: int | None
    slug: str | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"split {self.split!r}"
        if self.index is not None:
            where += f", row {self.index}"
            where += f" (slug_name {self.slug!r})" if self.slug else " (no slug_name)"
        return f"{where}: field {self.field!r}: {self.message}"


class SchemaError(ValueError):
    """Rows that do not match the published schema; every problem names split, row and field."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        first = self.problems[0]
        self.split, self.index, self.slug, self.field = (
            first.split,
            first.index,
            first.slug,
            first.field,
        )
        lines = [str(p) for p in self.problems[:_MAX_LISTED]]
        if len(self.problems) > _MAX_LISTED:
            lines.append(f"... and {len(self.problems) - _MAX_LISTED} more")
        noun = "problem" if len(self.problems) == 1 else "problems"
        super().__init__(f"{len(self.problems)} {noun}:\n" + "\n".join(lines))


def _kind(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", bool: "bool", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _check_type(feature: Any, value: Any, path: str, out: list[tuple[str, str]]) -> None:
    """Append (field path, message) for every place ``value`` does not fit ``feature``."""
    if isinstance(feature, dict):
        if not isinstance(value, dict):
            out.append((path, f"expected an object, got {_kind(value)}"))
            return
        for key in feature:
            if key not in value:
                out.append((f"{path}.{key}", "missing"))
        for key in value:
            if key not in feature:
                out.append((f"{path}.{key}", "unexpected field"))
        for key, sub in feature.items():
            if key in value:
                _check_type(sub, value[key], f"{path}.{key}", out)
        return
    if isinstance(feature, List):
        if not isinstance(value, list):
            out.append((path, f"expected a list, got {_kind(value)}"))
            return
        for i, item in enumerate(value):
            _check_type(feature.feature, item, f"{path}[{i}]", out)
        return
    assert isinstance(feature, Value), feature
    if value is None:
        if _INDEX.sub("[]", path) not in NULLABLE_FIELDS:
            out.append((path, "must not be null"))
        return
    dtype = feature.dtype
    if dtype == "string":
        if not isinstance(value, str):
            out.append((path, f"expected a string, got {_kind(value)}"))
    elif dtype in _INT_RANGE:
        low, high = _INT_RANGE[dtype]
        if type(value) is not int:
            out.append((path, f"expected {dtype}, got {_kind(value)}"))
        elif not low <= value <= high:
            out.append((path, f"{value} does not fit in {dtype}"))
    elif dtype == "float64":
        if type(value) not in (int, float):
            out.append((path, f"expected float64, got {_kind(value)}"))
        elif not math.isfinite(value):
            out.append((path, f"must be finite, got {value}"))
    elif dtype == "bool":
        if type(value) is not bool:
            out.append((path, f"expected bool, got {_kind(value)}"))
    else:  # pragma: no cover - a feature added without a check
        raise AssertionError(f"no check for dtype {dtype}")


def _parses(code: str, path: str, out: list[tuple[str, str]]) -> None:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        out.append(
            (
                path,
                f"not valid Python: {exc.msg if isinstance(exc, SyntaxError) else exc}"
                + (f" (line {line})" if line else ""),
            )
        )


def _json_field(text: str, path: str, out: list[tuple[str, str]]) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        out.append((path, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"))
        return None


def _check_hash_list(
    items: list[Any], name: str, solution_hashes: list[int], out: list[tuple[str, str]]
) -> None:
    """Entries keyed by solution hash: one each, for exactly the row's solutions."""
    hashes = [item.get("hash") for item in items]
    counts = Counter(hashes)
    for i, h in enumerate(hashes):
        if counts[h] > 1:
            out.append((f"{name}[{i}].hash", f"hash {h} appears {counts[h]} times"))
    have, want = set(hashes), set(solution_hashes)
    for h in sorted(want - have, key=str):
        out.append((name, f"no entry for solution hash {h}"))
    for i, h in enumerate(hashes):
        if h not in want:
            out.append((f"{name}[{i}].hash", f"hash {h} is not the hash of any solution"))


def _check_row(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """All problems of one row as (field path, message)."""
    out: list[tuple[str, str]] = []
    for name in MERCURY_FEATURES:
        if name not in row:
            out.append((name, "missing"))
    for name in row:
        if name not in MERCURY_FEATURES:
            out.append((str(name), "unexpected field (not in MERCURY_FEATURES)"))
    typed = []
    for name, feature in MERCURY_FEATURES.items():
        if name in row:
            before = len(out)
            _check_type(feature, row[name], name, out)
            typed.append(len(out) == before)
        else:
            typed.append(False)
    ok = dict(zip(MERCURY_FEATURES, typed, strict=True))

    def good(*names: str) -> bool:
        return all(ok[n] for n in names)

    # Mercury's columns.
    question: dict[str, Any] | None = (
        row["meta_info"]["data"]["question"] if ok["meta_info"] else None
    )
    if ok["id"]:
        if not _DIGITS.fullmatch(row["id"]) or str(int(row["id"])) != row["id"]:
            out.append(
                ("id", f"must be the frontend id in digits (no leading zeros), got {row['id']!r}")
            )
        elif question is not None and question["questionFrontendId"] != row["id"]:
            out.append(
                (
                    "id",
                    f"{row['id']!r} differs from meta_info.data.question.questionFrontendId "
                    f"{question['questionFrontendId']!r}",
                )
            )
    if ok["slug_name"]:
        if not _SLUG.fullmatch(row["slug_name"]):
            out.append(("slug_name", f"not a LeetCode slug (a-z, 0-9, '-'): {row['slug_name']!r}"))
        elif question is not None and question["questionTitleSlug"] != row["slug_name"]:
            out.append(
                (
                    "slug_name",
                    f"differs from meta_info.data.question.questionTitleSlug "
                    f"{question['questionTitleSlug']!r}",
                )
            )
    if ok["difficulty"]:
        if row["difficulty"] not in DIFFICULTIES:
            out.append(
                (
                    "difficulty",
                    f"must be one of {', '.join(DIFFICULTIES)}; got {row['difficulty']!r}",
                )
            )
        elif question is not None and question["difficulty"] != row["difficulty"]:
            out.append(
                (
                    "difficulty",
                    f"{row['difficulty']!r} differs from meta_info.data.question.difficulty "
                    f"{question['difficulty']!r}",
                )
            )
    if question is not None:
        base = "meta_info.data.question"
        for key in ("questionId", "questionTitle", "content"):
            if not question[key].strip():
                out.append((f"{base}.{key}", "must not be empty"))
        for key in ("stats", "similarQuestions"):
            _json_field(question[key], f"{base}.{key}", out)
        for i, tag in enumerate(question["topicTags"]):
            for key in ("name", "slug"):
                if not tag[key].strip():
                    out.append((f"{base}.topicTags[{i}].{key}", "must not be empty"))
    if ok["pretty_content"] and (not row["pretty_content"] or not row["pretty_content"][0].strip()):
        out.append(("pretty_content", "must hold the statement as its first item"))
    solution_hashes: list[int] | None = None
    if ok["solutions"]:
        solutions = row["solutions"]
        if not solutions:
            out.append(("solutions", "must hold at least one solution"))
        solution_hashes = [s["hash"] for s in solutions]
        counts = Counter(solution_hashes)
        for i, sol in enumerate(solutions):
            if counts[sol["hash"]] > 1:
                out.append(
                    (
                        f"solutions[{i}].hash",
                        f"hash {sol['hash']} appears {counts[sol['hash']]} times",
                    )
                )
            if not sol["solution"].strip():
                out.append((f"solutions[{i}].solution", "empty source"))
            else:
                _parses(sol["solution"], f"solutions[{i}].solution", out)
    if ok["prompt"] and not row["prompt"].strip():
        out.append(("prompt", "must not be empty"))
    if ok["entry_point"]:
        entry = row["entry_point"]
        if not entry.isidentifier():
            out.append(("entry_point", f"not a Python identifier: {entry!r}"))
        elif ok["prompt"] and not re.search(
            rf"^\s*def\s+{re.escape(entry)}\s*\(", row["prompt"], re.M
        ):
            out.append(("entry_point", f"prompt defines no method named {entry!r}"))
    if ok["generator_code"]:
        if not row["generator_code"].strip():
            out.append(("generator_code", "must not be empty"))
        else:
            _parses(row["generator_code"], "generator_code", out)
    for name in ("convert_online", "convert_offline", "evaluate_offline"):
        if ok[name] and row[name].strip():  # empty means Mercury's default
            _parses(row[name], name, out)
    n_cases: int | None = None
    if ok["test_cases"]:
        cases = _json_field(row["test_cases"], "test_cases", out)
        if cases is not None or row["test_cases"].strip() == "null":
            if not isinstance(cases, list):
                out.append(("test_cases", f"must be a JSON list of cases, got {_kind(cases)}"))
            elif not cases:
                out.append(("test_cases", "must hold at least one case"))
            else:
                n_cases = len(cases)
                for i, case in enumerate(cases):
                    if not isinstance(case, dict):
                        out.append((f"test_cases[{i}]", f"must be an object, got {_kind(case)}"))
                        continue
                    keys = set(case)
                    if keys != {"input", "expected"}:
                        missing = sorted({"input", "expected"} - keys)
                        extra = sorted(keys - {"input", "expected"})
                        detail = "; ".join(
                            part
                            for part in (
                                f"missing {', '.join(missing)}" if missing else "",
                                f"unexpected {', '.join(extra)}" if extra else "",
                            )
                            if part
                        )
                        out.append(
                            (f"test_cases[{i}]", f"keys must be input and expected ({detail})")
                        )
                    if "input" in case and not isinstance(case["input"], list):
                        out.append(
                            (
                                f"test_cases[{i}].input",
                                f"must be a list of arguments, got {_kind(case['input'])}",
                            )
                        )

    # Provenance.
    if ok["source"] and not row["source"].strip():
        out.append(("source", "must not be empty"))
    if ok["snapshot_sha256"] and not _SHA256.fullmatch(row["snapshot_sha256"]):
        out.append(("snapshot_sha256", "must be 64 lowercase hex digits"))
    if ok["generator_path"]:
        if row["generator_path"] not in GENERATOR_PATHS:
            out.append(("generator_path", f"must be offline or llm; got {row['generator_path']!r}"))
        elif (
            row["generator_path"] == "llm"
            and ok["generator_model"]
            and not row["generator_model"].strip()
        ):
            out.append(("generator_model", "an llm generator must name its model"))
    if good("n_generated_cases", "n_example_cases"):
        for name in ("n_generated_cases", "n_example_cases"):
            if row[name] < 0:
                out.append((name, f"must not be negative, got {row[name]}"))
        total = row["n_generated_cases"] + row["n_example_cases"]
        if n_cases is not None and total != n_cases:
            out.append(
                (
                    "n_generated_cases",
                    f"n_generated_cases + n_example_cases = {total}, "
                    f"but test_cases holds {n_cases}",
                )
            )
    if ok["solution_provenance"] and solution_hashes is not None:
        _check_hash_list(row["solution_provenance"], "solution_provenance", solution_hashes, out)
        for i, prov in enumerate(row["solution_provenance"]):
            if not prov["source"].strip():
                out.append((f"solution_provenance[{i}].source", "must not be empty"))
    for name in ("runtime_meter", "runtime_unit", "machine_id", "quicksilver_version"):
        if ok[name] and not row[name].strip():
            out.append((name, "must not be empty"))
    if ok["reference_runtimes"] and solution_hashes is not None:
        _check_hash_list(row["reference_runtimes"], "reference_runtimes", solution_hashes, out)
        for i, ref in enumerate(row["reference_runtimes"]):
            where = f"reference_runtimes[{i}]"
            if not all(math.isfinite(ref[k]) for k in ("runtime", "ci_low", "ci_high")):
                continue  # already reported as non-finite
            if ref["runtime"] < 0:
                out.append((f"{where}.runtime", f"must not be negative, got {ref['runtime']}"))
            if not ref["ci_low"] <= ref["runtime"] <= ref["ci_high"]:
                out.append(
                    (
                        where,
                        f"runtime {ref['runtime']} outside its interval "
                        f"[{ref['ci_low']}, {ref['ci_high']}]",
                    )
                )
            if ref["rounds"] < 1:
                out.append((f"{where}.rounds", f"must be at least 1, got {ref['rounds']}"))
    if ok["machine"]:
        machine = _json_field(row["machine"], "machine", out)
        if machine is not None and not isinstance(machine, dict):
            out.append(("machine", f"must be a JSON object, got {_kind(machine)}"))
    if ok["build_config_sha256"] and not _SHA256.fullmatch(row["build_config_sha256"]):
        out.append(("build_config_sha256", "must be 64 lowercase hex digits"))
    return out


def _row_problems(rows: Sequence[Any], split: str) -> list[Problem]:
    problems: list[Problem] = []
    if not _SPLIT_NAME.fullmatch(split):
        problems.append(
            Problem(split, None, None, "<split>", "split names are words: [A-Za-z0-9_.]")
        )
    if not rows:
        problems.append(Problem(split, None, None, "<split>", "a split needs at least one row"))
    seen: dict[str, dict[str, int]] = {"slug_name": {}, "id": {}}
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            problems.append(
                Problem(split, index, None, "<row>", f"a row is an object, got {_kind(row)}")
            )
            continue
        slug = row.get("slug_name") if isinstance(row.get("slug_name"), str) else None
        for path, message in _check_row(row):
            problems.append(Problem(split, index, slug, path, message))
        for key, where in seen.items():
            value = row.get(key)
            if isinstance(value, str) and value:
                if value in where:
                    problems.append(
                        Problem(split, index, slug, key, f"{value!r} repeats row {where[value]}")
                    )
                else:
                    where[value] = index
    return problems


def validate_rows(rows: list[dict[str, Any]], split: str) -> None:
    """Raise :class:`SchemaError` listing every problem of ``rows`` (one split); else None.

    Checked: exactly the fields of :data:`MERCURY_FEATURES` with their types, nested ones
    included (int64/int32 ranges, finite floats, nulls only where allowed); ``id`` digits equal to
    the question's frontend id; ``slug_name`` a slug equal to the question's; ``difficulty`` one of
    Easy/Medium/Hard and equal to the question's; ``stats``/``similarQuestions``/``machine`` JSON;
    a statement in ``pretty_content``; at least one solution, unique hashes, sources that parse;
    ``entry_point`` a ``def`` in ``prompt``; ``generator_code`` and conversion code that parse;
    ``test_cases`` a non-empty JSON list of ``{"input": [...], "expected": ...}`` whose length is
    ``n_generated_cases + n_example_cases``; ``solution_provenance`` and ``reference_runtimes``
    keyed by exactly the solution hashes; runtimes finite, not negative, within their CI; sha256
    fields in hex; ``slug_name`` and ``id`` unique in the split.
    """
    problems = _row_problems(rows, split)
    if problems:
        raise SchemaError(problems)


def _dataset_problems(splits: Mapping[str, Sequence[Any]]) -> list[Problem]:
    """Every split's row problems, then what must hold across splits."""
    problems: list[Problem] = []
    if not splits:
        return [Problem("<none>", None, None, "<splits>", "no splits to publish")]
    for split, rows in splits.items():
        problems.extend(_row_problems(rows, split))
    first_seen: dict[tuple[str, str], str] = {}
    values: dict[str, dict[Any, tuple[str, int]]] = {name: {} for name in _ONE_PER_DATASET}
    for split, rows in splits.items():
        for index, row in enumerate(rows):
            if not isinstance(row, Mapping):
                continue
            slug = row.get("slug_name") if isinstance(row.get("slug_name"), str) else None
            for key in ("slug_name", "id"):
                value = row.get(key)
                if not isinstance(value, str) or not value:
                    continue
                other = first_seen.setdefault((key, value), split)
                if other != split:
                    problems.append(
                        Problem(split, index, slug, key, f"{value!r} is also in split {other!r}")
                    )
            for name in _ONE_PER_DATASET:
                value = row.get(name)
                if isinstance(value, str):
                    values[name].setdefault(value, (split, index))
    for name, seen in values.items():
        if len(seen) > 1:
            where = ", ".join(f"{v!r} (split {s!r} row {i})" for v, (s, i) in seen.items())
            problems.append(
                Problem("<all>", None, None, name, f"one dataset, one value; found {where}")
            )
    return problems


def validate_splits(splits: Mapping[str, Sequence[dict[str, Any]]]) -> None:
    """:func:`validate_rows` for every split, plus: no task in two splits, and one
    ``runtime_meter``/``runtime_unit``/``build_config_sha256``/``quicksilver_version`` for all."""
    problems = _dataset_problems(splits)
    if problems:
        raise SchemaError(problems)


def _feature_problems(split: str, features: Features) -> list[Problem]:
    problems = []
    for name in MERCURY_FEATURES:
        if name not in features:
            problems.append(Problem(split, None, None, name, "column missing"))
        elif features[name] != MERCURY_FEATURES[name]:
            problems.append(
                Problem(
                    split,
                    None,
                    None,
                    name,
                    f"feature {features[name]!r} differs from {MERCURY_FEATURES[name]!r}",
                )
            )
    for name in features:
        if name not in MERCURY_FEATURES:
            problems.append(Problem(split, None, None, name, "column not in MERCURY_FEATURES"))
    if not problems and list(features) != list(MERCURY_FEATURES):
        problems.append(Problem(split, None, None, "<columns>", "columns are out of order"))
    return problems


def validate_dataset_dict(dd: DatasetDict) -> None:
    """Check a loaded ``DatasetDict``: features equal :data:`MERCURY_FEATURES` in every split,
    then every row (:func:`validate_splits`)."""
    import datasets

    if not isinstance(dd, datasets.DatasetDict):
        raise SchemaError(
            [
                Problem(
                    "<none>",
                    None,
                    None,
                    "<dataset>",
                    f"expected a DatasetDict, got {type(dd).__name__}",
                )
            ]
        )
    if any("pe_input" in ds.features for ds in dd.values()):
        from quicksilver.stages.publish_dpe import validate_dpe_dataset_dict

        validate_dpe_dataset_dict(dd)  # a DPE / EvalPerf-format dataset
        return
    problems: list[Problem] = []
    for split, ds in dd.items():
        problems.extend(_feature_problems(str(split), ds.features))
    if problems:
        raise SchemaError(problems)
    validate_splits({str(split): ds.with_format(None).to_list() for split, ds in dd.items()})


# --- the card -----------------------------------------------------------------------------------


@dataclass
class CardContext:
    """What the dataset card says beyond what the rows tell."""

    name: str
    funnel: list[dict[str, Any]]
    """Per stage: ``{"stage", "tasks_in", "tasks_out", "solutions_in", "solutions_out",
    "drops": {reason: count}}`` (``StageCounts.to_dict()``), and optionally ``drop_tasks`` and
    ``drop_solutions`` per reason, from the rejects files (``MercuryBuild.funnel``)."""
    parameters: dict[str, Any]
    """The build configuration used (rendered as YAML)."""
    meter: str
    unit: str
    machine: dict[str, Any]
    seeds: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    built_at: str = ""
    quicksilver_version: str = __version__
    license: str = "other"
    repo_id: str | None = None
    """``ORG/NAME`` on the Hub, for the card's loading example (a placeholder when None)."""


@dataclass(frozen=True)
class PublishedPaths:
    """What :func:`write_dataset` wrote."""

    root: Path
    parquet: dict[str, Path]
    hf: Path
    card: Path
    rows: dict[str, int]


def _type_name(feature: Any) -> str:
    if isinstance(feature, dict):
        return "struct{" + ", ".join(f"{k}: {_type_name(v)}" for k, v in feature.items()) + "}"
    if isinstance(feature, List):
        return f"list<{_type_name(feature.feature)}>"
    return str(feature.dtype)


def _field_rows() -> list[dict[str, str]]:
    out = []
    for name, feature in MERCURY_FEATURES.items():
        kind = _type_name(feature)
        if name == "meta_info":
            kind = "struct{data: struct{question: struct{...}}}"
        out.append(
            {
                "name": name,
                "type": kind,
                "doc": FIELD_DOCS[name],
                "group": "Mercury" if name in _MERCURY else "provenance",
            }
        )
    return out


def _cell(value: Any) -> str:
    """A value fit for one Markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def _front_matter(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    card: CardContext,
    data_files: Mapping[str, str],
    sizes: Mapping[str, tuple[int, int]] | None,
    *,
    features: Features = MERCURY_FEATURES,
    tags: Sequence[str] = ("code", "efficiency", "mercury", "leetcode", "benchmark"),
) -> dict[str, Any]:
    """The card's YAML metadata (Hub conventions); ``sizes``: split -> (arrow bytes, file bytes)."""
    from datasets.info import DatasetInfo, DatasetInfosDict
    from datasets.splits import SplitDict, SplitInfo
    from huggingface_hub import DatasetCardData

    total = sum(len(rows) for rows in splits.values())
    bounds = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"))
    size_category = next((label for limit, label in bounds if total < limit), "100K<n<1M")
    split_dict = SplitDict()
    for name, rows in splits.items():
        num_bytes = sizes[name][0] if sizes else 0
        split_dict.add(SplitInfo(name=name, num_bytes=num_bytes, num_examples=len(rows)))
    info = DatasetInfo(features=features, splits=split_dict)
    if sizes:
        info.download_size = sum(file for _, file in sizes.values())
        info.dataset_size = sum(arrow for arrow, _ in sizes.values())
    card_data = DatasetCardData()
    DatasetInfosDict({"default": info}).to_dataset_card_data(card_data)
    return {
        "pretty_name": card.name,
        "license": card.license,
        "language": ["en"],
        "task_categories": ["text-generation"],
        "tags": list(tags),
        "size_categories": [size_category],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": name, "path": data_files[name]} for name in splits],
            }
        ],
        **card_data.to_dict(),
    }


def _dump_yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
DATA_FILES = ("../templates/*.j2",)  # read at run time: part of the stage keys
"""Where the card templates are (``mercury_card.md.j2``, ``dpe_card.md.j2``)."""


def _template(name: str = "mercury_card.md.j2") -> jinja2.Template:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # Markdown, not HTML
    )
    env.filters["cell"] = _cell
    return env.get_template(name)


def render_card(
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    card: CardContext,
    *,
    sizes: Mapping[str, tuple[int, int]] | None = None,
) -> str:
    """The dataset card (README.md) for validated ``splits``: YAML front matter, then Markdown."""
    for i, stage in enumerate(card.funnel):
        missing = {"stage", "tasks_in", "tasks_out", "solutions_in", "solutions_out"} - set(stage)
        if missing:
            raise ValueError(f"card.funnel[{i}] lacks {', '.join(sorted(missing))}")
    names = list(splits)
    difficulty_rows = []
    for difficulty in DIFFICULTIES:
        counts = [sum(r["difficulty"] == difficulty for r in splits[s]) for s in names]
        difficulty_rows.append({"label": difficulty, "counts": counts, "total": sum(counts)})
    totals = [len(splits[s]) for s in names]
    difficulty_rows.append({"label": "**all**", "counts": totals, "total": sum(totals)})

    funnel = [{**stage, "drops_text": drops_summary(stage)} for stage in card.funnel]

    generators = []
    models: Counter[str] = Counter()
    for s in names:
        paths = Counter(r["generator_path"] for r in splits[s])
        generators.append({"split": s, "offline": paths["offline"], "llm": paths["llm"]})
        models.update(r["generator_model"] for r in splits[s] if r["generator_path"] == "llm")
    solutions = sum(len(r["solutions"]) for s in names for r in splits[s])
    cases = sum(r["n_generated_cases"] + r["n_example_cases"] for s in names for r in splits[s])
    sources = Counter(r["source"] for s in names for r in splits[s])

    data_files = {s: f"parquet/{s}.parquet" for s in names}
    front = _front_matter(splits, card, data_files, sizes)
    # The card is public: the host name is not part of what a measurement depends on.
    machine = {k: v for k, v in sorted(card.machine.items()) if k != "hostname"}
    return _template().render(
        front_matter=_dump_yaml(front).rstrip("\n"),
        card=card,
        split_names=names,
        n_rows=sum(totals),
        n_solutions=solutions,
        n_cases=cases,
        sources=sorted(sources.items()),
        difficulty_rows=difficulty_rows,
        funnel=funnel,
        drop_totals=drop_totals(card.funnel),
        parameters_yaml=_dump_yaml(card.parameters).rstrip("\n") if card.parameters else "{}",
        machine=machine,
        seeds=card.seeds,
        generators=generators,
        models=sorted(models.items(), key=lambda kv: (-kv[1], kv[0])),
        fields=_field_rows(),
        repo_id=card.repo_id or "ORG/NAME",
        first_split="eval" if "eval" in names else names[0],
        instruction_rate=next(
            (
                r.get("instruction_rate")
                for s in names
                for r in splits[s]
                if r.get("instruction_rate")
            ),
            None,
        ),
    )


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """A card's YAML metadata and its Markdown body; ValueError when it has no front matter."""
    match = re.match(r"^---\r?\n(.*?)\r?\n---\r?\n", text, re.DOTALL)
    if match is None:
        raise ValueError("the card has no YAML front matter (--- ... ---)")
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError as exc:
        raise ValueError(f"the card's front matter is not valid YAML: {exc}") from exc
    if not isinstance(meta, dict):
        raise ValueError("the card's front matter is not a YAML mapping")
    return meta, text[match.end() :]


def hub_card(text: str, splits: Iterable[str], data_dir: str = "data") -> str:
    """The card for the Hub repo: ``configs`` pointed at where ``push_to_hub`` puts the shards
    (``data/<split>-*``) instead of the local ``parquet/<split>.parquet``; nothing else changes."""
    meta, body = split_front_matter(text)
    meta["configs"] = [
        {
            "config_name": "default",
            "data_files": [{"split": s, "path": f"{data_dir}/{s}-*"} for s in splits],
        }
    ]
    return f"---\n{_dump_yaml(meta)}---\n{body}"


# --- writing ------------------------------------------------------------------------------------

_STAGING_PREFIX = ".publish-"


def write_dataset(
    splits: dict[str, list[dict[str, Any]]],
    out_dir: Path,
    card: CardContext,
    *,
    features: Features = MERCURY_FEATURES,
    validate: Callable[[Mapping[str, Sequence[dict[str, Any]]]], None] | None = None,
    render: Callable[..., str] | None = None,
) -> PublishedPaths:
    """Validate every row of every split, then write Parquet, ``save_to_disk`` and the card.

    Nothing is written when any row is invalid (:class:`SchemaError`). Everything is first
    written under ``out_dir/.publish-*``; then the old card is removed, ``parquet/`` and ``hf/``
    are swapped in by rename, and the new card is renamed in last. So a folder with a README.md is
    always a complete write, an interrupted one has no README.md, and other files in ``out_dir``
    are left alone.
    """
    import datasets

    (validate or validate_splits)(splits)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob(f"{_STAGING_PREFIX}*"):
        log.info("removing %s, left by an interrupted write", stale)
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=out_dir))
    try:
        parts = {
            name: datasets.Dataset.from_list(rows, features=features, split=name)
            for name, rows in splits.items()
        }
        (staging / "parquet").mkdir()
        sizes: dict[str, tuple[int, int]] = {}
        for name, ds in parts.items():
            path = staging / "parquet" / f"{name}.parquet"
            ds.to_parquet(str(path))
            sizes[name] = (ds.data.nbytes, path.stat().st_size)
        datasets.DatasetDict(parts).save_to_disk(str(staging / "hf"))
        text = (render or render_card)(splits, card, sizes=sizes)
        (staging / CARD_FILENAME).write_text(text, encoding="utf-8")
        for path in [staging, *staging.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)  # mkdtemp made the folder 0700

        (out_dir / CARD_FILENAME).unlink(missing_ok=True)
        for name in ("parquet", "hf"):
            target = out_dir / name
            if target.exists() or target.is_symlink():
                target.rename(staging / f"old-{name}")
            (staging / name).rename(target)
        _fsync_dir(out_dir)
        os.replace(staging / CARD_FILENAME, out_dir / CARD_FILENAME)
        _fsync_dir(out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    rows = {name: len(r) for name, r in splits.items()}
    log.info(
        "wrote %s: %s",
        out_dir,
        ", ".join(f"{name} {n} rows" for name, n in rows.items()),
    )
    return PublishedPaths(
        root=out_dir,
        parquet={name: out_dir / "parquet" / f"{name}.parquet" for name in splits},
        hf=out_dir / "hf",
        card=out_dir / CARD_FILENAME,
        rows=rows,
    )


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- a build's publish: what is valid ------------------------------------------------------------

RowProblems = Callable[[Mapping[str, Any]], list[tuple[str, str]]]
"""One row's problems as (field path, message); empty when the row is valid."""


@dataclass
class Published:
    """What :func:`publish_valid` did: the dataset written (None: nothing valid to write), the rows
    per split, the rejects of the rows set aside, and the notes (also in the card)."""

    paths: PublishedPaths | None
    splits: dict[str, list[dict[str, Any]]]
    """The rows written, per split."""
    rejects: list[dict[str, Any]]
    notes: list[str]

    @property
    def rows(self) -> dict[str, int]:
        return {name: len(rows) for name, rows in self.splits.items()}


def row_rejects(slug: str, solutions: Any, reason: str, detail: str) -> list[dict[str, Any]]:
    """Rejects-file records of a task set aside at publish: one for the task (no ``hash``), one
    per solution lost with it (``hash``, and ``code`` when the row carries the source)."""
    out = [{"slug": slug, "reason": reason, "detail": detail}]
    for sol in solutions if isinstance(solutions, list) else []:
        if isinstance(sol, Mapping) and "hash" in sol:
            extra = {"code": sol["solution"]} if isinstance(sol.get("solution"), str) else {}
            out.append(
                {"slug": slug, "hash": sol["hash"], **extra, "reason": reason, "detail": detail}
            )
    return out


def _summary(problems: Sequence[tuple[str, str]], limit: int = 3) -> str:
    text = "; ".join(f"{path}: {message}" for path, message in problems[:limit])
    if len(problems) > limit:
        text += f"; and {len(problems) - limit} more"
    return text


def remove_dataset(out_dir: Path) -> bool:
    """Remove the dataset :func:`write_dataset` wrote in ``out_dir`` (the card first, so a folder
    caught halfway is an unfinished write); other files stay. True when there was one."""
    out_dir = Path(out_dir)
    found = False
    card = out_dir / CARD_FILENAME
    if card.exists():
        card.unlink()
        found = True
    for name in ("parquet", "hf"):
        target = out_dir / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
            found = True
        elif target.exists() or target.is_symlink():
            target.unlink()
            found = True
    return found


def publish_valid(
    splits: Mapping[str, Sequence[dict[str, Any]]],
    out_dir: Path,
    card: CardContext,
    *,
    row_problems: RowProblems = _check_row,
    solutions_field: str = "solutions",
    slug_field: str = "slug_name",
    features: Features = MERCURY_FEATURES,
    validate: Callable[[Mapping[str, Sequence[dict[str, Any]]]], None] | None = None,
    render: Callable[..., str] | None = None,
) -> Published:
    """A build's publish: :func:`write_dataset` of the valid rows, after a long build that must
    not lose everything to one bad row or an empty split.

    A row with a problem is set aside (``invalid-row``: one rejects record for the task, one per
    solution lost with it, a warning and a note); a split left without rows is left out of the
    dataset with a note (:func:`~quicksilver.stages.splits.drop_empty_splits`). With no row left
    nothing is written, and a dataset an earlier build wrote in ``out_dir`` is removed: the folder
    must not offer an older build's rows as this one's. The notes go into the card.
    """
    from quicksilver.stages.splits import drop_empty_splits

    kept: dict[str, list[dict[str, Any]]] = {}
    rejects: list[dict[str, Any]] = []
    notes: list[str] = []
    for split, rows in splits.items():
        kept[split] = []
        for index, row in enumerate(rows):
            problems = row_problems(row)
            if not problems:
                kept[split].append(row)
                continue
            slug = str(row.get(slug_field) or f"{split}[{index}]")
            detail = f"{slug}: not published: {_summary(problems)}"
            log.warning("publish: %s", detail)
            notes.append(
                f"{split}: {slug} left out: it does not fit the schema ({_summary(problems, 1)})"
            )
            rejects += row_rejects(slug, row.get(solutions_field), "invalid-row", detail)
    if not any(kept.values()):
        removed = remove_dataset(out_dir)
        note = (
            "no task to publish ("
            + ("every row was set aside" if rejects else "the funnel shows where they were dropped")
            + f"): no dataset written to {out_dir}"
            + ("; the dataset an earlier build wrote there was removed" if removed else "")
        )
        log.warning("publish: %s", note)
        return Published(None, {}, rejects, [*notes, note])
    kept, empty = drop_empty_splits(kept, {s: "every row was set aside" for s in kept})
    notes += empty
    card = replace(card, notes=[*card.notes, *notes])
    paths = write_dataset(kept, out_dir, card, features=features, validate=validate, render=render)
    return Published(paths, kept, rejects, notes)


# --- releasing to the Hub -----------------------------------------------------------------------


class PublishError(RuntimeError):
    """Publishing failed; the message says at which step and why (never the token)."""


class MissingTokenError(PublishError):
    """No Hugging Face token was given or found in the environment."""


class DatasetDirError(PublishError):
    """The folder is not a complete dataset written by :func:`write_dataset`."""


class HubError(PublishError):
    """The Hub refused or failed a request."""


@dataclass(frozen=True)
class PublishReport:
    """What :func:`publish_to_hub` did."""

    repo_id: str
    repo_url: str
    created: bool
    """True when the repo did not exist before."""
    private: bool
    splits: dict[str, int]
    data_commit: str
    data_commit_url: str
    card_commit: str
    card_commit_url: str
    tag: str | None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def resolve_token(token: str | None = None) -> str:
    """``token``, else ``$HF_TOKEN``, else ``$HUGGING_FACE_HUB_TOKEN``; never a prompt."""
    if token:
        return token
    for name in TOKEN_ENV_VARS:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    raise MissingTokenError(
        "no Hugging Face token: set HF_TOKEN (or HUGGING_FACE_HUB_TOKEN) to a token with write "
        "access to the repo (https://huggingface.co/settings/tokens)"
    )


_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*")
_TAG = re.compile(r"[A-Za-z0-9][\w.+-]*(/[\w.+-]+)*")


def load_published(dataset_dir: Path) -> tuple[DatasetDict, str]:
    """The validated ``DatasetDict`` and card text of a folder written by :func:`write_dataset`."""
    import datasets

    dataset_dir = Path(dataset_dir)
    card_path = dataset_dir / CARD_FILENAME
    hf_dir = dataset_dir / "hf"
    if not dataset_dir.is_dir():
        raise DatasetDirError(f"{dataset_dir}: no such folder")
    if not card_path.is_file():
        raise DatasetDirError(
            f"{dataset_dir}: no {CARD_FILENAME}: not a dataset folder, or its write did not finish"
        )
    if not (hf_dir / "dataset_dict.json").is_file():
        raise DatasetDirError(f"{hf_dir}: no dataset_dict.json: not written by save_to_disk")
    try:
        dd = datasets.load_from_disk(str(hf_dir))
    except (OSError, ValueError) as exc:
        raise DatasetDirError(f"{hf_dir}: cannot load: {exc}") from exc
    if not isinstance(dd, datasets.DatasetDict):
        raise DatasetDirError(f"{hf_dir}: holds a single Dataset, not a DatasetDict of splits")
    validate_dataset_dict(dd)
    text = card_path.read_text(encoding="utf-8")
    try:
        split_front_matter(text)
    except ValueError as exc:
        raise DatasetDirError(f"{card_path}: {exc}") from exc
    return dd, text


def publish_to_hub(
    dataset_dir: Path,
    repo_id: str,
    *,
    revision: str | None,
    private: bool,
    token: str | None = None,
) -> PublishReport:
    """Push a folder written by :func:`write_dataset` to the dataset repo ``repo_id``.

    Order: token, arguments and the whole dataset are checked before any request; then the repo
    is looked at (a ``private`` release never goes into an existing public repo, and an existing
    tag ``revision`` stops the release before anything is pushed); ``push_to_hub`` uploads the
    splits as Parquet shards under ``data/``; our card replaces the generated one (its
    ``configs`` pointed at ``data/<split>-*``); and ``revision``, when given, tags that commit.
    """
    import datasets
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    token = resolve_token(token)
    if not _REPO_ID.fullmatch(repo_id):
        raise PublishError(f"repo id {repo_id!r} is not of the form ORG/NAME")
    if revision is not None and (
        not _TAG.fullmatch(revision) or revision in ("main", "HEAD") or ".." in revision
    ):
        raise PublishError(f"{revision!r} is not a usable tag name")
    dd, card_text = load_published(Path(dataset_dir))
    splits = {str(name): len(ds) for name, ds in dd.items()}
    card_bytes = hub_card(card_text, splits).encode("utf-8")

    endpoint = datasets.config.HF_ENDPOINT
    api = HfApi(endpoint=endpoint, token=token)
    step = "looking up the repo"
    try:
        try:
            info = api.repo_info(repo_id, repo_type="dataset", token=token)
        except RepositoryNotFoundError:
            info = None
        if info is not None:
            if private and not info.private:
                raise PublishError(
                    f"{repo_id} exists and is public; refusing a --private release into it "
                    "(make the repo private first, or publish without --private)"
                )
            if revision is not None:
                step = "listing the repo's tags"
                tags = {ref.name for ref in api.list_repo_refs(repo_id, repo_type="dataset").tags}
                if revision in tags:
                    raise PublishError(f"{repo_id} already has a tag {revision!r}; nothing pushed")
        step = "pushing the splits"
        log.info(
            "pushing %s to %s/datasets/%s",
            ", ".join(f"{k} ({v})" for k, v in splits.items()),
            endpoint,
            repo_id,
        )
        data_commit = dd.push_to_hub(
            repo_id,
            private=private,
            token=token,
            commit_message=f"Upload {sum(splits.values())} rows"
            + (f" for {revision}" if revision else ""),
        )
        if data_commit is None:  # pragma: no cover - only for bucket pushes
            raise PublishError("push_to_hub returned no commit")
        step = "uploading the dataset card"
        card_commit = api.upload_file(
            path_or_fileobj=card_bytes,
            path_in_repo=CARD_FILENAME,
            repo_id=repo_id,
            repo_type="dataset",
            token=token,
            commit_message="Dataset card (Quicksilver)",
            parent_commit=data_commit.oid,
        )
        if revision is not None:
            step = f"creating the tag {revision!r}"
            api.create_tag(
                repo_id,
                tag=revision,
                tag_message=f"Quicksilver release {revision}",
                revision=card_commit.oid,
                repo_type="dataset",
                token=token,
            )
    except PublishError:
        raise
    except HfHubHTTPError as exc:
        raise HubError(f"Hub error while {step} ({repo_id}): {exc}") from exc
    except Exception as exc:
        # Connection failures (httpx), client-side checks (ValueError), local I/O: all end the
        # release at this step; the cause stays chained for the traceback.
        raise HubError(f"failed while {step} ({repo_id}): {type(exc).__name__}: {exc}") from exc
    repo_url = f"{endpoint}/datasets/{repo_id}"
    log.info(
        "published %s at %s%s", repo_id, card_commit.oid, f" (tag {revision})" if revision else ""
    )
    return PublishReport(
        repo_id=repo_id,
        repo_url=repo_url,
        created=info is None,
        private=bool(info.private) if info is not None else private,
        splits=splits,
        data_commit=data_commit.oid,
        data_commit_url=data_commit.commit_url,
        card_commit=card_commit.oid,
        card_commit_url=card_commit.commit_url,
        tag=revision,
    )
