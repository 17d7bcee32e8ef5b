"""Prefect tasks over the stages: one thin task per stage of a build, made from its declaration.

A task is named ``<build>-<stage>`` (``mercury-load``, ``dpe-sas``); a sharded stage's runs are
named ``<stage>-<shard>``. It receives the validated configuration (plain data) and, for a sharded
stage, the shard's name, and runs the stage through the core's runner
(:class:`quicksilver.pipeline.runner.Runner`), which reuses it when its manifest says it is done.
Its result is a small summary, never records (records go to files under the build's stages/).

Prefect's cache sits on top of that and only echoes it: the cache key is the stage's key, and the
cache is trusted only when :meth:`Runner.done` says so (:func:`stored`), so a cache entry never
stands in for files that are missing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from prefect import Task, task
from prefect.context import TaskRunContext
from prefect.logging import get_run_logger

from quicksilver.orchestration.results import RESULTS_FOLDER, SERIALIZER
from quicksilver.orchestration.retries import retry_options
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.runner import Runner


def runner_of(build: Build, config: dict[str, Any]) -> Runner:
    return Runner(build, build.config.model_validate(config))


def cache_key_of(build: Build) -> Callable[[TaskRunContext, dict[str, Any]], str]:
    """The cache key function of ``build``'s tasks: the stage's key, computed when the task run
    starts (after the upstream stage wrote its files), so a stage is reused exactly when nothing
    it reads has changed."""

    def cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
        stage = context.task.name.removeprefix(f"{build.name}-")
        runner = runner_of(build, parameters["config"])
        return "quicksilver-" + runner.key(stage, parameters.get("part", ""))

    return cache_key


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


@cache
def stage_task(build: Build, stage_name: str) -> Task[..., dict[str, Any]]:
    """The Prefect task of one stage of a build (made once per process and build)."""
    stage = build.stage(stage_name)
    name = f"{build.name}-{stage.name}"
    if stage.sharded:

        @task(
            name=name,
            cache_key_fn=cache_key_of(build),
            persist_result=True,
            result_serializer=SERIALIZER,
            task_run_name=f"{stage.name}-{{part}}",
        )
        def run_shard(config: dict[str, Any], part: str) -> dict[str, Any]:
            return log_summary(runner_of(build, config).run(stage.name, part))

        return run_shard

    @task(
        name=name,
        cache_key_fn=cache_key_of(build),
        persist_result=True,
        result_serializer=SERIALIZER,
    )
    def run(config: dict[str, Any]) -> dict[str, Any]:
        return log_summary(runner_of(build, config).run(stage.name))

    return run


def stored(runner: Runner, stage: str, part: str = "") -> Task[..., dict[str, Any]]:
    """The stage's task with its results persisted beside its files (deleted together; plain
    JSON, :mod:`quicksilver.orchestration.results`), and
    Prefect's cache refreshed unless the runner says the stage is done: a deleted output, a crash
    before the manifest, a cold run all run the stage, whatever Prefect remembers. A run that
    fails on an infrastructure fault is retried as the config's ``retries`` says
    (:mod:`quicksilver.orchestration.retries`); no other failure is."""
    return stage_task(runner.build, stage).with_options(
        result_storage=runner.dir(stage).path / RESULTS_FOLDER,
        refresh_cache=not runner.done(stage, part),
        **retry_options(runner.cfg.retries),
    )
