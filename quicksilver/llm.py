"""The one chat client: any OpenAI-compatible endpoint, answers cached on disk, retried.

Every LLM path of the builds goes through :class:`ChatClient`: test-generator synthesis
(:mod:`quicksilver.synth.llm`), SaS (:mod:`quicksilver.dpe.sas`), candidate solutions
(:mod:`quicksilver.dpe.llm_solutions`) and answer checkers (:mod:`quicksilver.multianswer`). Its
configuration, :class:`~quicksilver.config.LLMConfig`, is a typed section of the build config
(``synthesis.llm``, ``sas.llm``, ``candidates.llm``, ``uniqueness.checker.llm``), so a misspelt
key stops the build when the config is read, not when the stage runs. It lives in
quicksilver/config/, not here, so that the client is in the keys of the stages that talk to an
endpoint and of no other.

- **Retries**: the ``openai`` client retries 408/409/429/5xx answers and connection errors
  ``max_retries`` times; what still fails is one line (:func:`describe_endpoint_error`) and an
  :class:`EndpointFailure`, never a traceback, so a stage records it as the task's reason.
- **Cache**: every request's answers are stored under the sha256 of everything that shapes them
  (:func:`request_key`: model, messages, temperature, n, seed, max_tokens and the caller's own
  fields such as the attempt number); a rerun replays them without the endpoint. The endpoint's
  URL is left out on purpose: the same model served elsewhere gives the same cached answers.
- **Sampling** (:meth:`ChatClient.sample`): ``n`` answers to one conversation over as many
  requests as the endpoint needs (many servers cap ``n``), each request with its own seed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quicksilver.config import LLMConfig
from quicksilver.fsutil import write_text_atomic

log = logging.getLogger(__name__)

# Sent when the key's environment variable is unset: local OpenAI-compatible servers (vLLM,
# llama.cpp, Ollama) accept any key, and the openai client refuses to start without one.
_NO_KEY = "no-key"
_RETRIED_STATUS = {408, 409, 429}


def clip(text: str, limit: int = 400) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def plural(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


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
        return f"HTTP {code}: {clip(message, 200)}" + (retries if retried else "")
    if isinstance(exc, openai.APITimeoutError):
        return f"no answer within {config.request_timeout_s} s" + retries
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__
        detail = f": {clip(str(cause), 200)}" if cause else ""
        return f"connection failed{detail}" + retries
    if isinstance(exc, ValueError):
        return f"malformed response: {clip(str(exc), 200)}"
    return f"{type(exc).__name__}: {clip(str(exc), 200)}"


def request_key(payload: Mapping[str, Any]) -> str:
    """The cache key of one request: sha256 over everything that shapes its answers."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EndpointFailure(Exception):
    """The endpoint gave no usable answer (after the openai client's retries); the message is one
    line saying why."""


@dataclass
class Answer:
    content: str  # "" when the choice had no content
    finish_reason: str | None
    cached: bool


@dataclass
class Sampled:
    """What :meth:`ChatClient.sample` got: the answers in order, and the endpoint failure that
    stopped it early (``answers`` then holds what came before)."""

    answers: list[Answer]
    error: str | None = None
    requests: int = 0  # requests sent to the endpoint (cache hits excluded)


class ChatClient:
    """Chat completions from the endpoint ``llm`` names, every request's answers cached in
    ``cache_dir`` (entries tagged ``cache_format``). ``llm`` is resolved against the environment
    (:meth:`LLMConfig.resolved`)."""

    def __init__(self, llm: LLMConfig, cache_dir: Path, *, cache_format: str) -> None:
        self.config = llm.resolved()
        self.cache_dir = Path(cache_dir)
        self.cache_format = cache_format
        self._client: Any = None

    @property
    def model(self) -> str:
        return self.config.model or ""

    @property
    def configured(self) -> bool:
        return self.config.configured

    def cache_path(self, key: str) -> Path:
        return self.cache_dir / key[:2] / f"{key}.json"

    def ask(
        self,
        messages: Sequence[dict[str, str]],
        *,
        n: int,
        temperature: float,
        seed: int,
        max_tokens: int | None = None,
        key: Mapping[str, Any] | None = None,
    ) -> list[Answer]:
        """The answers to one request (at least one), from the cache or the endpoint. ``key``:
        the caller's own fields of the cache key (an attempt number, a request number, a kind).
        Raises :class:`EndpointFailure` when the endpoint gives no usable answer."""
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": list(messages),
            "temperature": temperature,
            "n": n,
            "seed": seed,
            **({"max_tokens": max_tokens} if max_tokens is not None else {}),
            **(key or {}),
        }
        digest = request_key(payload)
        cached = self._cached(digest)
        if cached is not None:
            return cached
        started = time.monotonic()
        try:
            response = self._openai().chat.completions.create(
                model=self.model,
                messages=list(messages),
                temperature=temperature,
                n=n,
                seed=seed,
                **({"max_tokens": max_tokens} if max_tokens is not None else {}),
            )
        except Exception as exc:  # whatever the endpoint does, the run goes on
            log.debug("request failed", exc_info=True)
            raise EndpointFailure(describe_endpoint_error(exc, self.config)) from exc
        contents, finish = self._choices(response)
        log.info(
            "%s answered %s of %d asked in %.1f s",
            self.model,
            plural(len(contents), "choice"),
            n,
            time.monotonic() - started,
        )
        entry = {
            "format": self.cache_format,
            "key": digest,
            **payload,
            "response_model": getattr(response, "model", None),
            "response_id": getattr(response, "id", None),
            "answers": contents,
            "finish_reasons": finish,
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        path = self.cache_path(digest)
        try:
            write_text_atomic(path, json.dumps(entry, ensure_ascii=False, indent=1) + "\n")
        except OSError as exc:
            log.warning("could not cache the answers in %s: %s", path, exc)
        return [Answer(c, f, False) for c, f in zip(contents, finish, strict=True)]

    def sample(
        self,
        messages: Sequence[dict[str, str]],
        *,
        n: int,
        temperature: float,
        max_tokens: int,
        seed: int = 0,
        kind: str,
    ) -> Sampled:
        """``n`` answers to one conversation. One request asks for all; when the endpoint returns
        fewer choices, further requests ask for the rest, each with its own seed (``seed +
        request``) so a server that honours seeds does not repeat itself. An endpoint failure ends
        the sampling with a reason (``error``); it never raises."""
        out = Sampled(answers=[])
        request = 0
        while len(out.answers) < n and request < n:  # each request yields >= 1 answer or fails
            want = n - len(out.answers)
            try:
                got = self.ask(
                    messages,
                    n=want,
                    temperature=temperature,
                    seed=seed + request,
                    max_tokens=max_tokens,
                    key={"kind": kind, "request": request},
                )
            except EndpointFailure as exc:
                out.error = str(exc)
                break
            out.requests += not all(a.cached for a in got)
            out.answers.extend(got[:want])
            request += 1
        return out

    # -- the cache and the endpoint -----------------------------------------------------------

    def _cached(self, key: str) -> list[Answer] | None:
        path = self.cache_path(key)
        if not path.exists():
            return None
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            answers = entry["answers"]
            finish = entry.get("finish_reasons") or [None] * len(answers)
            if (
                isinstance(answers, list)
                and answers
                and all(isinstance(a, str) for a in answers)
                and isinstance(finish, list)
                and len(finish) == len(answers)
            ):
                log.debug("cache hit %s", path)
                return [
                    Answer(a, f if isinstance(f, str) else None, True)
                    for a, f in zip(answers, finish, strict=True)
                ]
            log.warning("ignoring the cache entry %s: no answers in it", path)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("ignoring the unreadable cache entry %s: %s", path, exc)
        return None

    def _openai(self) -> Any:
        if self._client is None:
            self._client = openai_client(self.config)
        return self._client

    @staticmethod
    def _choices(response: Any) -> tuple[list[str], list[str | None]]:
        choices = getattr(response, "choices", None)
        if isinstance(response, str | bytes) or not isinstance(choices, list):
            raise EndpointFailure(
                f"malformed response (not a chat completion): {clip(str(response), 200)!r}"
            )
        if not choices:
            raise EndpointFailure("the endpoint answered with no choices")
        contents: list[str] = []
        finish: list[str | None] = []
        for choice in sorted(choices, key=lambda c: getattr(c, "index", 0) or 0):
            content = getattr(getattr(choice, "message", None), "content", None)
            contents.append(content if isinstance(content, str) else "")
            reason = getattr(choice, "finish_reason", None)
            finish.append(reason if isinstance(reason, str) else None)
        return contents, finish
