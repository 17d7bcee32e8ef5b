"""DPE stage, select: EvalPerf's task filters, then the clusters, references and scores of every
kept task (:mod:`quicksilver.dpe.select`: ``too-few-solutions``, ``too-cheap``, ``unstable``,
``too-few-clusters``; a dropped task takes its profiled solutions with it).

With a time meter, w and the minimum cost need the machine's instructions per CPU second: the
configured ``selection.instruction_rate``, else measured here against icount and recorded.
"""

from __future__ import annotations

from quicksilver.config import SelectionSection
from quicksilver.pipeline.records import Selected, TaskRecord
from quicksilver.pipeline.stage import Context, Stage


def select(
    ctx: Context, records: list[TaskRecord], *, selection: SelectionSection
) -> list[TaskRecord]:
    """The tasks EvalPerf's filters keep, each with its clusters (``Solution.cluster``)."""
    from quicksilver.dpe.select import select_task

    section = selection
    rate_source = "configured"
    units = [r.pe_profile.unit for r in records if r.pe_profile is not None]
    if section.instruction_rate is None and any(u != "instructions" for u in units):
        from quicksilver.calibration import measure_instruction_rate

        measured = measure_instruction_rate()
        section = section.model_copy(update={"instruction_rate": measured.rate})
        rate_source = measured.describe()
    out = []
    for record in records:
        how = record.pe_profile
        assert how is not None, "select reads the pe_profile stage's records"
        sols = record.solutions
        cv_key = "cv" if section.cv_estimator == "robust" else "cv_classic"
        costs: list[float] = []
        cvs: list[float] = []
        for s in sols:
            assert s.cost is not None and s.cost.cost is not None, "pe_profile measured it"
            costs.append(float(s.cost.cost))
            cv = getattr(s.cost, cv_key)
            cvs.append(float(cv) if cv is not None else float("inf"))
        verdict = select_task(record.slug, costs, cvs, section, how.unit)
        if not verdict.kept:
            reason = verdict.reason or "dropped"
            detail = verdict.detail or f"{record.slug}: {reason}"
            ctx.drop(record, reason, detail, stats=verdict.stats)
            continue
        cl = verdict.clustering
        assert cl is not None
        counted = how.unit == "instructions"
        cluster_of = {m: ci for ci, c in enumerate(cl.clusters) for m in c.members}
        chosen = Selected(
            reference_hashes=[sols[i].hash for i in cl.references],
            reference_costs=[costs[i] for i in cl.references],
            scores=list(cl.scores),
            cluster_sizes=[len(c.members) for c in cl.clusters],
            bias=cl.bias,
            w=cl.w,
            p99_cv=verdict.stats["p99_cv"],
            instruction_rate=None if counted else section.instruction_rate,
            instruction_rate_source=None if counted else rate_source,
        )
        clustered = [s.model_copy(update={"cluster": cluster_of[i]}) for i, s in enumerate(sols)]
        out.append(record.with_solutions(clustered, selected=chosen))
    return out


SELECT = Stage(
    "select",
    logic=select,
    reads=("selection",),
    needs=("pe_profile", "solutions.cost"),
    fills=("selected", "solutions.cluster"),
)
