"""Time to a verdict: hostile samples under icount with the native judge first, against the cpu
meter and (``--with-old``) icount without it, each with the whole pass's limit alone and with
a row's per-call limits, side by side in one run.

Samples (each on a one-case task): ``while True``; the same after ignoring SIGTERM; a runaway
recursion with the recursion limit raised; one that hangs only under the emulator (it times its
own module code); an honest one (what the native judge costs a solution that passes). Each runs
twice per way: with the sandbox's CPU limit for the whole pass alone (``--limit``, scoring's
30 s by default: a row without ``judge_limits``, as Mercury's own), and as on a row that carries
them (``--per-call``, by default the ceiling the bundled build records, configs/mercury.yaml's
``testcases.solution_cpu_seconds``; the whole pass within ``--limit``). Printed per sample and
way: the verdict and the wall seconds to it in both columns, the ratio of the two, and the load
average before and after. docs/profiler.md ("Native first", "Limits from the row") quotes the
figures.

    python bench/verdicts.py                    # ~6-8 minutes on a quiet machine
    python bench/verdicts.py --with-old         # + icount without the native judge (~50 min)
    python bench/verdicts.py --per-call 5 --json /tmp/verdicts.json
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits, load_build_config
from quicksilver.profiler import CallLimits, Case, ProfileTask, profile_solution

from common import header, parser, ratio, start, table, write_json

log = logging.getLogger("bench.verdicts")

TASK = ProfileTask("sum", "f", (Case([200_000], sum(range(200_000))),))

SAMPLES = {
    "while True": "class Solution:\n    def f(self, n):\n        while True:\n            pass\n",
    "ignores SIGTERM": (
        "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "class Solution:\n    def f(self, n):\n        while True:\n            pass\n"
    ),
    "runaway recursion": (
        "import sys\nsys.setrecursionlimit(10**6)\n"
        "class Solution:\n    def f(self, n):\n        return self.f(n + 1)\n"
    ),
    # the tell tests/test_native_first.py uses (300,000 and 50 ms: a fast emulator came in
    # under the threshold, and the sample passed)
    "hangs under the emulator only": (
        "import time\nt = time.process_time()\nx = sum(range(3_000_000))\n"
        "SLOW = time.process_time() - t > 0.2\n"
        "class Solution:\n    def f(self, n):\n        while SLOW:\n            pass\n"
        "        return sum(range(n))\n"
    ),
    "honest": "class Solution:\n    def f(self, n):\n        return sum(range(n))\n",
}

WAYS = {
    "cpu": ("cpu", True),
    "icount, native first": ("icount", True),
    "icount, no native judge": ("icount", False),
}


MERCURY_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "mercury.yaml"


def bundled_per_call() -> float:
    """The per-call ceiling the bundled build records in its rows (``judge_limits``)."""
    return load_build_config(MERCURY_CONFIG).testcases.solution_cpu_seconds


def one(
    code: str, meter: str, native_first: bool, limit: float, per_call: float | None
) -> dict[str, Any]:
    """One sample's verdict on :data:`TASK`, with a row's per-call limit or without."""
    sandbox = SandboxConfig(limits=SandboxLimits(cpu_seconds=limit))
    measure = MeasureConfig(meter=meter, native_first=native_first, min_rounds=1, max_rounds=1)
    task = TASK
    if per_call is not None:  # as ProfileTask.from_record reads a row's judge_limits
        task = replace(TASK, limits=CallLimits(per_call, limit, "bench --per-call"))
    t = time.monotonic()
    res = profile_solution(task, code, sandbox=sandbox, measure=measure)
    return {
        "status": res.status,
        "seconds": round(time.monotonic() - t, 2),
        "error": (res.error or "")[:200],
        "cpu_limits": res.cpu_limits,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument(
        "--limit", type=float, default=30.0, help="CPU seconds for the whole pass (scoring's)"
    )
    p.add_argument(
        "--per-call",
        type=float,
        default=None,
        help="a row's CPU seconds per call (default: the bundled build's ceiling)",
    )
    p.add_argument("--with-old", action="store_true", help="also icount without the native judge")
    args = p.parse_args(argv)
    per_call = args.per_call if args.per_call is not None else bundled_per_call()
    console = start()
    m, _ = header(console)
    load_before = os.getloadavg()
    ways = [w for w in WAYS if args.with_old or w != "icount, no native judge"]
    columns = {"whole pass": None, "row": per_call}
    out: dict[str, dict[str, Any]] = {}
    for name, code in SAMPLES.items():
        for way in ways:
            meter, native = WAYS[way]
            for column, cap in columns.items():
                log.info("%s, %s, %s ...", name, way, column)
                r = one(code, meter, native, args.limit, cap)
                out.setdefault(name, {}).setdefault(way, {})[column] = r
    load_after = os.getloadavg()
    _print(console, out, ways, args.limit, per_call)
    console.print(
        "load average (1, 5, 15 min) before: "
        + ", ".join(f"{x:.2f}" for x in load_before)
        + "; after: "
        + ", ".join(f"{x:.2f}" for x in load_after)
    )
    write_json(
        args.json,
        {
            "machine": m,
            "limit": args.limit,
            "per_call": per_call,
            "load_before": load_before,
            "load_after": load_after,
            "samples": out,
        },
    )
    return 0


def _print(
    console: Any, out: dict[str, dict[str, Any]], ways: list[str], limit: float, per_call: float
) -> None:
    t = table(
        f"Wall seconds to a verdict: the whole pass within {limit:g} s of CPU alone, and a row's "
        f"{per_call:g} s per call beside it; same run",
        ("sample", "left"),
        *[
            c
            for w in ways
            for c in (
                f"{w}: {limit:g} s pass",
                "s",
                f"{w}: {per_call:g} s per call",
                "s",
                "row/pass",
            )
        ],
    )
    for name, by_way in out.items():
        cells = []
        for w in ways:
            whole, row = by_way[w]["whole pass"], by_way[w]["row"]
            cells += [whole["status"], f"{whole['seconds']:.1f}", row["status"]]
            cells += [f"{row['seconds']:.1f}", ratio(row["seconds"], whole["seconds"])]
        t.add_row(name, *cells)
    console.print(t)
    for name, by_way in out.items():
        for way, columns in by_way.items():
            for column, r in columns.items():
                if r["error"]:
                    console.print(f"{name}, {way}, {column}: {r['error']}", soft_wrap=True)


if __name__ == "__main__":
    sys.exit(main())
