"""The cpu meter's mode check: how far honest passes spread, and which coins it catches.

A time meter reports the mean of a solution's fastest passes (docs/profiler.md). A sample that
takes a cheap path in some passes only (a coin: the clock, the pid) would be reported at its
luckiest; the profiler's mode check (``quicksilver.stats.mode_split``) flags a profile whose
median pass lies too far above its fastest passes, and scores it by its median instead. This
bench measures what that check has to tell apart:

1. every solution of the profiler bench's tasks (bench/tasks/) is profiled ``--repeats`` times
   with the cpu meter, each profile forced to ``--passes`` passes, interleaved over the task's
   solutions as a build does (the other sessions' work beside it);
2. on the first k passes of each recorded profile (k = 8, 16, 24, ...: a build stops between 8
   and 64), the spread statistics of every honest profile: the median pass over the fastest pass,
   over the mean of the 3 fastest, and over the task's other solutions' spread in the same
   rounds;
3. coins replayed on the same recorded passes: in a random quarter of the passes a profile is
   ``c`` times cheaper (c = 1.5, 2, 3, 10), as a sample with a cheap path would be: how many the
   check flags, and the figure the fastest passes would have given it.

The honest profiles' largest spread is what the check's threshold must clear (the false flags);
the coins' spreads are what it catches. ``--from JSON`` replays a recorded run (the ``passes``
of an earlier ``--json``) without profiling. Results are in docs/performance.md ("The mode
check"). About 2 minutes on 2 cores with the defaults.
"""

from __future__ import annotations

import json
import logging
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.profiler import Job, mode_check, profile_many
from quicksilver.stats import fastest_band

from common import header, parser, start, table, write_json
from profiler import load_tasks

log = logging.getLogger("bench.modes")

PREFIXES = (8, 12, 16, 24, 32, 48, 64)
COIN_FACTORS = (1.5, 2.0, 3.0, 10.0)
COIN_SHARE = 0.25  # a coin comes up cheap in this share of the passes
COIN_DRAWS = 50  # replays of each coin on each recorded profile
MEASURABLE_S = 1e-3  # profiles whose fastest pass is below this are left out (counted apart)


def quantile(xs: Sequence[float], q: float) -> float:
    ys = sorted(xs)
    if not ys:
        return float("nan")
    i = q * (len(ys) - 1)
    lo = int(i)
    hi = min(lo + 1, len(ys) - 1)
    return ys[lo] + (ys[hi] - ys[lo]) * (i - lo)


def record(repeats: int, passes: int, seed: int) -> dict[str, list[dict[str, list[float]]]]:
    """{task: [one profile per repeat: {solution: its pass costs in seconds}]}."""
    tasks, _ = load_tasks()
    forced = MeasureConfig(
        meter="cpu",
        min_rounds=passes,
        max_rounds=passes,
        target_rel_ci=1e-9,
        budget_seconds=1e9,
    )
    out: dict[str, list[dict[str, list[float]]]] = {}
    for rep in range(repeats):
        for bt in tasks:
            pt = bt.build(seed)
            names = list(bt.solutions)
            results = profile_many(
                [Job(pt, bt.solutions[n]) for n in names],
                sandbox=SandboxConfig(),
                measure=forced,
                workers=1,
            )
            one = {
                name: res.round_costs
                for name, res in zip(names, results, strict=True)
                if res.passed and len(res.round_costs) == passes
            }
            out.setdefault(bt.task_id, []).append(one)
            log.info("repeat %d/%d: %s", rep + 1, repeats, bt.task_id)
    return out


def _check(costs: Sequence[float], measure: MeasureConfig, peers: Sequence[Sequence[float]]) -> Any:
    return mode_check(measure, costs, peers)


def spreads(costs: Sequence[float]) -> tuple[float, float]:
    """(median / fastest pass, median / mean of the 3 fastest) of one profile's passes."""
    med = statistics.median(costs)
    low, k3 = min(costs), fastest_band(costs, 3).estimate
    return (med / low if low > 0 else float("inf"), med / k3 if k3 > 0 else float("inf"))


def coin(costs: Sequence[float], factor: float, rng: random.Random) -> list[float]:
    """The same passes, ``factor`` times cheaper in a random quarter of them (at least one)."""
    cheap = [rng.random() < COIN_SHARE for _ in costs]
    if not any(cheap):
        cheap[rng.randrange(len(costs))] = True
    return [c / factor if lucky else c for c, lucky in zip(costs, cheap, strict=True)]


def analyse(recorded: dict[str, list[dict[str, list[float]]]], measure: MeasureConfig) -> Any:
    """The tables' numbers: honest spreads per prefix, and the check's verdicts."""
    longest = min(
        (len(c) for profs in recorded.values() for one in profs for c in one.values()), default=0
    )
    prefixes = [k for k in PREFIXES if k <= longest]
    honest: dict[int, dict[str, list[float]]] = {}
    flagged: dict[int, list[str]] = {}
    coins: dict[int, dict[float, dict[str, float]]] = {}
    rng = random.Random(0)
    for k in prefixes:
        lows, k3s, peer_ratios = [], [], []
        flags: list[str] = []
        caught: dict[float, list[bool]] = {c: [] for c in COIN_FACTORS}
        gain: dict[float, list[float]] = {c: [] for c in COIN_FACTORS}
        kept: dict[float, list[float]] = {c: [] for c in COIN_FACTORS}
        for task, profs in recorded.items():
            for rep, one in enumerate(profs):
                heads = {name: costs[:k] for name, costs in one.items()}
                for name, head in heads.items():
                    peers = [h for n, h in heads.items() if n != name]
                    if min(head) < MEASURABLE_S:
                        continue  # the empty calls' noise is the figure (icount's domain)
                    low, k3 = spreads(head)
                    lows.append(low)
                    k3s.append(k3)
                    peer_spreads = [spreads(p)[0] for p in peers if min(p) >= MEASURABLE_S]
                    if peer_spreads:
                        peer_ratios.append(low / statistics.median(peer_spreads))
                    check = _check(head, measure, peers)
                    if check.split:
                        flags.append(f"{task}/{name} (repeat {rep + 1}): {check.describe()}")
                    honest_figure = fastest_band(head, measure.fastest_k).estimate
                    for factor in COIN_FACTORS:
                        for _ in range(COIN_DRAWS):
                            played = coin(head, factor, rng)
                            verdict = _check(played, measure, peers)
                            caught[factor].append(verdict.split)
                            figure = (
                                statistics.median(played)
                                if verdict.split
                                else fastest_band(played, measure.fastest_k).estimate
                            )
                            gain[factor].append(
                                honest_figure / fastest_band(played, measure.fastest_k).estimate
                            )
                            kept[factor].append(figure / honest_figure)
        honest[k] = {"median/fastest": lows, "median/fastest-3": k3s, "over peers": peer_ratios}
        flagged[k] = flags
        coins[k] = {
            c: {
                "caught": sum(caught[c]) / len(caught[c]) if caught[c] else float("nan"),
                "gain unchecked (median)": statistics.median(gain[c]) if gain[c] else 0.0,
                "figure / honest, P10": quantile(kept[c], 0.1),
                "figure / honest, median": quantile(kept[c], 0.5),
            }
            for c in COIN_FACTORS
        }
    return {"prefixes": prefixes, "honest": honest, "flagged": flagged, "coins": coins}


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, repeats="profiles per solution (default 3)", seed="input seed")
    p.add_argument("--passes", type=int, default=24, help="passes per profile (default 24)")
    p.add_argument("--from", dest="source", type=Path, default=None, help="replay a --json")
    args = p.parse_args(argv)
    console = start()
    machine, revision = header(console)
    measure = MeasureConfig(meter="cpu")
    if args.source is not None:
        recorded = json.loads(args.source.read_text())["passes"]
    else:
        recorded = record(args.repeats or 3, args.passes, args.seed)
    numbers = analyse(recorded, measure)
    n = sum(len(one) for profs in recorded.values() for one in profs)
    small = sum(
        min(costs) < MEASURABLE_S
        for profs in recorded.values()
        for one in profs
        for costs in one.values()
    )
    console.print(
        f"{n} honest profiles, {small} of them left out (a pass under "
        f"{MEASURABLE_S * 1e3:g} ms); split: median pass > {measure.modes_ratio:g}x the fastest, "
        f"or > {measure.modes_peer_factor}x the other solutions' spread when lower, and "
        f"> {measure.modes_floor_ms:g} ms above it"
    )
    t = table(
        "honest profiles: the median pass over the fastest pass / over the mean of the 3 fastest "
        "/ over the same rounds' other solutions (median / P90 / P99 / max)",
        ("first k passes", "left"),
        "median / fastest",
        "median / fastest-3",
        "relative to peers",
        "flagged",
    )
    for k in numbers["prefixes"]:
        row = [str(k)]
        for key in ("median/fastest", "median/fastest-3", "over peers"):
            xs = numbers["honest"][k][key]
            row.append(" / ".join(f"{quantile(xs, q):.2f}" for q in (0.5, 0.9, 0.99, 1.0)))
        row.append(str(len(numbers["flagged"][k])))
        t.add_row(*row)
    console.print(t)
    for k in numbers["prefixes"]:
        for line in numbers["flagged"][k]:
            console.print(f"  flagged at {k} passes: {line}")
    c = table(
        f"coins replayed on the same passes (cheap in {COIN_SHARE:.0%} of them, {COIN_DRAWS} "
        "draws each): share flagged; the fastest passes' gain without the check; the figure "
        "reported with it, over the honest one (P10 / median)",
        ("first k passes", "left"),
        *(f"{f:g}x cheaper" for f in COIN_FACTORS),
    )
    for k in numbers["prefixes"]:
        cells = []
        for f in COIN_FACTORS:
            x = numbers["coins"][k][f]
            cells.append(
                f"{x['caught']:.0%}; {x['gain unchecked (median)']:.2f}x; "
                f"{x['figure / honest, P10']:.2f} / {x['figure / honest, median']:.2f}"
            )
        c.add_row(str(k), *cells)
    console.print(c)
    numbers.update({"machine": machine, "revision": revision, "passes": recorded})
    write_json(args.json, numbers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
