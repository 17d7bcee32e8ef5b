"""``quicksilver doctor``: what isolation and which meters this machine really has.

Every line is the result of trying the thing, not of looking for a binary: the sandbox is
started and probed from inside (network, file system, uid, fork, the seccomp filter, /proc,
what imports), each meter takes a reading, and the memory source measures pipe buffers held by
a process in a memory cgroup.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.machine import machine_info
from quicksilver.meters import METERS
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox import seccomp

PROBE = r"""
import os, socket, json, sys
out = {}
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1).close(); out["loopback"] = "reachable"
except OSError as e:
    out["loopback"] = type(e).__name__ + ": " + str(e)
try:
    socket.getaddrinfo("pypi.org", 443); out["dns"] = "resolves"
except OSError as e:
    out["dns"] = type(e).__name__
out["root_entries"] = sorted(os.listdir("/"))
out["home_visible"] = os.path.exists("/root/.bashrc") or os.path.exists("/home")
out["pid"] = os.getpid()
out["env"] = sorted(os.environ)
status = dict(ln.split(":", 1) for ln in open("/proc/self/status") if ":" in ln)
out["seccomp"] = [status.get("Seccomp", "?").strip(), status.get("Seccomp_filters", "?").strip()]
try:
    open("/proc/self/mem", "r+b").close(); out["proc_mem"] = "opened for writing"
except OSError as e:
    out["proc_mem"] = type(e).__name__ + ": " + os.strerror(e.errno)
try:
    import ctypes; out["ctypes"] = "importable"
except ImportError as e:
    out["ctypes"] = type(e).__name__ + ": " + str(e)
out["hidden_not_empty"] = [d for d in json.loads(sys.argv[1]) if os.listdir(d)]
print(json.dumps(out))
"""

# Raw system calls through a _ctypes bound in for this probe only (a solution has none).
SECCOMP_PROBE = r"""
import sys; sys.path.insert(0, "/qs/probe")
import ctypes, errno, json
libc = ctypes.CDLL(None, use_errno=True)
NR = json.loads(sys.argv[1])
def res(r):
    return "allowed" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
out = {
    "unshare(CLONE_NEWUSER)": res(libc.syscall(NR["unshare"], ctypes.c_long(0x10000000))),
    "unshare(CLONE_NEWNS)": res(libc.syscall(NR["unshare"], ctypes.c_long(0x20000))),
    "mount tmpfs": res(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
}
print(json.dumps(out))
"""


# Says it is ready, fills 8 pipes (64 KiB of buffer each) once told to, says how many bytes
# they hold, and keeps them until its stdin closes.
PIPES_PROBE = r"""
import os, sys
print("ready", flush=True)
sys.stdin.readline()
held, pipes = 0, []
for _ in range(8):
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        while True:
            held += os.write(w, b"x" * 4096)
    except BlockingIOError:
        pass
    pipes.append((r, w))
print(held, flush=True)
sys.stdin.read()
"""


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def _sandbox_probe() -> list[Check]:
    ok, detail = iso.probe_bwrap()
    checks = [Check("bubblewrap", ok, detail)]
    if not ok:
        return checks
    hidden = iso.hidden_paths()
    proc = None
    try:
        proc = iso.run_bwrap(
            [str(iso.interpreter()), "-I", "-S", "-c", PROBE, json.dumps(hidden.dirs)]
        )
        info = json.loads(proc.stdout)
    except (OSError, ValueError, subprocess.TimeoutExpired, iso.SandboxUnavailable) as exc:
        err = proc.stderr.decode(errors="replace").strip()[-300:] if proc is not None else ""
        checks.append(Check("sandbox probe", False, f"could not run: {exc} {err}".strip()))
        return checks
    net_blocked = info["loopback"] != "reachable" and info["dns"] != "resolves"
    checks.append(
        Check(
            "network (loopback included)",
            net_blocked,
            f"blocked: connect 127.0.0.1 -> {info['loopback']}; DNS -> {info['dns']}",
        )
    )
    checks.append(
        Check(
            "file system", not info["home_visible"], "sees only " + ", ".join(info["root_entries"])
        )
    )
    checks.append(Check("pid namespace", info["pid"] == 1, f"solution runs as pid {info['pid']}"))
    checks.append(
        Check(
            "environment",
            set(info["env"]) <= set(iso.BASE_ENV) | {"PWD", "LC_CTYPE"},
            "only " + ", ".join(info["env"]),
        )
    )
    checks.append(_seccomp_check(info["seccomp"]))
    checks.append(
        Check(
            "read-only /proc",
            "Read-only file system" in info["proc_mem"],
            f"/proc/self/mem for writing -> {info['proc_mem']}",
        )
    )
    not_empty = info["hidden_not_empty"]
    checks.append(
        Check(
            "hidden packages",
            not not_empty,
            f"{len(hidden.dirs)} site-packages/dist-packages folders empty, "
            f"{len(hidden.files)} _ctypes/_cffi_backend modules covered"
            + (f"; NOT empty: {', '.join(not_empty)}" if not_empty else ""),
        )
    )
    checks.append(
        Check("no ctypes", info["ctypes"] != "importable", f"import ctypes -> {info['ctypes']}")
    )
    return checks


def _seccomp_check(state: list[str]) -> Check:
    mode, filters = state
    denied = seccomp.denied_names()
    trial = "not tried"
    ok = mode == "2"
    own_lib = str(Path(sys.base_prefix).resolve() / "lib") + "/"
    host_ctypes = next(  # this interpreter's own _ctypes (hidden from solutions)
        (
            f
            for f in iso.hidden_paths().files
            if f.startswith(own_lib) and Path(f).name.startswith("_ctypes.")
        ),
        None,
    )
    if host_ctypes is not None:
        extra = ["--ro-bind", host_ctypes, f"/qs/probe/{Path(host_ctypes).name}"]
        command = [str(iso.interpreter()), "-I", "-S", "-c", SECCOMP_PROBE]
        nr = json.dumps(seccomp.arch_for().syscalls)
        try:
            got = json.loads(iso.run_bwrap([*command, nr], extra=extra).stdout)
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
            got, ok = {}, False
            trial = f"could not run: {exc}"
        if got:
            ok = ok and set(got.values()) == {"EPERM"}
            trial = ", ".join(f"{k} -> {v}" for k, v in got.items())
    return Check(
        "seccomp filter",
        ok,
        f"mode {mode}, {filters} filter(s); {trial}; refuses {len(denied)} calls "
        f"({', '.join(denied[:8])}, ...), clone with CLONE_NEW*, clone3 (ENOSYS)",
    )


def _privilege_check() -> list[Check]:
    from quicksilver.profiler import Case, ProfileTask, profile_solution
    from quicksilver.sandbox.session import SandboxStartError

    task = ProfileTask("doctor", "f", (Case([], 0),))
    code = (
        "import os, threading\n"
        "class Solution:\n"
        "    def f(self):\n"
        "        r = 0\n"
        "        try:\n            os.fork()\n        except OSError:\n            r += 1\n"
        "        try:\n            threading.Thread(target=print).start()\n"
        "        except RuntimeError:\n            r += 1\n"
        "        return 2 - r\n"
    )
    cfg = SandboxConfig()
    try:
        res = profile_solution(
            task, code, sandbox=cfg, measure=MeasureConfig(meter="cpu", max_rounds=1, min_rounds=1)
        )
    except (iso.SandboxUnavailable, SandboxStartError) as exc:
        return [Check("process limit", False, str(exc))]
    uid_note = f"runs as uid {cfg.sandbox_uid}" if os.geteuid() == 0 else "runs as the caller's uid"
    return [
        Check(
            "no fork, no threads",
            res.passed,
            f"{uid_note}; RLIMIT_NPROC=1: "
            + (
                "fork and threads refused"
                if res.passed
                else f"NOT contained ({res.status}: {res.error})"
            ),
        )
    ]


def _meter_checks() -> list[Check]:
    out = []
    for name, cls in METERS.items():
        status = cls.probe()
        detail = status.detail
        if name == "icount" and status.available:
            detail += "; " + _icount_trial()
        out.append(Check(f"meter {name}", status.available and "FAILED" not in detail, detail))
    return out


def _icount_trial() -> str:
    from quicksilver.profiler import Case, ProfileTask, profile_solution
    from quicksilver.sandbox.session import SandboxStartError

    code = "def f(n):\n    return sum(range(n))\n"
    task = ProfileTask("doctor", "f", (Case([200], 19900),), kind="function")
    try:
        a = profile_solution(task, code, meter="icount")
        b = profile_solution(task, code, meter="icount")
    except (iso.SandboxUnavailable, SandboxStartError) as exc:
        return f"FAILED: {exc}"
    if not (a.passed and b.passed):
        return f"FAILED: {a.status}: {a.error}"
    assert a.runtime is not None and b.runtime is not None
    spread = abs(a.runtime - b.runtime) / max(a.runtime, 1.0)
    if spread > 0.01:
        return f"FAILED: two counts of one call differ by {spread:.2%} ({a.runtime} vs {b.runtime})"
    same = (
        "identical" if spread == 0 else f"within {spread:.3%} ({a.runtime:.0f} vs {b.runtime:.0f})"
    )
    return f"trial call counted twice: {same}"


def _memory_check() -> Check:
    """Which memory source profiles get here (``RunResult.memory_source``), tried on a process
    of this host that holds memory in pipe buffers, where its resident size does not show it."""
    from quicksilver.sandbox import cgroup
    from quicksilver.sandbox.session import MemoryProbe

    found, reason = cgroup.memory_controller()
    if found is None:
        return Check(
            "memory source",
            False,
            f"{cgroup.MEMORY_SOURCE_RSS}: VmRSS/VmHWM alone ({reason}); memory held through the "
            "kernel is not counted: pipe buffers, 64 KiB a pipe under the open-files limit (the "
            "seccomp filter and the sealed /tmp close the larger avenues)",
        )
    proc = subprocess.Popen(
        [sys.executable, "-c", PIPES_PROBE], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    probe = MemoryProbe(proc.pid, cgroup.attach(proc.pid))
    try:
        proc.stdout.readline()  # started: its own growth is over
        start = probe.reset()
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        held = int(proc.stdout.readline())
        peak = probe.peak()
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
        proc.stdout.close()
        probe.close()
    seen = (peak - start) / held if peak is not None and start is not None and held else 0.0
    return Check(
        "memory source",
        probe.source == found.source and seen >= 0.9,
        f"{probe.source}: a memory cgroup per sandboxed child under {found.parent}; kernel "
        f"memory and unmapped shmem are added to VmRSS (trial: {held >> 10} KiB held in pipe "
        f"buffers read as {seen:.0%} of it)",
    )


def run_doctor() -> dict[str, Any]:
    checks = _sandbox_probe()
    if checks[0].ok:
        checks += _privilege_check()
    checks.append(
        Check("weak mode", True, "available only with --allow-weak-sandbox (warns on every run)")
    )
    checks += _meter_checks()
    checks.append(_memory_check())
    return {"machine": dict(machine_info()), "checks": [asdict(c) for c in checks]}
