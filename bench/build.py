"""Build benchmark: a cold Mercury build with the icount meter against one with the cpu meter.

Both builds run in this one run, one after the other, on the bundled corpus with the shipped
configs/mercury.yaml, each into its own fresh output folder (nothing cached, a new Prefect
temporary server each), through the same command line a maintainer uses
(``python flows/build_mercury.py``). Only ``profile.measure.meter`` differs; the cpu build keeps
the config's rounds (3-12 per solution, 5% CI target, 10 s budget). The order alternates with
``--order`` so that a drifting machine does not always favour the same side.

Printed: wall time of each build, the seconds of every stage (summed over shards, from the
stages' manifests), and how many tasks and solutions the build kept. The numbers go in
docs/performance.md. ``--set KEY=VALUE`` overrides are passed on to both builds.

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
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from quicksilver.machine import machine_info

REPO = Path(__file__).resolve().parents[1]
log = logging.getLogger("bench.build")


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
    return {"meter": meter, "wall_seconds": wall, "stages": stages, "kept": kept}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--order", choices=("icount-first", "cpu-first"), default="icount-first")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", type=Path, default=None, metavar="OUT")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    extra = list(args.set)
    meters = ["icount", "cpu"] if args.order == "icount-first" else ["cpu", "icount"]
    console = Console(width=None if sys.stdout.isatty() else 140)
    m = machine_info()
    console.print(f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}")
    runs = {}
    with tempfile.TemporaryDirectory(prefix="qs-bench-build-") as tmp:
        for meter in meters:
            log.info("cold %s build ...", meter)
            runs[meter] = run_build(meter, Path(tmp) / meter, extra)
            log.info("%s build: %.0f s", meter, runs[meter]["wall_seconds"])
    t = Table(title="Cold Mercury build (make build-dataset): icount against cpu, same run")
    t.add_column("stage")
    t.add_column("icount: seconds of work", justify="right")
    t.add_column("cpu: seconds of work", justify="right")
    t.add_column("icount / cpu", justify="right")
    names = list(dict.fromkeys([*runs["icount"]["stages"], *runs["cpu"]["stages"]]))
    for name in names:
        a = runs["icount"]["stages"].get(name, {}).get("seconds")
        b = runs["cpu"]["stages"].get(name, {}).get("seconds")
        t.add_row(
            name,
            "-" if a is None else f"{a:.1f}",
            "-" if b is None else f"{b:.1f}",
            f"{a / b:.2f}x" if a and b else "",
        )
    wa, wb = runs["icount"]["wall_seconds"], runs["cpu"]["wall_seconds"]
    t.add_row("[bold]build, wall clock[/]", f"{wa:.0f}", f"{wb:.0f}", f"{wa / wb:.2f}x")
    console.print(t)
    for meter in meters:
        console.print(f"{meter}: kept (tasks, solutions) per split {runs[meter]['kept']}")
    if args.json:
        args.json.write_text(json.dumps({"machine": m, "order": meters, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
