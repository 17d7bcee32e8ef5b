"""Reading an LLM's answer in DPE's two LLM paths (SaS generators and candidate solutions): the
Python blocks it holds, whether they parse, the form two answers are compared in, the variables
their prompt templates see, and the cache format their answers share.

It lives apart from both so that neither path's prompt template is in the other's stage key
(quicksilver/pipeline/keys.py: a key covers what a stage's logic imports).
"""

from __future__ import annotations

import io
import re
import textwrap
import tokenize
from dataclasses import dataclass
from typing import Any

from quicksilver import astparse
from quicksilver.synth import SynthInput, statement_variables

CACHE_FORMAT = "quicksilver-dpe-answer/1"

_FENCE = re.compile(
    r"^[ \t]*```[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n(?P<body>.*?)(?P<close>^[ \t]*```[ \t]*$|\Z)",
    re.S | re.M,
)
FENCE_LINE = re.compile(r"^[ \t]*```", re.M)  # an odd count: the answer ends inside a block
_PY_LANGS = {"", "python", "python3", "py", "py3"}


@dataclass
class FencedBlock:
    code: str  # dedented, ending in one newline
    closed: bool  # False: the answer ended inside it


def fenced_blocks(answer: str) -> list[FencedBlock]:
    """The non-empty Python code blocks of an answer (```python, ```python3, ```py, ```py3 or
    unlabeled), in order; other languages are skipped."""
    out = []
    for m in _FENCE.finditer(answer):
        if m.group("lang").lower() not in _PY_LANGS or not m.group("body").strip():
            continue
        body = textwrap.dedent(m.group("body")).strip("\n") + "\n"
        out.append(FencedBlock(body, bool(m.group("close"))))
    return out


def parse_error(code: str) -> str | None:
    """Why ``code`` does not parse (``syntax error at line N: ...``), or None."""
    try:
        astparse.parse(code)
    except SyntaxError as exc:
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    except ValueError as exc:  # null bytes
        return f"the code cannot be parsed: {exc}"
    return None


def normalise_for_dedup(code: str) -> str:
    """``code`` without comments, blank lines and trailing whitespace (docstrings kept): two
    generators that differ only there are the same generator.

    Comments are found with :mod:`tokenize` (so a ``#`` inside a string stays); code that does not
    tokenize falls back to dropping lines that start with ``#``.
    """
    lines = io.StringIO(code.replace("\r\n", "\n")).readlines()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("".join(lines)).readline))
    except (tokenize.TokenError, SyntaxError):
        tokens = None
    if tokens is None:
        kept = [ln for ln in lines if not ln.lstrip().startswith("#")]
    else:
        kept = list(lines)
        for tok in reversed(tokens):  # right to left: earlier columns stay valid
            if tok.type == tokenize.COMMENT and tok.start[0] == tok.end[0]:
                row = tok.start[0] - 1
                if row < len(kept):
                    line = kept[row]
                    kept[row] = line[: tok.start[1]] + line[tok.end[1] :]
    return "\n".join(ln.rstrip() for ln in kept if ln.strip())


def task_variables(inp: SynthInput) -> dict[str, Any]:
    """What the DPE templates see of a task (documented in docs/sas.md)."""
    return {**statement_variables(inp), "kind": inp.kind}
