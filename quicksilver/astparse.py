"""``ast.parse`` that the build's threads may call at once.

CPython 3.11 builds the Python objects of a parsed tree with a recursion counter kept in the
interpreter's ``ast`` state, which every thread shares. When a thread switch happens while one
thread builds its tree (the garbage collector runs Python code, a finalizer or a gc callback,
between two allocations), another thread's parse moves the same counter, and one of them fails on
code that parses fine: ``SystemError: AST constructor recursion depth mismatch (before=18,
after=-1)``, or a ``RecursionError`` raised at a depth nobody reached. The stages of a build run
per shard in threads, and a shard died of it once.

So every parse of the project goes through :func:`parse`, which holds one lock: no two of ours
overlap. A parse in code we do not own (a library's, or a module that still calls ``ast.parse``)
can still overlap one of ours, so :func:`parse` parses again when it meets the mismatch (the error
says nothing about the code, and the counter is set afresh at the start of every parse); what
still fails is an :class:`~quicksilver.faults.InfrastructureFault`, which fails the stage run and
Prefect runs it again (quicksilver/orchestration/retries.py), as
:func:`~quicksilver.faults.infrastructure_fault`
treats the bare ``SystemError`` from such other code. ``tests/test_astparse.py`` provokes the
race: on 3.11 bare ``ast.parse`` fails within a few hundred parses in four threads, ours never;
3.12.1 and 3.13.0 did not fail here, and the lock costs them one uncontended acquire.
"""

from __future__ import annotations

import ast
import logging
import threading
from typing import Literal, overload

from quicksilver.faults import AST_RACE, InfrastructureFault

log = logging.getLogger(__name__)

ATTEMPTS = 3
"""Parses of one source before a mismatch is an infrastructure fault."""

_LOCK = threading.RLock()  # reentrant: a finalizer that parses during our parse, same thread


@overload
def parse(
    source: str | bytes, filename: str = ..., mode: Literal["exec"] = "exec"
) -> ast.Module: ...
@overload
def parse(source: str | bytes, filename: str, mode: Literal["eval"]) -> ast.Expression: ...
@overload
def parse(source: str | bytes, filename: str = ..., *, mode: Literal["eval"]) -> ast.Expression: ...


def parse(source: str | bytes, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """``ast.parse(source, filename, mode)``, serialised with every other call of it (module
    docstring). Raises what ``ast.parse`` raises for the code (``SyntaxError``, ``ValueError``),
    and :class:`InfrastructureFault` when another thread's parse kept spoiling this one."""
    attempt = 1
    while True:
        with _LOCK:
            try:
                return ast.parse(source, filename=filename, mode=mode)
            except SystemError as exc:
                if AST_RACE not in str(exc):
                    raise
                if attempt >= ATTEMPTS:
                    raise InfrastructureFault(
                        f"ast.parse of {filename} failed {attempt} times on the interpreter's "
                        f"thread race (CPython 3.11): {exc}"
                    ) from exc
                log.warning("%s: %s (another thread parsed at once); again", filename, exc)
        attempt += 1
