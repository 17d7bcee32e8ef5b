"""Scoring model samples against a dataset: Pass@k and, per kind of row, Beyond and percentile
(Mercury rows, :mod:`.mercury`) or DPS and DPS_norm (DPE / EvalPerf rows, :mod:`.dpe`).

Reference solutions are re-profiled on the user's machine (their stored runtimes were measured
elsewhere and are never trusted) and cached per machine (:mod:`.cache`), so a second run only
profiles the samples. :func:`score` (:mod:`.run`) matches samples to tasks (:mod:`.matching`),
scores each kind of row and returns a :class:`ScoreReport` (:mod:`.model`).
"""

from quicksilver.scoring.cache import ReferenceCache
from quicksilver.scoring.dpe import dpe_problem, is_dpe_record, pe_row_task
from quicksilver.scoring.matching import in_training_views, release_window
from quicksilver.scoring.model import SampleScore, ScoreReport, TaskScore, unconverged_summary
from quicksilver.scoring.run import score

__all__ = [
    "ReferenceCache",
    "SampleScore",
    "ScoreReport",
    "TaskScore",
    "dpe_problem",
    "in_training_views",
    "is_dpe_record",
    "pe_row_task",
    "release_window",
    "score",
    "unconverged_summary",
]
