"""The build flows' deployments (flows/serve.py, quicksilver/orchestration/deployments.py).

End to end: a real Prefect server on 127.0.0.1 (the session's test server, on a free port), the
serving process started against it as `make serve` starts it, a deployment run triggered through
the API with a config path and overrides for a build of three bundled questions, waited for: the
run ends Completed and the dataset is there. Then a schedule: served with --cron, the deployment
carries it, and stopping the serving process pauses it. Units: a flow's config from its
parameters, the schedule flags, a bad override stopping `serve` before any server starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from quicksilver.builds import DPE, MERCURY
from quicksilver.config import ConfigError
from quicksilver.orchestration.deployments import flow_config, schedule_of
from tests.conftest import requires_bwrap

ROOT = Path(__file__).resolve().parents[1]
SERVE = ROOT / "flows" / "serve.py"
SLUGS = ["best-single-trade", "zeroes-to-end", "primes-below"]


# --- units ---------------------------------------------------------------------------------------


def test_flow_config_from_a_path_and_overrides(tmp_path):
    cfg = flow_config(
        MERCURY, None, "configs/mercury.yaml", [f"out_dir={tmp_path}", "testcases.n=7"]
    )
    assert cfg["out_dir"] == str(tmp_path) and cfg["testcases"]["n"] == 7
    whole = {"out_dir": "x"}
    assert flow_config(MERCURY, whole, None, None) is whole  # the command line's way
    dpe = flow_config(DPE, None, "configs/dpe.yaml", ["sampling.max_scale_exp=9"])
    assert dpe["sampling"]["max_scale_exp"] == 9
    # one string, parts separated by ";": the form the Prefect CLI leaves alone
    one = flow_config(
        MERCURY, None, "configs/mercury.yaml", "only=[two-sum, add-up]; testcases.n=7"
    )
    assert one["only"] == ["two-sum", "add-up"] and one["testcases"]["n"] == 7


def test_the_prefect_cli_passes_the_string_form_through_untouched():
    from prefect.cli._utilities import load_json_key_values

    (value,) = load_json_key_values(
        ["overrides=only=[two-sum, add-up]; testcases.n=7"], "parameter"
    ).values()
    assert value == "only=[two-sum, add-up]; testcases.n=7"


@pytest.mark.parametrize(
    ("config", "path", "overrides", "says"),
    [
        ({"out_dir": "x"}, "configs/mercury.yaml", None, "not both"),
        (None, None, None, "no config"),
        (None, "configs/mercury.yaml", ["no.such.key=1"], "no"),
        (None, "configs/mercury.yaml", ["testcases.n"], "expected dotted.key=value"),
        (None, "configs/absent.yaml", None, "cannot read"),
        # what the Prefect CLI makes of --param 'overrides=[only=[two-sum]]' (not JSON: one
        # string), and a value cut off: refused by name, never a silent full build
        (None, "configs/mercury.yaml", "[only=[two-sum]]", r"'\[only=\[two-sum\]\]': expected"),
        (None, "configs/mercury.yaml", ["only="], r"'only=': no value \(write only=null"),
    ],
)
def test_flow_config_says_what_is_wrong(config, path, overrides, says):
    with pytest.raises(ConfigError, match=says):
        flow_config(MERCURY, config, path, overrides)


def test_schedules_are_off_unless_asked_for():
    assert schedule_of(None, None) == {}
    assert schedule_of("0 3 * * *", None) == {"cron": "0 3 * * *"}
    assert schedule_of(None, 3600)["interval"].total_seconds() == 3600
    with pytest.raises(ConfigError, match="not both"):
        schedule_of("0 3 * * *", 60)
    with pytest.raises(ConfigError, match="positive"):
        schedule_of(None, 0)


def test_a_bad_override_stops_serve_before_any_server(tmp_path):
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "home")}
    env.pop("PREFECT_API_URL", None)
    proc = subprocess.run(
        [sys.executable, str(SERVE), "--port", "9", "--set", "testcases.n=zero"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: configs/mercury.yaml: testcases.n"), proc.stderr
    assert "Prefect UI" not in proc.stdout


# --- end to end ----------------------------------------------------------------------------------


@contextlib.contextmanager
def serving(api: str, home: Path, *args: str) -> Iterator[subprocess.Popen[str]]:
    """``flows/serve.py ARGS`` against ``api`` until the context ends (SIGTERM, as Ctrl-C)."""
    env = {**os.environ, "PREFECT_API_URL": api, "PREFECT_HOME": str(home)}
    log = home / "serve.log"
    home.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, str(SERVE), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=ROOT,
        )
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        print(log.read_text()[-6000:])  # shown when the test fails


def _deployment(name: str, proc: subprocess.Popen[str], timeout: float = 180) -> Any:
    """The deployment ``flow/name`` once the serving process serves it (registered, and Ready:
    polled for runs)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.objects import DeploymentStatus
    from prefect.exceptions import ObjectNotFound

    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, "the serving process exited"
        with get_client(sync_client=True) as client:
            try:
                deployment = client.read_deployment_by_name(name)
                if deployment.status == DeploymentStatus.READY:
                    return deployment
            except ObjectNotFound:
                pass
        assert time.monotonic() < deadline, f"{name} was not served in {timeout} s"
        time.sleep(1)


def _overrides(out: Path) -> list[str]:
    return [
        f"out_dir={out}",
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


@requires_bwrap
@pytest.mark.flows
def test_a_deployment_run_from_the_api_builds_the_dataset(prefect_harness, tmp_path):
    from prefect.deployments import run_deployment
    from prefect.settings import PREFECT_API_URL

    api = PREFECT_API_URL.value()
    assert api.startswith("http://127.0.0.1:"), api
    out = tmp_path / "mercury"
    with serving(api, tmp_path / "home") as proc:
        deployment = _deployment("build-mercury/mercury", proc)
        assert deployment.parameters == {"config_path": "configs/mercury.yaml", "overrides": []}
        assert deployment.schedules == []  # no schedule unless asked for
        _deployment("build-dpe/dpe", proc)
        run = run_deployment(
            "build-mercury/mercury",
            parameters={"config_path": "configs/mercury.yaml", "overrides": _overrides(out)},
            timeout=900,
            poll_interval=2,
        )
        assert run.state is not None and run.state.is_completed(), (run.state, run.state_name)
        assert proc.poll() is None  # still serving
    assert run.parameters["overrides"][0] == f"out_dir={out}"
    assert (out / "parquet" / "train.parquet").is_file()
    assert (out / "parquet" / "eval.parquet").is_file()
    assert (out / "README.md").is_file() and (out / "hf").is_dir()
    published = json.loads((out / "stages" / "publish" / "_SUCCESS.json").read_text())
    assert published  # the publish stage finished, with its manifest


@pytest.mark.flows
def test_a_schedule_is_served_and_paused_when_serving_stops(prefect_harness, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL

    yearly = "0 0 1 1 *"  # no run during the test
    home = tmp_path / "home"
    with serving(PREFECT_API_URL.value(), home, "--build", "dpe", "--cron", yearly) as proc:
        deadline = time.monotonic() + 180
        # The deployment may be there already, from another test's serving process: without
        # this schedule, or with it and paused (that process stopped), and still Ready for a
        # while. Wait until this process has registered the schedule and resumed the deployment.
        while True:
            deployment = _deployment("build-dpe/dpe", proc)
            registered = [s for s in deployment.schedules if s.schedule.cron == yearly]
            if (registered and not deployment.paused) or time.monotonic() > deadline:
                break
            time.sleep(1)
        (schedule,) = deployment.schedules
        assert schedule.schedule.cron == yearly and schedule.active and not deployment.paused
    assert proc.returncode == 0
    with get_client(sync_client=True) as client:
        after = client.read_deployment_by_name("build-dpe/dpe")
    assert after.paused  # no scheduled run piles up while nothing serves it
    # SIGTERM is one line, not Prefect's teardown tracebacks
    said = (home / "serve.log").read_text()
    assert "Traceback" not in said, said[-3000:]
    assert said.rstrip().splitlines()[-1] == (
        "serve: stopped by SIGTERM: schedules paused, the deployments no longer served by this "
        "process"
    ), said[-3000:]
