"""Builds as data: a build is a name, its config type and its stages, in order.

The Mercury and the DPE builds (quicksilver/builds.py) are two lists that share the stages they
have in common: a shared stage is declared once, in its own file, and placed in both lists. Each
stage reads the records of the stage before it in its list; the sharded stages run per shard of
tasks, one shard's stages in order (quicksilver/orchestration/chains.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from quicksilver.pipeline.records import TaskRecord
from quicksilver.pipeline.stage import Stage


@dataclass(frozen=True)
class Build:
    """``name`` prefixes its Prefect task names (``mercury-load``); ``title`` heads its funnel;
    ``config`` is its config type (only the sections its stages read); ``example`` gives the
    made-up task as its last stage reads it, for the preflight's dry run of publish."""

    name: str
    title: str
    config: type[Any]
    stages: tuple[Stage, ...]
    example: Callable[[Any], TaskRecord]

    def __post_init__(self) -> None:
        names = [s.name for s in self.stages]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: a stage name appears twice in {names}")
        if not self.stages or self.stages[0].sharded:
            raise ValueError(f"{self.name}: the first stage reads no records; it cannot be sharded")
        filled: set[str] = set()
        for stage in self.stages:
            unfilled = [n for n in stage.needs if n not in filled]
            if unfilled:
                raise ValueError(
                    f"{self.name}: stage {stage.name} needs {', '.join(unfilled)}, which no stage "
                    f"before it fills (order: {' -> '.join(names)})"
                )
            filled.update(stage.fills)

    def check_settings(self, cfg: Any) -> None:
        """Every stage's own check of its settings (``Stage.check``), before anything runs: a
        ``ValueError`` naming the stage for the first setting one cannot run with (or naming
        ``until`` when it names no stage of this build)."""
        self.upto(getattr(cfg, "until", None))
        for stage in self.stages:
            if stage.check is None:
                continue
            try:
                stage.check(cfg)
            except ValueError as exc:
                raise ValueError(f"{self.name} stage {stage.name}: {exc}") from exc

    def stage(self, name: str) -> Stage:
        for s in self.stages:
            if s.name == name:
                return s
        raise KeyError(f"{self.name} has no stage {name!r}")

    def upto(self, until: str | None) -> tuple[Stage, ...]:
        """The stages a build with ``until`` runs: the list up to and including that stage (the
        whole list when None); a ``ValueError`` when it names no stage of this build."""
        if until is None:
            return self.stages
        if until not in self.stage_names:
            raise ValueError(
                f"{self.name}: until={until!r} names no stage; its stages are "
                + ", ".join(self.stage_names)
            )
        return self.stages[: self.stage_names.index(until) + 1]

    def previous(self, stage: Stage) -> Stage | None:
        """The stage whose records ``stage`` reads (None for the first, which reads sources)."""
        i = self.stages.index(stage)
        return self.stages[i - 1] if i else None

    @property
    def stage_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.stages)

    @property
    def sharded(self) -> tuple[Stage, ...]:
        return tuple(s for s in self.stages if s.sharded)

    def sections(self) -> set[str]:
        """The config sections its stages read (the first part of each path)."""
        return {path.split(".")[0] for s in self.stages for path in s.reads if path}
