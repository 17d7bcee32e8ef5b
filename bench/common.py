"""What the benches share: their command line, header, machine load, tables, formats and JSON.

A bench runs as ``python bench/NAME.py`` from the repository root; Python then puts bench/ first
on ``sys.path``, so every bench imports this module as ``common``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, JustifyMethod
from rich.table import Table

from quicksilver.machine import machine_info

REPO = Path(__file__).resolve().parents[1]
BUNDLED = REPO / "data" / "snapshot" / "bundled"

log = logging.getLogger("bench")

# ============================================================================ command line


def parser(
    doc: str | None,
    *,
    verbose: bool = False,
    sets: bool = False,
    quick: str | None = None,
    repeats: str | None = None,
    seed: str | None = None,
) -> argparse.ArgumentParser:
    """A bench's command line: its docstring's first paragraph as the description and
    ``--json OUT``; ``-v``, ``--set KEY=VALUE`` (passed on to a build) and ``--quick``,
    ``--repeats N``, ``--seed N`` (with the bench's own help text) where asked for."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0] if doc else None)
    p.add_argument("--json", type=Path, default=None, metavar="OUT", help="dump the numbers")
    if quick is not None:
        p.add_argument("--quick", action="store_true", help=quick)
    if repeats is not None:
        p.add_argument("--repeats", type=int, default=None, help=repeats)
    if seed is not None:
        p.add_argument("--seed", type=int, default=0, help=seed)
    if sets:
        p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    if verbose:
        p.add_argument("-v", "--verbose", action="store_true")
    return p


def start(*, level: int = logging.INFO, verbose: bool = False, width: int = 160) -> Console:
    """Logging to stderr (``level``, or DEBUG with ``-v``) and the console the tables go to:
    the terminal's width, or ``width`` columns when the output is a file or a pipe."""
    logging.basicConfig(
        level=logging.DEBUG if verbose else level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    return Console(width=None if sys.stdout.isatty() else width)


def library_revision() -> str:
    """The git commit of the library, with ``+dirty`` if quicksilver/ has edits."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--", "quicksilver"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def header(console: Console, isolation: str | None = None) -> tuple[dict[str, Any], str]:
    """Print the library's revision and the machine (and the sandbox's isolation, if given);
    return both, for the JSON."""
    machine: dict[str, Any] = dict(machine_info())
    revision = library_revision()
    console.print(f"[bold]quicksilver[/] at {revision}")
    console.print(
        f"[bold]machine[/]: {machine['cpu']}, {machine['cores']} cores, kernel "
        f"{machine['kernel']}, Python {machine['python']} (machine_id {machine['machine_id']})"
        + (f"; isolation: {isolation}" if isolation else "")
    )
    return machine, revision


def write_json(path: Path | None, numbers: dict[str, Any]) -> None:
    """``--json OUT``: every number of the run (values JSON cannot hold are written as text)."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(numbers, indent=1, default=str))
    log.info("numbers written to %s", path)


# ============================================================================ builds


def run_flow(
    flow: str,
    config: str,
    out: Path,
    sets: Sequence[str],
    prefect_env: dict[str, str] | None = None,
) -> float:
    """``python flows/FLOW --config configs/CONFIG --set out_dir=OUT --set ...``, the command
    line a maintainer uses, on its own Prefect temporary server, or with ``prefect_env`` (for
    example ``PREFECT_API_URL``) on the server it names; its wall seconds. Exits with the tail
    of its stderr when the build fails."""
    argv = [
        sys.executable,
        str(REPO / "flows" / flow),
        "--config",
        str(REPO / "configs" / config),
        "--set",
        f"out_dir={out}",
        *[x for s in sets for x in ("--set", s)],
    ]
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"} | (prefect_env or {})
    started = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env, check=False)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise SystemExit(f"{flow} {' '.join(sets)} failed (exit {proc.returncode}):\n{tail}")
    return time.perf_counter() - started


# ============================================================================ machine load


def machine_ticks() -> tuple[int, int, int]:
    """(busy, total, steal) jiffies of all cores, from /proc/stat (zeros if unavailable)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # guest time is already in user time
    steal = fields[7] if len(fields) > 7 else 0
    return total - idle, total, steal


class MachineLoad:
    """The share of all cores busy, and stolen by the hypervisor, from its creation to
    :meth:`stop`: whether the bench had the machine to itself."""

    def __init__(self) -> None:
        self.ticks0 = machine_ticks()

    def stop(self) -> dict[str, float | None]:
        busy, total, steal = (b - a for a, b in zip(self.ticks0, machine_ticks(), strict=True))
        return {
            "busy_share": busy / total if total > 0 else None,
            "steal_share": steal / total if total > 0 else None,
        }

    @staticmethod
    def describe(load: dict[str, float | None], cores: int) -> str:
        return (
            f"all cores {fmt_pct(load['busy_share'], 0)} busy, {fmt_pct(load['steal_share'], 1)} "
            "stolen by the hypervisor (this bench alone keeps about one core busy: "
            f"{100 / cores:.0f}%)"
        )


# ============================================================================ tables and formats


Column = str | tuple[str, JustifyMethod]
RIGHT: JustifyMethod = "right"


def table(title: str, *columns: Column) -> Table:
    """A table whose columns are right-justified (numbers) unless given as (name, justify)."""
    t = Table(title=title)
    for col in columns:
        name, justify = (col, RIGHT) if isinstance(col, str) else col
        t.add_column(name, justify=justify)
    return t


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.2f} µs"


def fmt_pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def ratio(a: float | None, b: float | None, digits: int = 2) -> str:
    """``a / b`` as ``1.23x``; ``-`` when either is missing or b is 0."""
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.{digits}f}x"


def median(xs: Sequence[float]) -> float | None:
    return statistics.median(xs) if xs else None
