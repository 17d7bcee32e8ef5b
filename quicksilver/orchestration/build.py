"""A build, run as Prefect tasks: what every build flow does, from the build's list of stages.

:func:`run_build` is the body of a build flow (flows/build_mercury.py, flows/build_dpe.py): the
preflight, then the build's stages in list order. The whole-build stages run one after another; the
sharded ones run per shard through :func:`quicksilver.orchestration.chains.run_chains` (a shard's
next stage is submitted only when its previous one completed, deepest stage first, the heaviest
shard first for ``heavy`` stages), except a stage that must run ``alone`` with this config, which
runs shard after shard once the chains are done. A stage that ``packs`` its shards anew (Mercury's
profile, packed by the test cases' recorded CPU) starts a run of its own once the run before it is
done (:meth:`quicksilver.pipeline.runner.Runner.groups`). At the end the funnel is published as
Prefect artifacts.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from prefect.artifacts import create_markdown_artifact
from prefect.futures import PrefectFuture
from prefect.logging import get_run_logger

from quicksilver.fsutil import WriteError
from quicksilver.funnel import funnel_markdown, funnel_rows, print_funnel
from quicksilver.lifecycle import Interrupted
from quicksilver.orchestration.artifacts import table_artifact
from quicksilver.orchestration.chains import (
    ShardChain,
    cluster_threads,
    completed_summary,
    run_chains,
)
from quicksilver.orchestration.progress import BuildProgress, Step
from quicksilver.orchestration.report import publish_report
from quicksilver.orchestration.results import RESULTS_FOLDER, keep_plain_results
from quicksilver.orchestration.server_watch import window_closed
from quicksilver.orchestration.stages import stored
from quicksilver.orchestration.stale_runs import lock_record, mark_crashed
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.files import cpu_count, read_jsonl
from quicksilver.pipeline.lock import build_lock
from quicksilver.pipeline.runner import Runner
from quicksilver.preflight import check_build_ready
from quicksilver.sandbox.session import shutting_down, sweep_orphans


class BuildFailed(RuntimeError):
    """Some shards failed: the finished work is kept and reused by the next run."""


def start_build(cfg: Any) -> None:
    """What every build does before its first stage: the preflight (one line and no stage folder
    when the build cannot run here), then the sandbox folders dead processes left are removed."""
    check_build_ready(cfg)
    sweep_orphans()


def _exception_of(state: Any) -> BaseException | None:
    try:
        exc = state.result(raise_on_failure=False)
    except Exception:  # the result could not be read back: the state message says enough
        return None
    return exc if isinstance(exc, BaseException) else None


def raise_for_failed_shards(runner: Runner, failed: list[tuple[str, Any]]) -> None:
    """Stop the flow when shards failed (``failed``: (shard, final state) pairs).

    A stop on a signal raises :class:`Interrupted`; a shard that could not write (disk full,
    read-only folder) raises its :class:`WriteError`, which names the path; otherwise
    :class:`BuildFailed` lists the shards and why each failed.
    """
    if shutting_down():
        raise Interrupted(
            "the build was stopped; finished shards are kept and a rerun redoes only the others"
        )
    if not failed:
        return
    for _part, state in failed:
        exc = _exception_of(state)
        if isinstance(exc, WriteError):
            raise exc
    print_funnel(runner.funnel(), title=f"{runner.title} (incomplete)")
    raise BuildFailed(
        "shard(s) failed; finished shards are kept and a rerun redoes only these: "
        + "; ".join(f"{part}: {state.name}: {state.message}" for part, state in failed)
    )


def quiet_progress_bars() -> None:
    """No raw tqdm bars from ``datasets`` in a build's log (a log is read, not watched: each
    bar's redraws became lines of their own); the stages log what they did."""
    import datasets

    datasets.disable_progress_bars()


def run_build(build: Build, config: dict[str, Any]) -> dict[str, Any]:
    """Build the dataset (inside a flow); returns the funnel and where the dataset is."""
    logging.getLogger("quicksilver").setLevel(logging.INFO)  # Prefect's setup leaves it at WARNING
    quiet_progress_bars()
    cfg = build.config.model_validate(config)
    start_build(cfg)
    # one build per output folder (a second stops at once); a build killed on it before this
    # one is marked Crashed where it still shows as running
    # (quicksilver/orchestration/stale_runs.py)
    with build_lock(Path(cfg.out_dir), lock_record()) as held:
        mark_crashed(held.previous)
        return _run_stages(build, cfg, config)


def _steps(
    runner: Runner, stages: list[Any], shard_list: list[tuple[str, list[str]]]
) -> list[Step]:
    """The build's steps still to show: each whole stage, or each stage of each shard, with the
    seconds its manifest from an earlier run recorded and, for a shard, its tasks and solutions
    (from the records the first of ``stages`` reads; ``stages``: one run of sharded stages
    sharing ``shard_list``)."""

    def recorded(stage: str, part: str = "") -> float | None:
        seconds = (runner.dir(stage).manifest(part) or {}).get("seconds")
        return float(seconds) if isinstance(seconds, (int, float)) else None

    if not shard_list:
        return [Step(s.name, "", 0, 0, recorded(s.name)) for s in stages if not s.sharded]
    first = next(s for s in stages if s.sharded)
    solutions: dict[str, int] = {}
    for path in runner.input_files(first, shard_list[0][0]):
        if not path.name.endswith(".jsonl") or not path.exists():
            continue
        # its slug and solutions only: never references (pipeline/refs.py), nothing to put back
        for row in read_jsonl(path):
            solutions[row["task"]["slug"]] = len(row.get("solutions") or [])
    packed = first.packs is not None
    return [
        Step(
            s.name,
            part,
            len(slugs),
            sum(solutions.get(x, 0) for x in slugs),
            recorded(s.name, part),
            holds={x: solutions.get(x, 0) for x in slugs},
            work=runner.shard_work(part, first) if packed else None,
        )
        for part, slugs in shard_list
        for s in stages
        if s.sharded
    ]


def _whole(runner: Runner, stage: str, config: dict[str, Any], progress: BuildProgress) -> None:
    progress.start(stage)
    summary = stored(runner, stage)(config)
    progress.finish(stage, "", summary)


def _run_stages(build: Build, cfg: Any, config: dict[str, Any]) -> dict[str, Any]:
    build.check_settings(cfg)  # a deployment's config did not pass through the CLI's check
    runner = Runner(build, cfg)
    stages = list(build.upto(cfg.until))  # ``until``: the stages after it are not run
    for stage in (
        stages
    ):  # before any stage task reads Prefect's cache (quicksilver/orchestration/results.py)
        keep_plain_results(runner.dir(stage.name).path / RESULTS_FOLDER)
    slots = cfg.runner.workers or cluster_threads() or cpu_count()
    with BuildProgress(build.name, build.title, slots=slots) as progress:
        progress.plan(_steps(runner, stages, []))
        failed = _run_sharded(runner, stages, config, progress, slots)
        raise_for_failed_shards(runner, failed)
        sharded_at = [i for i, s in enumerate(stages) if s.sharded]
        for stage in stages[sharded_at[-1] + 1 if sharded_at else len(stages) :]:
            _whole(runner, stage.name, config, progress)
    return _finish(build, runner)


def _run_sharded(
    runner: Runner,
    stages: list[Any],
    config: dict[str, Any],
    progress: BuildProgress,
    slots: int,
) -> list[tuple[str, Any]]:
    """The whole stages before the sharded ones, then the sharded ones (see the module
    docstring); returns (shard, state) per shard that failed."""
    logger = get_run_logger()
    sharded_at = [i for i, s in enumerate(stages) if s.sharded]
    first, last = (sharded_at[0], sharded_at[-1]) if sharded_at else (len(stages), len(stages) - 1)
    for stage in stages[:first]:
        _whole(runner, stage.name, config, progress)
    if not sharded_at:
        return []
    # each run of stages that share their shards, one after another: a stage that packs its
    # shards anew needs the whole run before it done (quicksilver/pipeline/runner.py, groups)
    progress.expect([s.name for s in stages[first : last + 1] if s.sharded])
    for group in runner.groups(stages[first : last + 1]):
        shard_list = runner.shards(group[0])
        logger.info(
            "%s: %d task(s) in %d shard(s)%s",
            ", ".join(s.name for s in group),
            sum(len(s) for _, s in shard_list),
            len(shard_list),
            " packed by their expected work" if group[0].packs is not None else "",
        )
        for stage in group:
            runner.prune_shards(stage)
        progress.plan(_steps(runner, group, shard_list))
        failed = _run_group(runner, group, shard_list, config, progress, slots)
        if failed:
            return failed
    return []


def _run_group(
    runner: Runner,
    group: list[Any],
    shard_list: list[tuple[str, list[str]]],
    config: dict[str, Any],
    progress: BuildProgress,
    slots: int,
) -> list[tuple[str, Any]]:
    """One run of sharded stages over its shards (see the module docstring); returns (shard,
    state) per shard that failed."""
    cfg = runner.cfg
    alone = [s for s in group if s.alone is not None and s.alone(cfg)]
    chained = [s for s in group if s not in alone]

    def submitter(part: str) -> Any:
        def submit(i: int) -> PrefectFuture[Any]:
            return stored(runner, chained[i].name, part).submit(config, part)

        return submit

    chains = [
        ShardChain(part, [s.name for s in chained], submitter(part)) for part, _ in shard_list
    ]
    failed = run_chains(
        chains,
        slots=slots,
        cost=lambda chain, i: runner.shard_work(chain.part, chained[i]) if chained[i].heavy else 0,
        events=progress,
    )
    if not failed:
        # a stage that must not share the machine (a cpu meter measuring): shard after shard
        for stage in alone:
            for part, _ in shard_list:
                progress.start(stage.name, part)
                state: Any = stored(runner, stage.name, part)(config, part, return_state=True)
                if not state.is_completed():
                    failed.append((part, state))
                else:
                    progress.finish(stage.name, part, completed_summary(state))
    return failed


def _finish(build: Build, runner: Runner) -> dict[str, Any]:
    """The funnel as Prefect artifacts and the build's report; returns the funnel and where the
    dataset is."""
    funnel = runner.funnel()
    if (
        not window_closed()
    ):  # the Prefect server is still there (quicksilver/orchestration/server_watch.py)
        try:
            table_artifact(f"{build.name}-funnel", funnel_rows(funnel), "Counts per stage")
            create_markdown_artifact(
                key=f"{build.name}-summary",
                markdown=funnel_markdown(funnel, runner.root, build.title),
            )
        except Exception as exc:  # artifacts are a view; the build does not depend on them
            get_run_logger().warning("could not record the Prefect artifacts: %s", exc)
    publish_report(build, runner.root, funnel)  # <out_dir>/report.html and its artifacts
    return {"dataset": str(runner.root), "funnel": funnel}
