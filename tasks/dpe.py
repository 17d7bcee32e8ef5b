"""The DPE build's Prefect tasks (flows/build_dpe.py): one thin task per stage of
quicksilver.stages.dpe.DPEBuild. The correctness stages (load, dedup, filters, generators,
testcases, uniqueness) run the Mercury build's stage logic, inherited by DPEBuild; the tasks here
differ from tasks/*.py only in reading a DPE configuration (and in their names, ``dpe-<stage>``,
which the shared cache key function reads)."""

from __future__ import annotations

from typing import Any

from prefect import task

from tasks._common import cache_key, dpe_build_of, log_summary


def _whole(stage: str) -> Any:
    @task(name=f"dpe-{stage}", cache_key_fn=cache_key, persist_result=True)
    def run(config: dict[str, Any]) -> dict[str, Any]:
        return log_summary(getattr(dpe_build_of(config), f"run_{stage}")())

    return run


def _sharded(stage: str) -> Any:
    @task(
        name=f"dpe-{stage}",
        cache_key_fn=cache_key,
        persist_result=True,
        task_run_name=f"{stage}-{{part}}",
    )
    def run(config: dict[str, Any], part: str, slugs: list[str]) -> dict[str, Any]:
        return log_summary(getattr(dpe_build_of(config), f"run_{stage}")(part, slugs))

    return run


load = _whole("load")
candidates = _whole("candidates")
dedup = _whole("dedup")
filters = _whole("filters")
generators = _whole("generators")
testcases = _sharded("testcases")
uniqueness = _sharded("uniqueness")
sas = _sharded("sas")
sampling = _sharded("sampling")
pe_profile = _sharded("pe_profile")
select = _whole("select")


@task(name="dpe-publish", cache_key_fn=cache_key, persist_result=True)
def publish(config: dict[str, Any], funnel: list[dict[str, Any]]) -> dict[str, Any]:
    return log_summary(dpe_build_of(config).run_publish(funnel))
