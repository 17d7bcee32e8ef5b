"""The Prefect server is a window on a build, not a dependency of it.

A build reports its runs, logs and artifacts to a Prefect server (prefect_server.py beside this
module). When that server goes away mid-build (`make ui` stopped, a shared server restarted, the
temporary server killed), the work does not need it: the stages read and write their own files, and
the runner's manifests decide what is done. What Prefect does by itself then is retry every call:
each queued event and log batch for about 7 s, the flow's last state change five times with
back-off, a traceback and a warning each; a finished build once spent 6.5 minutes so and exited 1.

:class:`ServerWatch` asks the server's health endpoint every few seconds while the build runs.
When it has not answered :data:`MISSES` times in a row, the watch *closes the window*:

- one warning line says so (the UI will show this run unfinished);
- this process stops sending: Prefect's events and API-log workers drop what they hold and what
  comes next, the client's retries drop to 0 (the next call fails at once), and Prefect's own
  lines about connections that fail no longer reach the console (:class:`QuietOutage`);
- the build skips its artifacts (:func:`window_closed`).

The flow call then fails on its last state change; the command line
(quicksilver/orchestration/cli.py) finishes whatever the flow did not with the core's runner alone
(:func:`finish_without_server`), prints the funnel and exits 0. Once closed, the window stays
closed for this process: a server that comes back is not reported to again (its UI shows the run as
it was when the server went away).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from quicksilver.orchestration.prefect_server import api_healthy

log = logging.getLogger("quicksilver")

INTERVAL = 3.0
"""Seconds between two health checks."""
MISSES = 2
"""Health checks in a row that must fail before the server counts as gone (one may fail on a
busy machine: a check waits :data:`TIMEOUT`)."""
TIMEOUT = 5.0
"""How long one health check waits for an answer."""

_closed = threading.Event()


def window_closed() -> bool:
    """Whether this process stopped reporting to its Prefect server (it went away)."""
    return _closed.is_set()


async def _drop(*_args: Any, **_kwargs: Any) -> None:
    return None


def _stop_sending(settings: Any | None) -> None:
    """Make Prefect's background senders drop what they hold and what comes next, and its client
    fail at once instead of retrying (``settings``: the Settings object the build's threads read,
    changed in place: the flow's thread has its own copy of the context, not this one)."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    EventsWorker._handle = _drop  # type: ignore[method-assign]
    APILogWorker._handle_batch = _drop  # type: ignore[method-assign]
    for cls in (EventsWorker, APILogWorker):
        for instance in list(cls._instances.values()):
            pending = instance._queue
            while not pending.empty():
                try:
                    pending.get_nowait()
                except Exception:  # emptied by its own thread meanwhile
                    break
    if settings is not None:
        settings.client.max_retries = 0
    # the log worker's batch in flight, when it fails, writes to stderr unless this is off (as a
    # logging handler's own failure would be)
    logging.raiseExceptions = False


# Loggers Prefect reports failed connections through: once the window is closed, each would print
# a line (or a traceback) per queued event, log batch and state change.
PREFECT_CONNECTION_LOGGERS = (
    "prefect.events.clients",
    "prefect.events.worker",
    "prefect._internal",
    "prefect._internal.concurrency",
    "prefect.flow_runs",
    "prefect.task_runs",
    "prefect.client",
    "prefect",
)


def quiet_log_batches() -> None:
    """Prefect's API-log worker writes ``--- Error logging to API ---`` and the error to stderr
    for every log batch it cannot deliver. A batch sent in the seconds before the watch counts
    the server gone (two missed health checks; longer on a busy machine) failed so, a line the
    watch then says better, once. Connection errors are left to the watch; any other error is
    written as Prefect writes it."""
    from prefect.logging.handlers import APILogWorker

    if getattr(APILogWorker._handle_batch, "_quicksilver_quiet", False):
        return

    async def handle_batch(self: Any, items: list[dict[str, Any]]) -> None:
        try:
            await self._client.create_logs(items)
        except Exception as exc:
            if not _is_connection_error(exc) and logging.raiseExceptions and sys.stderr:
                sys.stderr.write(f"--- Error logging to API ---\n{exc}\n")  # as Prefect does

    handle_batch._quicksilver_quiet = True  # type: ignore[attr-defined]
    APILogWorker._handle_batch = handle_batch  # type: ignore[method-assign]


def _is_connection_error(exc: BaseException | None) -> bool:
    import httpx

    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, (httpx.TransportError, ConnectionError)):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


class QuietOutage(logging.Filter):
    """Once the window is closed: Prefect's lines about failed connections, and tracebacks of
    connection errors, are dropped (the watch said it once)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not window_closed():
            return True
        exc = record.exc_info[1] if record.exc_info else None
        if _is_connection_error(exc):
            return False
        if record.name.startswith(("prefect.events", "prefect._internal")):
            return False
        text = record.getMessage()
        return not ("connect" in text.lower() and record.name.startswith("prefect"))


def quiet_outage() -> None:
    """Put :class:`QuietOutage` on Prefect's loggers and on every handler they and the root
    logger write to (a logger's filter sees only the records made on it; ``prefect._internal``
    does not propagate)."""
    filterers: list[logging.Filterer] = list(logging.getLogger().handlers)
    for name in PREFECT_CONNECTION_LOGGERS:
        logger = logging.getLogger(name)
        filterers += [logger, *logger.handlers]
    for filterer in filterers:
        if not any(isinstance(f, QuietOutage) for f in filterer.filters):
            filterer.addFilter(QuietOutage())


class ServerWatch:
    """Watch the Prefect API at ``api`` while a build runs; close the window when it is gone."""

    def __init__(self, api: str, settings: Any | None = None, interval: float = INTERVAL) -> None:
        self.api = api
        self.settings = settings
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._watch, name="prefect-server-watch", daemon=True
        )

    @property
    def lost(self) -> bool:
        return window_closed()

    def _watch(self) -> None:
        misses = 0
        while not self._stop.wait(self.interval):
            if api_healthy(self.api, timeout=TIMEOUT):
                misses = 0
                continue
            misses += 1
            if misses >= MISSES:
                self.close()
                return

    def close(self) -> None:
        """Stop reporting to the server: it is gone (or the caller knows it will be)."""
        if window_closed():
            return
        _closed.set()
        try:
            _stop_sending(self.settings)
        except Exception as exc:  # a Prefect whose internals moved: only noisier, never wrong
            log.debug("could not quiet Prefect's senders: %s", exc)
        log.warning(
            "the Prefect server at %s stopped answering: the build goes on without it (its UI "
            "will show this run unfinished); the dataset and the funnel are written as usual",
            self.api,
        )

    @contextmanager
    def running(self) -> Iterator[ServerWatch]:
        quiet_outage()
        try:
            quiet_log_batches()
        except Exception as exc:  # a Prefect whose internals moved: only noisier, never wrong
            log.debug("could not quiet Prefect's log batches: %s", exc)
        self._thread.start()
        try:
            yield self
        finally:
            self._stop.set()


def finish_without_server(build: Any, cfg: Any) -> dict[str, Any]:
    """Finish the build with the core's runner alone (no Prefect): every stage and shard in the
    build's order, each reused when its manifest says it is done (after an outage, usually all
    but the last); then the report. Returns what the flow would have: the funnel and where the
    dataset is."""
    from quicksilver.pipeline.lock import build_lock
    from quicksilver.pipeline.runner import Runner
    from quicksilver.report import REPORT_NAME, build_report, write_build_report

    runner = Runner(build, cfg)
    with build_lock(Path(cfg.out_dir), {}):
        for stage in build.upto(getattr(cfg, "until", None)):
            if stage.sharded:
                runner.prune_shards(stage)
                for part, _ in runner.shards(stage):
                    runner.run(stage.name, part)
            else:
                runner.run(stage.name)
        funnel = runner.funnel()
        try:
            report = build_report(runner.root, funnel, title=build.title)
            write_build_report(report, runner.root / REPORT_NAME)
        except Exception as exc:  # a view of the build: the dataset is there without it
            log.warning("could not write the build report: %s", exc)
    return {"dataset": str(runner.root), "funnel": funnel}
