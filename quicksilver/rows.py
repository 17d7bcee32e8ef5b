"""Typed records for Mercury-shaped benchmark rows, and loaders that set bad rows aside.

A :class:`TaskRow` carries exactly the fields of Mercury's published rows (Elfsong/Mercury on
the HF Hub), with the same names and meanings, so rows of the original release load unchanged.
A few optional fields (``task_kind`` and the DPE/EvalPerf fields) are added for other sources;
Mercury rows do not need them. Columns that neither schema knows are kept as extras, so
re-writing a row loses nothing.

The loaders read JSON, JSONL, Parquet and HF ``datasets`` sources. None of them stops at a bad
row: each returns a :class:`LoadResult` with the valid records and, for every row it could not
use, a :class:`Reject` that names the row, the task when known, and the field that was wrong.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

if TYPE_CHECKING:
    import pyarrow as pa
    from datasets import Dataset, DatasetDict

logger = logging.getLogger(__name__)

DEFAULT_CONVERT_OFFLINE = "def convert_offline(case):\n    return case\n"
"""Used when a row's ``convert_offline`` is empty: the case is passed through unchanged."""

DEFAULT_EVALUATE_OFFLINE = (
    "def evaluate_offline(inputs, outputs, expected):\n"
    "    if outputs == expected:\n"
    "        return True\n"
    "    return False\n"
)
"""Used when a row's ``evaluate_offline`` is empty: outputs must equal the expected value."""

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

TaskKind = Literal["class", "function"]

# Fields that other sources (HumanEval, MBPP, EvalPerf) cannot always supply. For these a missing
# value or a null (as a columnar file writes for a row that lacked the column) means "not
# available" and takes the default. Every other Mercury field is required.
_DEFAULTED_FIELDS = (
    "meta_info",
    "difficulty",
    "pretty_content",
    "generator_code",
    "convert_online",
    "convert_offline",
    "evaluate_offline",
)

_DIFFICULTIES = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
_CLASS_SOLUTION = re.compile(r"^[ \t]*class\s+Solution\b", re.MULTILINE)
_PANDAS_INDEX_COLUMN = re.compile(r"^__index_level_\d+__$")
_RUNTIME_MS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*ms\s*$")
# HF Hub shard names: "eval-00000-of-00001.parquet", older ones with a trailing hash.
_SHARD_STEM = re.compile(r"^(?P<split>.+?)-\d+-of-\d+(?:-[0-9a-f]+)?$")


class RecordError(ValueError):
    """A record or a record source is unusable; the message names the task or path and why."""


@dataclass(frozen=True)
class TestCase:
    """One parsed Mercury test case: the argument list and the expected return value."""

    __test__ = False  # not a pytest test class, despite the name

    inputs: list[Any]
    expected: Any


class SolutionRow(BaseModel):
    """One reference solution as Mercury publishes it."""

    model_config = ConfigDict(extra="allow")

    hash: int = Field(strict=True, description="int64 content hash of the solution")
    runtime: str | None = Field(
        default=None, description='runtime as the judge reported it, e.g. "76ms"; None offline'
    )
    solution: str

    @field_validator("hash")
    @classmethod
    def _hash_fits_int64(cls, value: int) -> int:
        if not INT64_MIN <= value <= INT64_MAX:
            raise ValueError(f"hash {value} does not fit in int64")
        return value

    @property
    def runtime_ms(self) -> float | None:
        """The judge's runtime in milliseconds, or None when absent or not of the form "76ms"."""
        if not self.runtime:
            return None
        match = _RUNTIME_MS.match(self.runtime)
        return float(match.group(1)) if match else None


class TaskRow(BaseModel):
    """One benchmark task: Mercury's published row, plus optional fields for other sources."""

    model_config = ConfigDict(extra="allow")

    # Mercury's fields, names and meanings unchanged.
    id: str
    slug_name: str
    meta_info: dict[str, Any] = Field(default_factory=dict)
    difficulty: str = ""
    pretty_content: list[str] = Field(default_factory=list)
    solutions: list[SolutionRow]
    prompt: str
    entry_point: str
    generator_code: str = ""
    test_cases: str
    convert_online: str = ""
    convert_offline: str = ""
    evaluate_offline: str = ""

    # Beyond Mercury.
    task_kind: TaskKind | None = None
    task_id: str | None = None
    reference: list[str] | None = None
    pe_input: str | None = None
    # the accepted answer on each ``pe_input`` call (a JSON list, like ``pe_input``), which a
    # sample's answers there are judged against; None in EvalPerf's rows and older builds
    pe_expected: str | None = None
    scores: list[float] | None = None
    provenance: dict[str, Any] | None = None
    # When the question was released (YYYY-MM-DD) and how that is known; rows written before
    # these columns existed, and undated tasks, have None.
    release_date: str | None = None
    release_date_source: str | None = None

    @field_validator("release_date")
    @classmethod
    def _iso_date(cls, value: str | None) -> str | None:
        if value is not None:
            dt.date.fromisoformat(value)  # ValueError: the row is set aside, naming the field
        return value

    @property
    def released(self) -> dt.date | None:
        """The release date, or None for an undated task."""
        return dt.date.fromisoformat(self.release_date) if self.release_date else None

    @model_validator(mode="before")
    @classmethod
    def _normalise_row(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        row = {key: _to_plain(value) for key, value in data.items()}
        for key in [k for k in row if isinstance(k, str) and _PANDAS_INDEX_COLUMN.match(k)]:
            del row[key]  # pandas' index, written as a column; not part of the task
        for key in _DEFAULTED_FIELDS:
            if key in row and row[key] is None:
                del row[key]
        if "solutions" in row:
            row["solutions"] = _rows_from_columns(row["solutions"])
        return row

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_str(cls, value: Any) -> Any:
        # Mercury stores the frontend id as a string; other writers produce ints.
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return value

    @field_validator("meta_info", mode="before")
    @classmethod
    def _meta_info_from_json(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value) if value.strip() else {}
            except json.JSONDecodeError as exc:
                raise ValueError(f"not a dict and not valid JSON: {exc}") from exc
        return value

    @field_validator("difficulty")
    @classmethod
    def _normalise_difficulty(cls, value: str) -> str:
        return _DIFFICULTIES.get(value.strip().lower(), value)

    @field_validator("task_kind", mode="before")
    @classmethod
    def _normalise_task_kind(cls, value: Any) -> Any:
        if isinstance(value, str):
            return value.strip().lower() or None
        return value

    @model_validator(mode="after")
    def _infer_task_kind(self) -> TaskRow:
        if self.task_kind is None:
            first = self.solutions[0].solution if self.solutions else ""
            defines_class = _CLASS_SOLUTION.search(self.prompt) or _CLASS_SOLUTION.search(first)
            self.task_kind = "class" if defines_class else "function"
        return self

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TaskRow:
        """Validate one row; numpy and pyarrow values are converted to plain Python first."""
        return cls.model_validate(row)

    def to_row(self) -> dict[str, Any]:
        """A plain dict of every field and every extra column; ``from_row`` restores it."""
        return self.model_dump(mode="python")

    @property
    def task_key(self) -> str:
        """The name people use for the task: the LeetCode slug, else task_id, else id."""
        return self.slug_name or self.task_id or self.id

    def describe(self) -> str:
        """Short label for messages, e.g. ``task 'summary-ranges' (id 228)``."""
        return f"task {self.task_key!r} (id {self.id})"

    def cases(self) -> list[TestCase]:
        """Parse ``test_cases``: a JSON list of ``{"input": [args...], "expected": value}``."""
        where = f"{self.describe()}: field 'test_cases'"
        try:
            data = json.loads(self.test_cases)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{where} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            ) from exc
        if not isinstance(data, list):
            raise RecordError(f"{where} must be a JSON list of cases, got {_json_type(data)}")
        cases = []
        for index, case in enumerate(data):
            if not isinstance(case, dict):
                raise RecordError(
                    f"{where}[{index}] must be an object with 'input' and 'expected', "
                    f"got {_json_type(case)}"
                )
            for key in ("input", "expected"):
                if key not in case:
                    raise RecordError(f"{where}[{index}] has no {key!r} key")
            if not isinstance(case["input"], list):
                raise RecordError(
                    f"{where}[{index}]['input'] must be a list of arguments, "
                    f"got {_json_type(case['input'])}"
                )
            cases.append(TestCase(inputs=case["input"], expected=case["expected"]))
        return cases

    def solution_code(self, index: int = 0) -> str:
        """Source of reference solution ``index``."""
        if not -len(self.solutions) <= index < len(self.solutions):
            raise RecordError(
                f"{self.describe()}: no solution {index}; it has {len(self.solutions)}"
            )
        return self.solutions[index].solution

    def effective_convert_offline(self) -> str:
        """``convert_offline``, or :data:`DEFAULT_CONVERT_OFFLINE` when the row left it empty."""
        return self.convert_offline if self.convert_offline.strip() else DEFAULT_CONVERT_OFFLINE

    def effective_evaluate_offline(self) -> str:
        """``evaluate_offline``, or :data:`DEFAULT_EVALUATE_OFFLINE` when the row left it empty."""
        if self.evaluate_offline.strip():
            return self.evaluate_offline
        return DEFAULT_EVALUATE_OFFLINE


@dataclass(frozen=True)
class Reject:
    """A row (or a whole file) that could not be loaded, and why."""

    source: str
    """Where it came from: the file path, with ``[row]`` or ``:line`` when it is one row."""
    task: str | None
    """The task's slug_name / task_id / id when the row had one."""
    reason: str


@dataclass
class LoadResult:
    """Records that loaded, rows set aside, and, for split sources, the records of each split."""

    records: list[TaskRow] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    splits: dict[str, list[TaskRow]] = field(default_factory=dict)
    """Split name -> its records, in ``records`` order; empty for sources without splits."""

    def add_split(self, name: str, part: LoadResult) -> None:
        """Append ``part`` as split ``name``."""
        self.records.extend(part.records)
        self.rejects.extend(part.rejects)
        self.splits.setdefault(name, []).extend(part.records)


# --- loaders ------------------------------------------------------------------------------------


def load_json(path: str | Path) -> LoadResult:
    """Load a JSON list of rows, ``{"rows": [...]}``, one row object, or JSONL.

    JSONL is recognised by a ``.jsonl``/``.ndjson`` suffix or by content (several JSON values one
    after another). A file that is not valid JSON (truncated, say) becomes one reject naming the
    file and the place of the error; in JSONL only the bad line is rejected.
    """
    path = Path(path)
    result = LoadResult()
    text = _read_text(path, result)
    if text is None:
        return _finish(result, path)
    if path.suffix.lower() in {".jsonl", ".ndjson"}:
        _ingest(_jsonl_rows(path, text, result), result)
        return _finish(result, path)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            # A first value parsed and more followed: one row per line.
            _ingest(_jsonl_rows(path, text, result), result)
        else:
            _reject(
                result,
                str(path),
                None,
                f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg} "
                "(file truncated or malformed; no rows loaded from it)",
            )
        return _finish(result, path)
    rows = _document_rows(document)
    if isinstance(rows, str):
        _reject(result, str(path), None, rows)
    else:
        _ingest(((f"{path}[{index}]", row) for index, row in enumerate(rows)), result)
    return _finish(result, path)


def load_parquet(path: str | Path) -> LoadResult:
    """Load one Parquet file with pyarrow.

    Values become plain Python (structs -> dicts, lists -> lists, int64 -> int), so Mercury's
    ``meta_info`` struct and ``solutions`` list of structs load as they do from JSON. An unreadable
    file, or a part of it, becomes a reject naming the file and the rows lost.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    result = LoadResult()
    try:
        parquet = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as exc:
        detail = " ".join(str(exc).split())
        _reject(result, str(path), None, f"not a readable Parquet file (truncated?): {detail}")
        return _finish(result, path)
    offset = 0
    try:
        for batch in parquet.iter_batches():
            rows = _batch_rows(batch)
            _ingest(((f"{path}[{offset + i}]", row) for i, row in enumerate(rows)), result)
            offset += batch.num_rows
    except (OSError, pa.ArrowException) as exc:
        _reject(result, f"{path}[{offset}:]", None, f"cannot read rows from {offset} on: {exc}")
    return _finish(result, path)


def load_hf(
    path_or_dataset: str | Path | Dataset | DatasetDict, split: str | None = None
) -> LoadResult:
    """Load a ``datasets.Dataset``, a ``DatasetDict``, or a directory written by ``save_to_disk``.

    For a DatasetDict, ``split`` picks one split; None loads every split. Either way
    ``LoadResult.splits`` says which records came from which split (records are not altered).
    """
    import datasets

    if isinstance(path_or_dataset, str | Path):
        label = str(path_or_dataset)
        try:
            source: Any = datasets.load_from_disk(label)
        except (FileNotFoundError, ValueError, OSError) as exc:
            raise RecordError(f"{label}: not a dataset written by save_to_disk: {exc}") from exc
    else:
        source = path_or_dataset
        label = f"<{type(source).__name__}>"

    result = LoadResult()
    if isinstance(source, datasets.DatasetDict):
        names = list(source)
        if split is not None and split not in source:
            raise RecordError(f"{label}: no split {split!r}; available: {', '.join(names)}")
        for name in [split] if split is not None else names:
            result.add_split(name, _dataset_result(source[name], f"{label}/{name}"))
    elif isinstance(source, datasets.Dataset):
        own = str(source.split) if source.split is not None else None
        if split is not None and own is not None and split != own:
            raise RecordError(f"{label}: asked for split {split!r} but the dataset is {own!r}")
        name = split or own
        part = _dataset_result(source, f"{label}/{name}" if name else label)
        if name:
            result.add_split(name, part)
        else:
            result = part
    else:
        raise RecordError(
            f"{label}: expected a datasets.Dataset, a DatasetDict or a save_to_disk directory, "
            f"got {type(source).__name__}"
        )
    return _finish(result, label)


def load_records(path: str | Path, split: str | None = None) -> LoadResult:
    """Load records from whatever ``path`` is.

    - ``.json`` / ``.jsonl`` / ``.ndjson`` file: :func:`load_json`; ``.parquet`` file:
      :func:`load_parquet` (``split`` must be None for a single file);
    - a directory holding ``dataset_dict.json`` or ``state.json`` (``save_to_disk``):
      :func:`load_hf`; a build's dataset folder (``hf/`` inside, as ``make build-dataset``
      writes) the same;
    - a directory of ``.parquet`` files (or with them under ``data/``, as on the HF Hub): one
      split per file stem, shard suffixes like ``-00000-of-00001`` removed; ``split`` picks one.
    """
    path = Path(path)
    if not path.exists():
        raise RecordError(f"{path}: no such file or directory")
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix not in {".json", ".jsonl", ".ndjson", ".parquet"}:
            raise RecordError(
                f"{path}: unsupported file type {suffix or '(none)'!r}; "
                "expected .json, .jsonl, .ndjson or .parquet"
            )
        if split is not None:
            raise RecordError(f"{path}: a single file has no splits; got split={split!r}")
        return load_parquet(path) if suffix == ".parquet" else load_json(path)
    if (path / "dataset_dict.json").is_file() or (path / "state.json").is_file():
        return load_hf(path, split)
    if (path / "hf" / "dataset_dict.json").is_file():  # a Quicksilver build's dataset folder
        return load_hf(path / "hf", split)
    shards = sorted(path.glob("*.parquet")) or sorted((path / "data").glob("*.parquet"))
    if not shards:
        raise RecordError(
            f"{path}: not a record source: expected a .json/.jsonl/.parquet file, a directory "
            "written by datasets' save_to_disk, or a directory of .parquet files"
        )
    by_split: dict[str, list[Path]] = {}
    for shard in shards:
        match = _SHARD_STEM.match(shard.stem)
        by_split.setdefault(match.group("split") if match else shard.stem, []).append(shard)
    if split is not None and split not in by_split:
        raise RecordError(f"{path}: no split {split!r}; available: {', '.join(by_split)}")
    result = LoadResult()
    for name in [split] if split is not None else list(by_split):
        for shard in by_split[name]:
            result.add_split(name, load_parquet(shard))
    return result


# --- helpers ------------------------------------------------------------------------------------


def _to_plain(value: Any) -> Any:
    """Turn numpy / pyarrow / tuple values into plain Python containers and scalars."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, Mapping):
        return {key: _to_plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_to_plain(item) for item in value]
    if hasattr(value, "dtype") and callable(getattr(value, "tolist", None)):  # numpy
        return _to_plain(value.tolist())
    if callable(getattr(value, "as_py", None)):  # pyarrow scalar
        return _to_plain(value.as_py())
    if callable(getattr(value, "to_pylist", None)):  # pyarrow array
        return _to_plain(value.to_pylist())
    return value


def _rows_from_columns(value: Any) -> Any:
    """Turn a struct of equal-length lists into a list of structs.

    ``datasets`` decodes a ``Sequence`` of dicts (and stores it) as a dict of lists; Mercury's
    solutions are a list of dicts.
    """
    if isinstance(value, dict) and value and all(isinstance(v, list) for v in value.values()):
        lengths = {len(v) for v in value.values()}
        if len(lengths) == 1:
            (count,) = lengths
            return [{key: column[i] for key, column in value.items()} for i in range(count)]
    return value


def _json_type(value: Any) -> str:
    names = {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _raw_task_key(row: Mapping[str, Any]) -> str | None:
    for key in ("slug_name", "task_id", "id"):
        value = row.get(key)
        if value not in (None, ""):
            return str(value)
    return None


def _describe_validation_error(exc: ValidationError) -> str:
    """One line per problem, each naming the field by pydantic's location."""
    parts = []
    for error in exc.errors(include_url=False):
        location = ".".join(str(part) for part in error["loc"]) or "<row>"
        message = error["msg"]
        if error["type"] != "missing":
            message += f" (got {_json_type(error['input'])})"
        parts.append(f"field {location!r}: {message}")
    return "invalid row: " + "; ".join(parts)


def _reject(result: LoadResult, source: str, task: str | None, reason: str) -> None:
    logger.warning("rejected %s%s: %s", source, f" ({task})" if task else "", reason)
    result.rejects.append(Reject(source=source, task=task, reason=reason))


def _ingest(rows: Iterable[tuple[str, Any]], result: LoadResult) -> None:
    """Validate each (source, row); keep the good ones and set the others aside with a reason."""
    for source, row in rows:
        if isinstance(row, _Unreadable):
            _reject(result, source, None, row.reason)
            continue
        if not isinstance(row, Mapping):
            _reject(result, source, None, f"row is a JSON {_json_type(row)}, not an object")
            continue
        task = _raw_task_key(row)
        try:
            record = TaskRow.model_validate(row)
            record.cases()
        except ValidationError as exc:
            _reject(result, source, task, _describe_validation_error(exc))
            continue
        except RecordError as exc:
            _reject(result, source, task, str(exc))
            continue
        result.records.append(record)


def _finish(result: LoadResult, source: str | Path) -> LoadResult:
    logger.info(
        "loaded %d records from %s (%d rejected)", len(result.records), source, len(result.rejects)
    )
    return result


@dataclass(frozen=True)
class _Unreadable:
    """Stands in for a row that could not even be decoded."""

    reason: str


def _read_text(path: Path, result: LoadResult) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        _reject(result, str(path), None, f"not UTF-8 text: {exc}")
        return None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc}") from exc


def _jsonl_rows(path: Path, text: str, result: LoadResult) -> Iterator[tuple[str, Any]]:
    # Split on "\n" only: str.splitlines() also splits on U+2028 and friends, which JSON strings
    # may contain unescaped.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        source = f"{path}:{number}"
        try:
            yield source, json.loads(line)
        except json.JSONDecodeError as exc:
            yield (
                source,
                _Unreadable(f"invalid JSON on line {number}, column {exc.colno}: {exc.msg}"),
            )


def _document_rows(document: Any) -> list[Any] | str:
    """The rows of a parsed JSON document, or the reason it holds none."""
    if isinstance(document, list):
        return document
    if isinstance(document, dict) and "rows" in document:
        rows = document["rows"]
        if not isinstance(rows, list):
            return f"'rows' must be a list of rows, got {_json_type(rows)}"
        # The HF datasets-server /rows answer wraps each row: {"row_idx": i, "row": {...}}.
        return [
            item["row"]
            if isinstance(item, dict) and "row_idx" in item and isinstance(item.get("row"), dict)
            else item
            for item in rows
        ]
    if isinstance(document, dict):
        return [document]
    return (
        f"top-level JSON value is a {_json_type(document)}; expected a list of rows, "
        '{"rows": [...]} or one row object'
    )


def _batch_rows(batch: pa.RecordBatch) -> list[Any]:
    """Rows of a record batch as plain dicts; a row that cannot be converted is marked."""
    try:
        return batch.to_pylist(maps_as_pydicts="strict")
    except (KeyError, ValueError) as exc:
        logger.debug("batch conversion failed (%s); converting row by row", exc)
    rows: list[Any] = []
    for i in range(batch.num_rows):
        try:
            rows.extend(batch.slice(i, 1).to_pylist(maps_as_pydicts="strict"))
        except (KeyError, ValueError) as exc:
            rows.append(_Unreadable(f"cannot convert row to Python values: {exc}"))
    return rows


def _dataset_result(dataset: Dataset, label: str) -> LoadResult:
    result = LoadResult()
    rows = dataset.with_format(None)
    _ingest(((f"{label}[{i}]", row) for i, row in enumerate(rows)), result)
    return result
