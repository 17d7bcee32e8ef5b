"""Stage files' bytes per task: as written, with references, and as full copies (issue 29 item 4).

A stage writes a field it returned unchanged as a reference to the earlier stage file that holds
it (quicksilver/pipeline/refs.py). For every stage folder of a finished build this reads the
records files (``records.jsonl``, ``shard-NNNN.jsonl``; not the rejects) and prints, per stage,
the bytes on disk and the bytes the same records took before references: every reference put
back and each row written as the runner writes it (``write_jsonl``: sorted keys, one line), which
is byte for byte the file a stage wrote when it copied every field; and the seconds the next
stage spends reading them: the records with every reference put back from its holder (only the
values' bytes, each checked against its digest) against reading the full copies (written to a
file of their own and read with ``read_jsonl``, what the runner did before). Both from the one
build, in one run:

    python bench/stage_bytes.py data/build/mercury
    python bench/stage_bytes.py OUT_DIR --json bytes.json
"""

from __future__ import annotations

import gc
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from quicksilver.pipeline.files import read_jsonl, write_jsonl
from quicksilver.pipeline.refs import read_stage_rows

from common import parser, start, table, write_json

REPEATS = 5


@dataclass
class StageBytes:
    """One stage's records files: their tasks, bytes on disk and bytes as full copies."""

    stage: str
    tasks: int
    on_disk: int
    full: int
    read_seconds: float  # read_stage_rows over its files: references put back (best of 5)
    full_read_seconds: float  # read_jsonl of the full copies, in a file of their own (best of 5)

    @property
    def per_task(self) -> tuple[float, float] | None:
        """KB per task on disk and as full copies."""
        if not self.tasks:
            return None
        return self.on_disk / self.tasks / 1e3, self.full / self.tasks / 1e3


def record_files(folder: Path) -> list[Path]:
    """A stage folder's records files (its own and its shards'), not its rejects."""
    return sorted(p for p in folder.glob("*.jsonl") if not p.name.endswith("rejects.jsonl"))


def stage_bytes(folder: Path) -> StageBytes:
    """The bytes of a stage's records files, as written and with every reference put back."""
    files = record_files(folder)
    on_disk = sum(p.stat().st_size for p in files)
    tasks = sum(len(read_jsonl(p)) for p in files)
    rows = [row for p in files for row in read_stage_rows(p)]
    with tempfile.TemporaryDirectory() as tmp:
        copy = write_jsonl(Path(tmp) / "full.jsonl", rows)  # what the stage wrote before
        full = copy.stat().st_size
        read_seconds, full_read = _best(
            lambda: [read_stage_rows(p) for p in files], lambda: read_jsonl(copy)
        )
    return StageBytes(folder.name, tasks, on_disk, full, read_seconds, full_read)


def _best(*reads: Callable[[], object]) -> list[float]:
    """Each read's best time of ``REPEATS``, taken in turns (the page cache warm for all, the
    garbage collected before each)."""
    best = [float("inf")] * len(reads)
    for _ in range(REPEATS):
        for i, read in enumerate(reads):
            gc.collect()
            t0 = time.perf_counter()
            read()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def build_bytes(out: Path, stages: list[str] | None = None) -> list[StageBytes]:
    """Every stage of the build at ``out`` with records files (``stages``: these, in order)."""
    root = out / "stages"
    names = stages or sorted(p.name for p in root.iterdir() if p.is_dir())
    return [stage_bytes(root / n) for n in names if record_files(root / n)]


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument("out", type=Path, help="a build's out_dir (the folder holding stages/)")
    p.add_argument("--stages", nargs="*", default=None, help="these stages, in this order")
    args = p.parse_args(argv)
    console = start()
    rows = build_bytes(args.out, args.stages)
    t = table(
        f"stage files of {args.out}",
        ("stage", "left"),
        "tasks",
        "MB on disk",
        "MB as full copies",
        "KB / task on disk",
        "KB / task as full copies",
        "full / on disk",
        "read s, references",
        "read s, full copies",
    )
    for r in rows:
        per = r.per_task
        t.add_row(
            r.stage,
            f"{r.tasks:,}",
            f"{r.on_disk / 1e6:,.2f}",
            f"{r.full / 1e6:,.2f}",
            f"{per[0]:,.1f}" if per else "-",
            f"{per[1]:,.1f}" if per else "-",
            f"{r.full / r.on_disk:.2f}x" if r.on_disk else "-",
            f"{r.read_seconds:.3f}",
            f"{r.full_read_seconds:.3f}",
        )
    on_disk, full = sum(r.on_disk for r in rows), sum(r.full for r in rows)
    t.add_row("all", "", f"{on_disk / 1e6:,.2f}", f"{full / 1e6:,.2f}", "", "", "", "", "")
    console.print(t)
    numbers: dict[str, Any] = {"out": str(args.out), "stages": [asdict(r) for r in rows]}
    write_json(args.json, numbers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
