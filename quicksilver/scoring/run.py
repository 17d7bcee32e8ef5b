"""``score()``: samples matched to tasks, Mercury and DPE rows scored, the report assembled."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Mapping, Sequence

from quicksilver.config import MeasureConfig, SandboxConfig
from quicksilver.machine import machine_info
from quicksilver.metrics import (
    SampleOutcome,
    summarize,
)
from quicksilver.profiler import ProfileTask
from quicksilver.rows import TaskRow
from quicksilver.samples import Sample
from quicksilver.scoring.cache import ReferenceCache
from quicksilver.scoring.dpe import (
    DPS_FIRST_CORRECT,
    RETRY_FACTOR,
    dps_tolerance_for,
    is_dpe_record,
    score_dpe,
)
from quicksilver.scoring.matching import Matched, match_samples
from quicksilver.scoring.mercury import SPLIT_ABOVE_SECONDS, score_mercury
from quicksilver.scoring.model import (
    SampleScore,
    ScoreReport,
    TaskScore,
    unconverged_summary,
)
from quicksilver.scoring.runs import ScoringRun
from quicksilver.scoring.shipped import ShippedCounts, offer_shipped

log = logging.getLogger(__name__)


def score(
    records: Sequence[TaskRow],
    samples: dict[str, list[Sample]],
    *,
    k: int = 1,
    meter: str = "icount",
    sandbox: SandboxConfig | None = None,
    measure: MeasureConfig | None = None,
    cache: ReferenceCache | None = None,
    workers: int | None = None,
    on_sample: Callable[[TaskScore, SampleScore], None] | None = None,
    sample_rejects: list[tuple[str, str]] | None = None,
    retry_factor: float = RETRY_FACTOR,
    dps_first: int = DPS_FIRST_CORRECT,
    released_after: dt.date | None = None,
    trained_on: Mapping[str, set[str]] | None = None,
    dps_tolerance: float | None = None,
    complete_from_prompt: bool = False,
    shipped_counts: bool = True,
) -> ScoreReport:
    """Score ``samples`` (keyed by task_id or slug_name) against ``records``.

    Only the tasks that have samples are scored, with however many samples each has: samples of
    tasks the dataset lacks are listed in ``missing_tasks``, never an error (EvalPerf's evaluator
    demanded every task and a fixed sample count). Mercury rows get Beyond and percentile, DPE
    rows DPS and DPS_norm (see the module docstring); pass@k is computed for both.

    ``retry_factor``: a DPE cluster reference that fails is profiled again once with the CPU and
    wall limits times this. ``dps_first``: a DPE task's score is the mean over its first this-many
    correct samples; later correct samples are not profiled on the performance input.
    ``dps_tolerance``: how far above a cluster reference's cost a sample still matches it (a
    share of that cost); None: 0 with a deterministic meter (EvalPerf's rule), else
    :data:`DPS_TIME_TOLERANCE` (:func:`quicksilver.metrics.matches`).

    ``released_after``: score only the tasks released strictly after this date (a model's
    training cutoff; :func:`release_window`); samples of the other tasks are left out and
    counted, and the report says how large the subset is and how many undated tasks it lacks.
    ``trained_on``: the dataset's training views ({view: slugs}, :func:`view_slugs`); the
    subset's tasks that they hold are counted and warned about (one line).
    ``complete_from_prompt``: a LeetCode sample that is only the method's body is put under the
    task's prompt (:func:`quicksilver.samples.class_solution`, as evalplus-style harnesses do);
    without it such a sample is judged as it is (and fails, as in the Mercury authors'
    evaluator), and the report counts them (``method_bodies``). A function-style task's body is
    always completed (HumanEval's convention).
    ``shipped_counts``: with icount, take the references' counts a Mercury row ships when this
    machine's count fingerprint matches, after re-counting a seeded sample of them
    (:mod:`quicksilver.scoring.shipped`); False counts every reference here.
    """
    if retry_factor < 1:
        raise ValueError(f"retry_factor must be >= 1, got {retry_factor}")
    if dps_first < 1:
        raise ValueError(f"dps_first must be >= 1, got {dps_first}")
    run = _scoring_run(meter, sandbox, measure, cache, workers, on_sample)
    tolerance = dps_tolerance_for(run.measure, dps_tolerance)
    matched = match_samples(
        records,
        samples,
        released_after=released_after,
        trained_on=trained_on,
        complete_from_prompt=complete_from_prompt,
    )
    wanted = matched.rows
    tasks: dict[str, ProfileTask] = {
        key: ProfileTask.from_record(rec) for key, (rec, _) in wanted.items()
    }
    mercury = {key: v for key, v in wanted.items() if not is_dpe_record(v[0])}
    dpe = {key: v for key, v in wanted.items() if is_dpe_record(v[0])}
    for key, (rec, _) in dpe.items():
        if rec.solutions:
            log.info("%s: a DPE row; its %d solutions are not used", key, len(rec.solutions))
    shipped = offer_shipped(mercury, tasks, run, use=shipped_counts)
    scored, outcomes, isolation = score_mercury(mercury, tasks, run)
    if dpe:
        dpe_scored, dpe_outcomes, dpe_isolation = score_dpe(
            dpe, tasks, run, retry_factor=retry_factor, first=dps_first, tolerance=tolerance
        )
        scored.update(dpe_scored)
        outcomes.update(dpe_outcomes)
        isolation = dpe_isolation or isolation
    return _report(
        matched,
        scored,
        outcomes,
        run,
        k,
        sample_rejects,
        tolerance,
        isolation,
        complete_from_prompt,
        shipped,
    )


def _scoring_run(
    meter: str,
    sandbox: SandboxConfig | None,
    measure: MeasureConfig | None,
    cache: ReferenceCache | None,
    workers: int | None,
    on_sample: Callable[[TaskScore, SampleScore], None] | None,
) -> ScoringRun:
    """The settings a run profiles with: ``measure`` on ``meter``, and with a deterministic
    meter split above :data:`~quicksilver.scoring.mercury.SPLIT_ABOVE_SECONDS` unless set."""
    measure = (measure or MeasureConfig()).model_copy(update={"meter": meter})
    if measure.deterministic and measure.split_above_seconds is None:
        measure = measure.model_copy(update={"split_above_seconds": SPLIT_ABOVE_SECONDS})
    return ScoringRun(
        meter, sandbox or SandboxConfig(), measure, cache or ReferenceCache(), workers, on_sample
    )


def _report(
    matched: Matched,
    scored: dict[str, TaskScore],
    outcomes: dict[str, list[SampleOutcome]],
    run: ScoringRun,
    k: int,
    sample_rejects: list[tuple[str, str]] | None,
    tolerance: float,
    isolation: str | None,
    complete_from_prompt: bool,
    shipped: ShippedCounts | None = None,
) -> ScoreReport:
    """The report over the scored tasks, in the samples' order."""
    wanted = matched.rows
    flat_outcomes = [o for key in wanted for o in outcomes[key]]
    if not flat_outcomes:
        raise ValueError("no sample matches a task of the dataset")
    shaky = unconverged_summary(list(scored.values()))
    if shaky["unconverged"]:
        log.warning(
            "scored from profiles that did not converge or split into modes: %d sample(s), %d "
            "reference(s) (each listed in the report)",
            shaky["unconverged_samples"],
            shaky["unconverged_references"],
        )
    bodies = matched.bodies
    return ScoreReport(
        summarize(flat_outcomes, k=k),
        [scored[key] for key in wanted],
        run.meter,
        "s" if run.meter == "cpu" else "instructions",
        isolation or "bwrap",
        dict(machine_info()),
        matched.missing,
        list(sample_rejects or []),
        matched.window,
        tolerance,
        {"count": len(bodies), "completed": complete_from_prompt, "samples": bodies[:50]}
        if bodies
        else {},
        shipped.to_dict() if shipped is not None else {},
    )
