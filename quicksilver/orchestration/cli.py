"""The command line of a build flow: a config and overrides in, the flow on its task runner, one
line out when something goes wrong.

    quicksilver build mercury --config configs/mercury.yaml --set testcases.n=8
    python flows/build_mercury.py --config configs/mercury.yaml --set testcases.n=8  (a checkout)

Exit codes: 0 built; 1 the build failed (shards, a write, no task left to publish: one line on
stderr); 2 a bad config; 3 the build cannot run here (the preflight's line, nothing written) or
another build holds its output folder (quicksilver/pipeline/lock.py);
128 + signal when stopped by SIGTERM / SIGINT (finished work kept, no process left behind).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prefect.settings import (
    PREFECT_API_URL,
    PREFECT_FLOWS_HEARTBEAT_FREQUENCY,
    get_current_settings,
    temporary_settings,
)
from prefect.task_runners import TaskRunner

from quicksilver.config import ConfigError, RetrySection, RunnerSection, load_build_config
from quicksilver.fsutil import WriteError
from quicksilver.funnel import print_funnel
from quicksilver.lifecycle import GracefulStop, Interrupted, signal_name
from quicksilver.orchestration.build import BuildFailed
from quicksilver.orchestration.prefect_server import choose_server
from quicksilver.orchestration.server_watch import ServerWatch, finish_without_server
from quicksilver.pipeline.build import Build
from quicksilver.pipeline.lock import OutDirBusy, check_free
from quicksilver.preflight import NotReady, check_build_ready

# Errors the command line reports in one line of its own: their tracebacks stay out of the console
# (the Prefect API and UI still get them).
ONE_LINE_ERRORS: tuple[type[BaseException], ...] = (
    BuildFailed,
    ConfigError,
    Interrupted,
    NotReady,
    OutDirBusy,
    WriteError,
)


EXIT_CODES: dict[type[BaseException], int] = {
    ConfigError: 2,
    NotReady: 3,
    OutDirBusy: 3,
    BuildFailed: 1,
    WriteError: 1,
    Interrupted: 1,
}


def make_task_runner(runner: RunnerSection, retries: RetrySection | None = None) -> TaskRunner[Any]:
    """The Prefect task runner the config names.

    ``dask``: the scheduler at ``runner.address``, or a local cluster of ``runner.workers`` (or
    one per core) worker processes with one thread each; a task whose worker dies is given to
    another worker ``retries.attempts`` times (docs/mercury-build.md, "Retries")."""
    from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

    from quicksilver.pipeline.files import cpu_count

    workers = runner.workers or cpu_count()
    if runner.kind == "thread":
        return ThreadPoolTaskRunner(max_workers=workers)
    if runner.kind == "process":
        return ProcessPoolTaskRunner(max_workers=workers)
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError as exc:  # pragma: no cover - a dependency of the project
        raise ConfigError(f"runner.kind is dask but prefect-dask does not import: {exc}") from exc
    if runner.address:
        return DaskTaskRunner(address=runner.address)
    attempts = (retries or RetrySection()).attempts
    return DaskTaskRunner(
        cluster_kwargs={
            "n_workers": workers,
            "threads_per_worker": 1,
            "processes": True,
            "dashboard_address": None,  # no fixed port to clash with another build's
            "scheduler_kwargs": {"allowed_failures": attempts},
        }
    )


TEMPORARY_SERVER_SECONDS = 120
"""How long the temporary Prefect server may take to answer, per attempt (Prefect's default is
20 s, which a busy 2-core machine exceeds: the README's first command failed so)."""
TEMPORARY_SERVER_ATTEMPTS = 2


class ServerStartFailed(RuntimeError):
    """The temporary Prefect server did not answer in time, on every attempt."""


def shared_temporary_server(
    attempts: int = TEMPORARY_SERVER_ATTEMPTS, seconds: float | None = None
) -> str:
    """Start the temporary Prefect server now and return its API URL (stopped at exit, as
    Prefect's own temporary server is). Started here rather than lazily by Prefect's client:

    - it gets the time a busy machine needs (``seconds``: :data:`TEMPORARY_SERVER_SECONDS`, or
      ``PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS`` when that is longer) and a second
      attempt, and when it still does not answer, :class:`ServerStartFailed` says what to do;
    - its URL is in the settings that tasks in other processes (Dask workers) receive: left to
      Prefect, each worker would start a temporary server of its own, report its task runs there
      (the flow would never see them finish) and leave it running when the worker is killed."""
    from prefect.server.api.server import SubprocessASGIServer
    from prefect.settings import PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS

    wait = seconds or max(
        TEMPORARY_SERVER_SECONDS, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value()
    )
    server = SubprocessASGIServer()  # the instance Prefect's client would start itself
    for attempt in range(1, attempts + 1):
        try:
            server.start(timeout=int(wait))
            return server.api_url
        except RuntimeError as exc:
            with contextlib.suppress(Exception):
                server.stop()
            logging.getLogger("quicksilver").warning(
                "the temporary Prefect server did not answer within %.0f s (attempt %d of %d): %s",
                wait,
                attempt,
                attempts,
                str(exc).split(" stdout:")[0],
            )
    raise ServerStartFailed(
        f"the temporary Prefect server did not start ({attempts} attempts of {wait:.0f} s; a "
        "busy machine?): run `make ui` in another shell and build again (the build then reports "
        "there), or point PREFECT_API_URL at a running Prefect server"
    )


DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS})
"""A full or read-only disk: the stage that meets it stops the build with one line naming the
file (WriteError); Prefect's own write of a task's result record to the same disk, which may
meet it first, is logged in one line too, not with its traceback."""


class _OneLineErrors(logging.Filter):
    """Drops the traceback of an error the command reports in one line (see ONE_LINE_ERRORS and
    DISK_ERRNOS)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, OSError) and exc.errno in DISK_ERRNOS:
            record.msg, record.args = f"{record.getMessage()}: {exc.strerror}", None
            record.exc_info, record.exc_text = None, None
            return True
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


@contextlib.contextmanager
def _silent(logger: str) -> Iterator[None]:
    target = logging.getLogger(logger)
    was, target.disabled = target.disabled, True
    try:
        yield
    finally:
        target.disabled = was


def quiet_console(verbose: bool) -> None:
    """The console shows warnings and errors only, unless ``verbose``: a build's INFO lines (about
    300 of them) still reach the Prefect UI, and the progress
    (quicksilver/orchestration/progress.py) says where the build is."""
    level = logging.INFO if verbose else logging.WARNING
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler) and getattr(handler, "stream", None) in (
            sys.stderr,
            sys.stdout,
        ):
            handler.setLevel(level)


def run_cli(
    argv: list[str] | None,
    *,
    build: Build,
    build_flow: Any,
    default_config: str,
    example: str,
    description: str,
    prog: str | None = None,
) -> int:
    """The command line of ``build``'s flow: config + overrides -> the flow on its task runner
    (exit codes in the module docstring)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--config", default=default_config, help="YAML build config")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"override a config value, e.g. --set {example} (repeatable)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="every INFO line in the console (by default: warnings, errors and the progress)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    quiet_console(verbose=args.verbose)
    if args.config == default_config and not Path(default_config).is_file():
        print(
            f"error: no {default_config} in {Path.cwd()} (the default config, relative to the "
            "working directory): pass --config PATH (a checkout's configs/ has the shipped ones)",
            file=sys.stderr,
        )
        return 2
    try:
        # relative paths stay relative (to the working directory): the published card and the
        # build's config digest then do not depend on where the repository is checked out
        cfg = load_build_config(args.config, args.set, cls=build.config)
        build.check_settings(cfg)
        runner = make_task_runner(cfg.runner, cfg.retries)
    except (ConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    server = (
        choose_server()
    )  # only a server it is pointed at (quicksilver/orchestration/prefect_server.py)
    print(server.line(), flush=True)
    try:
        with _silent("quicksilver.preflight"):  # its warnings: said once, by the flow's check
            check_build_ready(cfg)  # before Prefect starts anything (the flow checks again)
        check_free(Path(cfg.out_dir))  # a busy folder, said before Prefect starts (the flow
        # holds the lock for the whole build)
    except (NotReady, OutDirBusy) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 3
    updates: dict[Any, Any] = {
        PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None,
    }
    if server.api is not None:
        updates[PREFECT_API_URL] = server.api
    else:
        try:
            updates[PREFECT_API_URL] = shared_temporary_server()
        except ServerStartFailed as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 3
        print(f"Prefect: the temporary server is at {updates[PREFECT_API_URL]}", flush=True)
    _quiet_console_tracebacks()
    stop = GracefulStop(
        lambda signum: (
            f"error: stopped by {signal_name(signum)}: finished stages and shards are kept in "
            f"{Path(cfg.out_dir) / 'stages'}; run the same command again to finish the rest"
        )
    )
    with temporary_settings(updates=updates):
        # the server is a window on the build: if it goes away, the build finishes without it
        watch = ServerWatch(str(updates[PREFECT_API_URL]), get_current_settings())
        with watch.running():
            try:
                try:
                    result = stop.run(
                        lambda: build_flow.with_options(task_runner=runner)(
                            cfg.model_dump(mode="json")
                        )
                    )
                except Exception:
                    if stop.stopped or not watch.lost:
                        raise
                    # the flow could not report its end: finish what it did not do (usually
                    # nothing but the report) with the runner alone
                    result = stop.run(lambda: finish_without_server(build, cfg))
            except Exception as exc:
                if stop.stopped:
                    stop.announce()
                    return stop.exit_code
                code = next((c for cls, c in EXIT_CODES.items() if isinstance(exc, cls)), None)
                if code is None:
                    raise
                print("error: " + " ".join(str(exc).split()), file=sys.stderr)  # one line
                return code
    if stop.stopped:
        stop.announce()
        return stop.exit_code
    print_funnel(result["funnel"], title=build.title)
    if cfg.until is not None:
        print(f"stopped after {cfg.until} (until): the stage files are in {result['dataset']}")
        return 0
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
