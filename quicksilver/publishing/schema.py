"""What a published row must be: the shared checks, and the Mercury format's schema.

The rows carry Mercury's published columns unchanged (names, types, meanings), so the original
Mercury tooling reads them, plus Quicksilver's provenance columns. :data:`MERCURY_FEATURES` pins
every type explicitly: nothing is inferred from the data, so one odd row cannot change a column's
type, and the Hub, ``load_dataset`` and ``load_from_disk`` all see the same schema.

Nothing is written or pushed unless every row of every split passes :func:`validate_rows` (and
the cross-split checks): a :class:`SchemaError` lists each problem with its split, row index,
``slug_name`` and field. The DPE format's schema is :mod:`quicksilver.publishing.dpe_schema`; it
uses the checks here (:func:`check_type`, :func:`parses`, :func:`json_field`).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from datasets import Features, List, Value

from quicksilver import astparse

if TYPE_CHECKING:
    from datasets import DatasetDict

DIFFICULTIES = ("Easy", "Medium", "Hard")
UNRATED = ""
"""The difficulty of a task whose source has no rating (HumanEval, MBPP)."""
GENERATOR_PATHS = ("offline", "llm")

# --- the Mercury schema -------------------------------------------------------------------------

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
        {
            "hash": Value("int64"),
            "source": _S,
            "model": _S,
            "url": _S,
            "runtime_reported": _S,
            # import lines the build added for names Mercury's evaluator does not inject
            "imports_added": List(_S),
        }
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
    # bytes above the post-load baseline, read by the host (docs/profiler.md, "Memory")
    "reference_peak_memory": List(
        {
            "hash": Value("int64"),
            "peak_memory_bytes": Value("int64"),
            "case_peak_memory_bytes": List(Value("int64")),
        }
    ),
    "machine_id": _S,
    "machine": _S,
    "quicksilver_version": _S,
    "build_config_sha256": _S,
}

# Added after the first release, at the end so that nothing moves: rows written before them
# load for scoring without them (quicksilver.rows); null means undated, never a guess.
_RELEASE = {
    "release_date": _S,
    "release_date_source": _S,
}

MERCURY_FIELDS: tuple[str, ...] = tuple(_MERCURY)
"""Mercury's published columns, in Mercury's order."""
# Counts that travel (docs/publishing.md, "Shipped counts"): with icount, the digest of what the
# counts depend on and its parts, and what scoring reads of a reference besides its count.
_COUNTS = {
    "count_fingerprint": _S,
    "count_environment": _S,
    "reference_memory_detail": List(
        {
            "hash": Value("int64"),
            "memory_baseline_bytes": Value("int64"),
            "tmu": Value("float64"),
            "tmu_samples": Value("int64"),
        }
    ),
}

# The limits the build's judge set (docs/profiler.md, "Limits from the row"), CPU seconds: per
# call (the ceiling, which quicksilver score applies to samples) and the judge's budget for the
# whole test set, with the screening floor, the test set's budget and its cost as provenance.
_LIMITS = {
    "judge_limits": {
        "call_seconds": Value("float64"),
        "call_floor_seconds": Value("float64"),
        "test_set_seconds": Value("float64"),
        "budget_seconds": Value("float64"),
        "cost_seconds": Value("float64"),
    }
}

PROVENANCE_FIELDS: tuple[str, ...] = (
    tuple(_PROVENANCE) + tuple(_RELEASE) + tuple(_COUNTS) + tuple(_LIMITS)
)
"""Quicksilver's columns: where each row came from and how its references were measured."""

MERCURY_FEATURES = Features({**_MERCURY, **_PROVENANCE, **_RELEASE, **_COUNTS, **_LIMITS})
"""Explicit ``datasets`` features of a published row: Mercury's columns, then provenance."""

NULLABLE_FIELDS = frozenset(
    {
        # Mercury's own rows (and quicksilver.rows) allow a solution without a judge runtime.
        "solutions[].runtime",
        "solution_provenance[].model",
        "solution_provenance[].url",
        "solution_provenance[].runtime_reported",
        "instruction_rate",  # only an instruction meter needs it
        # memory that could not be measured (no clear_refs: the weak sandbox as non-root)
        "reference_peak_memory[].peak_memory_bytes",
        "reference_peak_memory[].case_peak_memory_bytes[]",
        "release_date",  # undated
        "release_date_source",
        "count_fingerprint",  # meters other than icount
        "count_environment",
        "reference_memory_detail[].memory_baseline_bytes",  # memory not measured
        "reference_memory_detail[].tmu",
        "reference_memory_detail[].tmu_samples",
        # a record from before the testcases stage recorded them
        *(f"judge_limits.{key}" for key in _LIMITS["judge_limits"]),
    }
)
"""Generic paths (list indices as ``[]``) of the only values that may be null."""


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


def check_type(
    feature: Any,
    value: Any,
    path: str,
    out: list[tuple[str, str]],
    nullable: frozenset[str] | set[str] = NULLABLE_FIELDS,
) -> None:
    """Append (field path, message) for every place ``value`` does not fit ``feature``; a null is
    allowed only at the generic paths (list indices as ``[]``) in ``nullable``."""
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
                check_type(sub, value[key], f"{path}.{key}", out, nullable)
        return
    if isinstance(feature, List):
        if not isinstance(value, list):
            out.append((path, f"expected a list, got {_kind(value)}"))
            return
        for i, item in enumerate(value):
            check_type(feature.feature, item, f"{path}[{i}]", out, nullable)
        return
    assert isinstance(feature, Value), feature
    if value is None:
        if _INDEX.sub("[]", path) not in nullable:
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


def parses(code: str, path: str, out: list[tuple[str, str]]) -> None:
    try:
        astparse.parse(code)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        out.append(
            (
                path,
                f"not valid Python: {exc.msg if isinstance(exc, SyntaxError) else exc}"
                + (f" (line {line})" if line else ""),
            )
        )


def json_field(text: str, path: str, out: list[tuple[str, str]]) -> Any:
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


def check_row(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """All problems of one row as (field path, message): the fields and their types first, then
    each group of fields whose types are right (a wrong type is said once, not again as a wrong
    value)."""
    out: list[tuple[str, str]] = []
    ok = _check_fields(row, out)
    _check_identity(row, ok, out)
    solution_hashes = _check_solutions(row, ok, out)
    _check_code(row, ok, out)
    n_cases = _check_test_cases(row, ok, out)
    _check_provenance(row, ok, out, n_cases, solution_hashes)
    _check_measurements(row, ok, out, solution_hashes)
    return out


def _check_fields(row: Mapping[str, Any], out: list[tuple[str, str]]) -> dict[str, bool]:
    """Missing and unexpected fields, and each field's type: which fields are well typed."""
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
            check_type(feature, row[name], name, out)
            typed.append(len(out) == before)
        else:
            typed.append(False)
    ok = dict(zip(MERCURY_FEATURES, typed, strict=True))
    return ok


def _check_identity(
    row: Mapping[str, Any], ok: Mapping[str, bool], out: list[tuple[str, str]]
) -> None:
    """Mercury's columns that name the question: id, slug, difficulty, the scraped question."""
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
        if row["difficulty"] not in (*DIFFICULTIES, UNRATED):
            out.append(
                (
                    "difficulty",
                    f"must be one of {', '.join(DIFFICULTIES)} or '' (unrated); "
                    f"got {row['difficulty']!r}",
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
            json_field(question[key], f"{base}.{key}", out)
        for i, tag in enumerate(question["topicTags"]):
            for key in ("name", "slug"):
                if not tag[key].strip():
                    out.append((f"{base}.topicTags[{i}].{key}", "must not be empty"))
    if ok["pretty_content"] and (not row["pretty_content"] or not row["pretty_content"][0].strip()):
        out.append(("pretty_content", "must hold the statement as its first item"))


def _check_solutions(
    row: Mapping[str, Any], ok: Mapping[str, bool], out: list[tuple[str, str]]
) -> list[int] | None:
    """The solutions: at least one, distinct hashes, each parses. Their hashes (None: mistyped)."""
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
                parses(sol["solution"], f"solutions[{i}].solution", out)
    return solution_hashes


def _check_code(row: Mapping[str, Any], ok: Mapping[str, bool], out: list[tuple[str, str]]) -> None:
    """The prompt, the entry point, the generator and Mercury's converters parse and agree."""
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
            parses(row["generator_code"], "generator_code", out)
    for name in ("convert_online", "convert_offline", "evaluate_offline"):
        if ok[name] and row[name].strip():  # empty means Mercury's default
            parses(row[name], name, out)


def _check_test_cases(
    row: Mapping[str, Any], ok: Mapping[str, bool], out: list[tuple[str, str]]
) -> int | None:
    """test_cases is a JSON list of {input, expected}: how many (None: not readable)."""
    n_cases: int | None = None
    if ok["test_cases"]:
        cases = json_field(row["test_cases"], "test_cases", out)
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
    return n_cases


def _check_provenance(
    row: Mapping[str, Any],
    ok: Mapping[str, bool],
    out: list[tuple[str, str]],
    n_cases: int | None,
    solution_hashes: list[int] | None,
) -> None:
    """Where the row's parts came from: source, snapshot, generator path and model, case counts,
    each solution's provenance."""

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
    if all(ok[n] for n in ("n_generated_cases", "n_example_cases")):
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


def _check_measurements(
    row: Mapping[str, Any],
    ok: Mapping[str, bool],
    out: list[tuple[str, str]],
    solution_hashes: list[int] | None,
) -> None:
    """The meter, the machine, the references' runtimes and memory, the config digest, the
    release date, the judge's limits."""

    for name in ("runtime_meter", "runtime_unit", "machine_id", "quicksilver_version"):
        if ok[name] and not row[name].strip():
            out.append((name, "must not be empty"))
    if ok["reference_runtimes"] and solution_hashes is not None:
        _check_hash_list(row["reference_runtimes"], "reference_runtimes", solution_hashes, out)
    if ok["reference_peak_memory"] and row["reference_peak_memory"]:  # empty: not measured
        if solution_hashes is not None:
            _check_hash_list(
                row["reference_peak_memory"], "reference_peak_memory", solution_hashes, out
            )
        for i, ref in enumerate(row["reference_peak_memory"]):
            figures = [ref["peak_memory_bytes"], *ref["case_peak_memory_bytes"]]
            if any(f is not None and f < 0 for f in figures):
                out.append((f"reference_peak_memory[{i}]", "a peak memory is negative"))
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
        machine = json_field(row["machine"], "machine", out)
        if machine is not None and not isinstance(machine, dict):
            out.append(("machine", f"must be a JSON object, got {_kind(machine)}"))
    if ok["build_config_sha256"] and not _SHA256.fullmatch(row["build_config_sha256"]):
        out.append(("build_config_sha256", "must be 64 lowercase hex digits"))
    if all(ok[n] for n in ("release_date", "release_date_source")):
        out.extend(_release_problems(row["release_date"], row["release_date_source"]))
    if ok["judge_limits"]:  # scoring limits samples by them: a limit of 0 would fail all
        for key, value in row["judge_limits"].items():
            if value is not None and not (value > 0 or (value == 0 and key == "cost_seconds")):
                out.append((f"judge_limits.{key}", f"must be positive, got {value}"))


def _release_problems(day: str | None, source: str | None) -> list[tuple[str, str]]:
    """A release date is an ISO date with its provenance, or both are null (undated)."""
    if day is None:
        return [] if source is None else [("release_date_source", "set, but no release_date")]
    out = []
    try:
        if _dt.date.fromisoformat(day).isoformat() != day:
            raise ValueError(day)
    except ValueError:
        out.append(("release_date", f"not a YYYY-MM-DD date: {day!r}"))
    if source is None or not source.strip():
        out.append(("release_date_source", "a release_date needs its provenance"))
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
        for path, message in check_row(row):
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
    problems: list[Problem] = []
    for split, ds in dd.items():
        problems.extend(_feature_problems(str(split), ds.features))
    if problems:
        raise SchemaError(problems)
    validate_splits({str(split): ds.with_format(None).to_list() for split, ds in dd.items()})


def type_name(feature: Any) -> str:
    if isinstance(feature, dict):
        return "struct{" + ", ".join(f"{k}: {type_name(v)}" for k, v in feature.items()) + "}"
    if isinstance(feature, List):
        return f"list<{type_name(feature.feature)}>"
    return str(feature.dtype)
