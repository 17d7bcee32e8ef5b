"""Host side of one sandboxed solution process: spawn, command, meter, limit, kill.

The host sends one command at a time and reads the meter right before sending and right after
the reply arrives, while the harness is blocked on its command channel. Every unit of the
process's cost therefore falls into exactly one window: a command's own window, or the idle gap
between a reply and the next command (which an honest harness leaves empty). The profiler
decides which windows are timed and charges any unexplained cost in the others.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from quicksilver.config import SandboxConfig
from quicksilver.meters import Meter, MeterError, _process_cpu_clock
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.runtime import wire

log = logging.getLogger(__name__)

HARNESS_PROTOCOL = 2  # must match PROTOCOL in runtime/harness.py

WORK_PREFIX = "qs-sandbox-"

# Every running session of this process, so that a signal handler can stop them all at once.
_LIVE: weakref.WeakSet[SandboxSession] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()
_SHUTTING_DOWN = threading.Event()


def begin_shutdown() -> int:
    """Refuse new sandboxes from now on and kill every running one; returns how many were killed.

    Called from a SIGTERM / SIGINT handler: a command in flight then fails at once with
    :class:`ShuttingDown` instead of running to its time limit.
    """
    _SHUTTING_DOWN.set()
    with _LIVE_LOCK:
        sessions = list(_LIVE)
    for session in sessions:
        with contextlib.suppress(Exception):
            session.kill()
    return len(sessions)


def shutting_down() -> bool:
    return _SHUTTING_DOWN.is_set()


def reset_shutdown() -> None:
    """Allow sandboxes again (tests, or a long-lived process that recovered)."""
    _SHUTTING_DOWN.clear()


def sweep_orphans(root: Path | None = None) -> list[Path]:
    """Remove sandbox work folders whose owning process is gone (a crash or SIGKILL left them).

    Folder names carry the owner's pid (``qs-sandbox-<pid>-...``); a folder of a live process is
    left alone, as is anything that does not follow the pattern.
    """
    base = Path(root or tempfile.gettempdir())
    removed = []
    for path in base.glob(f"{WORK_PREFIX}*"):
        owner = path.name[len(WORK_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit() or not path.is_dir() or Path(f"/proc/{owner}").exists():
            continue  # not ours, or its process (this one included) still runs
        shutil.rmtree(path, ignore_errors=True)
        if not path.exists():
            removed.append(path)
    if removed:
        log.info("removed %d orphaned sandbox folder(s) under %s", len(removed), base)
    return removed


def solution_setup(
    sandbox: SandboxConfig, isolation: iso.Isolation, *, as_bytes: int, cpu_seconds: int
) -> dict[str, Any]:
    """The privilege and limit fields of a ``setup`` command for a process that runs solution
    code: the sandbox uid (unless weak), the rlimits of ``sandbox.limits`` with the given address
    space and CPU backstop, and the recursion limit."""
    limits = sandbox.limits
    uid = sandbox.sandbox_uid if not isolation.weak else None
    return {
        "uid": uid,
        "gid": uid,
        "limits": {
            "as_bytes": as_bytes,
            "cpu_seconds": cpu_seconds,
            "nproc": limits.processes,
            "fsize_bytes": limits.file_size_mb << 20,
            "nofile": limits.open_files,
            "core": 0,
        },
        "recursion_limit": limits.recursion_limit,
    }


class SandboxError(RuntimeError):
    """Base class for a sandboxed process that did not answer as it should."""


class LimitExceeded(SandboxError):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "cpu" or "wall"


class ChildGone(SandboxError):
    """The process exited or was killed while a reply was awaited."""

    def __init__(self, message: str, returncode: int | None) -> None:
        super().__init__(message)
        self.returncode = returncode


class ProtocolViolation(SandboxError):
    """A reply out of sequence, undecodable, or not a reply at all."""


class OutputLimitExceeded(SandboxError):
    """The process wrote more than ``limits.output_kill_bytes`` to stdout/stderr and was killed.

    Not a LimitExceeded (those are time limits, status ``timeout``): callers report it as an
    error whose message starts with ``output limit:``.
    """


class ShuttingDown(SandboxError):
    """The process is stopping (SIGTERM / SIGINT): no new sandbox starts, running ones die."""


@dataclass
class Exchange:
    reply: dict[str, Any]
    cost: int  # meter units consumed between sending the command and receiving its reply
    idle: int  # meter units consumed since the previous reply (an honest harness: ~0)
    cpu_ns: int  # kernel CPU time of the window, whatever the meter


@dataclass
class CapturedOutput:
    limit: int
    stdout: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, stream: str, data: bytes) -> None:
        buf = self.stdout if stream == "stdout" else self.stderr
        room = max(0, self.limit - len(buf))
        buf += data[:room]
        self.dropped += max(0, len(data) - room)

    @property
    def total(self) -> int:
        """Bytes written to both streams so far, kept or dropped."""
        return len(self.stdout) + len(self.stderr) + self.dropped

    def as_dict(self) -> dict[str, Any]:
        return {
            "stdout": self.stdout.decode(errors="replace"),
            "stderr": self.stderr.decode(errors="replace"),
            "dropped_bytes": self.dropped,
        }


class SandboxSession:
    """One sandboxed harness process serving all the rounds of one solution."""

    def __init__(
        self,
        config: SandboxConfig,
        meter: Meter,
        isolation: iso.Isolation | None = None,
        *,
        limit_scale: float = 1.0,
    ) -> None:
        self.config = config
        self.meter = meter
        self.isolation = isolation or iso.resolve(config)
        self.limit_scale = limit_scale
        self.output = CapturedOutput(config.limits.output_bytes)
        self.pid: int | None = None
        self.returncode: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._seq = itertools.count(1)
        self._decoder = wire.FrameDecoder()
        self._pending: list[dict[str, Any]] = []
        self._last_reading = 0
        self._last_cpu = 0
        self._work: Path | None = None
        self._cmd_w = self._reply_r = -1
        self._closed = False

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        if shutting_down():
            raise ShuttingDown("stopping: no new sandbox is started")
        if self.isolation.weak:
            log.warning(
                "WEAK SANDBOX: running untrusted code without namespaces (no file-system or "
                "network isolation); rlimits and a scrubbed environment only"
            )
        self._work = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-"))
        out_dir = self._work / "out"
        out_dir.mkdir()
        # Reached only through the bind mount (its parent is 0700); the harness starts as root
        # without CAP_DAC_OVERRIDE and then becomes the sandbox uid, and both must write here.
        out_dir.chmod(0o777)
        cmd_r, self._cmd_w = os.pipe()
        self._reply_r, reply_w = os.pipe()
        info_r = info_w = seccomp_r = -1
        harness = iso.harness_argv(self.isolation, cmd_r, reply_w)
        if self.isolation.weak:
            argv = self.meter.wrap(harness, str(out_dir))
            fds: tuple[int, ...] = (cmd_r, reply_w)
            env = iso.weak_env()
            cwd = str(self._work)
        else:
            info_r, info_w = os.pipe()
            try:
                seccomp_r = iso.seccomp_fd()
            except iso.SandboxUnavailable:
                for fd in (cmd_r, reply_w, info_r, info_w):
                    os.close(fd)
                raise
            argv = iso.bwrap_argv(
                out_dir,
                with_out=self.meter.needs_out_dir(),
                info_fd=info_w,
                seccomp_fd=seccomp_r,
            ) + self.meter.wrap(harness, iso.INSIDE_OUT)
            fds = (cmd_r, reply_w, info_w, seccomp_r)
            env = {"PATH": "/usr/bin:/bin"}
            cwd = str(self._work)
        setpriv = shutil.which("setpriv")
        if setpriv:
            # Kill the sandbox if this process (the thread that started it) dies.
            argv = [setpriv, "--pdeathsig", "KILL", "--", *argv]
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=fds,
                env=env,
                cwd=cwd,
                start_new_session=True,
            )
        finally:
            for fd in (cmd_r, reply_w, info_w, seccomp_r):
                if fd >= 0:
                    os.close(fd)
        with _LIVE_LOCK:
            _LIVE.add(self)
        if shutting_down():  # a signal arrived while this one was starting
            self.kill()
            raise ShuttingDown("stopping: the sandbox was killed as it started")
        for stream in (self._proc.stdout, self._proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        try:
            self.pid = self._read_info(info_r) if info_r >= 0 else self._proc.pid
        finally:
            if info_r >= 0:
                os.close(info_r)
        try:
            self.meter.attach(self.pid, out_dir)
            # The harness greets once it runs: from here on the sandbox is fully set up, and
            # it exits by itself on EOF if this process dies.
            hello = self._await_reply(0, self._cpu(), None, 60.0)
            if hello.get("protocol") != HARNESS_PROTOCOL:
                raise ProtocolViolation(
                    f"the sandbox harness ({iso.RUNTIME_DIR}) speaks protocol "
                    f"{hello.get('protocol')!r} but this process expects {HARNESS_PROTOCOL}: "
                    "the installed quicksilver changed under a running process; restart it"
                )
            self._last_reading = self.meter.read()
            self._last_cpu = self._cpu()
        except (MeterError, SandboxError):
            self.kill()
            raise

    def _read_info(self, fd: int) -> int:
        deadline = time.monotonic() + 30
        data = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                if self._proc is not None and self._proc.poll() is not None:
                    break
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
            with contextlib.suppress(ValueError):
                return int(json.loads(data)["child-pid"])
        self.kill()
        err = self._drain_all()
        raise SandboxError(f"bubblewrap did not start the sandbox: {err or 'no child pid'}")

    def _cpu(self) -> int:
        assert self.pid is not None
        return time.clock_gettime_ns(_process_cpu_clock(self.pid))

    # -- commands -----------------------------------------------------------------------------

    def request(
        self,
        op: str,
        *,
        cpu_limit_s: float | None = None,
        wall_limit_s: float | None = None,
        **fields: Any,
    ) -> Exchange:
        """Send one command and wait for its reply within the CPU and wall limits."""
        if self._proc is None or self._closed:
            raise SandboxError("session is not running")
        seq = next(self._seq)
        before = self.meter.read()
        cpu_before = self._cpu()
        idle = before - self._last_reading
        try:
            wire.write_frame(self._cmd_w, {"op": op, "seq": seq, **fields})
        except (BrokenPipeError, OSError) as exc:
            raise self._gone(f"the sandbox closed its command channel ({exc})") from exc
        reply = self._await_reply(seq, cpu_before, cpu_limit_s, wall_limit_s)
        try:
            after = self.meter.read()
            cpu_after = self._cpu()
        except (MeterError, OSError) as exc:
            raise self._gone(f"process vanished after replying ({exc})") from exc
        self._last_reading, self._last_cpu = after, cpu_after
        return Exchange(reply=reply, cost=after - before, idle=idle, cpu_ns=cpu_after - cpu_before)

    def _await_reply(
        self, seq: int, cpu_before: int, cpu_limit_s: float | None, wall_limit_s: float | None
    ) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout and self._proc.stderr
        scale = self.limit_scale
        cpu_limit = None if cpu_limit_s is None else int(cpu_limit_s * scale * 1e9)
        wall_deadline = None if wall_limit_s is None else time.monotonic() + wall_limit_s * scale
        streams = {
            self._reply_r: "reply",
            self._proc.stdout.fileno(): "stdout",
            self._proc.stderr.fileno(): "stderr",
        }
        while True:
            if self._pending:
                reply = self._pending.pop(0)
                if not isinstance(reply, dict) or reply.get("seq") != seq:
                    self.kill()
                    raise ProtocolViolation(
                        f"reply out of sequence (expected seq {seq}, got "
                        f"{str(reply)[:120]!r}): something other than the harness wrote to "
                        "the reply channel"
                    )
                if self._pending:
                    self.kill()
                    raise ProtocolViolation("more replies than commands on the reply channel")
                return reply
            timeout = 0.05
            if wall_deadline is not None:
                timeout = max(0.0, min(timeout, wall_deadline - time.monotonic()))
            ready, _, _ = select.select(list(streams), [], [], timeout)
            for fd in ready:
                try:
                    chunk = os.read(fd, 1 << 20)
                except BlockingIOError:
                    continue
                name = streams[fd]
                if name == "reply":
                    if not chunk:
                        raise self._gone("the sandboxed process exited during the command")
                    try:
                        self._pending.extend(self._decoder.feed(chunk))
                    except wire.WireError as exc:
                        self.kill()
                        raise ProtocolViolation(f"undecodable reply: {exc}") from exc
                elif chunk:
                    self.output.add(name, chunk)
                    self._check_output()
            if self._pending:
                continue
            if cpu_limit is not None:
                try:
                    used = self._cpu() - cpu_before
                except OSError:
                    raise self._gone("the sandboxed process exited during the command") from None
                if used > cpu_limit:
                    self.kill()
                    raise LimitExceeded("cpu", f"CPU time limit of {cpu_limit / 1e9:.3g}s exceeded")
            if wall_deadline is not None and time.monotonic() > wall_deadline:
                self.kill()
                raise LimitExceeded("wall", f"wall time limit of {wall_limit_s}s exceeded")

    def _check_output(self) -> None:
        limit = self.config.limits.output_kill_bytes
        if limit is not None and self.output.total > limit:
            self.kill()
            raise OutputLimitExceeded(
                f"output limit: the solution wrote more than {limit} bytes to stdout/stderr "
                f"(killed after {self.output.total})"
            )

    def _gone(self, message: str) -> SandboxError:
        if shutting_down():
            return ShuttingDown(f"stopping: the sandbox was killed ({message})")
        rc = self._reap(timeout=5)
        detail = self._drain_all()
        how = _describe_returncode(rc)
        text = f"{message}; {how}" + (f"; stderr: {detail}" if detail else "")
        return ChildGone(text, rc)

    # -- teardown -----------------------------------------------------------------------------

    def kill(self) -> None:
        if self.pid is not None and self.pid != getattr(self._proc, "pid", None):
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        if self._proc is not None:
            with contextlib.suppress(OSError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                self._proc.kill()
        self._reap(timeout=5)

    def _reap(self, timeout: float) -> int | None:
        if self._proc is None:
            return None
        try:
            self.returncode = self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            self.returncode = self._proc.wait()
        return self.returncode

    def _drain_all(self) -> str:
        if self._proc is None:
            return ""
        for name, stream in (("stdout", self._proc.stdout), ("stderr", self._proc.stderr)):
            if stream is None:
                continue
            while True:
                try:
                    chunk = os.read(stream.fileno(), 1 << 20)
                except (BlockingIOError, OSError, ValueError):
                    break
                if not chunk:
                    break
                self.output.add(name, chunk)
        tail = self.output.stderr[-400:].decode(errors="replace").strip()
        return tail

    def close(self) -> None:
        if self._closed:
            return
        if self._proc is not None and self._proc.poll() is None:
            with contextlib.suppress(SandboxError, OSError):
                self.request("exit", wall_limit_s=5)
        self.kill()
        self._drain_all()
        self.meter.close()
        for fd in (self._cmd_w, self._reply_r):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._proc is not None:
            for stream in (self._proc.stdout, self._proc.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
        with _LIVE_LOCK:
            _LIVE.discard(self)
        self._closed = True

    def __enter__(self) -> SandboxSession:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _describe_returncode(rc: int | None) -> str:
    if rc is None:
        return "exit status unknown"
    if rc < 0:
        return f"killed by {signal.Signals(-rc).name}"
    if rc > 128 and rc - 128 in {s.value for s in signal.Signals}:
        return f"exit status {rc} (signal {signal.Signals(rc - 128).name})"
    return f"exit status {rc}"
