"""The build flows' command line as a user meets it, run as subprocesses: the preflight (one line,
nothing written, when untrusted code cannot run here or a folder is wrong), one line naming the
path when the disk fills up during a stage, and a clean stop on SIGTERM (finished shards kept,
no process left behind, a rerun redoes only the rest)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from quicksilver.lifecycle import alive, descendants
from tests.conftest import requires_bwrap
from tests.prefect_servers import prefect_server
from tests.private_mounts import requires_private_mounts, run_with_mounts

ROOT = Path(__file__).resolve().parents[1]
FLOWS = {"mercury": ROOT / "flows" / "build_mercury.py", "dpe": ROOT / "flows" / "build_dpe.py"}
UNUSABLE_BWRAP = (
    "#!/bin/sh\n"
    "echo 'bwrap: No permissions to creating new namespace, likely because the kernel does not "
    "allow non-privileged user namespaces.' >&2\n"
    "exit 1\n"
)


MARKER = "QUICKSILVER_TEST_BUILD"


def _marked(tmp_path: Path) -> list[str]:
    """Live processes whose environment carries this test's marker (see _env)."""
    needle = f"{MARKER}={tmp_path}\0".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{name}/environ").read_bytes()
        except OSError:
            continue
        if needle in environ and alive(int(name)):
            found.append(f"{name}: {_cmdline(int(name))}")
    return found


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The build's environment: its own Prefect home (the temporary server's database)."""
    env = {
        **os.environ,
        MARKER: str(tmp_path),  # inherited by every process the build starts but the sandboxes
        "PREFECT_HOME": str(tmp_path / "prefect-home"),
        # a loaded machine can take long to start the temporary Prefect server
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
        "COLUMNS": "200",
    }
    env.pop("PREFECT_API_URL", None)
    env.update(extra)
    return env


def _argv(flow: str, out: Path, *sets: str) -> list[str]:
    argv = [sys.executable, str(FLOWS[flow]), "-v", "--set", f"out_dir={out}"]
    for s in sets:
        argv += ["--set", s]
    return argv


def _error_line(stderr: str) -> str:
    """The one line the command ends with; no traceback anywhere."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, stderr
    return errors[0]


# --- preflight ----------------------------------------------------------------------------------


@pytest.mark.parametrize("flow", ["mercury", "dpe"])
@pytest.mark.parametrize("bwrap", ["unusable", "missing"])
def test_build_stops_before_any_stage_when_untrusted_code_cannot_run(tmp_path, flow, bwrap):
    fake = tmp_path / "bin"
    fake.mkdir()
    if bwrap == "unusable":  # first on PATH: found before the real one
        (fake / "bwrap").write_text(UNUSABLE_BWRAP)
        (fake / "bwrap").chmod(0o755)
        path = f"{fake}:{os.environ['PATH']}"
        expected = (
            "error: cannot run untrusted code here: bwrap is installed but a trial run failed: "
            "bwrap: No permissions to creating new namespace, likely because the kernel does not "
            "allow non-privileged user namespaces."
        )
    else:
        path = str(fake)  # an empty folder: no bwrap anywhere
        expected = (
            "error: cannot run untrusted code here: bubblewrap (bwrap) is not installed: "
            "apt-get install bubblewrap"
        )
    out = tmp_path / "out"
    out.mkdir()  # an existing output folder stays empty
    # "before any stage" is shown by what exists afterwards, not by the wall clock (a loaded
    # machine took 42 s here); the timeout only ends a hang
    proc = subprocess.run(
        _argv(flow, out, "only=[primes-below]"),
        capture_output=True,
        text=True,
        env=_env(tmp_path, PATH=path),
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 3
    assert proc.stderr.splitlines() == [expected]
    assert list(out.iterdir()) == []
    # no Prefect server was started (importing Prefect makes its home folder, nothing in it)
    assert not list((tmp_path / "prefect-home").rglob("*"))


@requires_bwrap  # the preflight tries the sandbox first
def test_missing_snapshot_folder_is_one_line(tmp_path):
    missing = tmp_path / "snapshots"
    proc = subprocess.run(
        _argv("mercury", tmp_path / "out", f"snapshots=[{missing}]"),
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 3
    assert proc.stderr.splitlines() == [
        f"error: snapshot folder {missing} does not exist (snapshots in the config)"
    ]
    assert not (tmp_path / "out").exists()


@requires_bwrap  # the preflight tries the sandbox first
@requires_private_mounts
def test_read_only_output_folder_is_one_line(tmp_path):
    disk = tmp_path / "ro"
    out = disk / "build"
    proc = run_with_mounts(
        _argv("dpe", out), {disk: "ro,size=64k"}, env=_env(tmp_path), cwd=ROOT, timeout=60
    )
    assert proc.returncode == 3
    assert proc.stderr.splitlines() == [
        f"error: output folder {out}: cannot write: Read-only file system"
    ]


# --- a full disk during a stage -----------------------------------------------------------------

SMALL = [
    'only=["best-single-trade", "zeroes-to-end"]',
    "testcases.n=6",
    "testcases.min_cases=3",
    "runner.shard_size=1",
    "runner.workers=1",
    "splits.eval_size=1",
]


@requires_bwrap
@requires_private_mounts
def test_full_disk_during_a_shard_is_one_line_naming_the_file(tmp_path):
    """256 KiB: room for the preflight and the first stages, not for the test cases."""
    disk = tmp_path / "disk"
    out = disk / "build"
    proc = run_with_mounts(
        _argv("mercury", out, *SMALL),
        {disk: "size=256k"},
        env=_env(tmp_path),
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stderr
    assert _marked(tmp_path) == []  # the temporary Prefect server went with it
    line = _error_line(proc.stderr)
    match = re.fullmatch(r"error: (\S+): cannot write: No space left on device", line)
    assert match, line
    written = Path(match[1])
    assert written.is_relative_to(out / "stages"), line
    # the Prefect task state carries the same line
    assert (
        f"Finished in state Failed('Task run encountered an exception WriteError: {match[1]}: "
        in (proc.stderr)
    )


# --- SIGTERM ------------------------------------------------------------------------------------

STOPPABLE = [
    'only=["best-single-trade", "zeroes-to-end"]',  # shard-0000, shard-0001
    "testcases.n=10",
    "testcases.min_cases=3",
    "synthesis.size_cap=40",
    "profile.measure.min_rounds=3",
    "profile.measure.max_rounds=6",
    "profile.measure.budget_seconds=1",  # profile/shard-0001: a few seconds
    "runner.shard_size=1",
    "runner.workers=1",  # one stage run at a time: testcases, uniqueness, profile per shard
    "splits.eval_size=1",
]
SHARDED = ("testcases", "uniqueness", "profile")


def _start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _digests(stages: Path) -> dict[str, str]:
    return {
        str(p.relative_to(stages)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(stages.rglob("*"))
        if p.is_file() and ".prefect-results" not in p.parts
    }


def _task_states(stderr: str) -> dict[str, str]:
    """Final Prefect state per task run, from the console log ("mercury-load-3bc" -> load)."""
    states = {}
    for name, state in re.findall(r"Task run '([^']+)' - Finished in state (\w+)", stderr):
        states[name if "shard" in name else name.rsplit("-", 1)[0]] = state
    return states


@requires_bwrap
def test_sigterm_keeps_finished_shards_leaves_no_process_and_a_rerun_redoes_the_rest(tmp_path):
    out = tmp_path / "build"
    stages = out / "stages"
    env = _env(tmp_path)
    argv = _argv("mercury", out, *STOPPABLE)
    log = (tmp_path / "first.log").open("w+")
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=ROOT)

    def manifest(stage: str, part: str) -> Path:
        return stages / stage / f"_SUCCESS.{part}.json"

    # wait until shard-0000 is done, shard-0001 has its test cases, and its profile runs in a
    # sandbox right now
    running: dict[int, tuple[str | None, str]] = {}
    deadline = time.monotonic() + 600
    while True:
        assert proc.poll() is None, Path(log.name).read_text()
        assert time.monotonic() < deadline, "the build never reached shard-0001's profile"
        ready = all(manifest(s, "shard-0000").exists() for s in SHARDED) and all(
            manifest(s, "shard-0001").exists() for s in ("testcases", "uniqueness")
        )
        if ready and not manifest("profile", "shard-0001").exists():
            running = {p: (_start_time(p), _cmdline(p)) for p in descendants(proc.pid)}
            if any("bwrap" in cmd for _, cmd in running.values()):
                break
        time.sleep(0.02)
    kept = _digests(stages)
    manifests = {p: p.stat().st_mtime_ns for p in stages.glob("*/_SUCCESS*.json")}
    assert any(str(proc.pid) == p.split(":")[0] for p in _marked(tmp_path))  # the marker works

    proc.send_signal(signal.SIGTERM)
    start = time.monotonic()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("the build did not stop within 10 s of SIGTERM")
    assert time.monotonic() - start < 10
    stderr = Path(log.name).read_text()
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert _error_line(stderr) == (
        f"error: stopped by SIGTERM: finished stages and shards are kept in {stages}; run the "
        "same command again to finish the rest"
    )

    # no process it started is left: not the sandboxes, not the temporary Prefect server
    def left() -> list[str]:
        return [
            f"{pid}: {cmd}"
            for pid, (started, cmd) in running.items()
            if alive(pid) and _start_time(pid) == started
        ]

    settle = time.monotonic() + 2  # a SIGKILL sent just before the exit takes a moment
    while (left() or _marked(tmp_path)) and time.monotonic() < settle:
        time.sleep(0.05)
    assert left() == []
    assert _marked(tmp_path) == []  # nor any started after the look above
    # every file there before the signal is intact (the manifests included); the interrupted
    # profile of shard-0001 left no manifest, so a rerun cannot take it for done
    assert not manifest("profile", "shard-0001").exists()
    assert not [p for p in kept if p.startswith("profile/") and "shard-0001" in p]
    after = _digests(stages)
    assert {name: after.get(name) for name in kept} == kept

    rerun = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    states = _task_states(rerun.stderr)
    assert states == {
        "mercury-load": "Cached",
        "mercury-dedup": "Cached",
        "mercury-filters": "Cached",
        "mercury-generators": "Cached",
        "testcases-shard-0000": "Cached",
        "uniqueness-shard-0000": "Cached",
        "profile-shard-0000": "Cached",
        "testcases-shard-0001": "Cached",
        "uniqueness-shard-0001": "Cached",
        "profile-shard-0001": "Completed",
        "mercury-splits": "Completed",
        "mercury-publish": "Completed",
    }, rerun.stderr
    # the finished stages were not rewritten; the rest is there now
    assert {p: p.stat().st_mtime_ns for p in manifests} == manifests
    assert manifest("profile", "shard-0001").exists()
    assert json.loads((stages / "publish" / "_SUCCESS.json").read_text())["counts"]["tasks_out"]
    assert (out / "README.md").is_file()


_RUN_STATES = """
import json, sys
from uuid import UUID
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
run_id = UUID(sys.argv[1])
with get_client(sync_client=True) as client:
    run = client.read_flow_run(run_id)
    tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[run_id])))
    print(json.dumps({"flow": run.state.type.value, "message": run.state.message,
                      "tasks": {t.name: t.state.type.value if t.state else None for t in tasks}}))
"""


def _run_states(env: dict[str, str], run_id: str) -> dict[str, Any]:
    """A flow run's state and its task runs' states, read through the Prefect API (a temporary
    server on the build's Prefect home: the database the builds reported to)."""
    proc = subprocess.run(
        [sys.executable, "-c", _RUN_STATES, run_id],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@requires_bwrap
def test_a_killed_build_is_shown_crashed_once_the_next_build_starts(tmp_path):
    """SIGKILL leaves the flow run Running (heartbeats are off); the next build on the same
    output folder finds the killed one's record in the lock file and marks it Crashed
    (quicksilver/orchestration/stale_runs.py)."""
    out = tmp_path / "build"
    env = _env(tmp_path)
    argv = _argv("mercury", out, *STOPPABLE)
    log = (tmp_path / "first.log").open("w+")
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=ROOT, start_new_session=True
    )
    lock = out / ".build.lock"
    deadline = time.monotonic() + 600
    record: dict[str, Any] = {}
    stages = out / "stages"
    while True:  # shard-0001's profile runs in a sandbox right now (a task run is Running)
        assert proc.poll() is None, Path(log.name).read_text()
        assert time.monotonic() < deadline, "the build never reached shard-0001's profile"
        ready = all(
            (stages / s / f"_SUCCESS.{part}.json").exists()
            for s, part in [(s, "shard-0000") for s in SHARDED] + [("uniqueness", "shard-0001")]
        )
        if ready and not (stages / "profile" / "_SUCCESS.shard-0001.json").exists():
            with contextlib.suppress(OSError, ValueError):
                record = json.loads(lock.read_text())
            running = [_cmdline(p) for p in descendants(proc.pid)]
            if record.get("flow_run_id") and any("bwrap" in cmd for cmd in running):
                break
        time.sleep(0.02)
    family = [proc.pid, *descendants(proc.pid)]
    os.killpg(proc.pid, signal.SIGKILL)  # the build, its temporary server, everything it started
    for pid in family:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    proc.wait()
    run_id = record["flow_run_id"]
    killed = _run_states(env, run_id)
    assert killed["flow"] == "RUNNING", killed  # what the UI showed for ever before
    # the killed shard's profile was left unfinished: Running, or not yet that far on the server
    # (a task run's states travel as events, and on a loaded machine the SIGKILL can come before
    # its Running event is sent: seen once, the state still None)
    assert killed["tasks"].get("profile-shard-0001") in ("RUNNING", "PENDING", None), killed

    rerun = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    assert "was killed while running: marked Crashed" in rerun.stderr, rerun.stderr[-3000:]
    after = _run_states(env, run_id)
    assert after["flow"] == "CRASHED", after
    assert after["message"].startswith(f"killed: the build (pid {proc.pid} on "), after
    assert "RUNNING" not in after["tasks"].values(), after
    assert lock.read_text() == ""  # the rerun ended in its own process: nothing to mark


def _flow_module(name: str) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{name}_lifecycle", FLOWS[name])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_flow_called_directly_checks_before_its_first_stage(prefect_harness, tmp_path):
    """A deployment calls the flow function, not the command line: it checks too."""
    from quicksilver.config import load_build_config

    missing = tmp_path / "snapshots"
    out = tmp_path / "out"
    cfg = load_build_config(None, [f"snapshots=[{missing}]", f"out_dir={out}"])
    state = _flow_module("mercury").build_mercury(cfg.model_dump(mode="json"), return_state=True)
    assert state.is_failed()
    assert state.message.endswith(
        f"NotReady: snapshot folder {missing} does not exist (snapshots in the config)"
    )
    assert not out.exists()


@requires_bwrap  # the preflight runs first
def test_a_second_build_on_a_busy_out_dir_stops_at_once_in_one_line(tmp_path):
    from quicksilver.pipeline.lock import build_lock

    out = tmp_path / "out"
    with build_lock(out):  # another build holds it (this process)
        proc = subprocess.run(
            _argv("mercury", out, "only=[primes-below]"),
            capture_output=True,
            text=True,
            env=_env(tmp_path),
            cwd=ROOT,
            timeout=600,
            check=False,
        )
    assert proc.returncode == 3, proc.stderr
    line = _error_line(proc.stderr)
    assert line.startswith(f"error: {out} is being built by another build (pid {os.getpid()} on ")
    assert sorted(p.name for p in out.iterdir()) == [".build.lock"]  # nothing of its own written


# --- the Prefect server goes away ---------------------------------------------------------------


@requires_bwrap
def test_a_build_whose_prefect_server_goes_away_finishes_and_says_so_once(tmp_path):
    """The server a build reports to is killed mid-build (after shard-0000's first stage): the
    build finishes without it (quicksilver/orchestration/server_watch.py), writes its dataset and funnel, says so
    in one warning line, with no traceback nor Prefect's retry noise, and exits 0."""
    out = tmp_path / "build"
    with prefect_server(tmp_path / "server-home") as server:
        env = _env(tmp_path, PREFECT_API_URL=server.api)
        proc = subprocess.Popen(
            _argv("mercury", out, *STOPPABLE),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        first = out / "stages" / "testcases" / "_SUCCESS.shard-0000.json"
        deadline = time.monotonic() + 600
        while not first.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the build never finished its first shard"
            time.sleep(0.05)
        server.kill()
        stdout, stderr = proc.communicate(timeout=900)
    assert proc.returncode == 0, stderr[-5000:]
    # the sharded stages after the outage ran, and the dataset is there
    assert (out / "stages" / "profile" / "_SUCCESS.shard-0001.json").exists(), stderr[-5000:]
    assert list((out / "parquet").rglob("*.parquet")), sorted(p.name for p in out.iterdir())
    assert (out / "report.html").exists()
    assert f"dataset: {out} (parquet/, hf/, README.md)" in stdout
    assert re.search(r"publish\s*│\s*2\s*│\s*2\s*│", stdout), stdout  # the funnel: both tasks
    said = [line for line in stderr.splitlines() if "stopped answering" in line]
    assert len(said) == 1, stderr[-5000:]
    assert f"the Prefect server at {server.api} stopped answering" in said[0]
    assert "Traceback" not in stderr, stderr[-5000:]
    assert "Error logging to API" not in stderr, stderr[-5000:]
    assert "Unable to connect" not in stderr, stderr[-5000:]
    assert not [line for line in stderr.splitlines() if "| ERROR" in line], stderr[-5000:]


def test_a_log_batch_the_server_cannot_take_is_left_to_the_watch(capsys):
    """A log batch sent in the seconds before the watch counts the server gone fails with a
    connection error: Prefect would write '--- Error logging to API ---' for it (seen on a busy
    machine); the watch says it once instead. Any other failure is still written."""
    import asyncio

    import httpx
    from prefect.logging.handlers import APILogWorker

    from quicksilver.orchestration.server_watch import quiet_log_batches

    saved = APILogWorker._handle_batch
    try:
        quiet_log_batches()
        quiet_log_batches()  # once is enough: not wrapped twice

        class Client:
            def __init__(self, exc: Exception) -> None:
                self.exc = exc

            async def create_logs(self, items: list) -> None:
                raise self.exc

        worker = APILogWorker.__new__(APILogWorker)
        worker._client = Client(httpx.ConnectError("All connection attempts failed"))
        asyncio.run(APILogWorker._handle_batch(worker, [{"message": "x"}]))
        assert "Error logging to API" not in capsys.readouterr().err
        worker._client = Client(ValueError("422: a log the API refused"))
        asyncio.run(APILogWorker._handle_batch(worker, [{"message": "x"}]))
        err = capsys.readouterr().err
        assert "--- Error logging to API ---" in err and "422: a log the API refused" in err
    finally:
        APILogWorker._handle_batch = saved
