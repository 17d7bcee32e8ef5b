"""How many instructions per CPU second this machine runs: measured, never assumed.

EvalPerf's thresholds are in instructions (w = 10,000 for the clustering, 10,000 for the fastest
solution's minimum cost). With the ``cpu`` meter they must become seconds, and a Mercury row's
runtime strings are in the judge's format (whole milliseconds, "76ms") whatever the meter. The
factor is measured here: the same trusted workload (plain Python loops, dict and list work, a
sort: what solutions do) is profiled with the deterministic ``icount`` meter (instructions) and
with the ``cpu`` meter (seconds, the median of several passes) in one run, and
``rate = instructions / seconds``.

The result is cached per machine (``machine_id``: CPU model, cores, kernel, Python) under the
user's cache folder, with when and how it was measured, and recorded wherever it is used.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.machine import machine_info

log = logging.getLogger(__name__)

WORKLOAD = """
class Solution:
    def work(self, n):
        seen = {}
        total = 0
        for i in range(n):
            key = (i * 7919) % 1009
            seen[key] = seen.get(key, 0) + i
            total += key if i % 3 else -key
        values = sorted(seen.values(), reverse=True)
        return total + sum(values[:10]) + len("".join(str(v % 10) for v in values))
"""
WORKLOAD_N = 60_000
CACHE_VERSION = 1


@dataclass(frozen=True)
class InstructionRate:
    rate: float  # instructions per CPU second
    instructions: float  # the workload's count under icount
    cpu_seconds: float  # the workload's median CPU time under cpu
    cpu_spread: float  # (max - min) / median of the cpu passes
    passes: int
    machine_id: str
    measured_at: str

    def describe(self) -> str:
        return (
            f"{self.rate:.3g} instructions per CPU second, measured on machine {self.machine_id} "
            f"({self.measured_at}): the same workload counted {self.instructions:.0f} "
            f"instructions (icount) and took {self.cpu_seconds * 1e3:.3g} ms of CPU (cpu meter, "
            f"median of {self.passes} passes, spread {self.cpu_spread:.1%})"
        )


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quicksilver" / "calibration" / f"{machine_info()['machine_id']}.json"


_LOCK = threading.Lock()


def measure_instruction_rate(
    sandbox: SandboxConfig | None = None, *, passes: int = 9, use_cache: bool = True
) -> InstructionRate:
    """The instructions per CPU second of this machine (see the module docstring); measured
    once, by one thread, and cached."""
    with _LOCK:
        return _measure(sandbox, passes=passes, use_cache=use_cache)


def _measure(sandbox: SandboxConfig | None, *, passes: int, use_cache: bool) -> InstructionRate:
    from quicksilver.profiler import Case, Job, ProfileTask, profile_many, profile_solution

    path = _cache_file()
    if use_cache and path.exists():
        try:
            data = json.loads(path.read_text())
            if data.pop("version", None) == CACHE_VERSION:
                return InstructionRate(**data)
        except (OSError, ValueError, TypeError) as exc:
            log.warning("%s: unreadable calibration (%s); measuring again", path, exc)

    sandbox = sandbox or SandboxConfig()
    task = ProfileTask(
        "calibration",
        "work",
        (Case([WORKLOAD_N], _expected()),),
    )
    counted = profile_solution(task, WORKLOAD, meter="icount", sandbox=sandbox)
    timed = profile_many(
        [Job(task, WORKLOAD)],
        sandbox=sandbox,
        measure=MeasureConfig(meter="cpu", min_rounds=passes, max_rounds=passes),
    )[0]
    for res in (counted, timed):
        if not res.passed or not res.runtime:
            raise RuntimeError(f"calibrating the instruction rate: {res.status}: {res.error}")
    assert counted.runtime is not None and timed.runtime is not None
    costs = timed.round_costs
    result = InstructionRate(
        rate=counted.runtime / timed.runtime,
        instructions=counted.runtime,
        cpu_seconds=timed.runtime,
        cpu_spread=(max(costs) - min(costs)) / timed.runtime,
        passes=len(costs),
        machine_id=str(machine_info()["machine_id"]),
        measured_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"version": CACHE_VERSION, **asdict(result)}, indent=1))
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not cache the instruction rate in %s: %s", path, exc)
    log.info("instruction rate: %s", result.describe())
    return result


def _expected() -> int:
    namespace: dict[str, object] = {}
    exec(WORKLOAD, namespace)
    return namespace["Solution"]().work(WORKLOAD_N)  # type: ignore[attr-defined,no-any-return]
