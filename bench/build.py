"""Build benchmark: a cold Mercury build with the icount meter against one with the cpu meter.

Both builds run in this one run, one after the other, on the bundled corpus with the shipped
configs/mercury.yaml, each into its own fresh output folder (nothing cached, a new Prefect
temporary server each), through the same command line a maintainer uses
(``python flows/build_mercury.py``). Only ``profile.measure.meter`` differs; the cpu build keeps
the config's rounds (3-12 per solution, 5% CI target, 10 s budget). The order alternates with
``--order`` so that a drifting machine does not always favour the same side.

Printed: wall time of each build, the seconds of every stage (summed over shards, from the
stages' manifests), how many tasks and solutions the build kept, and the machine's CPU use over
each build (from /proc/stat once a second: busy cores on average, the share of the build with
every core busy, and a per-minute line), which shows whether the build keeps every core busy.
The numbers go in docs/performance.md. ``--set KEY=VALUE`` overrides are passed on to both
builds; ``--only icount`` (or cpu) runs one build.

Also printed, per sharded stage: the slowest and the median shard's seconds, their ratio and the
tasks of the slowest shard (a long pole shows there). ``--busy`` adds a cold icount build with
one core kept busy by another process (a spinning Python loop, the whole build long) to the same
run, so that the quiet and the loaded build times sit side by side.

    python bench/build.py                   # ~25-40 minutes on 2 cores
    python bench/build.py --order cpu-first --json /tmp/build-bench.json
    python bench/build.py --only icount --busy   # quiet and one-core-busy icount builds
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from common import header, machine_ticks, parser, ratio, run_flow, start, table, write_json

log = logging.getLogger("bench.build")

BUSY = "icount, one core busy"


class CpuSampler:
    """Busy cores once a second while a build runs (the whole machine: the build's own
    processes are most of it on a quiet machine; say so when it is not)."""

    def __init__(self, period: float = 1.0) -> None:
        self.period = period
        self.cores = os.cpu_count() or 1
        self.samples: list[float] = []  # busy cores per period
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        busy0, total0, _ = machine_ticks()
        while not self._stop.wait(self.period):
            busy, total, _ = machine_ticks()
            if total > total0:
                self.samples.append(self.cores * (busy - busy0) / (total - total0))
            busy0, total0 = busy, total

    def __enter__(self) -> CpuSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> dict[str, Any]:
        xs = self.samples
        if not xs:
            return {"cores": self.cores, "seconds": 0}
        per_minute = [
            round(sum(xs[i : i + 60]) / len(xs[i : i + 60]), 2) for i in range(0, len(xs), 60)
        ]
        return {
            "cores": self.cores,
            "seconds": len(xs),
            "mean_busy_cores": round(sum(xs) / len(xs), 2),
            "share_all_cores_busy": round(sum(x >= self.cores - 0.25 for x in xs) / len(xs), 3),
            "share_at_most_one_core": round(sum(x <= 1.25 for x in xs) / len(xs), 3),
            "per_minute": per_minute,
        }


@contextlib.contextmanager
def one_core_busy(busy: bool) -> Any:
    """Another process spinning on one core while the block runs (nothing when not ``busy``)."""
    if not busy:
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def shard_balance(out: Path) -> dict[str, dict[str, Any]]:
    """Per sharded stage: the slowest and the median shard's seconds and the slowest's tasks."""
    out_stages: dict[str, dict[str, Any]] = {}
    for folder in sorted(p for p in (out / "stages").glob("*") if p.is_dir()):
        shards = sorted(folder.glob("_SUCCESS.shard-*.json"))
        if len(shards) < 2:
            continue
        seconds = {
            m.name.split(".")[1]: float(json.loads(m.read_text()).get("seconds", 0.0))
            for m in shards
        }
        slowest = max(seconds, key=lambda k: seconds[k])
        slugs: list[str] = []
        records = folder / f"{slowest}.jsonl"
        if records.exists():
            for line in records.read_text().splitlines():
                with contextlib.suppress(ValueError, AttributeError, KeyError):
                    slugs.append(json.loads(line)["task"]["slug"])
        med = statistics.median(seconds.values())
        out_stages[folder.name] = {
            "shards": len(seconds),
            "slowest_seconds": round(seconds[slowest], 1),
            "median_seconds": round(med, 1),
            "slowest_over_median": round(seconds[slowest] / med, 2) if med > 0 else None,
            "slowest_tasks": slugs,
        }
    return out_stages


def run_build(meter: str, out: Path, extra: Sequence[str], *, busy: bool = False) -> dict[str, Any]:
    """One cold build through the flow's command line; its wall time and per-stage funnel."""
    if out.exists():
        shutil.rmtree(out)
    with one_core_busy(busy), CpuSampler() as cpu:
        sets = [f"profile.measure.meter={meter}", *extra]
        wall = run_flow("build_mercury.py", "mercury.yaml", out, sets)
    stages: dict[str, dict[str, Any]] = {}
    for manifest in sorted(out.glob("stages/*/_SUCCESS*.json")):
        info = json.loads(manifest.read_text())
        st = stages.setdefault(manifest.parent.name, {"seconds": 0.0, "parts": 0})
        st["seconds"] += float(info.get("seconds", 0.0))
        st["parts"] += 1
    rows = out / "parquet"
    kept = {}
    try:
        import pyarrow.parquet as pq

        for split in sorted(rows.glob("*.parquet")):
            table = pq.read_table(split, columns=["solutions"])
            kept[split.stem] = (table.num_rows, sum(len(s) for s in table.column(0).to_pylist()))
    except (ImportError, OSError) as exc:
        log.warning("could not read the built rows: %s", exc)
    return {
        "meter": meter,
        "busy_core": busy,
        "wall_seconds": wall,
        "stages": stages,
        "shards": shard_balance(out),
        "kept": kept,
        "cpu_use": cpu.summary(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, sets=True)
    p.add_argument("--order", choices=("icount-first", "cpu-first"), default="icount-first")
    p.add_argument("--only", choices=("icount", "cpu"), default=None, help="run one build")
    p.add_argument(
        "--busy",
        action="store_true",
        help="add a cold icount build with one core kept busy by another process",
    )
    args = p.parse_args(argv)
    console = start()
    extra = list(args.set)
    meters = ["icount", "cpu"] if args.order == "icount-first" else ["cpu", "icount"]
    if args.only:
        meters = [args.only]
    if args.busy:
        meters.append(BUSY)
    m, _ = header(console)
    runs = {}
    with tempfile.TemporaryDirectory(prefix="qs-bench-build-") as tmp:
        for label in meters:
            log.info("cold %s build ...", label)
            meter = "icount" if label == BUSY else label
            runs[label] = run_build(meter, Path(tmp) / meter, extra, busy=label == BUSY)
            log.info("%s build: %.0f s", label, runs[label]["wall_seconds"])
    t = table(
        "Cold Mercury build (make build-dataset), same run: seconds of work per stage",
        ("stage", "left"),
        *meters,
        *([f"{meters[0]} / {meters[1]}"] if len(meters) == 2 else []),
    )
    names = list(dict.fromkeys(n for meter in meters for n in runs[meter]["stages"]))

    def ratios(vals: list[float | None]) -> list[str]:
        return [ratio(vals[0], vals[1])] if len(vals) == 2 else []

    for name in names:
        vals = [runs[m]["stages"].get(name, {}).get("seconds") for m in meters]
        t.add_row(name, *("-" if v is None else f"{v:.1f}" for v in vals), *ratios(vals))
    walls = [runs[m]["wall_seconds"] for m in meters]
    t.add_row("[bold]build, wall clock[/]", *(f"{w:.0f}" for w in walls), *ratios(walls))
    console.print(t)
    u = table(
        "CPU use over each build (the whole machine, once a second)",
        ("build", "left"),
        "mean busy cores",
        "all cores busy",
        "one core or less",
        ("per minute", "left"),
    )
    for meter in meters:
        c = runs[meter]["cpu_use"]
        if not c.get("seconds"):
            continue
        u.add_row(
            meter,
            f"{c['mean_busy_cores']:.2f} of {c['cores']}",
            f"{100 * c['share_all_cores_busy']:.0f}%",
            f"{100 * c['share_at_most_one_core']:.0f}%",
            " ".join(f"{x:.1f}" for x in c["per_minute"]),
        )
    console.print(u)
    v = table(
        "Shards: the slowest against the median (a long pole shows here)",
        ("build", "left"),
        ("stage", "left"),
        "shards",
        "slowest s",
        "median s",
        "slowest / median",
        ("slowest shard's tasks", "left"),
    )
    for label in meters:
        for stage, b in runs[label]["shards"].items():
            v.add_row(
                label,
                stage,
                str(b["shards"]),
                f"{b['slowest_seconds']:.0f}",
                f"{b['median_seconds']:.0f}",
                "-" if b["slowest_over_median"] is None else f"{b['slowest_over_median']:.1f}x",
                ", ".join(b["slowest_tasks"]),
            )
    console.print(v)
    if BUSY in runs and "icount" in runs:
        quiet, busy = runs["icount"]["wall_seconds"], runs[BUSY]["wall_seconds"]
        console.print(
            f"cold icount build: {quiet:.0f} s quiet, {busy:.0f} s with one core busy "
            f"({ratio(busy, quiet)} of quiet)"
        )
    for meter in meters:
        console.print(f"{meter}: kept (tasks, solutions) per split {runs[meter]['kept']}")
    write_json(args.json, {"machine": m, "order": meters, "runs": runs})
    return 0


if __name__ == "__main__":
    sys.exit(main())
