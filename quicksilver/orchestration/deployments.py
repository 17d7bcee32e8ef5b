"""Deployments of the build flows: rerun a build from the Prefect UI, by the API, or on a schedule.

    python flows/serve.py [--build mercury] [--set KEY=VALUE ...] [--cron "0 3 * * *"]

A deployment run passes a config path and ``--set``-style overrides (``KEY=VALUE`` strings) as
its parameters; :func:`flow_config` turns them into the config a build flow runs on, as the
command line does. :func:`serve_builds` serves one deployment per build flow from this process
(Prefect's ``Runner``, the machinery of ``flow.serve``: no work pool, no worker), against the
Prefect server that is configured (``PREFECT_API_URL``), else the one ``make ui`` of this
checkout runs (quicksilver/orchestration/prefect_server.py), else one it starts itself on
127.0.0.1:4200 and stops on exit. A schedule (cron or interval)
is off unless asked for; stopping the serving process pauses it.

The flows are loaded from their entrypoints (``flows/build_mercury.py:build_mercury``), never
imported: nothing below flows/ imports a flow.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from prefect.context import FlowRunContext
from prefect.flows import Flow, load_flow_from_entrypoint
from prefect.logging import get_run_logger
from prefect.settings import PREFECT_API_URL, temporary_settings

from quicksilver.config import ConfigError, load_build_config
from quicksilver.orchestration.cli import make_task_runner
from quicksilver.orchestration.prefect_server import (
    UI_HOST,
    UI_PORT,
    api_healthy,
    choose_server,
    ui_url,
)
from quicksilver.pipeline.build import Build

log = logging.getLogger("quicksilver.serve")
_LOCAL = {"send_to_api": False}  # logged outside any flow run: not for Prefect's API handler

SERVER_START_SECONDS = 120.0


def flow_config(
    build: Build,
    config: dict[str, Any] | None,
    config_path: str | None,
    overrides: Sequence[str] | str | None,
) -> dict[str, Any]:
    """The config a build flow runs on: ``config`` as given (the command line passes the whole
    config), else the YAML at ``config_path`` with ``overrides`` (``KEY=VALUE``, as ``--set``),
    validated (a :class:`ConfigError` fails the run with the reason). Relative paths stay
    relative to the working directory, as on the command line.

    ``overrides`` may also be one string of ``KEY=VALUE`` parts separated by ``;``
    (``only=[two-sum]; testcases.n=8``): the form the Prefect CLI passes through untouched
    (``--param`` parses a value as JSON when it can, and a list that is not JSON arrives as one
    string)."""
    if isinstance(overrides, str):
        overrides = [part.strip() for part in overrides.split(";") if part.strip()]
    if config is not None:
        if config_path is not None or overrides:
            raise ConfigError("give a whole config, or a config_path and overrides, not both")
        return config
    if config_path is None:
        raise ConfigError("no config: give config_path (and overrides), or a whole config")
    cfg = load_build_config(config_path, list(overrides or []), cls=build.config)
    if cfg.runner.kind != "thread" and FlowRunContext.get() is not None:
        get_run_logger().warning(
            "runner.kind is %s, but this run uses the flow's task runner (the one `serve` "
            "started with); runner.workers still bounds the parallel shards",
            cfg.runner.kind,
        )
    return cfg.model_dump(mode="json")


@dataclass(frozen=True)
class BuildFlow:
    """A build flow as the serving process knows it: its build, where the flow is, the default
    config of its deployment."""

    name: str  # the deployment's name, and the --build choice
    build: Build
    entrypoint: str  # relative to the repository: flows/build_mercury.py:build_mercury
    default_config: str


# --- the Prefect server -----------------------------------------------------------------------


class ServerUnavailable(RuntimeError):
    """No Prefect server to serve on: the port is another server's, or ours did not start."""


@contextlib.contextmanager
def prefect_server(host: str = UI_HOST, port: int = UI_PORT) -> Iterator[str]:
    """The API URL of the Prefect server to use: ``PREFECT_API_URL`` when configured (the
    environment or Prefect's settings), else this checkout's ``make ui`` server, else
    ``prefect server start`` on ``host:port``, stopped when the context ends. Says which."""
    api = f"http://{host}:{port}/api"
    chosen = choose_server(probe=api)
    if chosen.api is not None:
        log.info("%s", chosen.line(), extra=_LOCAL)
        yield chosen.api
        return
    if api_healthy(api):
        raise ServerUnavailable(
            f"{api} is taken by a Prefect server that is not this checkout's `make ui`: set "
            f"PREFECT_API_URL={api} to serve there, or --port to start one elsewhere"
        )
    prefect = shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"
    log.info("no Prefect server configured: starting one on %s:%d", host, port, extra=_LOCAL)
    with tempfile.TemporaryFile(mode="w+") as output:  # read when the server does not start
        proc = subprocess.Popen(
            [prefect, "server", "start", "--host", host, "--port", str(port)],
            env={**os.environ, "PREFECT_UI_API_URL": api},  # else the UI calls the API on :4200
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            deadline = time.monotonic() + SERVER_START_SECONDS
            while not api_healthy(api):
                if proc.poll() is not None or time.monotonic() > deadline:
                    output.seek(0)
                    tail = " ".join(output.read().strip().splitlines()[-5:])
                    raise ServerUnavailable(f"the Prefect server did not start on {api}: {tail}")
                time.sleep(0.5)
            yield api
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --- serving --------------------------------------------------------------------------------


def schedule_of(cron: str | None, interval: float | None) -> dict[str, Any]:
    """``Runner.add_flow``'s schedule arguments: none (the default), a cron string or an
    interval in seconds."""
    if cron and interval:
        raise ConfigError("give --cron or --interval, not both")
    if interval is not None and interval <= 0:
        raise ConfigError("--interval must be a positive number of seconds")
    if cron:
        return {"cron": cron}
    if interval:
        return {"interval": timedelta(seconds=interval)}
    return {}


def load_flow(spec: BuildFlow, repo: Path) -> Flow[Any, Any]:
    """The flow at ``spec.entrypoint``, loaded from its file (not imported)."""
    path, _, func = spec.entrypoint.partition(":")
    entry = f"{os.path.relpath(repo / path)}:{func}"  # Prefect records it relative to the cwd
    return load_flow_from_entrypoint(entry, use_placeholder_flow=False)


@dataclass(frozen=True)
class Served:
    """A deployment to serve: the flow on the task runner its default config names, and its
    default parameters."""

    spec: BuildFlow
    flow: Flow[Any, Any]
    parameters: dict[str, Any]


def prepare(specs: Sequence[BuildFlow], repo: Path, overrides: Sequence[str]) -> list[Served]:
    """Each build's flow and default parameters, its config checked (a :class:`ConfigError`
    names what is wrong before anything is served)."""
    served = []
    for spec in specs:
        cfg = load_build_config(spec.default_config, list(overrides), cls=spec.build.config)
        flow = load_flow(spec, repo).with_options(
            task_runner=make_task_runner(cfg.runner, cfg.retries)
        )
        parameters = {"config_path": spec.default_config, "overrides": list(overrides)}
        served.append(Served(spec, flow, parameters))
    return served


def serve_builds(
    served: Sequence[Served],
    *,
    cron: str | None = None,
    interval: float | None = None,
    limit: int | None = 1,
) -> None:
    """Serve one deployment per build flow until stopped (SIGINT / SIGTERM); a run can change
    the default parameters. ``limit``: flow runs at once (one build at a time by default: a
    build uses every core)."""
    from prefect.runner import Runner

    class _Runner(Runner):
        def handle_sigterm(self, *args: Any, **kwargs: Any) -> None:
            # Prefect's handler exits at once, before the schedules are paused: stop as Ctrl-C does
            _as_ctrl_c(signal.SIGTERM)

    schedule = schedule_of(cron, interval)
    runner = _Runner(name="quicksilver", pause_on_shutdown=True, limit=limit)
    for one in served:
        overrides = one.parameters["overrides"]
        runner.add_flow(
            one.flow,
            name=one.spec.name,
            parameters=one.parameters,
            description=f"{one.spec.build.title} from {one.spec.default_config}"
            + (f" with {' '.join(overrides)}" if overrides else ""),
            tags=["quicksilver", one.spec.build.name],
            **schedule,
        )
        when = next(iter(schedule.values()), "no schedule")
        log.info(
            "serving the deployment %s/%s (%s)", one.flow.name, one.spec.name, when, extra=_LOCAL
        )
    names = [f"{one.flow.name}/{one.spec.name}" for one in served]
    try:
        asyncio.run(_serve_then_pause(runner, names))
    except KeyboardInterrupt:
        if not _STOPPING:  # Ctrl-C itself (SIGTERM was recorded by its handler)
            _STOPPING.append("SIGINT")
        raise


async def _serve_then_pause(runner: Any, names: Sequence[str]) -> None:
    """``runner.start()``, then pause the served deployments whichever way it ended. The
    runner pauses them itself only when stopped after its start-up; a stop that lands while it
    is still starting (the deployments already created, their schedules active) would otherwise
    leave the schedules running with nothing to serve them."""
    from prefect.client.orchestration import get_client
    from prefect.exceptions import ObjectNotFound

    try:
        await runner.start()
    finally:
        async with get_client() as client:
            for name in names:
                try:
                    deployment = await client.read_deployment_by_name(name)
                    if not deployment.paused:
                        await client.pause_deployment(deployment.id)
                        log.info("paused the deployment %s", name, extra=_LOCAL)
                except ObjectNotFound:
                    continue
                except Exception as exc:  # the server went first: nothing left to pause there
                    log.warning("could not pause %s: %s", name, exc, extra=_LOCAL)


_STOPPING: list[str] = []  # the signal that stops serving, once one came


class _QuietTeardown(logging.Filter):
    """Once serving stops, Prefect's background observers meet the server going away and log
    it with a traceback each (85 lines for one SIGTERM): teardown noise, not news. Dropped;
    the command's own last line says what happened."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (_STOPPING and record.name.startswith("prefect") and record.exc_info)


def _as_ctrl_c(signum: int, _frame: Any = None) -> None:
    """Stop as Ctrl-C does, by sending this process SIGINT: asyncio.run then cancels the serving
    task and lets the runner pause the schedules before it returns. (Raising KeyboardInterrupt
    from a SIGTERM handler instead lands wherever the loop happens to be, and under load the
    pause was skipped.)"""
    if _STOPPING:  # already stopping (a second SIGTERM, or the runner's handler after ours)
        return
    _STOPPING.append(signal.Signals(signum).name)
    os.kill(os.getpid(), signal.SIGINT)


def _stop_on_signals() -> None:
    """SIGTERM stops as Ctrl-C does, and Ctrl-C stops even when started in the background (where
    the shell ignores SIGINT)."""
    signal.signal(signal.SIGTERM, _as_ctrl_c)
    # SIGINT keeps Python's own handler: asyncio.run replaces only that one with its own, which
    # cancels the serving task (and so lets the runner pause the schedules)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for logger in (logging.getLogger(), logging.getLogger("prefect")):
        for handler in logger.handlers:
            handler.addFilter(_QuietTeardown())


def run_serve(argv: list[str] | None, *, flows: Sequence[BuildFlow], repo: Path) -> int:
    """``flows/serve.py``'s command line (its module docstring); exit 2 on a bad config."""
    names = [f.name for f in flows]
    parser = argparse.ArgumentParser(description="Serve the build flows as Prefect deployments.")
    parser.add_argument(
        "--build",
        action="append",
        choices=names,
        default=None,
        help=f"serve this build only (repeatable; default: {', '.join(names)})",
    )
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="BUILD=PATH",
        help="the default config of a build's deployment, e.g. mercury=configs/mercury.yaml",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a default override of every served deployment (a run can change it)",
    )
    parser.add_argument("--cron", default=None, help='a cron schedule, e.g. "0 3 * * *"')
    parser.add_argument("--interval", type=float, default=None, help="a schedule, in seconds")
    parser.add_argument("--host", default=UI_HOST, help="where to start a server if none is")
    parser.add_argument("--port", type=int, default=UI_PORT)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    log.setLevel(logging.INFO)  # Prefect's logging setup leaves `quicksilver` at WARNING
    try:
        configs = dict(item.split("=", 1) for item in args.config if "=" in item)
        unknown = set(configs) - set(names)
        if unknown or len(configs) != len(args.config):
            raise ConfigError(f"--config takes BUILD=PATH, BUILD one of {', '.join(names)}")
        chosen = [
            BuildFlow(f.name, f.build, f.entrypoint, configs.get(f.name, f.default_config))
            for f in flows
            if args.build is None or f.name in args.build
        ]
        schedule_of(args.cron, args.interval)
        served = prepare(chosen, repo, args.set)  # before any server starts
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _stop_on_signals()
    try:
        with prefect_server(args.host, args.port) as api:
            print(f"Prefect UI: {ui_url(api)}  (deployments: {ui_url(api)}/deployments)")
            with temporary_settings(updates={PREFECT_API_URL: api}):
                serve_builds(served, cron=args.cron, interval=args.interval)
    except ServerUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if not _STOPPING:
            _STOPPING.append("SIGINT")
    if _STOPPING:
        print(
            f"serve: stopped by {_STOPPING[0]}: schedules paused, the deployments no longer "
            "served by this process",
            file=sys.stderr,
        )
    return 0
