"""An LLM endpoint and how to ask it (``synthesis.llm``, ``sas.llm``, ``candidates.llm``,
``uniqueness.checker.llm``): the settings only; the client is quicksilver/llm.py, so that it is in
the keys of the stages that talk to an endpoint and of no other."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
)

from quicksilver.config.measure import _Strict

BASE_URL_ENV = ("QUICKSILVER_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_ENV = "QUICKSILVER_LLM_MODEL"
NOT_CONFIGURED = (
    "no LLM endpoint configured (set QUICKSILVER_LLM_BASE_URL or OPENAI_BASE_URL, and "
    "QUICKSILVER_LLM_MODEL, or synthesis.llm.base_url and synthesis.llm.model in the config)"
)


class LLMConfig(BaseModel):
    """An endpoint and how to ask it (``synthesis.llm``, ``sas.llm``, ``candidates.llm``).

    ``temperature``, ``n``, ``max_attempts``, ``validation_*`` and ``prompt_template`` are the
    generator synthesizer's (docs/llm-generators.md); SaS and candidate sampling take their own
    ``n`` and ``temperature`` from their sections and use the endpoint, key, timeout, retries and
    prompts folder from here.
    """

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
    prompts_dir: Path | None = Field(
        None, description="a folder of prompt templates; None: the package's (quicksilver/prompts)"
    )

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


class _WithLLM(_Strict):
    """A section with an ``llm`` endpoint (:class:`LLMConfig`): typed when the config is read (a
    misspelt key is an error then), recorded as written (the keys given, not every default)."""

    @field_serializer("llm", check_fields=False)
    def _llm_as_written(self, llm: LLMConfig) -> dict[str, Any]:
        return llm.model_dump(mode="json", exclude_unset=True)
