"""UI check: a small build against a Prefect server like `make ui`'s, read back through the API
and seen in the UI.

Starts ``prefect server start --host 127.0.0.1 --port <free port>`` (as `make ui` does, with a
Prefect home of its own: a fresh database), or uses ``--api URL``; runs the Mercury build of three
bundled questions through the command line a maintainer uses (``python flows/build_mercury.py``,
reporting to that server); then reads back through the Prefect API and checks:

- the flow run: ``build-mercury``, Completed;
- its task runs: one per whole-build stage (``mercury-<stage>-<3 hex digits>``), one per shard
  of each sharded stage (``<stage>-shard-NNNN``, the shards the stages' manifests name), all
  Completed;
- its artifacts: every one listed (key, type, description); the ones the build creates today
  (``mercury-funnel``, a table, and ``mercury-summary``, markdown) must be there;
- the UI: headless Chromium (the Debian package ``chromium``) renders the flow run's page, whose
  DOM must name the run and its state, and takes a screenshot (``--screenshot``, by default
  docs/img/prefect-run.png).

Needs the sandbox (bubblewrap) for the build, and chromium for the UI part (``--no-ui`` skips it).
About 2-3 minutes on 2 cores.

    python bench/ui_check.py
    python bench/ui_check.py --api http://127.0.0.1:4200/api --screenshot /tmp/run.png
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from common import REPO, parser, run_flow, start, table, write_json

log = logging.getLogger("bench.ui_check")

SLUGS = ["best-single-trade", "zeroes-to-end", "primes-below"]
SMALL = [
    f"only={json.dumps(SLUGS)}",
    "testcases.n=6",
    "testcases.min_cases=3",
    "synthesis.size_cap=40",
    "profile.measure.min_rounds=1",
    "profile.measure.max_rounds=2",
    "profile.measure.budget_seconds=0.3",
    "profile.sandbox.limits.cpu_seconds=30",
    "splits.eval_size=1",
    "runner.shard_size=2",
    "runner.workers=2",
]
# what a Mercury build sends (quicksilver/orchestration/build.py, .../report.py)
ARTIFACTS = {
    "mercury-funnel": "table",
    "mercury-summary": "markdown",
    "mercury-report": "markdown",
    "mercury-tasks": "table",
    "mercury-spread": "table",
    "mercury-drops": "table",
}
WINDOW = "1400,1000"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def healthy(api: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api}/health", timeout=1.0) as resp:
            return bool(resp.status == 200)
    except OSError:
        return False


@contextlib.contextmanager
def prefect_server(home: Path, timeout: float = 180) -> Iterator[str]:
    """`make ui`'s server on a free port of 127.0.0.1, with its own Prefect home; its API URL."""
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    env = {
        **os.environ,
        "PREFECT_HOME": str(home),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_UI_API_URL": api,  # else the UI calls the API on :4200
    }
    env.pop("PREFECT_API_URL", None)
    prefect = str(Path(sys.executable).parent / "prefect")
    server_log = (home / "server.log").open("w")
    proc = subprocess.Popen(
        [prefect, "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        stdout=server_log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        deadline = time.monotonic() + timeout
        while not healthy(api):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the Prefect server did not start: see {home / 'server.log'}")
            time.sleep(0.5)
        log.info("Prefect server at %s (pid %d)", api, proc.pid)
        yield api
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        server_log.close()


def build(api: str, out: Path, sets: list[str], home: Path) -> float:
    """The maintainer's command line, reporting to ``api``; its wall seconds."""
    env = {"PREFECT_API_URL": api, "PREFECT_HOME": str(home)}
    return run_flow("build_mercury.py", "mercury.yaml", out, [*SMALL, *sets], prefect_env=env)


def expected_task_runs(out: Path) -> set[str]:
    """What the flow gives its task runs, from the stages' manifests on disk: ``mercury-<stage>``
    per whole-build stage (Prefect adds ``-<3 hex digits>``), ``<stage>-<shard>`` per shard."""
    names = set()
    for stage_dir in sorted((out / "stages").iterdir()):
        shards = sorted(stage_dir.glob("_SUCCESS.shard-*.json"))
        if shards:
            names |= {
                f"{stage_dir.name}-{p.name[len('_SUCCESS.') : -len('.json')]}" for p in shards
            }
        elif (stage_dir / "_SUCCESS.json").is_file():
            names.add(f"mercury-{stage_dir.name}")
    return names


def read_back(api: str) -> dict[str, Any]:
    """The latest build-mercury flow run, its task runs and its artifacts, through the API."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        FlowFilter,
        FlowFilterName,
        FlowRunFilter,
        FlowRunFilterId,
    )
    from prefect.client.schemas.sorting import FlowRunSort
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings(updates={PREFECT_API_URL: api}), get_client(sync_client=True) as c:
        (run,) = c.read_flow_runs(
            flow_filter=FlowFilter(name=FlowFilterName(any_=["build-mercury"])),
            sort=FlowRunSort.START_TIME_DESC,
            limit=1,
        )
        deadline = time.monotonic() + 60  # task run states reach the API asynchronously
        while True:
            tasks = c.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run.id]))
            )
            if time.monotonic() > deadline or all(
                t.state is not None and t.state.is_final() for t in tasks
            ):
                break
            time.sleep(0.5)
        artifacts = c.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[run.id]))
        )
    return {"run": run, "tasks": tasks, "artifacts": artifacts}


def check(found: dict[str, Any], out: Path) -> list[str]:
    """What is wrong with the run as the API shows it (nothing: [])."""
    problems = []
    run = found["run"]
    if run.state_name != "Completed":
        problems.append(f"flow run {run.name}: {run.state_name}")
    names = {  # a whole-build stage's run: mercury-load-ae7 (Prefect adds 3 hex digits)
        t.name if "-shard-" in t.name else t.name.rsplit("-", 1)[0]: t for t in found["tasks"]
    }
    expected = expected_task_runs(out)
    if len(names) != len(found["tasks"]):
        problems.append(f"task run names repeat: {sorted(t.name for t in found['tasks'])}")
    if set(names) != expected:
        problems.append(f"task runs {sorted(names)} != the stages' {sorted(expected)}")
    problems += [
        f"task run {t.name}: {t.state_name}" for t in found["tasks"] if t.state_name != "Completed"
    ]
    kinds = {a.key: a.type for a in found["artifacts"]}
    problems += [
        f"artifact {key} ({kind}) missing (the flow run has {kinds})"
        for key, kind in ARTIFACTS.items()
        if kinds.get(key) != kind
    ]
    return problems


def chromium(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise SystemExit("chromium not found: apt-get install chromium (or run with --no-ui)")
    with tempfile.TemporaryDirectory(prefix="qs-chromium-") as profile:
        return subprocess.run(
            [
                *(exe, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars"),
                *(f"--user-data-dir={profile}", f"--window-size={WINDOW}"),
                *("--virtual-time-budget=15000", *args),
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def look_at_the_ui(api: str, run: Any, screenshot: Path) -> list[str]:
    """The flow run's page in headless Chromium: its DOM must name the run and its state; a
    screenshot of it to ``screenshot``."""
    url = f"{api.removesuffix('/api')}/runs/flow-run/{run.id}"
    dom = chromium("--dump-dom", url).stdout
    problems = [
        f"the page {url} does not show {what!r}"
        for what in (run.name, run.state_name, "build-mercury")
        if what not in dom
    ]
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    shot = chromium(f"--screenshot={screenshot}", url)
    if not screenshot.is_file():
        problems.append(f"no screenshot: {shot.stderr.strip()[-300:]}")
    elif screenshot.stat().st_size < 20_000:  # a blank 1400x1000 page is a few KB
        problems.append(f"{screenshot} is {screenshot.stat().st_size} bytes: a blank page?")
    log.info("the flow run's page: %s; screenshot %s", url, screenshot)
    return problems


def main() -> int:
    p = parser(__doc__, sets=True, verbose=True)
    p.add_argument("--api", default=None, help="use this Prefect server's API (else start one)")
    p.add_argument("--screenshot", type=Path, default=REPO / "docs" / "img" / "prefect-run.png")
    p.add_argument("--no-ui", action="store_true", help="the API checks only, no chromium")
    args = p.parse_args()
    console = start(verbose=args.verbose)
    with tempfile.TemporaryDirectory(prefix="qs-ui-check-") as tmp:
        home, out = Path(tmp) / "prefect-home", Path(tmp) / "mercury"
        home.mkdir()
        with contextlib.ExitStack() as stack:
            api = args.api or stack.enter_context(prefect_server(home))
            seconds = build(api, out, args.set, home)
            found = read_back(api)
            problems = check(found, out)
            if not args.no_ui:
                problems += look_at_the_ui(api, found["run"], args.screenshot)
        run = found["run"]
        console.print(f"flow run [bold]{run.name}[/] ({run.id}): {run.state_name}, {seconds:.0f} s")
        runs = table("task runs", ("name", "left"), ("state", "left"))
        for t in sorted(found["tasks"], key=lambda t: t.start_time or t.expected_start_time):
            runs.add_row(t.name, t.state_name or "-")
        console.print(runs)
        arts = table("artifacts", ("key", "left"), ("type", "left"), ("description", "left"))
        for a in found["artifacts"]:
            arts.add_row(a.key or "-", a.type or "-", a.description or "")
        console.print(arts)
        write_json(
            args.json,
            {
                "flow_run": {"id": str(run.id), "name": run.name, "state": run.state_name},
                "task_runs": {t.name: t.state_name for t in found["tasks"]},
                "artifacts": [{"key": a.key, "type": a.type} for a in found["artifacts"]],
                "build_seconds": seconds,
                "problems": problems,
            },
        )
    for problem in problems:
        console.print(f"[red]problem[/]: {problem}")
    console.print("[green]the run reads back whole[/]" if not problems else "")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
