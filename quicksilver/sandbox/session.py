"""Host side of one sandboxed solution process: spawn, command, meter, limit, kill.

The host sends one command at a time and reads the meter right before sending and right after
the reply arrives, while the harness is blocked on its command channel. Every unit of the
process's cost therefore falls into exactly one window: a command's own window, or the idle gap
between a reply and the next command (which an honest harness leaves empty). The profiler
decides which windows are timed and charges any unexplained cost in the others.

The pieces: ``errors`` (what goes wrong), ``channel`` (one command/reply channel pair and its
exchanges), ``memory`` (the host's memory probe and sampler), ``procfs`` (what /proc says of a
process), ``shutdown`` (stopping every sandbox at once). This module runs the processes and
re-exports the names callers use.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver.config import SandboxConfig
from quicksilver.meters import Meter, MeterError
from quicksilver.sandbox import cgroup as memory_cgroup
from quicksilver.sandbox import isolation as iso
from quicksilver.sandbox.channel import CapturedOutput, Exchange, _Endpoint, _wait_blocked
from quicksilver.sandbox.errors import (
    ChildGone,
    LimitExceeded,
    MeterTampering,
    OutputLimitExceeded,
    ProtocolViolation,
    SandboxError,
    SandboxStartError,
    ShuttingDown,
)
from quicksilver.sandbox.memory import TRACE_POINTS, MemoryProbe, MemorySampler, MemoryTrace
from quicksilver.sandbox.procfs import _alive, _describe_returncode, _find_child, _vm_size
from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.shutdown import (
    _LIVE,
    _LIVE_LOCK,
    WORK_PREFIX,
    begin_shutdown,
    shutting_down,
    sweep_orphans,
)

__all__ = [
    "HARNESS_FDS",
    "HARNESS_PROTOCOL",
    "TRACE_POINTS",
    "WORK_PREFIX",
    "CapturedOutput",
    "ChildEnd",
    "ChildGone",
    "ChildProcess",
    "Exchange",
    "LimitExceeded",
    "MemoryProbe",
    "MemorySampler",
    "MemoryTrace",
    "MeterTampering",
    "OutputLimitExceeded",
    "ProtocolViolation",
    "SandboxError",
    "SandboxSession",
    "SandboxStartError",
    "ShuttingDown",
    "begin_shutdown",
    "shutting_down",
    "solution_setup",
    "sweep_orphans",
]

log = logging.getLogger(__name__)

HARNESS_PROTOCOL = 5  # must match PROTOCOL in runtime/harness.py
HARNESS_FDS = (40, 41, 42, 43)  # must match FIXED_FDS in runtime/harness.py


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


class SandboxSession:
    """One sandboxed harness process (see the module docstring).

    With ``zygote=True`` the harness also holds a second channel pair that the children it forks
    (:meth:`spawn`) answer on; see :class:`ChildProcess`.
    """

    def __init__(
        self,
        config: SandboxConfig,
        meter: Meter,
        isolation: iso.Isolation | None = None,
        *,
        limit_scale: float = 1.0,
        zygote: bool = False,
        track_memory: bool = False,
    ) -> None:
        self.config = config
        self.track_memory = track_memory  # a MemoryProbe on the process (and on children)
        self.meter = meter
        self.isolation = isolation or iso.resolve(config)
        self.limit_scale = limit_scale
        self.zygote = zygote
        self.output = CapturedOutput(config.limits.output_bytes)
        self.capture = self.output  # where stdout / stderr go now (a running child's own)
        self.pid: int | None = None
        self.returncode: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._main: _Endpoint | None = None
        self._child_fds: tuple[int, int] = (-1, -1)  # host ends: child commands, child replies
        self._child_cmd_fd = -1  # the children's end, as numbered inside
        self._work: Path | None = None
        self._closed = False
        self.child: ChildProcess | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the sandboxed harness and wait for its hello.

        Raises :class:`SandboxStartError` when it cannot be started (an infrastructure fault),
        :class:`ShuttingDown` during a stop, and, unwrapped, the errors no retry mends:
        ``SandboxUnavailable`` when this machine cannot sandbox at all (no filter for its
        architecture), :class:`MeterError` when the meter cannot run here (no PMU for
        ``instructions``), :class:`ProtocolViolation` when the installed harness speaks another
        protocol than this process (the package changed under it)."""
        if shutting_down():
            raise ShuttingDown("stopping: no new sandbox is started")
        try:
            self._start()
        except (ShuttingDown, iso.SandboxUnavailable):
            raise
        except (MeterError, ProtocolViolation):
            self.kill()
            raise
        except (SandboxError, OSError) as exc:
            self.kill()
            raise SandboxStartError(f"the sandbox could not start: {exc}") from exc

    def _start(self) -> None:
        if self.isolation.weak:
            log.warning(
                "WEAK SANDBOX: running untrusted code without namespaces (no file-system or "
                "network isolation); rlimits and a scrubbed environment only"
            )
        self._work = Path(tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-"))
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        inner: list[int] = [cmd_r, reply_w]
        child_fds = None
        if self.zygote:
            ccmd_r, ccmd_w = os.pipe()
            creply_r, creply_w = os.pipe()
            self._child_fds = (ccmd_w, creply_r)
            os.set_blocking(creply_r, False)
            inner += [ccmd_r, creply_w]
            child_fds = (ccmd_r, creply_w)
        # the harness moves its channels to fixed descriptors (runtime/harness.py FIXED_FDS)
        self._main = _Endpoint(cmd_w, reply_r, self.meter, HARNESS_FDS[0])
        self._child_cmd_fd = HARNESS_FDS[2] if self.zygote else -1
        info_r = info_w = seccomp_r = -1
        harness = iso.harness_argv(self.isolation, cmd_r, reply_w, child_fds=child_fds)

        if self.isolation.weak:
            argv = self.meter.wrap(harness, weak=True)
            fds: tuple[int, ...] = tuple(inner)
            env = iso.weak_env()
        else:
            info_r, info_w = os.pipe()
            try:
                seccomp_r = iso.seccomp_fd()
            except iso.SandboxUnavailable:
                for fd in (*inner, info_r, info_w):
                    os.close(fd)
                raise
            argv = iso.bwrap_argv(
                info_fd=info_w, seccomp_fd=seccomp_r, binds=self.meter.binds()
            ) + self.meter.wrap(harness, weak=False)
            fds = (*inner, info_w, seccomp_r)
            env = {"PATH": "/usr/bin:/bin"}
        stack_mb = self.config.limits.stack_mb
        if stack_mb is not None:
            # before anything starts: the kernel lays out the process's stack at exec, and the
            # emulator sizes its guest's stack from this limit when it starts
            prlimit = shutil.which("prlimit")
            if prlimit is None:
                raise SandboxError("sandbox.limits.stack_mb needs prlimit (util-linux)")
            argv = [prlimit, f"--stack={stack_mb << 20}", "--", *argv]
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
                cwd=str(self._work),
                start_new_session=True,
            )
        finally:
            for fd in (*inner, info_w, seccomp_r):
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
        self._main.pid = self.pid
        if self.track_memory and not self.zygote:
            self._main.memory = MemoryProbe(self.pid)
        try:
            self._greeted(self._main, 60.0)
            self.meter.attach(self.pid)
            _wait_blocked(self._main)
            self._main.last_reading = self.meter.read()
        except (MeterError, SandboxError):
            self.kill()
            raise

    def _greeted(self, ep: _Endpoint, wall: float) -> None:
        """Wait for the harness's hello (it is set up) and check that it speaks our protocol."""
        hello = self._await_reply(ep, 0, ep.cpu(), None, wall)
        if hello.get("protocol") != HARNESS_PROTOCOL:
            raise ProtocolViolation(
                f"the sandbox harness ({iso.RUNTIME_DIR}) speaks protocol "
                f"{hello.get('protocol')!r} but this process expects {HARNESS_PROTOCOL}: "
                "the installed quicksilver changed under a running process; restart it"
            )

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

    # -- commands -----------------------------------------------------------------------------

    def request(
        self,
        op: str,
        *,
        cpu_limit_s: float | None = None,
        wall_limit_s: float | None = None,
        memory_limit_bytes: int | None = None,
        **fields: Any,
    ) -> Exchange:
        """Send one command to the harness and wait for its reply within the limits.

        ``memory_limit_bytes`` (with ``track_memory``): the command is stopped, as a
        :class:`LimitExceeded` of kind ``memory``, once the process's resident memory has grown
        by more than that since the command was sent (polled while the reply is awaited, and
        checked once more at the reply)."""
        if self._proc is None or self._closed or self._main is None:
            raise SandboxError("session is not running")
        return self._exchange(self._main, op, cpu_limit_s, wall_limit_s, fields, memory_limit_bytes)

    def _exchange(
        self,
        ep: _Endpoint,
        op: str,
        cpu_limit_s: float | None,
        wall_limit_s: float | None,
        fields: dict[str, Any],
        memory_limit_bytes: int | None = None,
        sample_interval_s: float | None = None,
    ) -> Exchange:
        """One command and its reply; ``sample_interval_s`` (with a memory probe): the host
        samples the process's memory that often while the command runs (``Exchange.trace``)."""
        seq = next(ep.seq)
        try:
            before = ep.meter.read()
            cpu_before = ep.cpu()
        except (MeterError, OSError) as exc:
            raise self._gone(f"the process vanished before the command ({exc})") from exc
        if before < ep.last_reading:
            self._kill_endpoint(ep)
            raise MeterTampering(
                f"the {ep.meter.name} reading went backwards between commands, from "
                f"{ep.last_reading} to {before}, before {op!r}"
            )
        idle = before - ep.last_reading
        rss_before = self._memory_before(ep)
        sampler = None
        if sample_interval_s and ep.memory is not None and rss_before is not None:
            first = MemoryTrace(sample_interval_s)
            first.add(before, rss_before, rss_before)  # the mark was just reset to this size
            sampler = MemorySampler(ep.memory, ep.meter, first)
        trace: MemoryTrace | None = None
        try:
            try:
                wire.write_frame(ep.cmd_w, {"op": op, "seq": seq, **fields})
            except (BrokenPipeError, OSError) as exc:
                raise self._gone(f"the sandbox closed its command channel ({exc})") from exc
            reply = self._await_reply(
                ep, seq, cpu_before, cpu_limit_s, wall_limit_s, memory_limit_bytes, rss_before
            )
            try:
                if op != "exit":
                    _wait_blocked(ep)
                after = ep.meter.read()
                cpu_after = ep.cpu()
            except (MeterError, OSError) as exc:
                raise self._gone(f"process vanished after replying ({exc})") from exc
        finally:
            if sampler is not None:
                trace = sampler.stop()
        sampled_rewind = trace.backwards_at if trace is not None else None
        ep.last_reading = after
        peak = None
        if ep.memory is not None and op != "exit" and rss_before is not None:
            end = ep.memory.reading(full=True) if trace is not None else None
            if end is not None and trace is not None:
                trace.add(after, *end)  # the window's last reading: the process is blocked
                peak = end[1]
            else:
                trace = None
                peak = ep.memory.peak()
        rewound = trace.backwards_at if trace is not None else sampled_rewind
        if after < before or rewound is not None:
            # A count only grows; one found lower than an earlier reading was written back by
            # the process (docs/sandbox.md, "The instruction counter"). A rewind that ends above
            # the command's first reading is still caught when a sample in between saw more.
            self._kill_endpoint(ep)
            where = (
                f"from {before} to {after} across the command"
                if after < before
                else f"within the command (reading {rewound} of its sampled trace)"
            )
            raise MeterTampering(f"the {ep.meter.name} reading went backwards {where} ({op!r})")
        ex = Exchange(
            reply=reply,
            cost=after - before,
            idle=idle,
            cpu_ns=cpu_after - cpu_before,
            rss_before=rss_before,
            peak=peak,
            trace=trace,
        )
        ep.last_exchange = ex
        return ex

    def _memory_before(self, ep: _Endpoint) -> int | None:
        """Close the previous command's span (its peak up to now), reset the peak, and return
        the resident set size the next command starts from. The process is blocked reading
        its command channel: nothing it does falls between the reading and the reset."""
        probe = ep.memory
        if probe is None:
            return None
        last = ep.last_exchange
        if last is not None and last.peak is not None:
            span = probe.peak()
            last.span_peak = max(last.peak, span) if span is not None else None
        return probe.reset()

    def _await_reply(
        self,
        ep: _Endpoint,
        seq: int,
        cpu_before: int,
        cpu_limit_s: float | None,
        wall_limit_s: float | None,
        memory_limit_bytes: int | None = None,
        rss_before: int | None = None,
    ) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout and self._proc.stderr
        memory_cap = None
        if memory_limit_bytes is not None and ep.memory is not None and rss_before is not None:
            memory_cap = rss_before + memory_limit_bytes
        scale = self.limit_scale
        cpu_limit = None if cpu_limit_s is None else int(cpu_limit_s * scale * 1e9)
        wall_deadline = None if wall_limit_s is None else time.monotonic() + wall_limit_s * scale
        streams = {
            ep.reply_r: "reply",
            self._proc.stdout.fileno(): "stdout",
            self._proc.stderr.fileno(): "stderr",
        }
        while True:
            if ep.pending:
                reply = ep.pending.pop(0)
                if not isinstance(reply, dict) or reply.get("seq") != seq:
                    self._kill_endpoint(ep)
                    raise ProtocolViolation(
                        f"reply out of sequence (expected seq {seq}, got "
                        f"{str(reply)[:120]!r}): something other than the harness wrote to "
                        "the reply channel"
                    )
                if ep.pending:
                    self._kill_endpoint(ep)
                    raise ProtocolViolation("more replies than commands on the reply channel")
                self._check_memory(ep, memory_cap, memory_limit_bytes)
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
                        ep.pending.extend(ep.decoder.feed(chunk))
                    except wire.WireError as exc:
                        self._kill_endpoint(ep)
                        raise ProtocolViolation(f"undecodable reply: {exc}") from exc
                elif chunk:
                    self.capture.add(name, chunk)
                    self._check_output(ep)
            if ep.pending:
                continue
            if ep is not self._main and not _alive(ep.pid):
                raise self._gone("the sandboxed process exited during the command")
            if cpu_limit is not None:
                try:
                    used = ep.cpu() - cpu_before
                except OSError:
                    raise self._gone("the sandboxed process exited during the command") from None
                if used > cpu_limit:
                    self._kill_endpoint(ep)
                    raise LimitExceeded("cpu", f"CPU time limit of {cpu_limit / 1e9:.3g}s exceeded")
            if wall_deadline is not None and time.monotonic() > wall_deadline:
                self._kill_endpoint(ep)
                raise LimitExceeded("wall", f"wall time limit of {wall_limit_s}s exceeded")
            self._check_memory(ep, memory_cap, memory_limit_bytes)

    def _check_memory(self, ep: _Endpoint, cap: int | None, limit: int | None) -> None:
        if cap is None or ep.memory is None:
            return
        peak = ep.memory.peak()
        if peak is not None and peak > cap:
            self._kill_endpoint(ep)
            raise LimitExceeded(
                "memory",
                f"memory wall: peak memory grew by {(peak - cap + (limit or 0)) >> 20} MiB, "
                f"more than the {(limit or 0) >> 20} MiB allowed",
            )

    def _kill_endpoint(self, ep: _Endpoint) -> None:
        """Kill the process behind ``ep``: a child alone, or the whole sandbox."""
        if ep is self._main:
            self.kill()
        else:
            with contextlib.suppress(OSError):
                os.kill(ep.pid, signal.SIGKILL)

    def _check_output(self, ep: _Endpoint) -> None:
        limit = self.config.limits.output_kill_bytes
        if limit is not None and self.capture.total > limit:
            self._kill_endpoint(ep)
            raise OutputLimitExceeded(
                f"output limit: the solution wrote more than {limit} bytes to stdout/stderr "
                f"(killed after {self.capture.total})"
            )

    def _gone(self, message: str) -> SandboxError:
        if shutting_down():
            return ShuttingDown(f"stopping: the sandbox was killed ({message})")
        if self.child is not None and not self.child.finished:
            return ChildGone(message, None)  # the zygote reaps it and says how it ended
        rc = self._reap(timeout=5)
        detail = self._drain_all()
        how = _describe_returncode(rc)
        text = f"{message}; {how}" + (f"; stderr: {detail}" if detail else "")
        return ChildGone(text, rc)

    # -- zygote -------------------------------------------------------------------------------

    def spawn(self, setup: dict[str, Any], *, wall_limit_s: float = 30.0) -> ChildProcess:
        """Fork a child of the zygote; it answers on the child channels (see ChildProcess)."""
        if not self.zygote:
            raise SandboxError("spawn needs a zygote session")
        if self.child is not None and not self.child.finished:
            raise SandboxError("the previous child has not been reaped")
        self._drain_child_channel()
        ex = self.request("spawn", wall_limit_s=wall_limit_s, **setup)
        if not ex.reply.get("ok"):
            raise SandboxError(f"spawn failed: {ex.reply.get('error')}")
        assert self.pid is not None
        host_pid = _find_child(self.pid)
        child = ChildProcess(self, int(ex.reply["pid"]), host_pid)
        self.child = child
        self.capture = child.output
        try:
            self._greeted(child.endpoint, wall_limit_s)
            child.endpoint.meter.attach(host_pid)
            _wait_blocked(child.endpoint)
            child.endpoint.last_reading = child.endpoint.meter.read()
        except (MeterError, SandboxError, OSError):
            child.finish()
            raise
        return child

    def set_memory_limit(self, extra_bytes: int) -> None:
        """Cap the zygote's address space at what it maps now plus ``extra_bytes``; children
        inherit the cap at fork. Set from outside: an emulator ignores a guest's own RLIMIT_AS,
        and a solution cannot raise a hard limit."""
        import resource

        assert self.pid is not None
        limit = _vm_size(self.pid) + extra_bytes
        resource.prlimit(self.pid, resource.RLIMIT_AS, (limit, limit))

    def _drain_child_channel(self) -> None:
        """Throw away whatever a previous child left on the child reply channel."""
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._child_fds[1], 1 << 20):
                pass

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
                self.capture.add(name, chunk)
        tail = self.capture.stderr[-400:].decode(errors="replace").strip()
        return tail

    def close(self) -> None:
        if self._closed:
            return
        if self.child is not None and not self.child.finished:
            with contextlib.suppress(SandboxError, OSError):
                self.child.finish()
        if self._proc is not None and self._proc.poll() is None:
            with contextlib.suppress(SandboxError, OSError):
                self.request("exit", wall_limit_s=5)
        self.kill()
        self._drain_all()
        self.meter.close()
        if self._main is not None and self._main.memory is not None:
            self._main.memory.close()
        fds = [*self._child_fds]
        if self._main is not None:
            fds += [self._main.cmd_w, self._main.reply_r]
        for fd in fds:
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


@dataclass
class ChildEnd:
    """How a child ended, as its parent (the zygote) saw it in wait4."""

    exit_code: int | None
    cpu_seconds: float
    maxrss_kb: int
    killed: bool  # the host killed it (a limit, a protocol violation, or cleanup)


class ChildProcess:
    """A child of a zygote: the process that loads and runs one solution for one pass.

    Commands go to it on the child channels; the meter reads *its* host pid. ``finish`` ends it
    (``exit``, or SIGKILL if it does not answer) and has the zygote reap it.
    """

    def __init__(self, session: SandboxSession, ns_pid: int, host_pid: int) -> None:
        self.session = session
        self.ns_pid = ns_pid
        self.host_pid = host_pid
        ccmd_w, creply_r = session._child_fds
        self.endpoint = _Endpoint(
            ccmd_w, creply_r, session.meter.for_child(), session._child_cmd_fd, pid=host_pid
        )
        if session.track_memory:
            # in a memory cgroup of its own before it runs any solution code (it has not yet
            # answered its hello), so that what the kernel holds for it is counted too
            self.endpoint.memory = MemoryProbe(host_pid, memory_cgroup.attach(host_pid))
        self.output = CapturedOutput(session.config.limits.output_bytes)
        self.finished = False
        self.killed = False
        self.end: ChildEnd | None = None

    def request(
        self,
        op: str,
        *,
        cpu_limit_s: float | None = None,
        wall_limit_s: float | None = None,
        sample_interval_s: float | None = None,
        **fields: Any,
    ) -> Exchange:
        if self.finished:
            raise SandboxError("the child has ended")
        try:
            return self.session._exchange(
                self.endpoint,
                op,
                cpu_limit_s,
                wall_limit_s,
                fields,
                sample_interval_s=sample_interval_s,
            )
        except SandboxError:
            self.killed = True  # a limit, a protocol violation or a crash: no polite exit
            raise

    def finish(self) -> ChildEnd:
        """End the child (politely when it still answers) and have the zygote reap it."""
        if self.end is not None:
            return self.end
        session = self.session
        if not self.killed and _alive(self.host_pid):
            try:
                session._exchange(self.endpoint, "exit", None, 5.0, {})
            except SandboxError:
                self.killed = True
        deadline = time.monotonic() + 1.0
        while not self.killed and _alive(self.host_pid) and time.monotonic() < deadline:
            time.sleep(0.0005)
        if _alive(self.host_pid):
            with contextlib.suppress(OSError):
                os.kill(self.host_pid, signal.SIGKILL)
        self.finished = True
        session.capture = session.output
        self.endpoint.meter.close()
        try:
            ex = session.request("reap", wall_limit_s=30.0)
        finally:
            if self.endpoint.memory is not None:
                self.endpoint.memory.close()  # its cgroup goes once the child is reaped
        reply = ex.reply
        self.end = ChildEnd(
            exit_code=reply.get("exit_code"),
            cpu_seconds=float(reply.get("cpu_seconds") or 0.0),
            maxrss_kb=int(reply.get("maxrss_kb") or 0),
            killed=self.killed,
        )
        session._drain_child_channel()
        return self.end
