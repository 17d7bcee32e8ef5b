"""Serve the build flows as Prefect deployments: rerun a build from the UI, the API or a schedule.

    python flows/serve.py                                   # both builds, no schedule
    python flows/serve.py --build mercury --cron "0 3 * * *" --set profile.measure.meter=cpu

One deployment per build flow, ``build-mercury/mercury`` and ``build-dpe/dpe``, served from this
process (no work pool or worker): its parameters are a config path (``config_path``, default the
build's shipped config) and ``--set``-style overrides (``overrides``, a list of ``KEY=VALUE``);
a run from the UI (Run > Custom run) or ``prefect deployment run build-mercury/mercury --param
...`` may change both. A schedule is off unless ``--cron`` or ``--interval`` (seconds) asks for
one; stopping this process pauses it. It reports to the configured Prefect server
(``PREFECT_API_URL``), else to ``make ui``'s on 127.0.0.1:4200, else starts one there for as
long as it runs (`make serve`). Details: docs/running.md, quicksilver/orchestration/deployments.py.

Not a flow: an entry point. It loads the flows from their files (never imports them).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script from a checkout without an install
    sys.path.insert(0, str(REPO))
os.environ.setdefault("PREFECT_LOGGING_EXTRA_LOGGERS", "quicksilver")
# the core's worker threads (the profiler's parallel zygotes) log outside any flow-run
# context: their records go to the console, not to the API, without a UserWarning each
os.environ.setdefault("PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW", "ignore")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from quicksilver.builds import DPE, MERCURY  # noqa: E402
from quicksilver.orchestration.deployments import BuildFlow, run_serve  # noqa: E402

FLOWS = (
    BuildFlow("mercury", MERCURY, "flows/build_mercury.py:build_mercury", "configs/mercury.yaml"),
    BuildFlow("dpe", DPE, "flows/build_dpe.py:build_dpe", "configs/dpe.yaml"),
)


def main(argv: list[str] | None = None) -> int:
    return run_serve(argv, flows=FLOWS, repo=REPO)


if __name__ == "__main__":
    sys.exit(main())
