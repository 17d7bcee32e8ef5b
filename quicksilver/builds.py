"""The builds, as lists of stages. Read a list top to bottom: that is the build.

A stage both builds share is declared once, in its own file under ``quicksilver/stages/``, and
placed in both lists. Each stage reads the records of the stage before it; the sharded ones
(testcases onwards) run per shard of tasks, one shard's stages in order. To add a stage, declare
it (a :class:`~quicksilver.pipeline.stage.Stage` in a file of its own) and put it in a list.
"""

from __future__ import annotations

from typing import Any

from quicksilver.config import BuildConfig, DPEBuildConfig
from quicksilver.pipeline.build import Build
from quicksilver.stages import example
from quicksilver.stages.candidates import CANDIDATES
from quicksilver.stages.dedup import DEDUP
from quicksilver.stages.filters import FILTERS
from quicksilver.stages.generators import GENERATORS
from quicksilver.stages.load import LOAD
from quicksilver.stages.pe_profile import PE_PROFILE
from quicksilver.stages.profile import PROFILE
from quicksilver.stages.publish import PUBLISH
from quicksilver.stages.publish_dpe import PUBLISH_DPE
from quicksilver.stages.sampling import SAMPLING
from quicksilver.stages.sas import SAS
from quicksilver.stages.select import SELECT
from quicksilver.stages.splits import SPLITS
from quicksilver.stages.testcases import TESTCASES
from quicksilver.stages.uniqueness import UNIQUENESS

MERCURY = Build(
    name="mercury",
    title="Mercury build",
    config=BuildConfig,
    stages=(
        LOAD,  # snapshots -> one record per question, hashed Python 3 solutions
        DEDUP,  # exact duplicates out, near-duplicates marked
        FILTERS,  # paid-only, unsupported types, too few solutions
        GENERATORS,  # a test-input generator per task
        TESTCASES,  # per shard: test inputs, every solution's answers
        UNIQUENESS,  # per shard: the expected outputs, wrong solutions out
        PROFILE,  # per shard: every solution's runtime
        SPLITS,  # train / eval
        PUBLISH,  # Mercury rows -> Parquet, HF, card
    ),
    example=example.mercury_record,
)

DPE = Build(
    name="dpe",
    title="DPE build",
    config=DPEBuildConfig,
    stages=(
        LOAD,
        CANDIDATES,  # solutions from an LLM and model sample files
        DEDUP,
        FILTERS,
        GENERATORS,
        TESTCASES,
        UNIQUENESS,  # only solutions that pass the tests go on
        SAS,  # per shard: perf_input_gen(scale) generators
        SAMPLING,  # per shard: the performance-exercising input
        PE_PROFILE,  # per shard: every solution's cost on it
        SELECT,  # EvalPerf's filters and clusters
        PUBLISH_DPE,  # EvalPerf rows -> Parquet, HF, card
    ),
    example=example.dpe_record,
)

BUILDS = {b.name: b for b in (MERCURY, DPE)}


def build_for(cfg: Any) -> Build:
    """The build a config is for (its type says)."""
    for build in BUILDS.values():
        if isinstance(cfg, build.config):
            return build
    raise TypeError(f"no build takes a {type(cfg).__name__}")
