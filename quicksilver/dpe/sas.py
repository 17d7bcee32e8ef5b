"""Synthesizing a Synthesizer (SaS, the DPE / EvalPerf paper): ``perf_input_gen(scale)`` per task.

A DPE task needs one *performance-exercising* input. SaS does not ask a model for that input (it
can be megabytes); it asks for a scale-controllable generator, ``perf_input_gen(scale: int)``,
which returns the argument tuple of the task's method and grows monotonically with ``scale``. The
sampling stage (:mod:`quicksilver.dpe.sampling`) runs each generator in the sandbox at scale 2,
4, 8, ... and keeps the largest input the reference solutions still handle. This module only
writes and statically checks generators; it never runs them.

Two paths, each recorded on every generator (``path`` and ``model``):

- LLM (:class:`SaSSynthesizer`): the paper's few-shot chain-of-thought prompt
  (``quicksilver/prompts/sas.j2``: a preamble, a worked example that stops at "Is this task O(1)
  solvable? Yes", a worked example whose five-point analysis ends in a ``perf_input_gen``, then the
  target task with its ground-truth solution and the response pre-filled up to the analysis). ``n``
  answers (the paper's 16) are sampled at temperature 0.8 from any OpenAI-compatible endpoint,
  cached on disk, parsed (:func:`parse_sas_answer`) and deduplicated ignoring comments and blank
  lines (:func:`normalise_for_dedup`); every dropped answer is recorded with a category and a
  sentence.
- offline (:func:`offline_sas`): no endpoint; the constraint-driven synthesizer writes one
  generator whose sizes are ``min(stated max, scale)``
  (:func:`quicksilver.synth.offline.synthesize_offline_perf`), or reports (``needs_llm``) the
  constraints it cannot satisfy.

The endpoint is asked through :class:`quicksilver.llm.ChatClient` (n answers to one conversation,
over as many requests as the endpoint needs, cached by request), the client every LLM path of the
builds shares. See docs/sas.md.
"""

from __future__ import annotations

import ast
import logging
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from quicksilver import astparse
from quicksilver.config import NOT_CONFIGURED, SaSSection
from quicksilver.dpe.llm_answers import (
    CACHE_FORMAT,
    FENCE_LINE,
    fenced_blocks,
    normalise_for_dedup,
    parse_error,
    task_variables,
)
from quicksilver.llm import ChatClient, Sampled, plural
from quicksilver.prompts import prompt_environment, prompts_folder, render_messages
from quicksilver.synth import SynthInput, is_seed_call
from quicksilver.synth.offline import (  # OFFLINE_PERF_SYNTHESIZER: re-exported here
    OFFLINE_PERF_SYNTHESIZER,
    synthesize_offline_perf,
)

log = logging.getLogger(__name__)

# the template this module renders: part of the keys of the stages that import it (pipeline/keys.py)
DATA_FILES = ("../prompts/sas.j2",)

SAS_ENTRY = "perf_input_gen"


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass
class PerfGenerator:
    """One usable generator: ``code`` defines ``perf_input_gen(scale)``.

    ``index`` numbers the task's generators from 0 (the order to try them in); ``answer_index``
    is the LLM answer it came from (None for the offline path).
    """

    slug: str
    index: int
    path: Literal["offline", "llm"]
    model: str  # the LLM's model name, or OFFLINE_PERF_SYNTHESIZER
    code: str
    notes: list[str] = field(default_factory=list)
    answer_index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SaSResult:
    """The generators of one task, every answer that was dropped, and why there are none."""

    slug: str
    generators: list[PerfGenerator] = field(default_factory=list)
    # {"answer": i, "reason": category, "detail": a sentence naming the task}
    rejected: list[dict[str, Any]] = field(default_factory=list)
    reason: str | None = None  # why there is no generator at all
    needs_llm: bool = False  # offline path: constraints the offline synthesizer cannot satisfy

    @property
    def ok(self) -> bool:
        return bool(self.generators)

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "generators": [g.to_dict() for g in self.generators],
            "rejected": [dict(r) for r in self.rejected],
            "reason": self.reason,
            "needs_llm": self.needs_llm,
        }


# --------------------------------------------------------------------------------------------
# Answers: finding the generator in an LLM's text
# --------------------------------------------------------------------------------------------

_DEFINES = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+{SAS_ENTRY}[ \t]*\(", re.M)
_CODE_START = re.compile(r"^(import\s|from\s+\S+\s+import\s|def\s|class\s|@|async\s+def\s)")
_O1_YES = re.compile(r"O\(1\)[- ]solvable\W{0,6}\s*(?:[*_`\"']+\s*)?yes\b", re.I)
_O1_ANY = re.compile(r"O\(1\)[- ]solvable", re.I)


def _raw_code(answer: str) -> str | None:
    """Code written without fences: from its first line of code; trailing prose dropped while
    that makes it parse."""
    lines = answer.strip("\n").splitlines()
    start = next((i for i, ln in enumerate(lines) if _CODE_START.match(ln)), None)
    if start is None:
        return None
    for end in range(len(lines), start, -1):
        code = "\n".join(lines[start:end]).rstrip() + "\n"
        if _DEFINES.search(code) and parse_error(code) is None:
            return code
    return "\n".join(lines[start:]).rstrip() + "\n"


def _signature_problem(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """Whether ``perf_input_gen(scale)`` can be called with exactly one positional argument."""
    if isinstance(fn, ast.AsyncFunctionDef):
        return f"{SAS_ENTRY} is async; it must be a plain function of scale"
    a = fn.args
    positional = a.posonlyargs + a.args
    required = [x.arg for x in positional[: len(positional) - len(a.defaults)]]
    required_kw = [x.arg for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is None]
    if not positional and a.vararg is None:
        return f"{SAS_ENTRY}() takes no parameter; it must take one, scale"
    if len(required) > 1:
        return (
            f"{SAS_ENTRY} has {len(required)} required parameters ({', '.join(required)}); "
            "it must take one, scale"
        )
    if required_kw:
        return (
            f"{SAS_ENTRY} has required keyword-only parameters ({', '.join(required_kw)}); "
            "it must take one, scale"
        )
    return None


def _random_problem(tree: ast.AST) -> tuple[str, str] | None:
    """(category, detail) when the code seeds random, builds its own generator, or imports
    something outside the standard library."""
    seeders = set()
    own_rng = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            for al in node.names:
                if al.name == "seed":
                    seeders.add(al.asname or al.name)
                if al.name in ("Random", "SystemRandom"):
                    own_rng.add(al.asname or al.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.level:
                return "non-stdlib-import", "uses a relative import; it must be self-contained"
            mods = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if isinstance(node, ast.Import):
                mods = [al.name for al in node.names]
            for mod in mods:
                top = mod.split(".")[0]
                if top not in sys.stdlib_module_names:
                    return (
                        "non-stdlib-import",
                        f"imports {top}, which is not in the Python standard library",
                    )
        if not isinstance(node, ast.Call):
            continue
        if is_seed_call(node.func, seeders):
            return "seeds-random", "calls random.seed; the caller seeds random before each call"
        f = node.func
        named = isinstance(f, ast.Name) and f.id in own_rng
        attr = (
            isinstance(f, ast.Attribute)
            and f.attr in ("Random", "SystemRandom")
            and isinstance(f.value, ast.Name)
            and f.value.id == "random"
        )
        if named or attr:
            return (
                "seeds-random",
                "creates its own random.Random; it must draw from the module-level random "
                "functions, which the caller seeds",
            )
    return None


def _check_code(code: str) -> tuple[str | None, str, str]:
    problem = parse_error(code)
    if problem is not None:
        return None, "syntax-error", problem
    tree = astparse.parse(code)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    entry = next((d for d in reversed(defs) if d.name == SAS_ENTRY), None)
    if entry is None:
        found = ", ".join(d.name for d in defs)
        return (
            None,
            "no-perf_input_gen",
            f"no top-level function {SAS_ENTRY}(scale)" + (f" (found: {found})" if found else ""),
        )
    problem = _signature_problem(entry)
    if problem is not None:
        return None, "wrong-signature", problem
    bad = _random_problem(tree)
    if bad is not None:
        return None, bad[0], bad[1]
    return code, "ok", f"defines {SAS_ENTRY}(scale)"


def parse_sas_answer(answer: str | None) -> tuple[str | None, str, str]:
    """The generator code in one LLM answer: ``(code, "ok", detail)`` or ``(None, category,
    detail)``.

    Fenced Python blocks (```python, ```python3, ```py or unlabeled) are preferred: among those
    that define ``perf_input_gen`` and are closed, the last one that parses (a model that revises
    its code writes the final version last). Without fences the answer is read as code from its
    first line of code. The code must parse, define a top-level ``perf_input_gen`` callable with
    one argument, not seed random (or build its own ``random.Random``) and import only the
    standard library.

    Categories: ``empty-answer``, ``o1-solvable`` (no code; the analysis says "Is this task O(1)
    solvable? Yes", as the prompt's first example teaches), ``no-code``, ``truncated`` (the
    answer ends inside a code block), ``syntax-error``, ``no-perf_input_gen``,
    ``wrong-signature``, ``seeds-random``, ``non-stdlib-import``.
    """
    if answer is None or not answer.strip():
        return None, "empty-answer", "the answer is empty"
    blocks = fenced_blocks(answer)
    unclosed = len(FENCE_LINE.findall(answer)) % 2 == 1
    if blocks:
        defining = [b for b in blocks if _DEFINES.search(b.code)]
        closed = [b for b in defining if b.closed]
        if (defining and not closed) or (not defining and unclosed):
            return (
                None,
                "truncated",
                "the answer ends inside a code block (cut off, e.g. by max_tokens)",
            )
        if not defining:
            if _O1_YES.search(answer):
                return None, "o1-solvable", "the analysis says the task is O(1) solvable"
            _, category, detail = _check_code(blocks[-1].code)
            if category == "ok":  # a def the pattern missed (e.g. on a line with other code)
                category, detail = "no-perf_input_gen", f"no clear def {SAS_ENTRY}(scale) line"
            return None, category, detail
        parsing = [b for b in closed if parse_error(b.code) is None]
        return _check_code((parsing or closed)[-1].code)
    if unclosed:  # a lone opening fence at the very end
        return None, "truncated", "the answer ends with an opening code fence (cut off)"
    code = _raw_code(answer)
    if code is None or not _DEFINES.search(code):
        if _O1_YES.search(answer):
            return None, "o1-solvable", "the analysis says the task is O(1) solvable (no code)"
        if _O1_ANY.search(answer):
            return None, "no-code", "the analysis ends without a Python code block"
        return None, "no-code", "no Python code in the answer"
    return _check_code(code)


# --------------------------------------------------------------------------------------------
# The offline path
# --------------------------------------------------------------------------------------------


def offline_sas(inp: SynthInput) -> SaSResult:
    """SaS without an LLM: one generator from the constraint-driven synthesizer, or needs_llm
    with the synthesizer's reason."""
    res = synthesize_offline_perf(inp)
    out = SaSResult(slug=inp.slug)
    if res.generator_code is None:
        out.needs_llm = res.needs_llm
        out.reason = res.reason or f"{inp.slug}: the offline perf synthesizer wrote no generator"
        return out
    out.generators.append(
        PerfGenerator(
            slug=inp.slug,
            index=0,
            path="offline",
            model=OFFLINE_PERF_SYNTHESIZER,
            code=res.generator_code,
            notes=list(res.notes),
            answer_index=None,
        )
    )
    return out


# --------------------------------------------------------------------------------------------
# The LLM path
# --------------------------------------------------------------------------------------------


class SaSSynthesizer:
    """``perf_input_gen`` generators from an OpenAI-compatible endpoint (see the module doc)."""

    def __init__(self, config: SaSSection, *, prompts_dir: Path | None = None) -> None:
        self.config = config
        self.client = ChatClient(config.llm, Path(config.cache_dir), cache_format=CACHE_FORMAT)
        self.prompts_dir = prompts_folder(prompts_dir or config.llm.prompts_dir)
        self._env = prompt_environment(self.prompts_dir)
        if self.client.configured:  # a missing template is a setup error: say so at once
            self._env.get_template(config.prompt_template)

    @property
    def model(self) -> str:
        return self.client.model

    def messages(self, inp: SynthInput, reference_code: str) -> list[dict[str, str]]:
        """The system message and the user message (few-shot examples, the target task, and the
        response pre-filled up to its analysis)."""
        variables = {**task_variables(inp), "reference_code": reference_code}
        return render_messages(self._env, self.config.prompt_template, variables)

    def synthesize(self, inp: SynthInput, reference_code: str, *, seed: int = 0) -> SaSResult:
        """Up to ``n`` distinct, statically valid generators for ``inp``; every dropped answer is
        in ``rejected``. Never raises on endpoint or answer trouble."""
        cfg = self.config
        res = SaSResult(slug=inp.slug)
        if not self.client.configured:
            res.reason = NOT_CONFIGURED
            return res
        if not reference_code or not reference_code.strip():
            res.reason = f"{inp.slug}: no ground-truth solution to put in the SaS prompt"
            return res
        messages = self.messages(inp, reference_code)
        sampled = self.client.sample(
            messages,
            n=cfg.n,
            temperature=cfg.temperature,
            max_tokens=cfg.max_tokens,
            seed=seed,
            kind="sas",
        )
        seen: dict[str, int] = {}  # normalised code -> answer index that first had it
        for i, answer in enumerate(sampled.answers):
            code, category, detail = parse_sas_answer(answer.content)
            if code is None and answer.finish_reason == "length" and category != "empty-answer":
                category = "truncated"
                detail = f"stopped at max_tokens={cfg.max_tokens} ({detail})"
            if code is not None:
                norm = normalise_for_dedup(code)
                if norm in seen:
                    code, category = None, "duplicate"
                    detail = f"the same generator as answer {seen[norm]} (comments aside)"
                else:
                    seen[norm] = i
            if code is None:
                res.rejected.append(
                    {
                        "answer": i,
                        "reason": category,
                        "detail": f"{inp.slug}: answer {i}: {detail}",
                    }
                )
                continue
            notes = [
                f"answer {i} of {cfg.n} (temperature {cfg.temperature:g}, {cfg.prompt_template})"
            ]
            if answer.cached:
                notes.append("replayed from the answer cache")
            res.generators.append(
                PerfGenerator(
                    slug=inp.slug,
                    index=len(res.generators),
                    path="llm",
                    model=self.model,
                    code=code,
                    notes=notes,
                    answer_index=i,
                )
            )
        if sampled.error is not None:
            got = len(sampled.answers)
            res.rejected.append(
                {
                    "answer": got,
                    "reason": "endpoint-error",
                    "detail": (
                        f"{inp.slug}: answers {got}..{cfg.n - 1} were not received: "
                        f"the LLM endpoint failed: {sampled.error}"
                    ),
                }
            )
        elif len(sampled.answers) < cfg.n:  # the endpoint kept answering fewer than asked
            log.warning("%s: %d of %d answers received", inp.slug, len(sampled.answers), cfg.n)
        if not res.generators:
            res.reason = self._no_generator_reason(inp.slug, sampled, res.rejected)
            log.warning("%s", res.reason)
        else:
            log.info(
                "%s: %s from %s (%d rejected)",
                inp.slug,
                plural(len(res.generators), "generator"),
                plural(len(sampled.answers), "answer"),
                len(res.rejected),
            )
        return res

    @staticmethod
    def _no_generator_reason(slug: str, sampled: Sampled, rejected: list[dict[str, Any]]) -> str:
        if not sampled.answers and sampled.error is not None:
            return f"{slug}: the LLM endpoint failed: {sampled.error}"
        counts = Counter(r["reason"] for r in rejected if r["reason"] != "endpoint-error")
        listing = ", ".join(f"{k} {c}" for c, k in sorted(counts.items(), key=lambda x: -x[1]))
        text = f"{slug}: no usable {SAS_ENTRY} in {plural(len(sampled.answers), 'answer')}"
        text += f" ({listing})" if listing else ""
        if sampled.error is not None:
            text += f"; then the LLM endpoint failed: {sampled.error}"
        return text
