"""The per-machine cache of reference profiles: keyed by the solution's hash, the test cases'
hash, the meter and the profiler's version, so a second run only profiles the samples."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from quicksilver import __version__
from quicksilver.fsutil import write_text_atomic
from quicksilver.machine import machine_info
from quicksilver.profiler import ProfileTask, RunResult

# /2: results carry peak memory; /3: and TMU; /4: memory counts what the kernel holds for the
# solution (pipe buffers, unmapped shmem: RunResult.memory_source), compile is booked with
# the load, profiles carry their flags (modes)
PROFILER_VERSION = f"{__version__}/5"

# Statuses that depend on the limits or the machine's load: a reference is profiled again next
# time instead of being cached as broken.
UNCACHED_STATUSES = frozenset({"timeout", "memory"})

NOT_A_VERDICT = (
    "SandboxStartError",
    "the sandbox could not start",
    "did not start the sandbox",
    "closed its command channel",
    "killed by SIGTERM",
)
"""Errors that say the sandbox failed around the code, not what the code did: it could not
start (bubblewrap missing or refused: quicksilver/faults.py's infrastructure faults), or it was
stopped from outside (a SIGTERM to the run, the host shutting down). A run that stopped while
scoring left such results; read back from the cache, they made every later run's references
fail (pass@1 0 for a task whose samples were its own references)."""


def not_a_verdict(status: str, error: str | None) -> bool:
    """Whether a result must be measured again rather than cached or read from the cache: a
    timeout or memory-out (the load of the moment, :data:`UNCACHED_STATUSES`), or an error
    that is no verdict on the code (:data:`NOT_A_VERDICT`). Measuring again is always safe: a
    sample that stops its own sandbox this way gets the same verdict again, at its cost."""
    return status in UNCACHED_STATUSES or (
        status == "error" and any(m in (error or "") for m in NOT_A_VERDICT)
    )


def default_cache_dir() -> Path:
    env = os.environ.get("QUICKSILVER_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quicksilver" / "references"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cases_hash(task: ProfileTask) -> str:
    blob = json.dumps(
        {
            "cases": [[c.inputs, c.expected] for c in task.cases],
            "convert": task.convert_offline,
            "evaluate": task.evaluate_offline,
            "entry": task.entry_point,
            "kind": task.kind,
            # a row's per-call limits decide verdicts too; absent, the hash is what it was
            **({"limits": asdict(task.limits)} if task.limits is not None else {}),
        },
        sort_keys=True,
        default=repr,
    )
    return _sha(blob)[:24]


class ReferenceCache:
    """Reference results on this machine: <dir>/<machine_id>/<meter>/<key>.json."""

    def __init__(self, root: Path | None = None, *, enabled: bool = True) -> None:
        self.root = (root or default_cache_dir()) / str(machine_info()["machine_id"])
        self.enabled = enabled
        # counts a dataset shipped, confirmed on this machine (scoring/shipped.py): read after
        # the disk, never written to it (they were not measured here)
        self._shipped: dict[tuple[str, str], dict[str, Any]] = {}

    def offer(self, key: str, meter: str, summary: dict[str, Any]) -> None:
        """A reference's shipped figures, taken when this machine has none of its own."""
        self._shipped[(meter, key)] = summary

    def key(self, code: str, task: ProfileTask, meter: str) -> str:
        return _sha(f"{PROFILER_VERSION}\0{meter}\0{cases_hash(task)}\0{code}")[:32]

    def _path(self, key: str, meter: str) -> Path:
        return self.root / meter / f"{key}.json"

    def get(self, key: str, meter: str) -> dict[str, Any] | None:
        """This machine's result under ``key``, else a confirmed shipped one."""
        if not self.enabled:
            return None
        try:
            hit = json.loads(self._path(key, meter).read_text())
        except (OSError, ValueError):
            return self._shipped.get((meter, key))
        if not isinstance(hit, dict) or not_a_verdict(hit.get("status", ""), hit.get("error")):
            return self._shipped.get((meter, key))  # written before they were kept out
        return hit

    def put(self, key: str, meter: str, result: RunResult) -> None:
        """Keep ``result`` under ``key``, unless it is no verdict (:func:`not_a_verdict`)."""
        if not_a_verdict(result.status, result.error):
            return
        path = self._path(key, meter)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "status": result.status,
            "runtime": result.runtime,
            "runtime_ci": list(result.runtime_ci) if result.runtime_ci else None,
            "error": result.error,
            "unit": result.unit,
            "meter": result.meter,
            "flags": list(result.flags),
            "isolation": result.isolation,
            "machine_id": result.machine_id,
            "profiler": PROFILER_VERSION,
            "peak_memory_bytes": result.peak_memory_bytes,
            "memory_baseline_bytes": result.memory_baseline_bytes,
            "tmu": result.tmu,
            "tmu_samples": result.tmu_samples,
            "memory_source": result.memory_source,
        }
        write_text_atomic(path, json.dumps(data))
