"""Prefect flow: build a Mercury-format benchmark from a snapshot, end to end.

    python flows/build_mercury.py --config configs/mercury.yaml [--set testcases.n=8 ...]

A thin flow over the Mercury build's list of stages (quicksilver/builds.py, docs/mercury-build.md):
load -> dedup -> filters -> generators, then per shard of tasks testcases -> uniqueness -> profile
(shards run on the task runner the config names: threads or processes here, a Dask cluster
elsewhere), then splits -> publish. Tasks pass the configuration and shard names, never records:
every stage writes its records to <out_dir>/stages/<stage>/ and the next one reads them there.

A stage is done when its manifest carries its key (its logic and what it imports, its settings,
its input files); Prefect's cache, keyed the same, only echoes that. So a rerun with nothing
changed reuses every stage, and a rerun after an interruption redoes only the unfinished shards.
At the end the flow prints the funnel and publishes it as Prefect artifacts (a table of counts
and drop reasons per stage, and a markdown summary) when a Prefect server is reachable.
"""

from __future__ import annotations

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
# the core's worker threads (the profiler's parallel zygotes) log outside any flow-run
# context: their records go to the console, not to the API, without a UserWarning each
os.environ.setdefault("PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW", "ignore")
# offline machines: the temporary server's telemetry would only log a DNS failure
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from prefect import flow  # noqa: E402

from quicksilver.builds import MERCURY  # noqa: E402
from tasks.build import run_build  # noqa: E402
from tasks.cli import run_cli  # noqa: E402
from tasks.deployments import flow_config  # noqa: E402


@flow(name="build-mercury", log_prints=False)
def build_mercury(
    config: dict[str, Any] | None = None,
    config_path: str | None = None,
    overrides: list[str] | str | None = None,
) -> dict[str, Any]:
    """Build the dataset from ``config`` (the whole config: the command line), or from
    ``config_path`` and ``overrides`` (``KEY=VALUE``, as --set: a deployment run, flows/serve.py);
    returns the funnel and where the dataset is."""
    return run_build(MERCURY, flow_config(MERCURY, config, config_path, overrides))


def main(argv: list[str] | None = None) -> int:
    return run_cli(
        argv,
        build=MERCURY,
        build_flow=build_mercury,
        default_config="configs/mercury.yaml",
        example="testcases.n=8",
        description=__doc__.split("\n\n")[0],
    )


if __name__ == "__main__":
    sys.exit(main())
