"""Prefect flow: build a DPE / EvalPerf-format benchmark from snapshots, end to end.

    python flows/build_dpe.py --config configs/dpe.yaml [--set sampling.time_wall_seconds=5 ...]

A thin flow over quicksilver.stages.dpe (see docs/dpe-build.md): load -> candidates -> dedup ->
filters -> generators, then per shard of tasks testcases -> uniqueness (the Mercury build's
correctness stages: only solutions that pass the task's tests go on) -> sas (perf_input_gen
generators) -> sampling (exponential input sampling, the performance-exercising input) ->
pe_profile (every valid solution, several rounds; shards one after another, alone on the
machine), then select (EvalPerf's task filters and the
adaptive clustering) -> publish (EvalPerf-format Parquet + HF + card).

Caching, resuming, task runners, artifacts and the `make ui` server work as in the Mercury flow
(flows/build_mercury.py, whose helpers this flow uses).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
for entry in (REPO, REPO / "flows"):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))
os.environ.setdefault("PREFECT_LOGGING_EXTRA_LOGGERS", "quicksilver")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from build_mercury import (  # noqa: E402
    _stored,
    raise_for_failed_shards,
    run_cli,
    start_build,
)
from prefect import flow  # noqa: E402
from prefect.artifacts import create_markdown_artifact, create_table_artifact  # noqa: E402
from prefect.futures import PrefectFuture  # noqa: E402
from prefect.logging import get_run_logger  # noqa: E402

from quicksilver.config import DPEBuildConfig  # noqa: E402
from quicksilver.funnel import funnel_markdown, funnel_rows  # noqa: E402
from quicksilver.meters import make_meter  # noqa: E402
from quicksilver.stages.base import cpu_count  # noqa: E402
from quicksilver.stages.dpe import DPEBuild  # noqa: E402
from tasks import dpe as t  # noqa: E402
from tasks.chains import ShardChain, run_chains  # noqa: E402


@flow(name="build-dpe", log_prints=False)
def build_dpe(config: dict[str, Any]) -> dict[str, Any]:
    """Build the DPE dataset; returns the funnel and where the dataset is."""
    logger = get_run_logger()
    logging.getLogger("quicksilver").setLevel(logging.INFO)
    cfg = DPEBuildConfig.model_validate(config)
    start_build(cfg)
    build = DPEBuild(cfg)
    for stage, task in (
        ("load", t.load),
        ("candidates", t.candidates),
        ("dedup", t.dedup),
        ("filters", t.filters),
        ("generators", t.generators),
    ):
        _stored(task, build, stage)(config)

    shard_list = build.shards()
    logger.info("%d task(s) in %d shard(s)", sum(len(s) for _, s in shard_list), len(shard_list))
    sharded: list[tuple[str, Any]] = [
        ("testcases", t.testcases),
        ("uniqueness", t.uniqueness),
        ("sas", t.sas),
        ("sampling", t.sampling),
    ]
    # With a deterministic meter the profiles join the shards' chains (a count does not depend on
    # what else runs). With the cpu meter they run alone, one shard after another: on a small VM
    # two profiles side by side slow each other down unevenly, and the CV filter would measure
    # that instead.
    together = make_meter(cfg.pe_profile.measure.meter).deterministic
    if together:
        sharded.append(("pe_profile", t.pe_profile))

    def submitter(part: str, slugs: list[str]) -> Any:
        def submit(i: int) -> PrefectFuture[Any]:
            stage, task = sharded[i]
            return _stored(task, build, stage, part, slugs).submit(config, part, slugs)

        return submit

    chains = [
        ShardChain(part, [stage for stage, _ in sharded], submitter(part, slugs))
        for part, slugs in shard_list
    ]
    failed = run_chains(
        chains,
        slots=cfg.runner.workers or cpu_count(),
        cost=lambda chain, i: build.shard_work(chain.part) if i >= 2 else 0,
    )
    if not failed and not together:
        for part, slugs in shard_list:
            state = _stored(t.pe_profile, build, "pe_profile", part, slugs)(
                config, part, slugs, return_state=True
            )
            if not state.is_completed():
                failed.append((part, state))
    raise_for_failed_shards(build, failed)
    _stored(t.select, build, "select")(config)
    funnel = build.funnel()
    _stored(t.publish, build, "publish")(config, funnel)
    funnel = build.funnel()
    try:
        create_table_artifact(
            key="dpe-funnel", table=funnel_rows(funnel), description="Counts per stage"
        )
        create_markdown_artifact(
            key="dpe-summary", markdown=funnel_markdown(funnel, build.root, "DPE build")
        )
    except Exception as exc:  # artifacts are a view; the build does not depend on them
        logger.warning("could not record the Prefect artifacts: %s", exc)
    return {"dataset": str(build.root), "funnel": funnel}


def main(argv: list[str] | None = None) -> int:
    return run_cli(
        argv,
        build_flow=build_dpe,
        config_cls=DPEBuildConfig,
        default_config="configs/dpe.yaml",
        title="DPE build",
        example="sampling.max_scale_exp=12",
        description=__doc__.split("\n\n")[0],
    )


if __name__ == "__main__":
    sys.exit(main())
