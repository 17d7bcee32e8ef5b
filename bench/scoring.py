"""Scoring benchmark: are scores reproducible, and what does scoring cost, per meter.

On the bundled Mercury and DPE datasets (built by ``make build-dataset`` / ``make build-dpe``), a
fixed sample set is scored several times: each task's second reference solution, as if a model
had written it (a correct sample whose speed sits inside the task's distribution).

- ``icount``: scored with a cold reference cache counting every reference here, then with
  another cold cache taking the counts the rows ship (``shipped_counts``: a seeded sample of
  tasks re-counted, the rest taken as shipped; docs/profiler.md), again with the warm cache, and
  once more with ``--recollect``-style fresh profiles of every reference. Beyond@1 and DPS must
  be identical.
- ``cpu``: scored three times (no reference cache: the sample and its task's references are
  measured interleaved, in one time window) with one core kept busy by another process. The
  standard deviation of Beyond@1 and of DPS over the three is the figure (target: 0.5 points).

Printed: wall time of every run, Beyond@1 and DPS per run, their spread, and how many tasks
were scored. The numbers go in docs/performance.md.

    python bench/scoring.py                                  # data/build/{mercury,dpe}
    python bench/scoring.py --mercury DIR --dpe DIR --json OUT
    python bench/scoring.py --max-tasks 8       # the first 8 tasks of each: a shorter run
    python bench/scoring.py --meters cpu --datasets mercury     # one part of the table
    python bench/scoring.py --meters icount --datasets mercury --split eval  # cold, shipped

Every run prints a line when it ends and the JSON (``--json``) is rewritten after every run, so a
long bench that is stopped keeps what it measured.
"""

from __future__ import annotations

import logging
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from quicksilver.config import MeasureConfig
from quicksilver.rows import load_records
from quicksilver.samples import Sample
from quicksilver.scoring import ReferenceCache, score

from common import header, parser, start, table, write_json

log = logging.getLogger("bench.scoring")


def second_reference_samples(records: Sequence[Any]) -> dict[str, list[Sample]]:
    """Each task's second reference solution as its one sample (the first when it has one)."""
    out: dict[str, list[Sample]] = {}
    for rec in records:
        # a DPE row: its cluster references; a Mercury row: its solutions
        codes = list(rec.reference) if rec.reference else [s.solution for s in rec.solutions]
        if not codes:
            continue
        code = codes[1] if len(codes) > 1 else codes[0]
        out[rec.task_key] = [Sample(task=rec.task_key, code=code, index=0, source="bench")]
    return out


def run(
    records: Sequence[Any],
    samples: dict[str, list[Sample]],
    meter: str,
    cache: ReferenceCache,
    *,
    shipped: bool = False,
) -> dict[str, Any]:
    started = time.perf_counter()
    report = score(
        records,
        samples,
        meter=meter,
        measure=MeasureConfig(meter=meter),
        cache=cache,
        shipped_counts=shipped,
    )
    wall = time.perf_counter() - started
    data = report.to_dict()
    return {
        "shipped_counts": data.get("shipped_counts"),
        "wall_seconds": wall,
        "beyond_at_1": data.get("beyond_at_1"),
        "dps": data.get("dps"),
        "pass_at_1": data.get("pass_at_1"),
        "tasks": len(data.get("tasks", [])),
        "dps_tolerance": data.get("dps_tolerance"),
        # each task's figure, to see which tasks move between runs
        "per_task": {
            t["task_id"]: {
                "beyond": t.get("beyond"),
                "dps": t.get("dps"),
                "clusters": [x.get("cluster") for x in t.get("samples", [])],
                "costs": [x.get("pe_cost") or x.get("runtime") for x in t.get("samples", [])],
                "reference_costs": t.get("reference_costs"),
            }
            for t in data.get("tasks", [])
        },
    }


def _shipped_text(shipped: dict[str, Any] | None) -> str:
    if not shipped:
        return ""
    return (
        f"; shipped counts: {shipped['used']} taken, {shipped['recounted']} re-counted, "
        f"{len(shipped['mismatches'])} differed"
        + (f" ({shipped['reason']})" if shipped.get("reason") else "")
    )


def busy_core() -> subprocess.Popen[bytes]:
    """Another process keeping one core busy for as long as it lives."""
    return subprocess.Popen([sys.executable, "-c", "while True:\n    pass\n"])


def spread(values: list[float | None]) -> float | None:
    xs = [v for v in values if v is not None]
    return statistics.pstdev(xs) if len(xs) >= 2 else None


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument("--mercury", type=Path, default=Path("data/build/mercury"))
    p.add_argument("--dpe", type=Path, default=Path("data/build/dpe"))
    p.add_argument("--cpu-runs", type=int, default=3)
    p.add_argument("--meters", default="icount,cpu", help="comma-separated: icount, cpu")
    p.add_argument("--datasets", default="mercury,dpe", help="comma-separated: mercury, dpe")
    p.add_argument(
        "--max-tasks",
        type=int,
        default=None,
        help="score only the first N tasks of each dataset (by task id): a shorter run",
    )
    p.add_argument("--split", default=None, help="score one split only (eval: the eval split)")
    p.add_argument(
        "--icount-runs",
        default="counted,shipped,warm,recollect",
        help="comma-separated icount runs: counted (cold, every reference counted), shipped "
        "(cold, shipped counts), warm, recollect",
    )
    args = p.parse_args(argv)
    console = start(level=logging.WARNING)
    datasets = {}
    meters = [m.strip() for m in args.meters.split(",") if m.strip()]
    wanted = [d.strip() for d in args.datasets.split(",") if d.strip()]
    for name, path in (("mercury", args.mercury), ("dpe", args.dpe)):
        if name not in wanted:
            continue
        parquet = path / "parquet"
        if not parquet.exists():
            console.print(f"[red]{path}: no built dataset (make build-{name} first)[/]")
            return 2
        loaded = load_records(parquet)
        chosen = loaded.splits.get(args.split, []) if args.split else loaded.records
        records = sorted(chosen, key=lambda r: r.task_key)
        datasets[name] = records[: args.max_tasks] if args.max_tasks else records
    m, _ = header(console)
    results: dict[str, dict[str, list[dict[str, Any]]]] = {}

    def record(name: str, meter: str, label: str, row: dict[str, Any]) -> None:
        results[name][meter].append({"label": label, **row})
        b, d = row["beyond_at_1"], row["dps"]
        console.print(
            f"{name} {meter} {label}: {row['wall_seconds']:.1f} s, {row['tasks']} tasks, "
            f"Beyond@1 {'-' if b is None else f'{100 * b:.2f}'}, "
            f"DPS {'-' if d is None else f'{d:.2f}'}"
            + ("" if row.get("dps_tolerance") is None else f" (tolerance {row['dps_tolerance']:g})")
            + _shipped_text(row.get("shipped_counts"))
        )
        write_json(args.json, {"machine": m, "results": results, "finished": False})

    for name, records in datasets.items():
        samples = second_reference_samples(records)
        results[name] = {"icount": [], "cpu": []}
        if "icount" in meters:
            with tempfile.TemporaryDirectory(prefix="qs-bench-score-") as tmp:
                cache = ReferenceCache(Path(tmp) / "counted")
                runs = {r.strip() for r in args.icount_runs.split(",")}
                for key, label, c, shipped in (
                    ("counted", "cold cache, every reference counted", cache, False),
                    (
                        "shipped",
                        "cold cache, shipped counts",
                        ReferenceCache(Path(tmp) / "shipped"),
                        True,
                    ),
                    ("warm", "warm cache", cache, False),
                    (
                        "recollect",
                        "recollect",
                        ReferenceCache(Path(tmp) / "counted", enabled=False),
                        False,
                    ),
                ):
                    if key not in runs:
                        continue
                    row = run(records, samples, "icount", c, shipped=shipped)
                    record(name, "icount", label, row)
        if "cpu" in meters:
            load = busy_core()
            try:
                for k in range(args.cpu_runs):
                    cache = ReferenceCache(enabled=False)
                    row = run(records, samples, "cpu", cache)
                    record(name, "cpu", f"run {k + 1}, one core busy", row)
            finally:
                load.kill()
                load.wait()
    t = table(
        "Scoring each task's second reference as a sample, repeated",
        ("dataset", "left"),
        ("meter", "left"),
        ("run", "left"),
        *("wall", "tasks", "Beyond@1", "DPS"),
    )
    for name, runs in results.items():
        for meter, rows in runs.items():
            if not rows:
                continue
            for row in rows:
                t.add_row(
                    name,
                    meter,
                    row["label"],
                    f"{row['wall_seconds']:.1f} s",
                    str(row["tasks"]),
                    "-" if row["beyond_at_1"] is None else f"{100 * row['beyond_at_1']:.2f}",
                    "-" if row["dps"] is None else f"{row['dps']:.2f}",
                )
            b = spread([None if r["beyond_at_1"] is None else 100 * r["beyond_at_1"] for r in rows])
            d = spread([r["dps"] for r in rows])
            t.add_row(
                "",
                "",
                "[bold]spread (std, points)[/]",
                "",
                "",
                "-" if b is None else f"{b:.3f}",
                "-" if d is None else f"{d:.3f}",
            )
        t.add_section()
    console.print(t)
    write_json(args.json, {"machine": m, "results": results, "finished": True})
    return 0


if __name__ == "__main__":
    sys.exit(main())
