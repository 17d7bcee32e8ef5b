"""Test generators written by an LLM, as in the Mercury paper (GPT-4 wrote them from the statement).

For one task, :class:`LLMSynthesizer` renders ``quicksilver/prompts/mercury_generator.j2`` (title,
statement as plain text, constraints, starter code, parameter names and LeetCode types, example
inputs, one reference solution, the size cap), asks any OpenAI-compatible endpoint through the
``openai`` client, extracts the Python code from each answer and validates it:

1. the code parses, defines a top-level ``generate_test_case()`` that takes no arguments, imports
   only the standard library and does not seed ``random`` itself;
2. in the sandbox (:func:`quicksilver.execute.run_generator`), on ``validation_seeds`` seeds: it
   loads, does not raise or time out, and each value is the argument list (one element per
   parameter, each conforming to its LeetCode type, no list or string over the size cap); the
   first seed is run again in a fresh process and must give the same input (reproducibility).

An unusable answer is rejected with a specific reason, which goes back to the model in a follow-up
message of the same conversation, until an answer passes or ``max_attempts`` answers were tried.
Endpoint failures (after the client's own retries) end the task's synthesis with a reason naming
the task; they never raise. Answers are cached on disk by request (see :func:`request_key`), so a
rerun replays them without calling the endpoint, and validation (deterministic) runs again.
"""

from __future__ import annotations

import ast
import hashlib
import logging
import re
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver import astparse
from quicksilver.config import NOT_CONFIGURED, LLMConfig, SandboxConfig
from quicksilver.execute import BatchRun, case_seeds, run_generator
from quicksilver.llm import ChatClient, EndpointFailure, clip, plural
from quicksilver.prompts import prompt_environment, prompts_folder
from quicksilver.sandbox import isolation as iso
from quicksilver.synth import GeneratorResult, SynthInput, is_seed_call, statement_variables
from quicksilver.synth.shapes import conforms, kind_of, supported_type

log = logging.getLogger(__name__)

# the template this module renders: part of the keys of the stages that import it (pipeline/keys.py)
DATA_FILES = ("../prompts/mercury_generator.j2",)

ENTRY = "generate_test_case"
CACHE_FORMAT = "quicksilver-llm-answer/1"


def _longest(value: Any) -> int:
    """The length of the longest list or string anywhere in ``value``."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return max([len(value), *(_longest(v) for v in value)])
    return 0


# --------------------------------------------------------------------------------------------
# Answers: extracting the code and the static checks
# --------------------------------------------------------------------------------------------

_FENCE = re.compile(
    r"^[ \t]*```[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n(?P<body>.*?)(?:^[ \t]*```[ \t]*$|\Z)",
    re.S | re.M,
)
_PY_LANGS = {"", "python", "python3", "py", "py3"}
_DEFINES = re.compile(rf"^\s*def\s+{ENTRY}\s*\(", re.M)
_CODE_START = re.compile(r"^(import\s|from\s+\S+\s+import\s|def\s|class\s|@)")


def _parses(code: str) -> bool:
    try:
        astparse.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def extract_code(answer: str | None) -> str | None:
    """The Python code of an answer: the fenced block defining ``generate_test_case``.

    Fenced blocks (```python, ```py or bare ```; an unterminated last block counts) are preferred:
    the last one that defines ``generate_test_case`` and parses, else the last one that defines
    it, else the first Python block. Without fences, the answer itself from its first line of
    code, trailing prose dropped while that makes it parse. None when there is no code at all.
    """
    if not answer or not answer.strip():
        return None
    blocks = [
        textwrap.dedent(m.group("body")).strip("\n") + "\n"
        for m in _FENCE.finditer(answer)
        if m.group("lang").lower() in _PY_LANGS and m.group("body").strip()
    ]
    if blocks:
        defining = [b for b in blocks if _DEFINES.search(b)]
        if not defining:
            return blocks[0]
        parsing = [b for b in defining if _parses(b)]
        return (parsing or defining)[-1]
    lines = answer.strip("\n").splitlines()
    start = next((i for i, ln in enumerate(lines) if _CODE_START.match(ln)), None)
    if start is None:
        return None
    for end in range(len(lines), start, -1):
        code = "\n".join(lines[start:end]).rstrip() + "\n"
        if _DEFINES.search(code) and _parses(code):
            return code
    return "\n".join(lines[start:]).rstrip() + "\n"


def _static_problem(code: str) -> str | None:
    """What makes ``code`` unusable before running it, or None."""
    try:
        tree = astparse.parse(code)
    except SyntaxError as exc:
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    except ValueError as exc:  # e.g. null bytes
        return f"the code cannot be parsed: {exc}"
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    entry = next((d for d in defs if d.name == ENTRY), None)
    if entry is None:
        found = ", ".join(d.name for d in defs)
        return f"no top-level function {ENTRY}()" + (f" (found: {found})" if found else "")
    if isinstance(entry, ast.AsyncFunctionDef):
        return f"{ENTRY} is async; it must be a plain function"
    a = entry.args
    positional = a.posonlyargs + a.args
    required = [x.arg for x in positional[: len(positional) - len(a.defaults)]]
    required += [x.arg for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is None]
    if required:
        return f"{ENTRY} has required parameters ({', '.join(required)}); it must take none"
    seeders = {
        al.asname or al.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "random"
        for al in node.names
        if al.name == "seed"
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.level:
                return "uses a relative import; the generator must be self-contained"
            if isinstance(node, ast.ImportFrom):
                mods = [node.module or ""]
            else:
                mods = [al.name for al in node.names]
            for mod in mods:
                top = mod.split(".")[0]
                if top not in sys.stdlib_module_names:
                    return f"imports {top}, which is not in the Python standard library"
        if isinstance(node, ast.Call) and is_seed_call(node.func, seeders):
            return "calls random.seed; the caller seeds random before each call, remove it"
    return None


# --------------------------------------------------------------------------------------------
# The cache
# --------------------------------------------------------------------------------------------


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# The synthesizer
# --------------------------------------------------------------------------------------------


class _SandboxFailure(Exception):
    """The sandbox itself failed: no answer can be judged, so none is blamed."""


@dataclass
class _Verdict:
    code: str | None  # the extracted code (None: no code)
    reason: str | None  # None: accepted
    notes: list[str]


_INFRA_LOAD_ERRORS = ("the sandbox did not start", "setup failed")


class LLMSynthesizer:
    """Generators from an OpenAI-compatible endpoint, validated in the sandbox, answers cached.

    ``config`` is resolved against the environment (:meth:`LLMConfig.resolved`); ``size_cap`` is
    the longest list or string a generator may return (given in the prompt and checked).
    """

    def __init__(
        self,
        config: LLMConfig,
        cache_dir: Path,
        *,
        prompts_dir: Path | None = None,
        sandbox: SandboxConfig | None = None,
        size_cap: int = 1000,
    ) -> None:
        if size_cap < 1:
            raise ValueError(f"size_cap must be >= 1, got {size_cap}")
        self.client = ChatClient(config, Path(cache_dir), cache_format=CACHE_FORMAT)
        self.config = self.client.config
        self.cache_dir = Path(cache_dir)
        self.prompts_dir = prompts_folder(prompts_dir or config.prompts_dir)
        self.sandbox = sandbox or SandboxConfig()
        self.size_cap = size_cap
        self._env = prompt_environment(self.prompts_dir)
        self._isolation: iso.Isolation | None = None
        if self.config.configured:  # a missing template is a setup error: say so at once
            self._env.get_template(self.config.prompt_template)

    @property
    def model(self) -> str:
        return self.config.model or ""

    # -- the prompt -------------------------------------------------------------------------

    def prompt_variables(self, inp: SynthInput) -> dict[str, Any]:
        """What the template sees (documented in quicksilver/prompts/README.md)."""
        return {
            **statement_variables(inp),
            "reference_code": inp.reference_code,
            "size_cap": self.size_cap,
        }

    def _module(self, inp: SynthInput) -> Any:
        template = self._env.get_template(self.config.prompt_template)
        return template.make_module(self.prompt_variables(inp))

    def messages(self, inp: SynthInput) -> list[dict[str, str]]:
        """The conversation's opening: the system message and the task."""
        return self._opening(self._module(inp))

    @staticmethod
    def _opening(module: Any) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": str(module.system).strip()},
            {"role": "user", "content": str(module).strip() + "\n"},
        ]

    # -- synthesis --------------------------------------------------------------------------

    def synthesize(self, inp: SynthInput, *, seed: int = 0) -> GeneratorResult:
        """A validated generator for ``inp``, or a result saying why there is none (never raises
        on endpoint or answer trouble)."""
        cfg = self.config
        res = GeneratorResult(slug=inp.slug, path="llm", model=self.model)
        if not cfg.configured:
            res.reason = NOT_CONFIGURED
            return res
        bad = [t for t in inp.param_types if not supported_type(t)]
        if bad:
            res.reason = f"unsupported parameter type(s) for a generator: {', '.join(bad)}"
            return res
        try:
            self._isolation = self._isolation or iso.resolve(self.sandbox)
        except iso.SandboxUnavailable as exc:
            res.reason = f"{inp.slug}: cannot validate generators: {exc}"
            return res
        module = self._module(inp)
        messages = self._opening(module)
        seeds = case_seeds(seed, cfg.validation_seeds)
        tried = 0
        while tried < cfg.max_attempts:
            n = min(cfg.n, cfg.max_attempts - tried)
            try:
                answers, cached = self._ask(messages, n=n, seed=seed, attempt=tried + 1)
            except EndpointFailure as exc:
                res.reason = f"{inp.slug}: the LLM endpoint failed on attempt {tried + 1}: {exc}"
                log.warning("%s", res.reason)
                return res
            rejected: tuple[str, str] | None = None
            for content in answers[:n]:
                tried += 1
                try:
                    verdict = self._validate(content, inp, seeds)
                except _SandboxFailure as exc:
                    res.reason = f"{inp.slug}: the sandbox failed while validating: {exc}"
                    log.warning("%s", res.reason)
                    return res
                res.attempts.append(
                    {
                        "attempt": tried,
                        "cached": cached,
                        "verdict": "ok" if verdict.reason is None else "rejected",
                        "reason": verdict.reason,
                        "answer_sha256": _sha256(content),
                    }
                )
                if verdict.reason is None:
                    log.info("%s: attempt %d accepted%s", inp.slug, tried, " (cached)" * cached)
                    res.generator_code = verdict.code
                    res.notes += [
                        *verdict.notes,
                        f"prompt {cfg.prompt_template}; {plural(tried, 'answer')} tried",
                    ]
                    return res
                log.info("%s: attempt %d rejected: %s", inp.slug, tried, verdict.reason)
                rejected = (content, verdict.reason)
            if rejected is None:  # cannot happen: _ask returns at least one answer
                break
            messages = [
                *messages,
                {"role": "assistant", "content": rejected[0]},
                {"role": "user", "content": str(module.feedback(rejected[1])).strip() + "\n"},
            ]
        listing = "; ".join(f"{a['attempt']}: {a['reason']}" for a in res.attempts)
        res.reason = f"no usable generator in {plural(tried, 'attempt')}: {listing}"
        log.warning("%s: %s", inp.slug, res.reason)
        return res

    # -- the endpoint and the cache -----------------------------------------------------------

    def _ask(
        self, messages: list[dict[str, str]], *, n: int, seed: int, attempt: int
    ) -> tuple[list[str], bool]:
        """The answers to one request (at least one), from the cache or the endpoint."""
        answers = self.client.ask(
            messages, n=n, temperature=self.config.temperature, seed=seed, key={"attempt": attempt}
        )
        return [a.content for a in answers], all(a.cached for a in answers)

    # -- validation ---------------------------------------------------------------------------

    def _run(self, code: str, seeds: Sequence[int]) -> BatchRun:
        return run_generator(
            code,
            seeds=seeds,
            cpu_seconds=self.config.validation_cpu_seconds,
            sandbox=self.sandbox,
            isolation=self._isolation,
        )

    def _validate(self, content: str, inp: SynthInput, seeds: Sequence[int]) -> _Verdict:
        """Accept or reject one answer (see the module docstring for the checks).

        The first seed runs alone, so a generator that hangs costs one CPU limit rather than one
        per seed; the others run next with the first seed again at the end, in a fresh process,
        which must reproduce the first input.
        """
        code = extract_code(content)
        if code is None:
            empty = not content.strip()
            return _Verdict(None, "empty answer" if empty else "no Python code in the answer", [])
        problem = _static_problem(code)
        if problem is not None:
            return _Verdict(code, problem, [])
        first = self._run(code, seeds[:1])
        problem = self._judge(first, seeds[:1], inp)
        if problem is None and len(seeds) > 1:
            rest = self._run(code, [*seeds[1:], seeds[0]])
            problem = self._judge(rest, [*seeds[1:], seeds[0]], inp)
            if problem is None and rest.outcomes[-1].value != first.outcomes[0].value:
                problem = (
                    f"not reproducible: seed {seeds[0]} gave different inputs in two runs (it "
                    "must draw only from the module-level random functions, which the caller "
                    "seeds, not from its own Random(), the clock or set order)"
                )
            values = [o.value for o in rest.outcomes]
        else:
            values = [o.value for o in first.outcomes]
        if problem is not None:
            return _Verdict(code, problem, [])
        cpu = self.config.validation_cpu_seconds
        notes = [f"validated on {plural(len(seeds), 'seed')} (CPU limit {cpu:g} s per call)"]
        if len(seeds) > 1 and all(v == values[0] for v in values):
            notes.append(f"the generator returned the same input for all {len(seeds)} seeds")
        return _Verdict(code, None, notes)

    def _judge(self, batch: BatchRun, seeds: Sequence[int], inp: SynthInput) -> str | None:
        if batch.load_error is not None:
            err = batch.load_error
            if err.startswith(_INFRA_LOAD_ERRORS):
                raise _SandboxFailure(err)
            err = err.removeprefix("loading the code: ").removeprefix("load: ")
            return f"failed to load: {clip(err)}"
        cpu = self.config.validation_cpu_seconds
        for i, s in enumerate(seeds):
            if i >= len(batch.outcomes):
                return f"gave no result on seed {s}"
            o = batch.outcomes[i]
            err = clip(o.error or "")
            if o.status == "timeout":
                return f"timed out on seed {s} (over {cpu:g} s of CPU)"
            if o.status == "memory":
                return f"ran out of memory on seed {s}"
            if o.status != "ok":
                if err.startswith("output:") or "not plain data" in err:
                    return f"returned a value that is not plain data on seed {s}: {err}"
                if err.startswith("the process died"):
                    return f"crashed its process on seed {s}: {err}"
                return f"raised {err} on seed {s}"
            shape = self._shape_problem(o.value, inp)
            if shape is not None:
                return f"{shape} on seed {s}"
        return None

    def _shape_problem(self, value: Any, inp: SynthInput) -> str | None:
        names, types = inp.param_names, inp.param_types
        k = len(names)
        listing = ", ".join(names)
        if not isinstance(value, list):
            args = plural(k, "argument")
            return f"returned {kind_of(value)}, not the list of {args} [{listing}]"
        if len(value) != k:
            return (
                f"returned {plural(len(value), 'value')} for {plural(k, 'parameter')} "
                f"({listing}); return the argument list [{listing}]"
            )
        for i, (v, name, t) in enumerate(zip(value, names, types, strict=True)):
            m = conforms(v, t)
            if m is not None:
                return f"argument {i + 1} ({name}): {clip(m, 200)}"
            longest = _longest(v)
            if longest > self.size_cap:
                return (
                    f"argument {i + 1} ({name}): a list or string of length {longest} is over "
                    f"the size cap of {self.size_cap}"
                )
        return None
