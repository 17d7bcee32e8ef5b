"""How a solution's profile ends early: verdicts, and the texts of the failures behind them."""

from __future__ import annotations

import json
import logging
from typing import Any

from quicksilver.profiler.model import Status
from quicksilver.sandbox.runtime import wire
from quicksilver.sandbox.session import (
    ChildGone,
    LimitExceeded,
    MeterTampering,
    OutputLimitExceeded,
    ProtocolViolation,
    SandboxError,
)

log = logging.getLogger("quicksilver.profiler")


class _Verdict(Exception):
    """Internal: ends a solution's profile early with a status."""

    def __init__(self, status: Status, message: str, case: int | None = None) -> None:
        super().__init__(message)
        self.status: Status = status
        self.case = case


def _status_of_reply(reply: dict[str, Any]) -> Status:
    return "memory" if reply.get("kind") == "memory" else "error"


def _status_of_exception(exc: SandboxError) -> tuple[Status, str]:
    if isinstance(exc, LimitExceeded):
        return "timeout", str(exc)
    if isinstance(exc, OutputLimitExceeded):
        return "error", str(exc)  # "output limit: the solution wrote more than N bytes ..."
    if isinstance(exc, ChildGone) and "MemoryError" in str(exc):
        return "memory", str(exc)
    if isinstance(exc, ProtocolViolation):
        return "error", f"protocol violation: {exc}"
    if isinstance(exc, MeterTampering):
        return "error", f"{METER_TAMPERING}: {exc}"
    return "error", str(exc)


METER_TAMPERING = "meter-tampering"
"""How a verdict's error starts when the meter's readings of the solution went backwards (a
count rewound from inside the process): docs/sandbox.md, "The instruction counter"."""


def _unexpected(exc: Exception, task_id: str, what: str) -> str:
    """A verdict's text for an exception nothing expected while profiling one solution: that
    solution gets it (with the traceback in the log), and every other solution its own result."""
    log.error("%s: %s failed unexpectedly", task_id, what, exc_info=exc)
    return f"profiling failed ({what}): {type(exc).__name__}: {exc}"


def _plain_outputs(item: dict[str, Any]) -> dict[str, Any]:
    """A judged item's answer and post-call arguments as plain data (``RunResult.outputs``)."""
    after = item["inputs_after"]
    return {
        "output": wire.to_plain(item["output"]),
        "inputs_after": None if after is None else wire.to_plain(after),
    }


def _wrong_answer(item: dict[str, Any], i: int) -> str:
    got = json.dumps(wire.to_plain(item["output"]))[:200]
    want = json.dumps(wire.to_plain(item["expected"]))[:200]
    msg = f"case {i}: wrong answer: got {got}, expected {want}"
    if item["output"] is None:  # in-place problems are judged on the arguments
        after = json.dumps(wire.to_plain(item["inputs_after"]))[:200]
        msg += f"; arguments after the call: {after}"
    return msg
