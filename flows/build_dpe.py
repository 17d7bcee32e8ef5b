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
both are the same few lines over their build's list
(quicksilver/orchestration/build.py, quicksilver/orchestration/cli.py).

The flow is ``quicksilver.orchestration.flows.build_dpe`` (``quicksilver build dpe`` runs it from an
installed package); this file runs it as a script in a checkout and is the deployment's entrypoint
(flows/serve.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script from a checkout without an install
    sys.path.insert(0, str(REPO))

from quicksilver.orchestration.flows import build_dpe  # noqa: E402
from quicksilver.orchestration.flows import main as _main  # noqa: E402

__all__ = ["build_dpe", "main"]


def main(argv: list[str] | None = None) -> int:
    return _main("dpe", argv)


if __name__ == "__main__":
    sys.exit(main())
