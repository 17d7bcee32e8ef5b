"""What machine a measurement was taken on: recorded with every result and cache entry."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import sys
from pathlib import Path


@functools.lru_cache(maxsize=1)
def machine_info() -> dict[str, str | int]:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info: dict[str, str | int] = {
        "cpu": cpu or "unknown",
        "cores": os.cpu_count() or 1,
        "arch": platform.machine(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "hostname": platform.node(),
    }
    info["machine_id"] = machine_id(info)
    return info


def machine_id(info: dict[str, str | int] | None = None) -> str:
    """A short id of what affects measured cost: CPU model, cores, arch, kernel, Python.

    The hostname is left out on purpose: two identical machines share reference caches.
    """
    info = info or machine_info()
    keys = ("cpu", "cores", "arch", "kernel", "python", "implementation")
    blob = json.dumps({k: info[k] for k in keys}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]
