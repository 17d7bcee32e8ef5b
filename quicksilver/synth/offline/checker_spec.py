"""The spec an emitted offline generator carries, read back from its code (a part of the
checker, :mod:`.checker`, in a module of its own: it imports nothing from the runtime)."""

from __future__ import annotations

import ast
from typing import Any

from quicksilver import astparse


def spec_from_generator(code: str) -> dict[str, Any] | None:
    """The ``SPEC = {...}`` literal of an emitted offline generator; None when the code has no
    module-level ``SPEC`` dict literal (or does not parse)."""
    try:
        module = astparse.parse(code)
    except SyntaxError:
        return None
    found: dict[str, Any] | None = None
    for node in module.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id == "SPEC" for t in targets):
            continue
        try:
            literal = ast.literal_eval(value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            literal = None
        # the last assignment is the one the module keeps
        found = literal if isinstance(literal, dict) else None
    return found
