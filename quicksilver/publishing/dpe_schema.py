"""The DPE / EvalPerf format's schema: EvalPerf-format rows (plus correctness tests and provenance).

EvalPerf's published columns come first with their meanings unchanged: ``task_id``, ``reference``
(one solution per performance cluster, SLOWEST cluster first), ``pe_input`` (a JSON string: a list
of inputs, each the argument list of one call), ``scores`` (cumulative %, slowest first, the
fastest cluster 100), ``entry_point``, ``prompt``. Then what a scorer needs to judge correctness
(``test_cases`` and the conversion code, as in Mercury's rows, so ``quicksilver score`` checks a
sample before timing it, and ``pe_expected``, the accepted answer on ``pe_input``, against which it
judges the answers whose cost it measures: EvalPerf judged none there), and provenance: where the
task, the input generator, the input, and each solution came from, and how the costs were
measured. Costs are provenance only: EvalPerf's scorer
re-profiles the references on the user's machine, and so does ours. The rows are written by the
same writer and released by the same ``quicksilver publish`` as Mercury's.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from datasets import Features, List, Value

from quicksilver.publishing.schema import (
    Problem,
    SchemaError,
    check_type,
    json_field,
    parses,
)

if TYPE_CHECKING:
    from datasets import DatasetDict

_S = Value("string")
_F = Value("float64")
_I64 = Value("int64")
_I32 = Value("int32")

_EVALPERF = {
    "task_id": _S,
    "reference": List(_S),
    "pe_input": _S,
    "scores": List(_F),
    "entry_point": _S,
    "prompt": _S,
}
_CORRECTNESS = {
    "id": _S,
    "slug_name": _S,
    "difficulty": _S,
    "pretty_content": List(_S),
    "task_kind": _S,
    "test_cases": _S,
    "convert_offline": _S,
    "evaluate_offline": _S,
    "pe_expected": _S,
    "solutions": List({"hash": _I64, "runtime": _S, "solution": _S}),
}
_DPE_PROVENANCE = {
    "source": _S,
    "snapshot_sha256": _S,
    "answer_any_order": Value("bool"),
    "test_generator_path": _S,
    "test_generator_model": _S,
    "test_seed": _I64,
    "pe_generator_code": _S,
    "pe_generator_path": _S,
    "pe_generator_model": _S,
    "pe_generators_tried": _I32,
    "pe_scale": _I64,
    "pe_seed": _I64,
    "pe_input_bytes": _I64,
    "pe_input_sha256": _S,
    "pe_sampling_stop": _S,
    "pe_sampling_reference": _I64,
    "pe_input_pattern": _S,
    "pe_input_pattern_gain": _F,
    "pe_input_search": _S,
    "pe_expected_vote": _S,
    "reference_hashes": List(_I64),
    "reference_costs": List(_F),
    "reference_peak_memory": List(_I64),
    "cluster_sizes": List(_I32),
    "solution_costs": List(
        {
            "hash": _I64,
            "cost": _F,
            "cv": _F,
            "cv_classic": _F,
            "rounds": _I32,
            "converged": Value("bool"),
            "flags": List(_S),
            "cluster": _I32,
            "source": _S,
            "model": _S,
        }
    ),
    "p99_cv": _F,
    "clustering_bias": _F,
    "clustering_w": _F,
    "instruction_rate": _F,
    "instruction_rate_source": _S,
    "cost_meter": _S,
    "cost_unit": _S,
    "machine_id": _S,
    "machine": _S,
    "quicksilver_version": _S,
    "build_config_sha256": _S,
}

EVALPERF_FIELDS: tuple[str, ...] = tuple(_EVALPERF)
DPE_FEATURES = Features({**_EVALPERF, **_CORRECTNESS, **_DPE_PROVENANCE})
"""Explicit ``datasets`` features of a published DPE row."""

_NULLABLE = frozenset(
    {
        "solution_costs[].model",
        "solutions[].runtime",
        "instruction_rate",  # only a time meter needs it
        "instruction_rate_source",
        "pe_input_pattern_gain",  # no worst-case search (an LLM generator, or search off)
        "reference_peak_memory[]",  # not measured (no clear_refs: the weak sandbox as non-root)
    }
)
_ONE_PER_DATASET = ("cost_meter", "cost_unit", "build_config_sha256", "quicksilver_version")

FIELD_DOCS: dict[str, str] = {
    "task_id": "the task's name (the LeetCode slug); EvalPerf's key",
    "reference": "one solution per performance cluster, the cluster's slowest member, ordered "
    "from the SLOWEST cluster to the fastest",
    "pe_input": "JSON string: a list of performance-exercising inputs, each the argument list of "
    "one call (trees and linked lists as LeetCode lists)",
    "scores": "per cluster, slowest first: the cumulative % of solutions in it and slower "
    "clusters (the fastest cluster scores 100)",
    "entry_point": "name of the method the tests call",
    "prompt": "starter code (the `class Solution` stub) given to a model",
    "id": "LeetCode frontend question id",
    "slug_name": "LeetCode title slug (same as task_id)",
    "difficulty": "`Easy`, `Medium` or `Hard`; empty for a source without a rating (HumanEval)",
    "pretty_content": "`[statement]` as plain text",
    "task_kind": "`class` (a `Solution` method) or `function`",
    "test_cases": 'correctness tests: JSON list of `{"input": [args...], "expected": value}`',
    "convert_offline": "code turning stored arguments into call arguments (trees, lists)",
    "evaluate_offline": "code judging an answer against the expected one",
    "pe_expected": "JSON string: the accepted answer on each `pe_input` call, in the form of "
    "`test_cases`' expected values (an in-place task's argument after the call); a sample's "
    "answers there are judged against it with `evaluate_offline` (EvalPerf judged none), and a "
    "wrong one scores DPS 0",
    "solutions": "empty: DPE rows carry no Mercury runtime distribution (see `solution_costs`)",
    "source": "where the question came from (`bundled`, `leetcode`, ...)",
    "snapshot_sha256": "sha256 of the snapshot file",
    "answer_any_order": "whether list answers are compared in any order",
    "test_generator_path": "`offline` / `llm`: who wrote the correctness-test generator",
    "test_generator_model": "that generator's model (or the offline synthesizer's name)",
    "test_seed": "seed the correctness-test generator ran with",
    "pe_generator_code": "source of the `perf_input_gen(scale)` that produced `pe_input`",
    "pe_generator_path": "`offline` (constraint-driven perf synthesizer) or `llm` (SaS)",
    "pe_generator_model": "the model that wrote it, or the offline synthesizer's name",
    "pe_generators_tried": "generators sampled for the task (after parsing and dedup)",
    "pe_scale": "the scale factor (a power of 2) that produced `pe_input`",
    "pe_seed": "random.seed before the generator call",
    "pe_input_bytes": "size of the input as JSON",
    "pe_input_sha256": "sha256 of the input's canonical JSON",
    "pe_sampling_stop": "why exponential sampling stopped for that generator",
    "pe_sampling_reference": "hash of the solution the walls were measured on",
    "pe_input_pattern": "the structured variant the offline worst-case search chose for the "
    "input (`nums:sorted`, `k=sqrt`, ...; docs/sas.md), `random` when none beat the random "
    "input, `not-searched` for a generator the search does not apply to (an LLM's)",
    "pe_input_pattern_gain": "that variant's cost on the searched solutions over the random "
    "input's, at the search scale (their total cost; 1 for `random`; null when not searched)",
    "pe_input_search": "JSON: the worst-case search (seed, scale, meter, solutions, every "
    "variant's costs and ratio, the winner, a fallback to random if the pattern could not be "
    "sampled), or null",
    "pe_expected_vote": "JSON: how `pe_expected` was accepted: the solutions whose answers the "
    "judge accepted (`agree`) of those that answered (`voters`), the rejected answers' group "
    "sizes (`disagree`; those solutions were dropped as wrong on the input) and the rule "
    "(`unanimous`, `majority`, `plurality`: the uniqueness stage's)",
    "reference_hashes": "hash of each `reference` solution, slowest cluster first",
    "reference_peak_memory": "their peak memory on `pe_input` (bytes above the post-load "
    "baseline, read by the host; docs/profiler.md), slowest cluster first; null where not measured",
    "reference_costs": "their measured cost (median over rounds) on `pe_input` at build time "
    "(provenance only)",
    "cluster_sizes": "solutions per cluster, slowest first",
    "solution_costs": "every profiled solution: cost (median over rounds), robust coefficient of "
    "variation (1.4826 MAD / median) and the classic one (stdev / mean), rounds counted, whether "
    "the measurement converged and why not (`flags`), cluster index (0 = slowest), source and "
    "model",
    "p99_cv": "99th percentile over solutions of the coefficient of variation the selection used",
    "clustering_bias": "bias of the adaptive clustering",
    "clustering_w": "w of the adaptive clustering, in `cost_unit`",
    "instruction_rate": "time meters only: instructions per CPU second of the build machine, "
    "which converted w and the minimum cost from the paper's instructions (null for icount)",
    "instruction_rate_source": "how that rate was obtained (measured against icount on the build "
    "machine, with the numbers, or configured)",
    "cost_meter": "meter of the costs: `icount`, `cpu`, `instructions`",
    "cost_unit": "unit of the costs (`s` or `instructions`)",
    "machine_id": "short id of the build machine",
    "machine": "that machine as JSON",
    "quicksilver_version": "version of Quicksilver that built the row",
    "build_config_sha256": "sha256 of the build configuration",
}


def check_dpe_row(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name in row:
        if name not in DPE_FEATURES:
            out.append((name, "unexpected field"))
    for name, feature in DPE_FEATURES.items():
        if name not in row:
            out.append((name, "missing"))
            continue
        check_type(feature, row[name], name, out, _NULLABLE)
    if out:
        return out
    if row["task_id"] != row["slug_name"]:
        out.append(("task_id", "must equal slug_name"))
    refs, scores = row["reference"], row["scores"]
    m = len(refs)
    if m == 0:
        out.append(("reference", "at least one cluster reference"))
    for i, code in enumerate(refs):
        parses(code, f"reference[{i}]", out)
    if len(scores) != m:
        out.append(("scores", f"{len(scores)} scores for {m} references"))
    for i, s in enumerate(scores):
        if not 0 < s <= 100 or (i and s < scores[i - 1]):
            out.append((f"scores[{i}]", f"{s} breaks 0 < scores non-decreasing <= 100"))
    if scores and not math.isclose(scores[-1], 100.0):
        out.append(("scores", f"the fastest cluster scores {scores[-1]}, not 100"))
    for name in ("reference_hashes", "reference_costs", "cluster_sizes"):
        if len(row[name]) != m:
            out.append((name, f"{len(row[name])} entries for {m} references"))
    costs = row["reference_costs"]
    if any(b > a for a, b in itertools.pairwise(costs)):
        out.append(("reference_costs", "must run from the slowest to the fastest"))
    if sum(row["cluster_sizes"]) != len(row["solution_costs"]):
        out.append(("cluster_sizes", "sizes do not add up to the profiled solutions"))
    pe = json_field(row["pe_input"], "pe_input", out)
    if pe is not None and (
        not isinstance(pe, list) or not pe or not all(isinstance(a, list) for a in pe)
    ):
        out.append(("pe_input", "must be a JSON list of argument lists"))
    before = len(out)
    expected = json_field(row["pe_expected"], "pe_expected", out)
    if len(out) == before and (
        not isinstance(expected, list) or (isinstance(pe, list) and len(expected) != len(pe))
    ):
        out.append(("pe_expected", "must be a JSON list with one answer per pe_input call"))
    before = len(out)
    vote = json_field(row["pe_expected_vote"], "pe_expected_vote", out)
    if len(out) == before and not (isinstance(vote, dict) and vote.get("rule")):
        out.append(("pe_expected_vote", "must be a JSON object with the rule that decided"))
    cases = json_field(row["test_cases"], "test_cases", out)
    if cases is not None and (not isinstance(cases, list) or not cases):
        out.append(("test_cases", "must be a non-empty JSON list of cases"))
    if f"def {row['entry_point']}" not in row["prompt"]:
        out.append(("entry_point", f"no `def {row['entry_point']}` in the prompt"))
    for name in ("convert_offline", "evaluate_offline", "pe_generator_code"):
        parses(row[name], name, out)
    search = json_field(row["pe_input_search"], "pe_input_search", out)
    if search is not None and not isinstance(search, dict):
        out.append(("pe_input_search", "must be a JSON object or null"))
    if row["pe_generator_path"] not in ("offline", "llm"):
        out.append(("pe_generator_path", "must be offline or llm"))
    if row["task_kind"] not in ("class", "function"):
        out.append(("task_kind", "must be class or function"))
    try:
        json.loads(row["machine"])
    except json.JSONDecodeError:
        out.append(("machine", "not valid JSON"))
    for i, code in enumerate(refs):
        if f"def {row['entry_point']}" not in code:
            out.append((f"reference[{i}]", f"defines no `{row['entry_point']}`"))
    return out


def _problems(splits: Mapping[str, Sequence[Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if not splits:
        return [Problem("<none>", None, None, "<splits>", "no splits to publish")]
    values: dict[str, set[str]] = {name: set() for name in _ONE_PER_DATASET}
    seen: dict[str, tuple[str, int]] = {}
    for split, rows in splits.items():
        if not rows:
            problems.append(Problem(split, None, None, "<split>", "a split needs at least one row"))
        for index, row in enumerate(rows):
            if not isinstance(row, Mapping):
                problems.append(Problem(split, index, None, "<row>", "a row is an object"))
                continue
            slug = row.get("task_id") if isinstance(row.get("task_id"), str) else None
            for path, message in check_dpe_row(row):
                problems.append(Problem(split, index, slug, path, message))
            if slug:
                if slug in seen:
                    problems.append(Problem(split, index, slug, "task_id", f"repeats {seen[slug]}"))
                seen.setdefault(slug, (split, index))
            for name in _ONE_PER_DATASET:
                if isinstance(row.get(name), str):
                    values[name].add(row[name])
    for name, found in values.items():
        if len(found) > 1:
            problems.append(
                Problem("<all>", None, None, name, f"one dataset, one value; found {sorted(found)}")
            )
    return problems


def validate_dpe_splits(splits: Mapping[str, Sequence[dict[str, Any]]]) -> None:
    """Raise :class:`SchemaError` listing every problem: exactly :data:`DPE_FEATURES` with their
    types; ``task_id`` = ``slug_name``, unique; one parsing reference per cluster defining the entry
    point; ``scores`` non-decreasing in (0, 100] ending at 100; reference costs slowest first;
    cluster sizes adding up to the profiled solutions; ``pe_input`` a JSON list of argument lists
    and ``pe_expected`` one answer per call; ``test_cases`` a non-empty JSON list; code fields that
    parse; one meter/unit/config/version."""
    problems = _problems(splits)
    if problems:
        raise SchemaError(problems)


def validate_dpe_dataset_dict(dd: DatasetDict) -> None:
    """A loaded ``DatasetDict`` with :data:`DPE_FEATURES` in every split, then every row."""
    problems: list[Problem] = []
    for split, ds in dd.items():
        if ds.features != DPE_FEATURES:
            missing = [n for n in DPE_FEATURES if n not in ds.features]
            extra = [n for n in ds.features if n not in DPE_FEATURES]
            problems.append(
                Problem(
                    str(split),
                    None,
                    None,
                    "<features>",
                    f"features differ from DPE_FEATURES (missing {missing}, extra {extra})",
                )
            )
    if problems:
        raise SchemaError(problems)
    validate_dpe_splits({str(s): ds.with_format(None).to_list() for s, ds in dd.items()})


DPE_FIELD_GROUPS = (
    ("EvalPerf", _EVALPERF),
    ("correctness", _CORRECTNESS),
    ("provenance", _DPE_PROVENANCE),
)
"""The columns in the card's order, by group."""
