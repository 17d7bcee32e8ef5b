"""The one typed configuration: the sandbox, the meters, and the builds (configs/*.yaml).

Every limit, threshold, size and seed lives here with its default and unit, so that runs record
the numbers they used and nothing is a magic number inline. Values come from YAML (configs/*.yaml),
the CLI, or code, and are validated on construction: a bad value is a clear error (a
:class:`ConfigError` naming the file and the key, for a build config).

A build's config has only the sections its stages read: :class:`BuildConfig` for the Mercury build,
:class:`DPEBuildConfig` for the DPE build (quicksilver/builds.py lists their stages, and a test
checks that each section is read by some stage of its build).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import ValidationError

from quicksilver.config.dpe import (
    CandidatesSection,
    DPEBuildConfig,
    PEProfileSection,
    SampleFile,
    SamplingSection,
    SaSSection,
    SelectionSection,
    WorstCaseSection,
)
from quicksilver.config.endpoint import BASE_URL_ENV, MODEL_ENV, NOT_CONFIGURED, LLMConfig
from quicksilver.config.measure import MeasureConfig, MeterName, SandboxConfig, SandboxLimits
from quicksilver.config.sections import (
    BuildConfig,
    BuildConfigBase,
    CasesSection,
    CheckerSection,
    DedupSection,
    FilterSection,
    FunctionsSection,
    ProfileSection,
    RetrySection,
    RunnerSection,
    SplitSection,
    SynthesisSection,
    UniquenessSection,
    ViewsSection,
)

__all__ = [
    "BASE_URL_ENV",
    "MODEL_ENV",
    "NOT_CONFIGURED",
    "BuildConfig",
    "BuildConfigBase",
    "CandidatesSection",
    "CasesSection",
    "CheckerSection",
    "ConfigError",
    "DPEBuildConfig",
    "DedupSection",
    "FilterSection",
    "FunctionsSection",
    "LLMConfig",
    "MeasureConfig",
    "MeterName",
    "PEProfileSection",
    "ProfileSection",
    "RetrySection",
    "RunnerSection",
    "SaSSection",
    "SampleFile",
    "SamplingSection",
    "SandboxConfig",
    "SandboxLimits",
    "SelectionSection",
    "SplitSection",
    "SynthesisSection",
    "UniquenessSection",
    "ViewsSection",
    "WorstCaseSection",
    "load_build_config",
]


class ConfigError(ValueError):
    """A configuration file that cannot be used, with the file and the key named."""


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:8]:
        loc = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)  # a whole-config error names its key
    return "; ".join(parts)


def _set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    cur = data
    for k in keys[:-1]:
        nxt = cur.setdefault(k, {})
        if not isinstance(nxt, dict):
            raise ConfigError(f"override {dotted}: {k} is not a section")
        cur = nxt
    cur[keys[-1]] = value


_C = TypeVar("_C", bound=BuildConfigBase)


def load_build_config(
    path: str | Path | None = None,
    overrides: list[str] | None = None,
    cls: type[_C] = BuildConfig,  # type: ignore[assignment]
) -> _C:
    """Read and validate a YAML config; ``overrides`` are ``dotted.key=yaml-value`` strings."""
    data: dict[str, Any] = {}
    where = str(path) if path else "<defaults>"
    if path is not None:
        try:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{where}: cannot read: {exc}") from exc
        except yaml.YAMLError as exc:
            raise ConfigError(f"{where}: not valid YAML: {exc}") from exc
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{where}: the top level must be a mapping")
        data = loaded
    for item in overrides or []:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*", key):
            raise ConfigError(f"override {item!r}: expected dotted.key=value")
        if not raw.strip():
            raise ConfigError(
                f"override {item!r}: no value (write {key}=null to clear it); a value the shell "
                "or a CLI cut off is refused rather than read as null"
            )
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            problem = str(getattr(exc, "problem", None) or exc).strip()
            raise ConfigError(
                f"override {item!r}: the value is not valid YAML ({problem}); quote lists and "
                "strings for the shell: --set 'only=[two-sum, add-digits]'"
            ) from exc
        _set_path(data, key.strip(), value)
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{where}: {_describe(exc)}") from exc
