"""Test-generator synthesis: two honest paths behind one interface.

Both produce ``generator_code``: a self-contained Python source defining ``generate_test_case()``
that returns one test input (the argument list of the task's method). The caller seeds Python's
``random`` module before each call (see :func:`quicksilver.execute.run_generator`), so a generator
only uses ``random`` and never seeds it itself.

- :mod:`quicksilver.synth.offline`: a synthesizer built from the question's metaData types and the
  statement's Constraints section. What it cannot satisfy it reports; the task is then marked as
  needing an LLM generator.
- :mod:`quicksilver.synth.llm`: an LLM through the openai client against any OpenAI-compatible
  endpoint, prompts in ``quicksilver/prompts/``, answers cached on disk, unusable answers rejected
  with a reason and retried within a budget.

Each result records which path wrote the generator and, for the LLM path, the model.
"""

from __future__ import annotations

import ast
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

SynthPath = Literal["offline", "llm"]

OFFLINE_SYNTHESIZER = "quicksilver-offline-synth/1"  # recorded as the "model" of offline rows


@dataclass(frozen=True)
class SynthInput:
    """What a synthesizer may know about a task."""

    slug: str
    title: str
    content_html: str  # the statement as LeetCode's HTML (Constraints section included)
    meta: dict[str, Any]  # metaData parsed: {"name", "params": [{"name","type"}], "return": {...}}
    prompt: str  # the Python 3 starter code (class Solution ...)
    examples: tuple[tuple[Any, ...], ...] = ()  # the statement's example inputs (argument lists)
    reference_code: str | None = None  # one accepted solution, for the LLM prompt
    kind: str = "class"  # class: a ``class Solution`` method; function: a plain function

    @property
    def param_names(self) -> list[str]:
        return [str(p["name"]) for p in self.meta.get("params", [])]

    @property
    def param_types(self) -> list[str]:
        return [str(p["type"]) for p in self.meta.get("params", [])]


@dataclass
class GeneratorResult:
    """A synthesizer's answer for one task."""

    slug: str
    path: SynthPath
    model: str  # the LLM's model name, or OFFLINE_SYNTHESIZER
    generator_code: str | None = None  # None: no usable generator (see reason)
    reason: str | None = None  # why there is no generator (a stated, specific reason)
    needs_llm: bool = False  # offline path only: constraints it cannot satisfy
    notes: list[str] = field(default_factory=list)  # what was understood, caps applied, ...
    attempts: list[dict[str, Any]] = field(default_factory=list)  # LLM answers and verdicts

    @property
    def ok(self) -> bool:
        return self.generator_code is not None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def is_seed_call(func: ast.expr, seeders: set[str]) -> bool:
    """Whether a call's ``func`` seeds ``random`` (``random.seed`` or a name ``seed`` was imported
    as, in ``seeders``): generators must not seed, their caller does."""
    if isinstance(func, ast.Name):
        return func.id in seeders
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "seed"
        and isinstance(func.value, ast.Name)
        and func.value.id == "random"
    )


def statement_variables(inp: SynthInput) -> dict[str, Any]:
    """What every LLM prompt template sees of a task (quicksilver/prompts/README.md): the
    statement, its constraints, the starter code, the parameters and the examples. Each path adds
    its own (Mercury's generator: the reference code and the size cap; DPE's: the task's kind)."""
    from quicksilver.sources.text import constraint_lines, html_to_text
    from quicksilver.synth.shapes import describe_type

    return {
        "slug": inp.slug,
        "title": inp.title,
        "statement": html_to_text(inp.content_html),
        "constraints": constraint_lines(inp.content_html) or [],
        "starter_code": inp.prompt,
        "method": str(inp.meta.get("name") or ""),
        "params": [
            {"name": n, "type": t, "shape": describe_type(t)}
            for n, t in zip(inp.param_names, inp.param_types, strict=True)
        ],
        "examples": [json.dumps(list(ex), ensure_ascii=False, default=repr) for ex in inp.examples],
    }
