"""Infrastructure faults: what failed around a piece of work, never the work's own verdict.

A solution that times out, answers wrong or crashes has a *verdict*: it is recorded once and never
retried. A sandbox that could not be started (bubblewrap's setup failed, the harness or zygote
died before its first reply) says nothing about the code that would have run in it: that is an
:class:`InfrastructureFault`, and the Prefect layer runs the stage or shard again
(``retries:`` in a build config; quicksilver/orchestration/retries.py). The core only raises these;
it never retries.

LLM and LeetCode endpoints answering 429 or 5xx are infrastructure faults too, retried where the
request is made (quicksilver/llm.py through the openai client, the LeetCode client's own loop).

So is an interpreter fault that says nothing about the work: CPython 3.11's ``ast.parse`` race
between threads (``SystemError: AST constructor recursion depth mismatch``;
quicksilver/astparse.py serialises the project's own parses, and this catches the rest).
"""

from __future__ import annotations

AST_RACE = "AST constructor recursion depth mismatch"
"""The text of CPython 3.11's ``SystemError`` when threads parse at once."""


class InfrastructureFault(RuntimeError):
    """Something the work needs failed (not the work itself): running it again may succeed."""


def infrastructure_fault(exc: BaseException | None) -> InfrastructureFault | None:
    """The :class:`InfrastructureFault` that ``exc`` is or was raised from (its ``__cause__`` /
    ``__context__`` chain, a few links deep), or one standing for the interpreter's ``ast.parse``
    race met there (:data:`AST_RACE`), else None."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, InfrastructureFault):
            return exc
        if isinstance(exc, SystemError) and AST_RACE in str(exc):
            return InfrastructureFault(f"the interpreter's ast.parse thread race: {exc}")
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None
