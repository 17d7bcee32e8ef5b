"""What an instruction count depends on: the fingerprint that lets counts travel with a dataset.

Under the ``icount`` meter a count is a property of the program that ran in the guest, not of
the moment: another machine that runs the same guest gets the same number. The guest is the
interpreter binary with the shared libraries it links, its standard library (sources and the
bytecode caches it loads), the harness's runtime and ``sortedcontainers`` (always compiled from
their sources: quicksilver/sandbox/isolation.py), the emulator (QEMU's binary, with the plugin
and its arguments), and what the host hands the guest (its environment, its command line's
shape, the harness protocol). Those are the *compared* parts: two machines whose digests match
count alike, and ``quicksilver score`` then reuses the counts a dataset ships
(quicksilver/scoring/shipped.py), after re-counting a seeded sample of them to confirm.

Measured here (tests/test_count_environment.py, docs/profiler.md): the host's environment
variables, its working directory, the hostname and the number of CPUs the host process may use
do not move a count; a bytecode cache that appears next to a runtime source did (0.8%) until the
sandbox stopped showing it, and one docstring added to the runtime moved a count by ~400
instructions (allocation layout), so the runtime's digest covers its every byte. The kernel's
release, the CPU model and the machine's id are recorded as *informational*: they were not seen
to move a count (QEMU emulates the same CPU on every host and passes system calls through), and
the seeded re-count is what catches a difference nobody listed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

# Bump when a change to the host's code changes what the guest runs (the sandbox's command
# line, the environment it sets, how the harness is started) without changing any file the
# digests below read.
COUNT_PROTOCOL = 1

# Standard-library folders the harness never imports from: left out of the listing's digest.
_STDLIB_SKIP = frozenset(
    {"site-packages", "dist-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip"}
)


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _sources_digest(paths: list[Path], root: Path) -> str:
    """Names and bytes of ``paths`` (relative to ``root``), in order."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _linked_libraries(binary: Path) -> dict[str, str]:
    """The shared libraries ``binary`` links (``ldd``), each by its file's digest."""
    try:
        out = subprocess.run(
            ["ldd", str(binary)], capture_output=True, text=True, check=False, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    libs: dict[str, str] = {}
    for line in out.splitlines():
        match = re.search(r"(/\S+)\s+\(0x", line)
        if match:
            path = Path(match.group(1))
            if path.is_file():
                libs[path.name] = _sha256_file(path.resolve())
    return dict(sorted(libs.items()))


def _stdlib_listing_digest(stdlib: Path) -> str:
    """The standard library's files by name and size, bytecode caches included: a module
    loaded from a cache rather than compiled runs a different number of instructions after."""
    entries: list[str] = []
    for folder, dirs, files in os.walk(stdlib):
        dirs[:] = sorted(d for d in dirs if d not in _STDLIB_SKIP)
        for name in sorted(files):
            path = Path(folder) / name
            try:
                size = path.stat().st_size
            except OSError:
                continue
            entries.append(f"{path.relative_to(stdlib).as_posix()}\0{size}")
    return hashlib.sha256("\n".join(entries).encode()).hexdigest()


def _qemu() -> dict[str, str]:
    from quicksilver.meters import qemu_binary

    qemu = qemu_binary()
    if qemu is None:
        return {"version": "absent"}
    try:
        version = subprocess.run(
            [qemu, "--version"], capture_output=True, text=True, check=False, timeout=30
        ).stdout.splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        version = "unknown"
    return {"version": version.strip(), "sha256": _sha256_file(Path(qemu).resolve())}


def _site_package(name: str) -> dict[str, str]:
    from quicksilver.sandbox.isolation import _site_package_dir, python_sources

    folder = _site_package_dir(name)
    if folder is None:
        return {"version": "absent"}
    module = sys.modules.get(name)
    return {
        "version": str(getattr(module, "__version__", "unknown")),
        "sha256": _sources_digest(python_sources(folder), folder),
    }


@functools.lru_cache(maxsize=4)
def count_environment(isolation_mode: str = "bwrap") -> dict[str, Any]:
    """This machine's count environment under the sandbox's ``isolation_mode`` (``bwrap`` or
    ``weak``: the weak mode shows the guest other paths): ``digest`` (16 hex digits over
    ``compared``), ``compared`` (what a count depends on) and ``informational`` (recorded, not
    compared). Computed once per process (about a second: it reads the interpreter, its
    libraries and the emulator)."""
    from quicksilver.meters import KERNEL_BYTE_COST, PLUGIN_SOURCE
    from quicksilver.sandbox import isolation
    from quicksilver.sandbox.session import HARNESS_PROTOCOL

    mode, interp = isolation_mode, isolation.interpreter()
    compared: dict[str, Any] = {
        "count_protocol": COUNT_PROTOCOL,
        "harness_protocol": HARNESS_PROTOCOL,
        "interpreter": {
            "version": sys.version,
            "sha256": _sha256_file(interp),
        },
        "libraries": _linked_libraries(interp),
        "stdlib": _stdlib_listing_digest(Path(sysconfig.get_paths()["stdlib"])),
        "runtime": _sources_digest(
            isolation.python_sources(isolation.RUNTIME_DIR), isolation.RUNTIME_DIR
        ),
        "sortedcontainers": _site_package("sortedcontainers"),
        "qemu": _qemu(),
        "plugin": {
            "source_sha256": hashlib.sha256(PLUGIN_SOURCE.read_bytes()).hexdigest(),
            "byte_cost": KERNEL_BYTE_COST,
        },
        "guest_env": dict(sorted(isolation.BASE_ENV.items())),
        "isolation": mode,
        "arch": platform.machine(),
    }
    from quicksilver.machine import machine_info

    info = machine_info()
    informational = {
        "kernel": platform.release(),
        "cpu": info.get("cpu"),
        "cpus": os.cpu_count(),
        "machine_id": info.get("machine_id"),
    }
    return {
        "digest": fingerprint_digest(compared),
        "compared": compared,
        "informational": informational,
    }


def fingerprint_digest(compared: dict[str, Any]) -> str:
    """The digest of a ``compared`` mapping (as a row's ``count_environment`` carries it)."""
    blob = json.dumps(compared, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def differences(ours: dict[str, Any], theirs: dict[str, Any], prefix: str = "") -> list[str]:
    """The compared parts that differ, by dotted name (``interpreter.sha256``), for the line
    that says why shipped counts were not used."""
    out: list[str] = []
    for key in sorted(set(ours) | set(theirs)):
        a, b = ours.get(key), theirs.get(key)
        name = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict):
            out += differences(a, b, f"{name}.")
        elif a != b:
            out.append(name)
    return out
