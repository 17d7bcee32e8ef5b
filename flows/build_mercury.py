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

The flow is ``quicksilver.orchestration.flows.build_mercury`` (``quicksilver build mercury`` runs it
from an installed package); this file runs it as a script in a checkout and is the deployment's
entrypoint (flows/serve.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script from a checkout without an install
    sys.path.insert(0, str(REPO))

from quicksilver.orchestration.flows import build_mercury  # noqa: E402
from quicksilver.orchestration.flows import main as _main  # noqa: E402

__all__ = ["build_mercury", "main"]


def main(argv: list[str] | None = None) -> int:
    return _main("mercury", argv)


if __name__ == "__main__":
    sys.exit(main())
