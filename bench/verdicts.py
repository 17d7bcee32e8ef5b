"""Time to a verdict: hostile samples under icount with the native judge first, against the cpu
meter and (``--with-old``) icount without it, side by side in one run.

Samples (each on a one-case task, at the sandbox's CPU limit ``--limit``, scoring's 30 s by
default): ``while True``; the same after ignoring SIGTERM; a runaway recursion with the
recursion limit raised; one that hangs only under the emulator (it times its own module code);
an honest one (what the native judge costs a solution that passes). Printed per sample and
way: the verdict, the wall seconds to it, and the ratio to the cpu meter's. docs/profiler.md
("Native first") quotes the figures.

    python bench/verdicts.py                    # ~3-5 minutes on a quiet machine
    python bench/verdicts.py --with-old         # + icount without the native judge (~25 min)
    python bench/verdicts.py --limit 10 --json /tmp/verdicts.json
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Sequence
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.profiler import Case, ProfileTask, profile_solution

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
    "hangs under the emulator only": (
        "import time\nt = time.process_time()\nx = sum(range(300000))\n"
        "SLOW = time.process_time() - t > 0.05\n"
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


def one(code: str, meter: str, native_first: bool, limit: float) -> dict[str, Any]:
    sandbox = SandboxConfig(limits=SandboxLimits(cpu_seconds=limit))
    measure = MeasureConfig(meter=meter, native_first=native_first, min_rounds=1, max_rounds=1)
    t = time.monotonic()
    res = profile_solution(TASK, code, sandbox=sandbox, measure=measure)
    return {
        "status": res.status,
        "seconds": round(time.monotonic() - t, 2),
        "error": (res.error or "")[:160],
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument("--limit", type=float, default=30.0, help="CPU seconds per pass (scoring's)")
    p.add_argument("--with-old", action="store_true", help="also icount without the native judge")
    args = p.parse_args(argv)
    console = start()
    m, _ = header(console)
    ways = [w for w in WAYS if args.with_old or w != "icount, no native judge"]
    out: dict[str, dict[str, Any]] = {}
    for name, code in SAMPLES.items():
        for way in ways:
            meter, native = WAYS[way]
            log.info("%s, %s ...", name, way)
            out.setdefault(name, {})[way] = one(code, meter, native, args.limit)
    t = table(
        f"Wall seconds to a verdict (limit {args.limit:g} s of CPU per pass), same run",
        ("sample", "left"),
        *[c for w in ways for c in (f"{w}: verdict", f"{w}: s")],
        *[f"{w} / cpu" for w in ways if w != "cpu"],
    )
    for name, by_way in out.items():
        cells = [c for w in ways for c in (by_way[w]["status"], f"{by_way[w]['seconds']:.1f}")]
        base = by_way["cpu"]["seconds"]
        cells += [ratio(by_way[w]["seconds"], base) for w in ways if w != "cpu"]
        t.add_row(name, *cells)
    console.print(t)
    for name, by_way in out.items():
        for way, r in by_way.items():
            if r["error"]:
                console.print(f"{name}, {way}: {r['error']}", soft_wrap=True)
    write_json(args.json, {"machine": m, "limit": args.limit, "samples": out})
    return 0


if __name__ == "__main__":
    sys.exit(main())
