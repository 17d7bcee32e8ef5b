"""Stage files: JSON lines written atomically, digests, a stage's folder and its manifest.

A stage writes its records to ``<out_dir>/stages/<stage>/records.jsonl`` (a sharded stage:
``<shard>.jsonl``), its rejects beside them (``rejects.jsonl``, ``<shard>.rejects.jsonl``) and,
last, its completion manifest (``_SUCCESS.json``, ``_SUCCESS.<shard>.json``): the key it ran with,
its counts and how long it took. A stage is done exactly when its manifest carries the key it has
now (:meth:`quicksilver.pipeline.runner.Runner.completion`); nothing else answers that question.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver.fsutil import write_text_atomic

MANIFEST = "_SUCCESS.json"


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> Path:
    """Write rows atomically (a crash leaves the old file or none, never half a file)."""
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    return write_text_atomic(path, text)


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
