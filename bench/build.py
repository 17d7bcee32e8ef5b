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

    python bench/build.py                   # ~25-40 minutes on 2 cores
    python bench/build.py --order cpu-first --json /tmp/build-bench.json
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from quicksilver.machine import machine_info

REPO = Path(__file__).resolve().parents[1]
log = logging.getLogger("bench.build")


def _cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of all cores together, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [float(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


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
        busy0, total0 = _cpu_times()
        while not self._stop.wait(self.period):
            busy, total = _cpu_times()
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


def run_build(meter: str, out: Path, extra: Sequence[str]) -> dict[str, Any]:
    """One cold build through the flow's command line; its wall time and per-stage funnel."""
    if out.exists():
        shutil.rmtree(out)
    argv = [
        sys.executable,
        str(REPO / "flows" / "build_mercury.py"),
        "--config",
        str(REPO / "configs" / "mercury.yaml"),
        "--set",
        f"out_dir={out}",
        "--set",
        f"profile.measure.meter={meter}",
        *[x for s in extra for x in ("--set", s)],
    ]
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    started = time.perf_counter()
    with CpuSampler() as cpu:
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env, check=False)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise SystemExit(f"the {meter} build failed (exit {proc.returncode}):\n{tail}")
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
        "wall_seconds": wall,
        "stages": stages,
        "kept": kept,
        "cpu_use": cpu.summary(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--order", choices=("icount-first", "cpu-first"), default="icount-first")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", type=Path, default=None, metavar="OUT")
    p.add_argument("--only", choices=("icount", "cpu"), default=None, help="run one build")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    extra = list(args.set)
    meters = ["icount", "cpu"] if args.order == "icount-first" else ["cpu", "icount"]
    if args.only:
        meters = [args.only]
    console = Console(width=None if sys.stdout.isatty() else 140)
    m = machine_info()
    console.print(f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}")
    runs = {}
    with tempfile.TemporaryDirectory(prefix="qs-bench-build-") as tmp:
        for meter in meters:
            log.info("cold %s build ...", meter)
            runs[meter] = run_build(meter, Path(tmp) / meter, extra)
            log.info("%s build: %.0f s", meter, runs[meter]["wall_seconds"])
    t = Table(title="Cold Mercury build (make build-dataset), same run: seconds of work per stage")
    t.add_column("stage")
    for meter in meters:
        t.add_column(f"{meter}", justify="right")
    if len(meters) == 2:
        t.add_column(f"{meters[0]} / {meters[1]}", justify="right")
    names = list(dict.fromkeys(n for meter in meters for n in runs[meter]["stages"]))

    def ratio(*vals: float | None) -> list[str]:
        if len(vals) < 2:
            return []
        a, b = vals
        return [f"{a / b:.2f}x" if a and b else ""]

    for name in names:
        vals = [runs[m]["stages"].get(name, {}).get("seconds") for m in meters]
        t.add_row(name, *("-" if v is None else f"{v:.1f}" for v in vals), *ratio(*vals))
    walls = [runs[m]["wall_seconds"] for m in meters]
    t.add_row("[bold]build, wall clock[/]", *(f"{w:.0f}" for w in walls), *ratio(*walls))
    console.print(t)
    u = Table(title="CPU use over each build (the whole machine, once a second)")
    for col in ("build", "mean busy cores", "all cores busy", "one core or less", "per minute"):
        u.add_column(col, justify="left" if col in ("build", "per minute") else "right")
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
    for meter in meters:
        console.print(f"{meter}: kept (tasks, solutions) per split {runs[meter]['kept']}")
    if args.json:
        args.json.write_text(json.dumps({"machine": m, "order": meters, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
