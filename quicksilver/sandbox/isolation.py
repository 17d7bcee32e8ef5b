"""Building the isolated process: bubblewrap when present, a loudly weak mode otherwise.

With bubblewrap the solution sees a file system made of the interpreter and its standard
library (read-only), ``/usr`` (read-only, for shared libraries), the harness and
``sortedcontainers`` (read-only), a private size-limited ``/tmp``, a fresh read-only ``/proc``
and a fresh ``/dev``. Every ``site-packages`` / ``dist-packages`` folder in that view is covered
by an empty read-only tmpfs and every ``_ctypes`` / ``_cffi_backend`` module by ``/dev/null``: no
installed package imports, not even by path, and neither does ``ctypes``.
It has no network (loopback included), its own PID, IPC, UTS and cgroup namespaces, no
capabilities, a seccomp filter that refuses new namespaces, mounts and the like (seccomp.py),
and dies with its parent. When the host runs as root the harness drops to an unprivileged uid
before anything else, which makes RLIMIT_NPROC effective (the kernel never applies it to root)
and leaves the solution unable to signal any process outside. See docs/sandbox.md.
"""

from __future__ import annotations

import fnmatch
import functools
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from quicksilver.config import SandboxConfig
from quicksilver.sandbox import seccomp

log = logging.getLogger(__name__)

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
DATA_FILES = ("runtime/*.py",)  # read at run time: part of the stage keys (pipeline/keys.py)
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


# The sandbox's /dev/urandom and /dev/random are one fixed file of seeded pseudo-random bytes
# (random_source). Every pass of a solution must do the same work (a fresh child of one zygote,
# the same hash seed, `random` seeded again): a sample that draws a coin from the OS (os.urandom,
# random.SystemRandom, secrets, uuid4, a Random() seeded from the OS) would take a cheap path in
# some passes only, and the fastest passes would credit it with its luckiest draw. A file reads
# the same bytes from every open: each process draws the same stream. Python reads these files
# when getrandom(2) fails, which the seccomp filter makes it do (ENOSYS), so os.urandom is covered
# too (docs/sandbox.md, "Randomness").
RANDOM_BYTES = 16 << 20
"""The size of the sandbox's random stream: a process that reads more from one open gets an
error (16 MiB: two million SystemRandom draws)."""
RANDOM_SEED = 0


@functools.lru_cache(maxsize=1)
def random_source() -> Path:
    """The file the sandbox sees as /dev/urandom and /dev/random: RANDOM_BYTES bytes of
    ``random.Random(RANDOM_SEED)``, written once per user into the cache folder (the same content
    on every machine), made again if it is not a file of ours of that size."""
    import random

    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    path = Path(base) / "quicksilver" / f"random-{RANDOM_SEED}-{RANDOM_BYTES}.bin"
    try:
        st = path.stat()
        if st.st_size == RANDOM_BYTES and st.st_uid == os.geteuid() and path.is_file():
            return path
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(random.Random(RANDOM_SEED).randbytes(RANDOM_BYTES))
    tmp.chmod(0o644)  # read by the sandbox's uid
    os.replace(tmp, path)
    log.debug("wrote the sandbox's random stream to %s", path)
    return path


_UUID_ARGS = (
    ("--ro-bind", "/proc/sys/kernel/random/boot_id", "/proc/sys/kernel/random/uuid")
    if os.path.exists("/proc/sys/kernel/random/boot_id")
    else ()
)


def _random_args() -> list[str]:
    source = str(random_source())
    return ["--ro-bind", source, "/dev/urandom", "--ro-bind", source, "/dev/random"]


# What is hidden in the sandbox's view of /usr and the interpreter's prefix (see hidden_paths):
# every package folder, and the native modules that hand raw memory to Python code. Pure-Python
# code elsewhere (an SDK's vendored libraries, ensurepip's wheels) stays: it gives a solution
# nothing it could not paste into its source, and each hidden file costs a mount per sandbox.
HIDDEN_DIR_NAMES = ("site-packages", "dist-packages")
HIDDEN_FILE_PATTERNS = ("_ctypes.*so", "_cffi_backend.*so")
# Trees without Python in them, not walked (they hold most of /usr's files).
UNWALKED = (
    "/usr/include",
    "/usr/share/doc",
    "/usr/share/fonts",
    "/usr/share/i18n",
    "/usr/share/icons",
    "/usr/share/info",
    "/usr/share/locale",
    "/usr/share/man",
    "/usr/share/zoneinfo",
)


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


def seccomp_fd() -> int:
    """A descriptor holding the seccomp program for ``bwrap --seccomp`` (the caller closes it);
    SandboxUnavailable on an architecture without a filter."""
    try:
        return seccomp.program_fd()
    except seccomp.UnsupportedArchitecture as exc:
        raise SandboxUnavailable(str(exc)) from exc


def run_bwrap(
    command: Sequence[str], *, extra: Sequence[str] = (), timeout: float = 30
) -> subprocess.CompletedProcess[bytes]:
    """Run ``command`` in a sandbox as the harness gets it (``extra`` bwrap options after the
    standard ones), without the harness; for probes and tests."""
    fd = seccomp_fd()
    try:
        argv = [*bwrap_argv(seccomp_fd=fd), *extra]
        return subprocess.run(
            [*argv, *command], capture_output=True, timeout=timeout, check=False, pass_fds=(fd,)
        )
    finally:
        os.close(fd)


@functools.lru_cache(maxsize=4)
def probe_bwrap() -> tuple[bool, str]:
    """Run a trivial sandboxed interpreter once: is bubblewrap usable here?"""
    exe = bwrap_path()
    if exe is None:
        return False, "bubblewrap (bwrap) is not installed: apt-get install bubblewrap"
    command = [str(interpreter()), "-I", "-S", "-c", "import sys; print(sys.version_info[0])"]
    try:
        proc = run_bwrap(command)
    except SandboxUnavailable as exc:
        return False, str(exc)
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
            fix = "Install bubblewrap, or set" if bwrap_path() is None else "Or set"
            raise SandboxUnavailable(
                f"refusing to run untrusted code: {detail}. {fix} "
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


def _visible_roots() -> list[str]:
    """The host trees bound into the sandbox that may hold Python packages."""
    roots = ["/usr"]
    for name in ("bin", "lib", "lib64", "lib32", "sbin"):  # bound too where they are no links
        host = Path("/") / name
        if host.is_dir() and not host.is_symlink():
            roots.append(str(host))
    prefix = str(Path(sys.base_prefix).resolve())
    if prefix != "/usr" and not prefix.startswith("/usr/"):
        roots.append(prefix)
    return roots


def _matcher(patterns: Sequence[str]) -> Callable[[str], object]:
    return re.compile("|".join(fnmatch.translate(p) for p in patterns)).match


@dataclass(frozen=True)
class HiddenPaths:
    dirs: tuple[str, ...]  # covered by an empty read-only tmpfs
    files: tuple[str, ...]  # covered by /dev/null


@functools.lru_cache(maxsize=1)
def hidden_paths() -> HiddenPaths:
    """Walk the visible trees once per process for what the sandbox must not show.

    Found by name rather than listed, so that a Python installed anywhere under ``/usr`` (an SDK
    bundling its own, a distribution's ``/usr/lib/python3/dist-packages``) is covered too.
    Symbolic links are resolved; a target outside the visible trees is invisible anyway.
    """
    roots = _visible_roots()

    def visible(path: str) -> bool:
        return any(path == r or path.startswith(r + "/") for r in roots)

    match = _matcher(HIDDEN_FILE_PATTERNS)
    dirs: set[str] = set()
    files: set[str] = set()
    stack = list(roots)
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue  # unreadable here: unreadable in the sandbox too
        for entry in entries:
            if entry.name in HIDDEN_DIR_NAMES and entry.is_dir():  # a link to a folder too
                real = os.path.realpath(entry.path)
                if visible(real):
                    dirs.add(real)
            elif entry.is_dir(follow_symlinks=False):
                if entry.path not in UNWALKED:
                    stack.append(entry.path)
            elif match(entry.name):
                real = os.path.realpath(entry.path)
                if visible(real) and os.path.isfile(real):
                    files.add(real)
    # what lies inside a hidden folder (reached through a link) is gone with it, and could not
    # be mounted over inside the empty tmpfs
    dirs = {d for d in dirs if not any(d.startswith(o + "/") for o in dirs)}
    files = {f for f in files if not any(f.startswith(d + "/") for d in dirs)}
    hidden = HiddenPaths(tuple(sorted(dirs)), tuple(sorted(files)))
    log.debug("sandbox hides %d folders and %d files", len(hidden.dirs), len(hidden.files))
    return hidden


def _hide_args() -> list[str]:
    hidden = hidden_paths()
    args: list[str] = []
    for path in hidden.dirs:
        args += ["--tmpfs", path, "--remount-ro", path]
    for path in hidden.files:
        args += ["--ro-bind", "/dev/null", path]
    return args


def python_sources(folder: Path) -> list[Path]:
    """The Python source files under ``folder`` (sorted, without ``__pycache__``): all the
    sandbox shows of the harness's runtime and of the site packages it binds."""
    return sorted(
        path
        for path in folder.rglob("*.py")
        if "__pycache__" not in path.relative_to(folder).parts and path.is_file()
    )


def _source_binds(host: Path, inside: str) -> list[str]:
    """Show ``host``'s Python sources at ``inside``, one read-only bind per file, and nothing
    else of the folder.

    Not the folder itself: its ``__pycache__`` is written by the host's own imports (the host
    imports ``wire`` to speak to the harness and ``sortedcontainers`` to find it) at a moment
    no one chooses, and an interpreter that loads a module from its cached bytecode instead of
    compiling the source allocates differently and runs a different number of instructions
    afterwards: two-sum's count moved from 2,395,171 to 2,413,413 (sortedcontainers cached) and
    2,413,601 (both cached) between two runs of one checkout, so a build's counts depended on
    which of its shards ran first. The sandbox never reads the host's bytecode cache, and
    cannot write one (read-only), so every process compiles these sources alike.
    """
    args = ["--perms", "0755", "--dir", inside]
    for path in python_sources(host):
        relative = path.relative_to(host)
        if len(relative.parts) > 1:
            args += ["--perms", "0755", "--dir", f"{inside}/{relative.parent.as_posix()}"]
        args += ["--ro-bind", str(path), f"{inside}/{relative.as_posix()}"]
    return args


def bwrap_argv(
    *,
    seccomp_fd: int,
    info_fd: int | None = None,
    binds: list[tuple[str, str]] | None = None,
) -> list[str]:
    """The bwrap options (everything before the command). ``seccomp_fd`` holds the filter
    program (:func:`seccomp_fd`) and must be passed to bwrap, as must ``info_fd``; ``binds``
    are extra host files shown read-only (a meter's)."""
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
    argv += _hide_args()
    argv += ["--perms", "0755", "--dir", "/qs"]
    argv += _source_binds(RUNTIME_DIR, INSIDE_RUNTIME)
    site = _site_package_dir("sortedcontainers")
    argv += ["--perms", "0755", "--dir", INSIDE_SITE]
    if site is not None:
        argv += _source_binds(site, f"{INSIDE_SITE}/sortedcontainers")
    for host, inside in binds or []:
        argv += ["--perms", "0755", "--dir", str(Path(inside).parent), "--ro-bind", host, inside]
    argv += [
        "--proc",
        "/proc",
        # read-only: /proc/self/mem and the like cannot be opened for writing
        "--remount-ro",
        "/proc",
        # the kernel's fresh UUID at every read is a coin too: the boot's (one fixed UUID)
        *_UUID_ARGS,
        "--dev",
        "/dev",
        # the OS's random bytes: one fixed stream (random_source)
        *_random_args(),
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
    argv += ["--seccomp", str(seccomp_fd)]
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
        # -I without its -E: the environment is ours alone (BASE_ENV, nothing of the caller's),
        # and -E would drop PYTHONHASHSEED, leaving string hashes, and with them dict probes,
        # set orders and the type attribute cache, to differ in every process: a count then
        # moves by up to 1.5% between processes.
        "-s",
        "-P",
        "-S",
        f"{runtime}/harness.py",
        # fixed width: the command line lands on the process's stack, and its length moves
        # every address after it (a deterministic meter would count the difference)
        f"{cmd_fd:04d}",
        f"{reply_fd:04d}",
        site_arg,
        *([f"{child_fds[0]:04d}", f"{child_fds[1]:04d}"] if child_fds else []),
    ]


def weak_env() -> dict[str, str]:
    return dict(BASE_ENV)
