"""What every build stage shares: one contract, inspectable outputs, counted drops.

A stage reads records (JSONL files of dicts) and writes records to
``<build>/stages/<stage>/`` with its rejects beside them (``rejects.jsonl``: the record, the
``reason`` category and a ``detail`` that names the task and what was wrong). Every stage counts
tasks and solutions in and out and drops per reason (:class:`StageCounts`); the flow turns them
into the funnel. Records are identified by content (task slug + solution hash), never by position.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
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


def json_digest(value: Any) -> str:
    return hashlib.sha256(
        json.dumps(value, sort_keys=True, default=str, separators=(",", ":")).encode()
    ).hexdigest()


def solution_hash(code: str) -> int:
    """Mercury's ``hash`` field: a signed int64 from the sha256 of the normalised code."""
    return int.from_bytes(hashlib.sha256(code.encode()).digest()[:8], "big", signed=True)


@dataclass
class StageCounts:
    stage: str
    tasks_in: int = 0
    tasks_out: int = 0
    solutions_in: int = 0
    solutions_out: int = 0
    drops: Counter[str] = field(default_factory=Counter)  # reason -> records dropped
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "tasks_in": self.tasks_in,
            "tasks_out": self.tasks_out,
            "solutions_in": self.solutions_in,
            "solutions_out": self.solutions_out,
            "drops": dict(sorted(self.drops.items())),
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StageCounts:
        return cls(
            stage=d["stage"],
            tasks_in=d["tasks_in"],
            tasks_out=d["tasks_out"],
            solutions_in=d["solutions_in"],
            solutions_out=d["solutions_out"],
            drops=Counter(d.get("drops", {})),
            notes=list(d.get("notes", [])),
        )

    @classmethod
    def merge(cls, stage: str, parts: Iterable[StageCounts]) -> StageCounts:
        out = cls(stage)
        for p in parts:
            out.tasks_in += p.tasks_in
            out.tasks_out += p.tasks_out
            out.solutions_in += p.solutions_in
            out.solutions_out += p.solutions_out
            out.drops.update(p.drops)
            out.notes.extend(p.notes)
        return out


def reject(record: dict[str, Any], reason: str, detail: str, **extra: Any) -> dict[str, Any]:
    """A rejects-file row: the record (code included) with why it was set aside."""
    return {**record, "reason": reason, "detail": detail, **extra}


@dataclass
class StageDir:
    """``<build>/stages/<name>/``: outputs, ``rejects.jsonl`` and the completion manifest."""

    root: Path
    name: str

    @property
    def path(self) -> Path:
        return self.root / "stages" / self.name

    def file(self, name: str) -> Path:
        return self.path / name

    def manifest_path(self, part: str = "") -> Path:
        return self.path / (f"_SUCCESS.{part}.json" if part else MANIFEST)

    def manifest(self, part: str = "") -> dict[str, Any] | None:
        """The completion manifest of this stage (or shard ``part``); None if absent or torn."""
        try:
            info = json.loads(self.manifest_path(part).read_text())
        except (OSError, ValueError):
            return None
        return info if isinstance(info, dict) else None

    def complete(self, key: str, part: str = "") -> bool:
        """True when this stage (or shard ``part``) finished with this cache key."""
        info = self.manifest(part)
        return info is not None and info.get("key") == key

    def finish(self, key: str, counts: StageCounts, part: str = "", **info: Any) -> None:
        write_text_atomic(
            self.manifest_path(part),
            json.dumps({"key": key, "counts": counts.to_dict(), **info}, indent=1) + "\n",
        )


def group_by_slug(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["slug"], []).append(r)
    return out


def iter_shards(slugs: list[str], shard_size: int) -> Iterator[list[str]]:
    for i in range(0, len(slugs), max(1, shard_size)):
        yield slugs[i : i + shard_size]


def cpu_count() -> int:
    return os.cpu_count() or 1
