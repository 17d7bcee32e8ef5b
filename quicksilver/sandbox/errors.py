"""What is raised when a sandboxed process does not answer as it should."""

from __future__ import annotations

from quicksilver.faults import InfrastructureFault


class SandboxError(RuntimeError):
    """Base class for a sandboxed process that did not answer as it should."""


class LimitExceeded(SandboxError):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "cpu", "wall" or "memory"


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


class MeterTampering(SandboxError):
    """The meter's readings of a process went backwards: a count or a clock that only grows
    was found lower than before (between commands, within a command's sampled trace, or across
    a command). Nothing honest does that; the process is killed and the verdict is
    ``meter-tampering`` (docs/sandbox.md, "The instruction counter")."""


class ShuttingDown(SandboxError):
    """The process is stopping (SIGTERM / SIGINT): no new sandbox starts, running ones die."""


class SandboxStartError(InfrastructureFault):
    """The sandbox could not be started: bubblewrap's setup failed, or the harness (a zygote)
    died or did not answer before its first reply. Nothing of the code ran, so this is no verdict
    on it: an infrastructure fault, retried by the Prefect layer (quicksilver/faults.py). Not a
    :class:`SandboxError`, so that no handler of a solution's failures takes it for one."""
