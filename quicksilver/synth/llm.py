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
import json
import logging
import os
import re
import sys
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from pydantic import BaseModel, ConfigDict, Field

from quicksilver.config import SandboxConfig
from quicksilver.execute import BatchRun, case_seeds, run_generator
from quicksilver.fsutil import write_text_atomic
from quicksilver.prompts import PROMPTS_DIR
from quicksilver.sandbox import isolation as iso
from quicksilver.sources.text import constraint_lines, html_to_text
from quicksilver.synth import GeneratorResult, SynthInput
from quicksilver.synth.shapes import conforms, describe_type, kind_of, supported_type

log = logging.getLogger(__name__)

ENTRY = "generate_test_case"
BASE_URL_ENV = ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_ENV = "QUICKSILVER_LLM_MODEL"
DEFAULT_PROMPTS_DIR = PROMPTS_DIR
CACHE_FORMAT = "quicksilver-llm-answer/1"
NOT_CONFIGURED = (
    "no LLM endpoint configured (set QUICKSILVER_LLM_BASE_URL or OPENAI_BASE_URL, and "
    "QUICKSILVER_LLM_MODEL, or synthesis.llm.base_url and synthesis.llm.model in the config)"
)

# Sent when the key's environment variable is unset: local OpenAI-compatible servers (vLLM,
# llama.cpp, Ollama) accept any key, and the openai client refuses to start without one.
_NO_KEY = "no-key"


class LLMConfig(BaseModel):
    """How the LLM path asks for generators (``synthesis.llm`` in a build config)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str | None = Field(
        None, description="OpenAI-compatible endpoint, e.g. http://host:8000/v1; default from env"
    )
    model: str | None = Field(None, description="model name; default $QUICKSILVER_LLM_MODEL")
    api_key_env: str = Field(
        "OPENAI_API_KEY", min_length=1, description="NAME of the environment variable with the key"
    )
    temperature: float = Field(0.2, ge=0, le=2)
    n: int = Field(1, ge=1, description="answers per request")
    max_attempts: int = Field(4, ge=1, description="answers tried per task before giving up")
    request_timeout_s: float = Field(60.0, gt=0, description="per HTTP request")
    max_retries: int = Field(
        3, ge=0, description="HTTP retries on 429/5xx/connection errors (by the openai client)"
    )
    validation_seeds: int = Field(5, ge=1, description="seeds a generator is run on to validate")
    validation_cpu_seconds: float = Field(5.0, gt=0, description="CPU limit per validation call")
    prompt_template: str = Field("mercury_generator.j2", min_length=1)

    def resolved(self) -> LLMConfig:
        """base_url and model filled from the environment where unset."""
        base_url = self.base_url or next(
            (os.environ[v] for v in BASE_URL_ENV if os.environ.get(v)), None
        )
        model = self.model or os.environ.get(MODEL_ENV) or None
        return self.model_copy(update={"base_url": base_url, "model": model})

    @property
    def configured(self) -> bool:
        return bool(self.base_url) and bool(self.model)


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
        ast.parse(code)
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
        tree = ast.parse(code)
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
        if isinstance(node, ast.Call) and _is_seed_call(node.func, seeders):
            return "calls random.seed; the caller seeds random before each call, remove it"
    return None


def _is_seed_call(func: ast.expr, seeders: set[str]) -> bool:
    if isinstance(func, ast.Name):
        return func.id in seeders
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "seed"
        and isinstance(func.value, ast.Name)
        and func.value.id == "random"
    )


# --------------------------------------------------------------------------------------------
# The cache
# --------------------------------------------------------------------------------------------


def request_key(
    *,
    model: str,
    messages: Sequence[dict[str, str]],
    temperature: float,
    n: int,
    seed: int,
    attempt: int,
) -> str:
    """The cache key of one request: sha256 over everything that shapes the answer.

    The endpoint's URL is left out on purpose: the same model served elsewhere (a mirror, another
    port) gives the same cached answers.
    """
    payload = {
        "model": model,
        "messages": list(messages),
        "temperature": temperature,
        "n": n,
        "seed": seed,
        "attempt": attempt,
    }
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# The synthesizer
# --------------------------------------------------------------------------------------------


class _EndpointFailure(Exception):
    """The endpoint gave no usable answer (after the openai client's retries)."""


class _SandboxFailure(Exception):
    """The sandbox itself failed: no answer can be judged, so none is blamed."""


@dataclass
class _Verdict:
    code: str | None  # the extracted code (None: no code)
    reason: str | None  # None: accepted
    notes: list[str]


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _clip(text: str, limit: int = 400) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


_INFRA_LOAD_ERRORS = ("the sandbox did not start", "setup failed")
_RETRIED_STATUS = {408, 409, 429}


def openai_client(config: LLMConfig) -> Any:
    """An openai client for ``config``'s endpoint; the key comes from the variable it names."""
    import openai

    key = os.environ.get(config.api_key_env)
    if not key:
        log.debug("$%s is unset: sending a placeholder key", config.api_key_env)
    return openai.OpenAI(
        base_url=config.base_url,
        api_key=key or _NO_KEY,
        timeout=config.request_timeout_s,
        max_retries=config.max_retries,
    )


def describe_endpoint_error(exc: Exception, config: LLMConfig) -> str:
    """One line on why a request to the endpoint failed (status, timeout, connection, body)."""
    import openai

    k = config.max_retries
    retries = f" (after {k} {'retry' if k == 1 else 'retries'})"
    if isinstance(exc, openai.APIStatusError):
        code = exc.status_code
        retried = code in _RETRIED_STATUS or code >= 500
        message = re.sub(r"^Error code: \d+ - ", "", str(exc.message))
        return f"HTTP {code}: {_clip(message, 200)}" + (retries if retried else "")
    if isinstance(exc, openai.APITimeoutError):
        return f"no answer within {config.request_timeout_s} s" + retries
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        detail = f": {_clip(str(cause), 200)}" if cause else ""
        return f"connection failed{detail}" + retries
    if isinstance(exc, ValueError):
        return f"malformed response: {_clip(str(exc), 200)}"
    return f"{type(exc).__name__}: {_clip(str(exc), 200)}"


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
        self.config = config.resolved()
        self.cache_dir = Path(cache_dir)
        self.prompts_dir = Path(prompts_dir) if prompts_dir is not None else DEFAULT_PROMPTS_DIR
        self.sandbox = sandbox or SandboxConfig()
        self.size_cap = size_cap
        self._env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.prompts_dir)),
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            autoescape=False,
        )
        self._client: Any = None
        self._isolation: iso.Isolation | None = None
        if self.config.configured:  # a missing template is a setup error: say so at once
            self._env.get_template(self.config.prompt_template)

    @property
    def model(self) -> str:
        return self.config.model or ""

    # -- the prompt -------------------------------------------------------------------------

    def prompt_variables(self, inp: SynthInput) -> dict[str, Any]:
        """What the template sees (documented in quicksilver/prompts/README.md)."""
        params = [
            {"name": n, "type": t, "shape": describe_type(t)}
            for n, t in zip(inp.param_names, inp.param_types, strict=True)
        ]
        return {
            "slug": inp.slug,
            "title": inp.title,
            "statement": html_to_text(inp.content_html),
            "constraints": constraint_lines(inp.content_html) or [],
            "starter_code": inp.prompt,
            "method": str(inp.meta.get("name") or ""),
            "params": params,
            "examples": [
                json.dumps(list(ex), ensure_ascii=False, default=repr) for ex in inp.examples
            ],
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
            except _EndpointFailure as exc:
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
                        f"prompt {cfg.prompt_template}; {_plural(tried, 'answer')} tried",
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
        res.reason = f"no usable generator in {_plural(tried, 'attempt')}: {listing}"
        log.warning("%s: %s", inp.slug, res.reason)
        return res

    # -- the endpoint and the cache -----------------------------------------------------------

    def _openai(self) -> Any:
        if self._client is None:
            self._client = openai_client(self.config)
        return self._client

    def cache_path(self, key: str) -> Path:
        return self.cache_dir / key[:2] / f"{key}.json"

    def _ask(
        self, messages: list[dict[str, str]], *, n: int, seed: int, attempt: int
    ) -> tuple[list[str], bool]:
        """The answers to one request (at least one), from the cache or the endpoint."""
        cfg = self.config
        key = request_key(
            model=self.model,
            messages=messages,
            temperature=cfg.temperature,
            n=n,
            seed=seed,
            attempt=attempt,
        )
        path = self.cache_path(key)
        if path.exists():
            try:
                entry = json.loads(path.read_text(encoding="utf-8"))
                answers = entry["answers"]
                if (
                    isinstance(answers, list)
                    and answers
                    and all(isinstance(a, str) for a in answers)
                ):
                    log.debug("cache hit %s", path)
                    return answers, True
                log.warning("ignoring the cache entry %s: no answers in it", path)
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("ignoring the unreadable cache entry %s: %s", path, exc)
        started = time.monotonic()
        try:
            response = self._openai().chat.completions.create(
                model=self.model,
                messages=messages,
                temperature=cfg.temperature,
                n=n,
                seed=seed,
            )
        except Exception as exc:  # whatever the endpoint does, the run goes on
            log.debug("request failed", exc_info=True)
            raise _EndpointFailure(self._describe(exc)) from exc
        answers, finish = self._answers(response)
        log.info(
            "%s answered %s in %.1f s",
            self.model,
            _plural(len(answers), "choice"),
            time.monotonic() - started,
        )
        entry = {
            "format": CACHE_FORMAT,
            "key": key,
            "model": self.model,
            "response_model": getattr(response, "model", None),
            "response_id": getattr(response, "id", None),
            "temperature": cfg.temperature,
            "n": n,
            "seed": seed,
            "attempt": attempt,
            "messages": messages,
            "answers": answers,
            "finish_reasons": finish,
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        try:
            write_text_atomic(path, json.dumps(entry, ensure_ascii=False, indent=1) + "\n")
        except OSError as exc:
            log.warning("could not cache the answer in %s: %s", path, exc)
        return answers, False

    def _answers(self, response: Any) -> tuple[list[str], list[str | None]]:
        choices = getattr(response, "choices", None)
        if isinstance(response, str | bytes) or choices is None:
            raise _EndpointFailure(
                f"malformed response (not a chat completion): {_clip(str(response), 200)!r}"
            )
        if not choices:
            raise _EndpointFailure("the endpoint answered with no choices")
        out: list[str] = []
        finish: list[str | None] = []
        for choice in sorted(choices, key=lambda c: getattr(c, "index", 0) or 0):
            message = getattr(choice, "message", None)
            content = getattr(message, "content", None)
            out.append(content if isinstance(content, str) else "")
            finish.append(getattr(choice, "finish_reason", None))
        return out, finish

    def _describe(self, exc: Exception) -> str:
        return describe_endpoint_error(exc, self.config)

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
        notes = [f"validated on {_plural(len(seeds), 'seed')} (CPU limit {cpu:g} s per call)"]
        if len(seeds) > 1 and all(v == values[0] for v in values):
            notes.append(f"the generator returned the same input for all {len(seeds)} seeds")
        return _Verdict(code, None, notes)

    def _judge(self, batch: BatchRun, seeds: Sequence[int], inp: SynthInput) -> str | None:
        if batch.load_error is not None:
            err = batch.load_error
            if err.startswith(_INFRA_LOAD_ERRORS):
                raise _SandboxFailure(err)
            err = err.removeprefix("loading the code: ").removeprefix("load: ")
            return f"failed to load: {_clip(err)}"
        cpu = self.config.validation_cpu_seconds
        for i, s in enumerate(seeds):
            if i >= len(batch.outcomes):
                return f"gave no result on seed {s}"
            o = batch.outcomes[i]
            err = _clip(o.error or "")
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
            args = _plural(k, "argument")
            return f"returned {kind_of(value)}, not the list of {args} [{listing}]"
        if len(value) != k:
            return (
                f"returned {_plural(len(value), 'value')} for {_plural(k, 'parameter')} "
                f"({listing}); return the argument list [{listing}]"
            )
        for i, (v, name, t) in enumerate(zip(value, names, types, strict=True)):
            m = conforms(v, t)
            if m is not None:
                return f"argument {i + 1} ({name}): {_clip(m, 200)}"
            longest = _longest(v)
            if longest > self.size_cap:
                return (
                    f"argument {i + 1} ({name}): a list or string of length {longest} is over "
                    f"the size cap of {self.size_cap}"
                )
        return None
