"""Stage files: JSON lines written atomically, digests, a stage's folder and its manifest.

A stage writes its records to ``<out_dir>/stages/<stage>/records.jsonl`` (a sharded stage:
``<shard>.jsonl``) with their index (``records.index.json``, ``<shard>.index.json``: where each
task's line is, so that a shard reads its own tasks only), its rejects beside them
(``rejects.jsonl``, ``<shard>.rejects.jsonl``) and, last, its completion manifest
(``_SUCCESS.json``, ``_SUCCESS.<shard>.json``): the key it ran with, its counts and how long it
took. A stage is done exactly when its manifest carries the key it has
now (:meth:`quicksilver.pipeline.runner.Runner.completion`); nothing else answers that question.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver.fsutil import write_text_atomic

MANIFEST = "_SUCCESS.json"


def write_jsonl(
    path: Path,
    rows: Iterable[dict[str, Any]],
    *,
    index_by: Callable[[dict[str, Any]], str] | None = None,
    spans: Sequence[str] = (),
    swap: Callable[[dict[str, Any]], Mapping[str, tuple[str, str]]] | None = None,
) -> Path:
    """Write rows atomically (a crash leaves the old file or none, never half a file).

    ``index_by``: also write the file's index (:func:`index_path`): where each row's line is,
    by the name ``index_by`` gives it (a task's slug), so that a reader of a few rows reads only
    theirs (:func:`read_jsonl_rows`). Rows that share a name get no index (readers then read the
    whole file). ``spans``: the index also says where these fields' values are in each line
    (:func:`read_spans`), so that a reader of one field of a row reads and parses that value only
    (a stage file's references, :mod:`quicksilver.pipeline.refs`). ``swap``: per row, fields
    whose value to write as something else when it is the value a digest names: ``{field:
    (value_digest, JSON text)}`` (a reference to where the value is held), decided on the text
    the line is made of, so that a value is serialised once."""
    rows = list(rows)
    lines: list[str] = []
    fields: dict[str, dict[str, list[int]]] = {}
    at = 0
    for row in rows:
        line, where = _line(row, spans, swap(row) if swap is not None else {})
        lines.append(line)
        if index_by is not None and where:
            fields[index_by(row)] = {k: [at + a, n] for k, (a, n) in where.items()}
        at += len(line.encode("utf-8"))
    write_text_atomic(path, "".join(lines))
    if index_by is not None:
        lines_at: dict[str, list[int]] = {}
        at = 0
        for row, line in zip(rows, lines, strict=True):
            size = len(line.encode("utf-8"))
            lines_at[index_by(row)] = [at, size]
            at += size
        if len(lines_at) == len(lines):
            st = path.stat()
            index = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "lines": lines_at}
            if fields:
                index["fields"] = fields
            write_text_atomic(index_path(path), json.dumps(index, sort_keys=True) + "\n")
        else:
            index_path(path).unlink(missing_ok=True)
    return path


def dumps_value(value: Any) -> str:
    """A value as a line holds it (sorted keys, non-ASCII as is)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def value_digest(value: Any) -> str:
    """sha256 of a value as a line holds it (:func:`dumps_value`): the bytes at its span, so a
    value read by its span is checked without serialising it again."""
    return hashlib.sha256(dumps_value(value).encode("utf-8")).hexdigest()


def _line(
    row: dict[str, Any], spans: Sequence[str], swap: Mapping[str, tuple[str, str]]
) -> tuple[str, dict[str, tuple[int, int]]]:
    """``row``'s line, ``json.dumps(row, ensure_ascii=False, sort_keys=True)`` and a newline
    (but for the values ``swap`` replaces), and where the values of the fields ``spans`` names
    are in it (byte offset, length). Made key by key, as ``json.dumps`` makes it (sorted keys,
    ``", "`` and ``": "``), so that the offsets come with the line and nothing is serialised
    twice."""
    if not spans and not swap:
        return dumps_value(row) + "\n", {}
    wanted = set(spans)
    parts: list[str] = []
    where: dict[str, tuple[int, int]] = {}
    at = 1  # after "{"
    for n, key in enumerate(sorted(row)):
        head = ("" if n == 0 else ", ") + dumps_value(key) + ": "
        value = dumps_value(row[key]).encode("utf-8")
        if key in swap and hashlib.sha256(value).hexdigest() == swap[key][0]:
            value = swap[key][1].encode("utf-8")
        elif key in wanted:
            where[key] = (at + len(head.encode("utf-8")), len(value))
        at += len(head.encode("utf-8")) + len(value)
        parts.append(head + value.decode("utf-8"))
    return "{" + "".join(parts) + "}\n", where


def index_path(path: Path) -> Path:
    """The index beside a JSON-lines file: ``records.jsonl`` -> ``records.index.json``."""
    return path.with_name(path.name.removesuffix(".jsonl") + ".index.json")


def _index(path: Path) -> dict[str, Any] | None:
    """The index of ``path`` as written, or None: none, torn, or written for another version
    of the file (its size and mtime)."""
    try:
        info = json.loads(index_path(path).read_text())
        st = path.stat()
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or (info.get("size"), info.get("mtime_ns")) != (
        st.st_size,
        st.st_mtime_ns,
    ):
        return None
    return info


def read_index(path: Path) -> dict[str, tuple[int, int]] | None:
    """Where each named row of ``path`` is (byte offset, length), from its index; None when
    there is none, or it was written for another version of the file (its size and mtime)."""
    info = _index(path)
    if info is None:
        return None
    return {name: (int(at), int(size)) for name, (at, size) in info["lines"].items()}


def read_spans(path: Path) -> dict[str, dict[str, tuple[int, int]]] | None:
    """Where the values of the fields the writer was asked for (``write_jsonl(spans=...)``) are
    in ``path`` (byte offset, length), per named row; None without a trusted index."""
    info = _index(path)
    if info is None:
        return None
    return {
        name: {k: (int(at), int(size)) for k, (at, size) in spans.items()}
        for name, spans in info.get("fields", {}).items()
    }


def read_spans_bytes(
    path: Path,
    spans: Mapping[str, Mapping[str, tuple[int, int]]],
    wanted: Iterable[tuple[str, str]],
) -> dict[tuple[str, str], bytes]:
    """The bytes at these (row name, field) spans of ``path`` (the values as written), reading
    only them; a pair without a span is left out."""
    todo = sorted((spans[n][f], n, f) for n, f in set(wanted) if f in spans.get(n, {}))
    out: dict[tuple[str, str], bytes] = {}
    with path.open("rb") as fh:
        for (at, size), name, field_name in todo:
            fh.seek(at)
            out[(name, field_name)] = fh.read(size)
    return out


def read_lines(path: Path, index: dict[str, tuple[int, int]], names: Iterable[str]) -> list[bytes]:
    """The lines of ``path`` with these names (those in ``index``), newline included, in the
    file's order, reading only them."""
    spans = sorted(index[n] for n in set(names) if n in index)
    lines = []
    with path.open("rb") as fh:
        for at, size in spans:
            fh.seek(at)
            lines.append(fh.read(size))
    return lines


def read_jsonl_rows(
    path: Path, index: dict[str, tuple[int, int]], names: Iterable[str]
) -> list[dict[str, Any]]:
    """The rows of ``path`` with these names (those in ``index``), in the file's order, reading
    only their lines."""
    rows = []
    for line in read_lines(path, index, names):
        try:
            rows.append(json.loads(line))
        except ValueError as exc:
            raise ValueError(f"{path}: not a JSON record (truncated?): {exc}") from exc
    return rows


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError as exc:
                    raise ValueError(f"{path}:{n}: not a JSON record (truncated?): {exc}") from exc
    return rows


def file_digest(*paths: Path) -> str:
    """sha256 over the files' names and contents (missing files count as empty)."""
    h = hashlib.sha256()
    for p in paths:
        h.update(str(Path(p).name).encode() + b"\0")
        if Path(p).exists():
            with Path(p).open("rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
        h.update(b"\1")
    return h.hexdigest()


@dataclass
class StageDir:
    """``<build>/stages/<name>/``: records, rejects and the completion manifest of a stage."""

    root: Path
    name: str

    @property
    def path(self) -> Path:
        return self.root / "stages" / self.name

    def file(self, name: str) -> Path:
        return self.path / name

    def records(self, part: str = "") -> Path:
        """The stage's records (one :class:`TaskRecord` per line), or a shard's."""
        return self.path / (f"{part}.jsonl" if part else "records.jsonl")

    def rejects(self, part: str = "") -> Path:
        """What the stage (or shard) set aside, each with its reason and detail."""
        return self.path / (f"{part}.rejects.jsonl" if part else "rejects.jsonl")

    def manifest_path(self, part: str = "") -> Path:
        return self.path / (f"_SUCCESS.{part}.json" if part else MANIFEST)

    def manifest(self, part: str = "") -> dict[str, Any] | None:
        """The completion manifest of this stage (or shard ``part``); None if absent or torn."""
        try:
            info = json.loads(self.manifest_path(part).read_text())
        except (OSError, ValueError):
            return None
        return info if isinstance(info, dict) else None

    def finish(self, key: str, counts: dict[str, Any], part: str = "", **info: Any) -> None:
        """Write the manifest: the stage (or shard) is done with ``key``."""
        write_text_atomic(
            self.manifest_path(part),
            json.dumps({"key": key, "counts": counts, **info}, indent=1) + "\n",
        )


def iter_shards(slugs: list[str], shard_size: int) -> Iterator[list[str]]:
    for i in range(0, len(slugs), max(1, shard_size)):
        yield slugs[i : i + shard_size]


def cpu_count() -> int:
    return os.cpu_count() or 1
