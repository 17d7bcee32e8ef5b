"""What the stages that write test inputs share about a task: what a synthesizer sees of it
(generators, sas, candidates' LLM sampler), the order of its solutions (the first is the
reference) and how a solution's code is stored (a stage never imports another stage: its key
would cover the other's files)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from quicksilver.pipeline.records import Solution, Task
from quicksilver.sources.functions import constraints_html
from quicksilver.sources.text import constraint_lines
from quicksilver.synth import SynthInput


def normalise_code(code: str) -> str:
    """Line endings to LF, trailing spaces off each line, common indent and blank edges removed."""
    lines = [ln.rstrip() for ln in code.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return textwrap.dedent("\n".join(lines)).strip("\n") + "\n"


def ordered(solutions: list[Solution]) -> list[Solution]:
    """A task's solutions in a stable order: snapshot solutions by position, then model ones."""
    return sorted(solutions, key=lambda s: (s.source == "llm", s.position))


def synth_input(task: Task, solutions: Sequence[Solution]) -> SynthInput:
    """What a synthesizer sees of a task (the first solution is its reference). A task whose
    statement has no Constraints section but whose example calls gave bounds (function-style:
    ``Task.constraints``) is seen with those bounds as its Constraints section."""
    q = task.question
    content = q.get("content") or ""
    if task.constraints and constraint_lines(content) is None:
        # a function-style task: the bounds its example calls state (load stage)
        content += constraints_html(task.constraints)
    return SynthInput(
        slug=task.slug,
        title=q.get("title") or task.slug,
        content_html=content,
        meta=task.meta,
        prompt=task.prompt,
        examples=tuple(tuple(e) for e in task.examples),
        reference_code=solutions[0].code if solutions else None,
        kind=task.kind,
    )
