"""Retries cover infrastructure faults only (quicksilver/faults.py, quicksilver/orchestration/retries.py).

A sandbox that cannot start raises SandboxStartError (never a verdict); a solution that crashes
or times out gets its verdict, once, and nothing is raised; Prefect runs a stage task again only
when it failed on an infrastructure fault, as many times as ``retries.attempts`` says.
"""

from __future__ import annotations

from typing import Any

import pytest

from quicksilver.config import (
    BuildConfig,
    ConfigError,
    RetrySection,
    RunnerSection,
    load_build_config,
)
from quicksilver.execute import run_calls
from quicksilver.faults import InfrastructureFault, infrastructure_fault
from quicksilver.orchestration.cli import make_task_runner
from quicksilver.orchestration.retries import infrastructure_failed, retry_options
from quicksilver.sandbox.session import (
    ChildGone,
    LimitExceeded,
    SandboxSession,
    SandboxStartError,
)
from tests.conftest import requires_bwrap


def _failed(exc: BaseException) -> Any:
    from prefect.states import Failed

    return Failed(data=exc, message=repr(exc))


def test_only_infrastructure_faults_are_retried():
    start = SandboxStartError("the sandbox could not start: bwrap: setting up uid map")
    assert infrastructure_failed(None, None, _failed(start))
    try:  # raised from one, a few links up
        try:
            raise start
        except SandboxStartError as exc:
            raise RuntimeError("testcases/shard-0001 failed") from exc
    except RuntimeError as wrapped:
        assert infrastructure_fault(wrapped) is start
        assert infrastructure_failed(None, None, _failed(wrapped))
    for verdict in (
        LimitExceeded("cpu", "CPU time limit of 1s exceeded"),
        ChildGone("the sandboxed process exited during the command", -11),
        ValueError("a bug"),
        OSError(28, "No space left on device"),
    ):
        assert not infrastructure_failed(None, None, _failed(verdict)), verdict
    assert issubclass(SandboxStartError, InfrastructureFault)


def test_retry_section_is_typed_and_backs_off():
    assert RetrySection().attempts == 2
    assert RetrySection(attempts=3, backoff_seconds=2).delays() == [2, 4, 8]
    options = retry_options(RetrySection(attempts=0))
    assert options["retries"] == 0 and options["retry_delay_seconds"] == 0
    with pytest.raises(ValueError, match="attempts"):
        RetrySection(attempts=-1)
    cfg = BuildConfig.model_validate({"retries": {"attempts": 1, "backoff_seconds": 0.5}})
    assert cfg.retries.delays() == [0.5]


def test_a_runner_the_build_cannot_use_is_refused_when_the_config_loads():
    # (ray was accepted here and refused by the runner later; the config now says it at once)
    with pytest.raises(ConfigError) as exc:
        load_build_config(None, ["runner.kind=ray"])
    assert "runner.kind" in str(exc.value) and "'dask'" in str(exc.value)


def test_dask_runner_is_a_local_cluster_of_single_thread_processes_or_an_address():
    from prefect_dask import DaskTaskRunner

    local = make_task_runner(RunnerSection(kind="dask", workers=3), RetrySection(attempts=4))
    assert isinstance(local, DaskTaskRunner) and local.address is None
    assert local.cluster_kwargs["n_workers"] == 3
    assert local.cluster_kwargs["threads_per_worker"] == 1
    assert local.cluster_kwargs["scheduler_kwargs"] == {"allowed_failures": 4}
    remote = make_task_runner(RunnerSection(kind="dask", address="tcp://10.0.0.5:8786"))
    assert isinstance(remote, DaskTaskRunner) and remote.address == "tcp://10.0.0.5:8786"


# --- the sandbox layer ---------------------------------------------------------------------------

CRASH = "def f(x):\n    import os\n    os.abort()\n"
HANG = "def f(x):\n    while True:\n        pass\n"
OK = "def f(x):\n    return x + 1\n"


@pytest.fixture
def count_starts(monkeypatch) -> dict[str, int]:
    """Counts sandbox starts; ``fail`` starts fail (as a harness dying before its hello)."""
    seen = {"starts": 0, "fail": 0}
    original = SandboxSession._start

    def start(self: SandboxSession) -> None:
        seen["starts"] += 1
        if seen["fail"] > 0:
            seen["fail"] -= 1
            raise ChildGone("the harness exited before its hello (injected)", 1)
        original(self)

    monkeypatch.setattr(SandboxSession, "_start", start)
    return seen


@requires_bwrap
def test_a_sandbox_that_cannot_start_is_a_fault_not_a_verdict(count_starts):
    count_starts["fail"] = 1
    with pytest.raises(SandboxStartError, match=r"could not start.*injected"):
        run_calls(OK, entry_point="f", inputs=[[1]], cpu_seconds=2)
    run = run_calls(OK, entry_point="f", inputs=[[1]], cpu_seconds=2)  # the next start works
    assert run.ok and run.outcomes[0].value == 2


@requires_bwrap
def test_a_solution_that_crashes_or_hangs_has_its_verdict_once(count_starts):
    crash = run_calls(CRASH, entry_point="f", inputs=[[1], [2]], cpu_seconds=1)
    assert [o.status for o in crash.outcomes] == ["error", "error"]
    assert "the process died" in (crash.outcomes[0].error or "")
    assert count_starts["starts"] == 2  # one process per call: the crash killed the first
    count_starts["starts"] = 0
    hang = run_calls(HANG, entry_point="f", inputs=[[1]], cpu_seconds=0.5)
    assert [o.status for o in hang.outcomes] == ["timeout"]
    assert count_starts["starts"] == 1  # no second try


# --- the Prefect layer ---------------------------------------------------------------------------


@pytest.mark.flows
def test_prefect_runs_again_only_what_failed_on_a_fault(prefect_harness):
    from prefect import flow, task

    calls: dict[str, int] = {}

    @task
    def work(name: str, exc: BaseException | None, times: int) -> str:
        calls[name] = calls.get(name, 0) + 1
        if exc is not None and calls[name] <= times:
            raise exc
        return name

    options = retry_options(RetrySection(attempts=2, backoff_seconds=0))

    @flow
    def shards() -> dict[str, str]:
        runs = {
            "flaky-start": (SandboxStartError("the sandbox could not start (injected)"), 1),
            "never-starts": (SandboxStartError("the sandbox could not start (injected)"), 9),
            "timeout": (LimitExceeded("cpu", "CPU time limit of 1s exceeded"), 9),
            "bug": (ValueError("a bug"), 9),
        }
        out = {}
        for name, (exc, times) in runs.items():
            state = work.with_options(**options)(name, exc, times, return_state=True)
            out[name] = state.name
        return out

    states = shards()
    assert states["flaky-start"] == "Completed" and calls["flaky-start"] == 2
    assert states["never-starts"] == "Failed" and calls["never-starts"] == 3  # 1 + 2 attempts
    assert states["timeout"] == "Failed" and calls["timeout"] == 1
    assert states["bug"] == "Failed" and calls["bug"] == 1


@requires_bwrap
def test_a_profile_whose_sandbox_cannot_start_is_a_fault_not_a_verdict(count_starts):
    """A real build lost four tasks so: bubblewrap went missing while it profiled, and every
    solution got 'profiling failed (the task's setup): SandboxStartError' as its verdict, so the
    tasks were dropped (min-solutions). The fault now reaches the stage, which Prefect runs
    again; the next start works and the solutions get their verdicts."""
    from quicksilver.config import MeasureConfig
    from quicksilver.profiler import Job, profile_many
    from quicksilver.profiler.model import Case, ProfileTask

    task = ProfileTask("plus-one", "f", (Case([1], 2), Case([5], 6)), kind="function")
    measure = MeasureConfig(meter="cpu", min_rounds=1, max_rounds=1, budget_seconds=1.0)
    count_starts["fail"] = 9  # the native judge's start and the meter's both fail
    with pytest.raises(SandboxStartError, match="injected"):
        profile_many([Job(task, OK), Job(task, OK)], measure=measure, workers=1)
    count_starts["fail"] = 0
    results = profile_many([Job(task, OK), Job(task, OK)], measure=measure, workers=1)
    assert [r.status for r in results] == ["passed", "passed"], [r.error for r in results]
