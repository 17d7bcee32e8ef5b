"""Candidate solutions sampled from an LLM, for DPE (the paper samples many per task).

DPE clusters the *correct* solutions of a task by cost, so it needs many of them, of different
speeds. When an OpenAI-compatible endpoint is configured, :class:`LLMCandidates` renders
``quicksilver/prompts/dpe_solution.j2`` (the statement, constraints, starter code and example
arguments; no reference solution, so the answers are the model's own), samples ``n`` answers at
temperature 0.8 through :class:`quicksilver.llm.ChatClient` (cached on disk, several requests
when the server returns fewer choices than asked) and extracts from each a complete ``class
Solution`` defining the task's method. Answers without code, that do not parse, without that class
and method, or that repeat an earlier answer (comments and blank lines aside) are rejected with a
reason.

Correctness is not judged here: the pipeline runs every candidate on the task's tests later.
"""

from __future__ import annotations

import ast
import logging
import re
from pathlib import Path
from typing import Any

from quicksilver import astparse
from quicksilver.config import NOT_CONFIGURED, CandidatesSection
from quicksilver.dpe.llm_answers import (
    CACHE_FORMAT,
    FENCE_LINE,
    fenced_blocks,
    normalise_for_dedup,
    parse_error,
    task_variables,
)
from quicksilver.llm import ChatClient
from quicksilver.prompts import prompt_environment, prompts_folder, render_messages
from quicksilver.synth import SynthInput

log = logging.getLogger(__name__)

# the template this module renders: part of the keys of the stages that import it (pipeline/keys.py)
DATA_FILES = ("../prompts/dpe_solution.j2",)

_CLASS = re.compile(r"^[ \t]*class[ \t]+Solution\b", re.M)
_CODE_START = re.compile(r"^(import\s|from\s+\S+\s+import\s|def\s|class\s|@)")


def _defines_method(tree: ast.Module, method: str, kind: str = "class") -> bool:
    """``class Solution`` with ``method`` (``kind="function"``: a top-level ``def method``)."""
    if kind == "function":
        return any(
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == method
            for node in tree.body
        )
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Solution":
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == method:
                    return True
    return False


def _found(tree: ast.Module) -> str:
    """What the code defines instead (for the rejection's detail)."""
    parts = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            methods = [
                n.name for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            parts.append(f"class {node.name}({', '.join(methods)})")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            parts.append(f"def {node.name}")
    return "; ".join(parts) or "nothing"


def _check(code: str, method: str, kind: str = "class") -> tuple[str | None, str, str]:
    problem = parse_error(code)
    if problem is not None:
        return None, "syntax-error", problem
    tree = astparse.parse(code)
    if not _defines_method(tree, method, kind):
        if kind == "function":
            return None, "no-function", f"no function {method} (found: {_found(tree)})"
        return (
            None,
            "no-solution-class",
            f"no class Solution defining {method} (found: {_found(tree)})",
        )
    if kind == "function":
        return code, "ok", f"defines {method}"
    return code, "ok", f"class Solution defines {method}"


def extract_solution(
    answer: str | None, method: str, kind: str = "class"
) -> tuple[str | None, str, str]:
    """The solution code of one answer: ``(code, "ok", detail)`` or ``(None, category, detail)``.

    Among the closed Python blocks, the last that parses and defines ``class Solution`` with
    ``method`` (else the last with a ``class Solution``, else the last block); without fences, the
    answer from its first line of code. Categories: ``empty-answer``, ``no-code``, ``truncated``,
    ``syntax-error``, ``no-solution-class`` (``kind="function"``: a top-level ``def method``
    is looked for instead, ``no-function``).
    """
    if answer is None or not answer.strip():
        return None, "empty-answer", "the answer is empty"
    blocks = fenced_blocks(answer)
    unclosed = len(FENCE_LINE.findall(answer)) % 2 == 1
    if blocks:
        closed = [b for b in blocks if b.closed]
        if not closed:
            return None, "truncated", "the answer ends inside its code block (cut off)"
        good = [
            b
            for b in closed
            if parse_error(b.code) is None and _defines_method(astparse.parse(b.code), method, kind)
        ]
        if good:
            return _check(good[-1].code, method, kind)
        with_class = [b for b in closed if _CLASS.search(b.code)]
        if unclosed and not with_class:
            return None, "truncated", "the answer ends inside a code block (cut off)"
        return _check((with_class or closed)[-1].code, method, kind)
    if unclosed:
        return None, "truncated", "the answer ends with an opening code fence (cut off)"
    lines = answer.strip("\n").splitlines()
    start = next((i for i, ln in enumerate(lines) if _CODE_START.match(ln)), None)
    if start is None:
        return None, "no-code", "no Python code in the answer"
    for end in range(len(lines), start, -1):
        code = "\n".join(lines[start:end]).rstrip() + "\n"
        if parse_error(code) is None and _defines_method(astparse.parse(code), method, kind):
            return _check(code, method, kind)
    return _check("\n".join(lines[start:]).rstrip() + "\n", method, kind)


class LLMCandidates:
    """Candidate ``class Solution`` answers from an OpenAI-compatible endpoint (module doc)."""

    def __init__(self, config: CandidatesSection, *, prompts_dir: Path | None = None) -> None:
        self.config = config
        self.client = ChatClient(config.llm, Path(config.cache_dir), cache_format=CACHE_FORMAT)
        self.prompts_dir = prompts_folder(prompts_dir or config.llm.prompts_dir)
        self._env = prompt_environment(self.prompts_dir)
        if self.client.configured:  # a missing template is a setup error: say so at once
            self._env.get_template(config.prompt_template)

    @property
    def model(self) -> str:
        return self.client.model

    @property
    def configured(self) -> bool:
        return self.client.configured

    def messages(self, inp: SynthInput) -> list[dict[str, str]]:
        return render_messages(self._env, self.config.prompt_template, task_variables(inp))

    def ask(
        self, inp: SynthInput, *, seed: int = 0
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(solutions, rejected) for ``inp``; never raises on endpoint or answer trouble.

        Each solution: ``{"code", "model", "answer_index", "temperature"}``; each rejection:
        ``{"answer", "reason", "detail"}`` (``not-configured`` and ``endpoint-error`` included,
        so a caller sees why fewer than ``n`` answers were judged).
        """
        cfg = self.config
        method = str(inp.meta.get("name") or "")
        if not self.configured:
            return [], [{"answer": 0, "reason": "not-configured", "detail": NOT_CONFIGURED}]
        if not method:
            detail = f"{inp.slug}: metaData names no method, so no solution can be checked"
            return [], [{"answer": 0, "reason": "no-entry-point", "detail": detail}]
        sampled = self.client.sample(
            self.messages(inp),
            n=cfg.n,
            temperature=cfg.temperature,
            max_tokens=cfg.max_tokens,
            seed=seed,
            kind="dpe-solution",
        )
        solutions: list[dict[str, Any]] = []
        rejected: list[dict[str, Any]] = []
        seen: dict[str, int] = {}
        for i, answer in enumerate(sampled.answers):
            code, category, detail = extract_solution(answer.content, method, inp.kind)
            if code is None and answer.finish_reason == "length" and category != "empty-answer":
                category = "truncated"
                detail = f"stopped at max_tokens={cfg.max_tokens} ({detail})"
            if code is not None:
                norm = normalise_for_dedup(code)
                if norm in seen:
                    code, category = None, "duplicate"
                    detail = f"the same code as answer {seen[norm]} (comments aside)"
                else:
                    seen[norm] = i
            if code is None:
                rejected.append(
                    {"answer": i, "reason": category, "detail": f"{inp.slug}: answer {i}: {detail}"}
                )
                continue
            solutions.append(
                {
                    "code": code,
                    "model": self.model,
                    "answer_index": i,
                    "temperature": cfg.temperature,
                }
            )
        if sampled.error is not None:
            got = len(sampled.answers)
            rejected.append(
                {
                    "answer": got,
                    "reason": "endpoint-error",
                    "detail": (
                        f"{inp.slug}: answers {got}..{cfg.n - 1} were not received: "
                        f"the LLM endpoint failed: {sampled.error}"
                    ),
                }
            )
        log.info(
            "%s: %d candidate solution(s) from %d answer(s), %d rejected",
            inp.slug,
            len(solutions),
            len(sampled.answers),
            len(rejected),
        )
        return solutions, rejected
