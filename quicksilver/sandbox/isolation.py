"""Building the isolated process: bubblewrap when present, a loudly weak mode otherwise.

With bubblewrap the solution sees a file system made of the interpreter and its standard
library (read-only), ``/usr`` (read-only, for shared libraries), the harness and
``sortedcontainers`` (read-only), a private size-limited ``/tmp``, and fresh ``/proc`` and
``/dev``. It has no network (loopback included), its own PID, IPC, UTS and cgroup namespaces,
no capabilities, and dies with its parent. When the host runs as root the harness drops to an
unprivileged uid before anything else, which makes RLIMIT_NPROC effective (the kernel never
applies it to root) and leaves the solution unable to signal any process outside.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from quicksilver.config import SandboxConfig

log = logging.getLogger(__name__)

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
INSIDE_RUNTIME = "/qs/runtime"
INSIDE_SITE = "/qs/site"
TMP_SIZE = 64 * 1024 * 1024

# What Python needs in its environment; nothing else of the caller's crosses over.
BASE_ENV = {
    "PATH": "/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
    "OMP_NUM_THREADS": "1",
    # One malloc arena and no mmap-backed chunks: an emulator's helper thread then cannot move
    # where the process's memory lands (addresses reach hashing and a deterministic count).
    "MALLOC_ARENA_MAX": "1",
    "MALLOC_MMAP_THRESHOLD_": "33554432",
}


class SandboxUnavailable(RuntimeError):
    """No acceptable isolation on this machine for the configured mode."""


@dataclass(frozen=True)
class Isolation:
    mode: str  # "bwrap" or "weak"
    detail: str

    @property
    def weak(self) -> bool:
        return self.mode != "bwrap"


def interpreter() -> Path:
    """The real interpreter binary (not a venv symlink or a pyenv shim)."""
    base = Path(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (base / "bin" / version, base / "bin" / "python3"):
        if candidate.exists():
            return candidate.resolve()
    return Path(os.path.realpath(sys.executable))


def _site_package_dir(module: str) -> Path | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    file = getattr(mod, "__file__", None)
    return Path(file).resolve().parent if file else None


@functools.lru_cache(maxsize=1)
def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=4)
def probe_bwrap() -> tuple[bool, str]:
    """Run a trivial sandboxed interpreter once: is bubblewrap usable here?"""
    exe = bwrap_path()
    if exe is None:
        return False, "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    argv = [
        *bwrap_argv(),
        str(interpreter()),
        "-I",
        "-S",
        "-c",
        "import sys; print(sys.version_info[0])",
    ]
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"bwrap failed to start: {exc}"
    if proc.returncode != 0 or proc.stdout.strip() != b"3":
        err = proc.stderr.decode(errors="replace").strip()[:300]
        return False, f"bwrap is installed but a trial run failed: {err or proc.returncode}"
    version = subprocess.run([exe, "--version"], capture_output=True, check=False)
    return True, version.stdout.decode().strip() or "bubblewrap"


def resolve(config: SandboxConfig) -> Isolation:
    """Pick the isolation for ``config`` or raise SandboxUnavailable with the reason."""
    if config.isolation in ("auto", "bwrap"):
        ok, detail = probe_bwrap()
        if ok:
            return Isolation("bwrap", detail)
        if config.isolation == "bwrap" or not config.allow_weak:
            raise SandboxUnavailable(
                f"refusing to run untrusted code: {detail}. Install bubblewrap, or set "
                "sandbox.allow_weak (CLI: --allow-weak-sandbox) to accept the weak mode "
                "(rlimits and a scrubbed environment, no file-system or network isolation)"
            )
    if not config.allow_weak:
        raise SandboxUnavailable("isolation 'weak' requires allow_weak: true")
    return Isolation("weak", "rlimits, scrubbed environment, separate session; NO namespaces")


def _ro_bind_with_parents(path: Path) -> list[str]:
    args: list[str] = []
    parents = [p for p in reversed(path.parents) if str(p) != "/"]
    for parent in parents:
        if str(parent) in ("/usr",) or str(parent).startswith("/usr/"):
            return ["--ro-bind", str(path), str(path)]
        args += ["--perms", "0755", "--dir", str(parent)]
    return [*args, "--ro-bind", str(path), str(path)]


def bwrap_argv(
    *, info_fd: int | None = None, binds: list[tuple[str, str]] | None = None
) -> list[str]:
    """bubblewrap's command line; ``binds`` are extra host files shown read-only (a meter's)."""
    exe = bwrap_path() or "bwrap"
    argv = [
        exe,
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
    ]
    if os.geteuid() == 0:
        # Privileged bwrap (no user namespace): drop every capability but the two the harness
        # needs to switch to the unprivileged sandbox uid; those vanish with the setuid.
        argv += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        argv += ["--unshare-user"]
    argv += ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib64", "lib32", "sbin"):
        host = Path("/") / name
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            argv += ["--ro-bind", str(host), str(host)]
    if Path("/etc/ld.so.cache").exists():
        argv += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    prefix = Path(sys.base_prefix).resolve()
    if not str(prefix).startswith("/usr"):
        argv += _ro_bind_with_parents(prefix)
    argv += ["--perms", "0755", "--dir", "/qs", "--ro-bind", str(RUNTIME_DIR), INSIDE_RUNTIME]
    site = _site_package_dir("sortedcontainers")
    argv += ["--perms", "0755", "--dir", INSIDE_SITE]
    if site is not None:
        argv += ["--ro-bind", str(site), f"{INSIDE_SITE}/sortedcontainers"]
    for host, inside in binds or []:
        argv += ["--perms", "0755", "--dir", str(Path(inside).parent), "--ro-bind", host, inside]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(TMP_SIZE),
        "--tmpfs",
        "/tmp",
        "--chdir",
        "/tmp",
        "--clearenv",
    ]
    for key, value in BASE_ENV.items():
        argv += ["--setenv", key, value]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    return argv


def harness_argv(
    isolation: Isolation,
    cmd_fd: int,
    reply_fd: int,
    *,
    child_fds: tuple[int, int] | None = None,
) -> list[str]:
    """The interpreter command line, as seen from inside the sandbox (``child_fds``: a zygote's
    channel for its children, see runtime/harness.py)."""
    if isolation.weak:
        runtime = str(RUNTIME_DIR)
        site = _site_package_dir("sortedcontainers")
        site_arg = str(site.parent) if site else ""
    else:
        runtime, site_arg = INSIDE_RUNTIME, INSIDE_SITE
    return [
        str(interpreter()),
        "-I",
        "-S",
        f"{runtime}/harness.py",
        str(cmd_fd),
        str(reply_fd),
        site_arg,
        *([str(child_fds[0]), str(child_fds[1])] if child_fds else []),
    ]


def weak_env() -> dict[str, str]:
    return dict(BASE_ENV)
