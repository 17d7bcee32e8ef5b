"""Prefect flow: build a Mercury-format benchmark from a snapshot, end to end.

    python flows/build_mercury.py --config configs/mercury.yaml [--set testcases.n=8 ...]

A thin flow over quicksilver.stages (see docs/mercury-build.md): load -> dedup -> filters ->
generators, then per shard of tasks testcases -> uniqueness -> profile (shards run on the task
runner the config names: threads or processes here, a Dask or Ray cluster elsewhere), then
splits -> publish. Tasks pass the configuration and shard names, never records: every stage
writes its records to data/build/<name>/stages/<stage>/ and the next one reads them there.

Each task's Prefect cache key is its stage's logic version + the config sections it reads + the
digests of its input files, and results are persisted beside the stage's files, so a rerun with
nothing changed reuses every stage, and a rerun after an interruption redoes only the unfinished
shards. At the end the flow prints the funnel and publishes it as Prefect artifacts (a table of
counts and drop reasons per stage, and a markdown summary) when a Prefect server is reachable.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: make `tasks` importable
    sys.path.insert(0, str(REPO))
# the core logs through `logging`; Prefect forwards these loggers to the run's logs (set before
# Prefect configures logging at import)
os.environ.setdefault("PREFECT_LOGGING_EXTRA_LOGGERS", "quicksilver")
# offline machines: the temporary server's telemetry would only log a DNS failure
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from prefect import flow  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.futures import PrefectFuture  # noqa: E402
from prefect.logging import get_run_logger  # noqa: E402
from prefect.settings import (  # noqa: E402
    PREFECT_API_URL,
    PREFECT_FLOWS_HEARTBEAT_FREQUENCY,
    temporary_settings,
)
from prefect.task_runners import TaskRunner  # noqa: E402

from quicksilver.config import (  # noqa: E402
    BuildConfig,
    ConfigError,
    RunnerSection,
    load_build_config,
)
from quicksilver.fsutil import WriteError  # noqa: E402
from quicksilver.funnel import funnel_markdown, funnel_rows, print_funnel  # noqa: E402
from quicksilver.lifecycle import GracefulStop, Interrupted, signal_name  # noqa: E402
from quicksilver.preflight import NotReady, check_build_ready  # noqa: E402
from quicksilver.sandbox.session import shutting_down, sweep_orphans  # noqa: E402
from quicksilver.stages.base import cpu_count  # noqa: E402
from quicksilver.stages.mercury import MercuryBuild  # noqa: E402
from tasks import (  # noqa: E402
    dedup,
    filters,
    generators,
    load,
    profile,
    publish,
    splits,
    testcases,
    uniqueness,
)
from tasks.chains import ShardChain, run_chains  # noqa: E402


class BuildFailed(RuntimeError):
    """Some shards failed: the finished work is kept and reused by the next run."""


# Errors the command line reports in one line of its own: their tracebacks stay out of the console
# (the Prefect API and UI still get them).
ONE_LINE_ERRORS: tuple[type[BaseException], ...] = (
    BuildFailed,
    ConfigError,
    Interrupted,
    NotReady,
    WriteError,
)


def start_build(cfg: BuildConfig) -> None:
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


def raise_for_failed_shards(build: MercuryBuild, failed: list[tuple[str, Any]]) -> None:
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
    print_funnel(build.funnel(), title=f"{build.TITLE} (incomplete)")
    raise BuildFailed(
        "shard(s) failed; finished shards are kept and a rerun redoes only these: "
        + "; ".join(f"{part}: {state.name}: {state.message}" for part, state in failed)
    )


def make_task_runner(runner: RunnerSection) -> TaskRunner[Any]:
    """The Prefect task runner the config names (dask / ray need their Prefect integration)."""
    from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

    from quicksilver.stages.base import cpu_count

    workers = runner.workers or cpu_count()
    if runner.kind == "thread":
        return ThreadPoolTaskRunner(max_workers=workers)
    if runner.kind == "process":
        return ProcessPoolTaskRunner(max_workers=workers)
    if runner.kind == "dask":
        try:
            from prefect_dask import DaskTaskRunner  # type: ignore[import-not-found]
        except ImportError as exc:
            raise ConfigError("runner.kind is dask: pip install prefect-dask") from exc
        if runner.address:
            return DaskTaskRunner(address=runner.address)
        return DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 1})
    try:
        from prefect_ray import RayTaskRunner  # type: ignore[import-not-found]
    except ImportError as exc:
        raise ConfigError("runner.kind is ray: pip install prefect-ray") from exc
    return RayTaskRunner(address=runner.address) if runner.address else RayTaskRunner()


def _stored(
    task: Any, build: MercuryBuild, stage: str, part: str = "", slugs: list[str] | None = None
) -> Any:
    """The task with its results persisted beside its stage's files (deleted together).

    Prefect's cache is trusted only when the stage's own files are complete for the key as it
    stands now; otherwise (outputs deleted, a crash before the manifest was written, a cold run)
    the task is told to refresh, so a cache entry never stands in for missing files.
    """
    fresh = not build.is_complete(stage, part, slugs)
    return task.with_options(
        result_storage=build.dir(stage).path / ".prefect-results", refresh_cache=fresh
    )


@flow(name="build-mercury", log_prints=False)
def build_mercury(config: dict[str, Any]) -> dict[str, Any]:
    """Build the dataset; returns the funnel and where the dataset is."""
    logger = get_run_logger()
    logging.getLogger("quicksilver").setLevel(logging.INFO)  # Prefect's setup leaves it at WARNING
    cfg = BuildConfig.model_validate(config)
    start_build(cfg)
    build = MercuryBuild(cfg)
    for stage, task in (
        ("load", load.load),
        ("dedup", dedup.dedup),
        ("filters", filters.filters),
        ("generators", generators.generators),
    ):
        _stored(task, build, stage)(config)

    shard_list = build.shards()
    logger.info("%d task(s) in %d shard(s)", sum(len(s) for _, s in shard_list), len(shard_list))
    sharded = (
        ("testcases", testcases.testcases),
        ("uniqueness", uniqueness.uniqueness),
        ("profile", profile.profile),
    )

    def submitter(part: str, slugs: list[str]) -> Any:
        def submit(i: int) -> PrefectFuture[Any]:
            stage, task = sharded[i]
            return _stored(task, build, stage, part, slugs).submit(config, part, slugs)

        return submit

    chains = [
        ShardChain(part, [stage for stage, _ in sharded], submitter(part, slugs))
        for part, slugs in shard_list
    ]
    failed = run_chains(
        chains,
        slots=cfg.runner.workers or cpu_count(),
        cost=lambda chain, i: build.shard_work(chain.part) if chain.stages[i] == "profile" else 0,
    )
    raise_for_failed_shards(build, failed)

    _stored(splits.splits, build, "splits")(config)
    funnel = build.funnel()
    _stored(publish.publish, build, "publish")(config, funnel)
    funnel = build.funnel()
    summary = {"dataset": str(build.root), "funnel": funnel}
    try:
        create_table_artifact(
            key="mercury-funnel", table=funnel_rows(funnel), description="Counts per stage"
        )
        create_markdown_artifact(
            key="mercury-summary", markdown=funnel_markdown(funnel, build.root)
        )
    except Exception as exc:  # artifacts are a view; the build does not depend on them
        logger.warning("could not record the Prefect artifacts: %s", exc)
    return summary


UI_API = "http://127.0.0.1:4200/api"


def local_ui_api(url: str = UI_API) -> str | None:
    """The API of a Prefect server started with `make ui`, when one answers on 127.0.0.1:4200."""
    import urllib.request

    if os.environ.get("PREFECT_API_URL"):
        return None  # the user chose a server already
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=1.0) as resp:
            return url if resp.status == 200 else None
    except OSError:
        return None


class _OneLineErrors(logging.Filter):
    """Drops the traceback of an error the command reports in one line (see ONE_LINE_ERRORS)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        seen = 0
        while exc is not None and seen < 10:
            if isinstance(exc, ONE_LINE_ERRORS):
                record.exc_info, record.exc_text = None, None
                break
            exc, seen = exc.__cause__ or exc.__context__, seen + 1
        return True


def _quiet_console_tracebacks() -> None:
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, _OneLineErrors) for f in handler.filters):
            handler.addFilter(_OneLineErrors())


def run_cli(
    argv: list[str] | None,
    *,
    build_flow: Any,
    config_cls: type[BuildConfig],
    default_config: str,
    title: str,
    example: str,
    description: str,
) -> int:
    """The command line of a build flow: config + overrides -> the flow on its task runner.

    Exit codes: 0 built; 1 the build failed (shards, a write, no task left to publish: one line
    on stderr); 2 a bad config; 3 the build cannot run here (the preflight's line, nothing
    written); 128 + signal when stopped by SIGTERM / SIGINT (finished work kept, no process left
    behind).
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--config", default=default_config, help="YAML build config")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"override a config value, e.g. --set {example} (repeatable)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    try:
        # relative paths stay relative (to the working directory): the published card and the
        # build's config digest then do not depend on where the repository is checked out
        cfg = load_build_config(args.config, args.set, cls=config_cls)
        runner = make_task_runner(cfg.runner)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        check_build_ready(cfg)  # before Prefect starts anything (the flow checks again)
    except NotReady as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    updates: dict[Any, Any] = {
        PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None,
    }
    ui = local_ui_api()
    if ui:
        updates[PREFECT_API_URL] = ui
        print(f"reporting to the Prefect server at {ui} (make ui)")
    _quiet_console_tracebacks()
    stop = GracefulStop(
        lambda signum: (
            f"error: stopped by {signal_name(signum)}: finished stages and shards are kept in "
            f"{Path(cfg.out_dir) / 'stages'}; run the same command again to finish the rest"
        )
    )
    with temporary_settings(updates=updates):
        try:
            result = stop.run(
                lambda: build_flow.with_options(task_runner=runner)(cfg.model_dump(mode="json"))
            )
        except Exception as exc:
            if stop.stopped:
                stop.announce()
                return stop.exit_code
            codes = {ConfigError: 2, NotReady: 3, BuildFailed: 1, WriteError: 1, Interrupted: 1}
            code = next((c for cls, c in codes.items() if isinstance(exc, cls)), None)
            if code is None:
                raise
            print("error: " + " ".join(str(exc).split()), file=sys.stderr)  # one line
            return code
    if stop.stopped:
        stop.announce()
        return stop.exit_code
    print_funnel(result["funnel"], title=title)
    published = next((row for row in result["funnel"] if row["stage"] == "publish"), None)
    if published is not None and published["tasks_out"] == 0:
        print(
            "error: no task came through the build, so no dataset was written; the funnel above "
            "says where the tasks went (each stage's rejects file has every reason)",
            file=sys.stderr,
        )
        return 1
    print(f"dataset: {result['dataset']} (parquet/, hf/, README.md)")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_cli(
        argv,
        build_flow=build_mercury,
        config_cls=BuildConfig,
        default_config="configs/mercury.yaml",
        title="Mercury build",
        example="testcases.n=8",
        description=__doc__.split("\n\n")[0],
    )


if __name__ == "__main__":
    sys.exit(main())
