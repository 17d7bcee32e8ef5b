"""Prefect flow: build a DPE / EvalPerf-format benchmark from snapshots, end to end.

    python flows/build_dpe.py --config configs/dpe.yaml [--set sampling.time_wall_seconds=5 ...]

A thin flow over the DPE build's list of stages (quicksilver/builds.py, docs/dpe-build.md): load ->
candidates -> dedup -> filters -> generators, then per shard of tasks testcases -> uniqueness (the
Mercury build's correctness stages, the same declarations: only solutions that pass the task's
tests go on) -> sas (perf_input_gen generators) -> sampling (exponential input sampling, the
performance-exercising input) -> pe_profile (every valid solution; with a time meter, shard after
shard, alone on the machine), then select (EvalPerf's task filters and the adaptive clustering)
-> publish (EvalPerf-format Parquet + HF + card).

Caching, resuming, task runners, artifacts and the `make ui` server work as in the Mercury flow:
both are the same few lines over their build's list (tasks/build.py, tasks/cli.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: make `tasks` importable
    sys.path.insert(0, str(REPO))
os.environ.setdefault("PREFECT_LOGGING_EXTRA_LOGGERS", "quicksilver")
# the core's worker threads (the profiler's parallel zygotes) log outside any flow-run
# context: their records go to the console, not to the API, without a UserWarning each
os.environ.setdefault("PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW", "ignore")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from prefect import flow  # noqa: E402

from quicksilver.builds import DPE  # noqa: E402
from tasks.build import run_build  # noqa: E402
from tasks.cli import run_cli  # noqa: E402
from tasks.deployments import flow_config  # noqa: E402


@flow(name="build-dpe", log_prints=False)
def build_dpe(
    config: dict[str, Any] | None = None,
    config_path: str | None = None,
    overrides: list[str] | str | None = None,
) -> dict[str, Any]:
    """Build the DPE dataset from ``config`` (the whole config: the command line), or from
    ``config_path`` and ``overrides`` (``KEY=VALUE``, as --set: a deployment run, flows/serve.py);
    returns the funnel and where the dataset is."""
    return run_build(DPE, flow_config(DPE, config, config_path, overrides))


def main(argv: list[str] | None = None) -> int:
    return run_cli(
        argv,
        build=DPE,
        build_flow=build_dpe,
        default_config="configs/dpe.yaml",
        example="sampling.max_scale_exp=12",
        description=__doc__.split("\n\n")[0],
    )


if __name__ == "__main__":
    sys.exit(main())
