"""What the stage tasks share: the cache key function and the build from plain config."""

from __future__ import annotations

from typing import Any

from prefect.context import TaskRunContext
from prefect.logging import get_run_logger

from quicksilver.config import BuildConfig, DPEBuildConfig
from quicksilver.stages.dpe import DPEBuild
from quicksilver.stages.mercury import MercuryBuild


def cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    """The stage's key: its logic version, its config sections and its input files' digests.

    Computed when the task run starts, i.e. after the upstream stage wrote its files, so a stage
    is reused exactly when nothing it reads has changed. Task names are ``mercury-<stage>`` or
    ``dpe-<stage>`` (tasks/dpe.py).
    """
    name = context.task.name
    if name.startswith("dpe-"):
        stage, build = name.removeprefix("dpe-"), dpe_build_of(parameters["config"])
    else:
        stage, build = name.removeprefix("mercury-"), build_of(parameters["config"])
    return "quicksilver-" + build.key(stage, parameters.get("part", ""), parameters.get("slugs"))


def build_of(config: dict[str, Any]) -> MercuryBuild:
    return MercuryBuild(BuildConfig.model_validate(config))


def dpe_build_of(config: dict[str, Any]) -> DPEBuild:
    return DPEBuild(DPEBuildConfig.model_validate(config))


def log_summary(summary: dict[str, Any]) -> dict[str, Any]:
    c = summary["counts"]
    label = f"{summary['stage']}/{summary['part']}" if summary["part"] else summary["stage"]
    drops = ", ".join(f"{k} {v}" for k, v in c["drops"].items()) or "none"
    get_run_logger().info(
        "%s: tasks %d -> %d, solutions %d -> %d; dropped: %s%s",
        label,
        c["tasks_in"],
        c["tasks_out"],
        c["solutions_in"],
        c["solutions_out"],
        drops,
        " (reused)" if summary["reused"] else "",
    )
    return summary
