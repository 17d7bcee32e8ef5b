"""The build flows: a Mercury-format and a DPE / EvalPerf-format benchmark, end to end.

    quicksilver build mercury --config configs/mercury.yaml [--set testcases.n=8 ...] [-v]
    quicksilver build dpe --config configs/dpe.yaml [--set sampling.max_scale_exp=12 ...]

Each is a thin flow over its build's list of stages (quicksilver/builds.py; docs/mercury-build.md,
docs/dpe-build.md), run by :func:`quicksilver.orchestration.build.run_build`: the whole-build
stages one after another, the sharded ones per shard on the task runner the config names
(threads or processes here, a Dask cluster elsewhere). Tasks pass the configuration and shard
names, never records: every stage writes its records to <out_dir>/stages/<stage>/ and the next
one reads them there. A stage is done when its manifest carries its key (its logic and what it
imports, its settings, its input files); Prefect's cache, keyed the same, only echoes that: a
rerun with nothing changed reuses every stage, and a rerun after an interruption redoes only the
unfinished shards. At the end the funnel is printed and published as Prefect artifacts.

They live in the package so that an installed quicksilver builds (``quicksilver build``);
flows/build_mercury.py and flows/build_dpe.py in a checkout are the same flows as scripts, and
the deployments' entrypoints (docs/running.md).
"""

from __future__ import annotations

from typing import Any

from prefect import flow

from quicksilver.builds import DPE, MERCURY
from quicksilver.orchestration.build import run_build
from quicksilver.orchestration.cli import run_cli
from quicksilver.orchestration.deployments import flow_config
from quicksilver.pipeline.build import Build


@flow(name="build-mercury", log_prints=False)
def build_mercury(
    config: dict[str, Any] | None = None,
    config_path: str | None = None,
    overrides: list[str] | str | None = None,
) -> dict[str, Any]:
    """Build the Mercury dataset from ``config`` (the whole config: the command line), or from
    ``config_path`` and ``overrides`` (``KEY=VALUE``, as --set: a deployment run, flows/serve.py);
    returns the funnel and where the dataset is."""
    return run_build(MERCURY, flow_config(MERCURY, config, config_path, overrides))


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


BUILDS: dict[str, tuple[Build, Any, str, str]] = {
    # name: (build, flow, default config, an example override)
    "mercury": (MERCURY, build_mercury, "configs/mercury.yaml", "testcases.n=8"),
    "dpe": (DPE, build_dpe, "configs/dpe.yaml", "sampling.max_scale_exp=12"),
}


def main(name: str, argv: list[str] | None = None, prog: str | None = None) -> int:
    """The command line of build ``name`` (``mercury`` or ``dpe``); exit codes in
    :mod:`quicksilver.orchestration.cli`."""
    build, build_flow, default_config, example = BUILDS[name]
    return run_cli(
        argv,
        build=build,
        build_flow=build_flow,
        default_config=default_config,
        example=example,
        description=f"Build a {build.title.removesuffix(' build')}-format benchmark.",
        prog=prog,
    )
