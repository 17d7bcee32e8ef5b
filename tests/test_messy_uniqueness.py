"""The uniqueness stage on the messy corpus's tasks whose answers are chosen from an argument.

In anagram-groups, top-k-frequent-values and merge-overlapping-intervals every answer is chosen
from an argument's values, so the answers look like ones of which several may be valid
(docs/uniqueness.md). Each has a wrong sample whose answer has the right length and every shared
property, and is outvoted on every input that shows it:

- anagram-groups #10 iterates over ``set(strs)``: a repeated word is kept once;
- top-k-frequent-values #9: values with the same count overwrite each other, a wrong subset of
  the right size;
- merge-overlapping-intervals #4: ``last[1] = e`` instead of the max, an interval inside a block
  shortens it.

Before, the vote was thrown away there and the task decided again on the length and properties
alone: the wrong sample survived as a "valid alternative" and the task was dropped as
``multiple-valid-answers`` (anagram-groups in an older build of the corpus). One Mercury build of
the three (module scoped, small inputs) checks that each task is kept, that these samples are
rejected as ``wrong-answer`` and that no correct sample is. top-k-frequent-values has no offline
generator ("k is in the range [1, the number of unique elements in the array]" is not read, so it
needs an LLM generator): its samples go through the testcases and uniqueness stages with a
generator written here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from quicksilver.pipeline.refs import read_stage_rows
from quicksilver.rows import load_records
from tests.conftest import requires_bwrap
from tests.test_build_mercury import _flow_module, _run
from tests.test_messy_build import _config, _hashes, _is_good, _rejects
from tests.test_messy_corpus import MESSY

pytestmark = [requires_bwrap, pytest.mark.flows]

OUTVOTED = {"anagram-groups": 10, "top-k-frequent-values": 9, "merge-overlapping-intervals": 4}
SLUGS = ["anagram-groups", "merge-overlapping-intervals"]  # built by the flow


@pytest.fixture(scope="module")
def built(prefect_harness, tmp_path_factory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("messy-uniqueness") / "mercury"
    result, _states, _run_id = _run(_flow_module(), _config(out, SLUGS, eval_size=1))
    rows = {r.slug_name: r for r in load_records(out / "hf").records}
    files = {slug: json.loads((MESSY / f"{slug}.json").read_text()) for slug in SLUGS}
    return {"out": out, "result": result, "rows": rows, "files": files}


def test_every_task_is_kept_by_the_vote(built):
    """No task is lost as ambiguous or as having several valid answers."""
    funnel = {row["stage"]: row for row in built["result"]["funnel"]}
    drops = funnel["uniqueness"]["drops"]
    assert "multiple-valid-answers" not in drops and "ambiguous-output" not in drops, drops
    assert set(built["rows"]) == set(SLUGS), funnel
    decisions = {
        r["task"]["slug"]: r["verdict"]["decision"]
        for f in sorted((built["out"] / "stages" / "uniqueness").glob("shard-*[0-9].jsonl"))
        for r in read_stage_rows(f)
    }
    for slug in SLUGS:
        decision = decisions[slug]
        assert decision["rule"] == "vote, then what every valid answer shares", (slug, decision)
        assert decision["several_answers"]["alternatives_kept_on"] == 0, (slug, decision)


def _check_outvoted(slug: str, rejects: list[dict[str, Any]], published: set[int]) -> None:
    """The outvoted sample is a wrong answer, no correct sample is rejected here (a
    near-duplicate aside) and every correct one is published or a near-duplicate."""
    annotations = json.loads((MESSY / f"{slug}.json").read_text())["annotations"]
    hashes = _hashes(json.loads((MESSY / f"{slug}.json").read_text()))
    by_hash = {h: i for i, h in hashes.items()}
    why = {r["hash"]: r for r in rejects if "hash" in r and r["slug"] == slug}
    wrong = why[hashes[OUTVOTED[slug]]]
    assert wrong["reason"] == "wrong-answer", wrong
    assert "(the majority" in wrong["detail"] or "(the plurality" in wrong["detail"], wrong
    for h, r in why.items():
        if _is_good(annotations, by_hash[h]):
            assert r["reason"] == "near-duplicate", r
    for i, label in annotations["labels"].items():
        if label in ("correct", "rambling-correct") and hashes[int(i)] not in published:
            assert why[hashes[int(i)]]["reason"] == "near-duplicate", (slug, i)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_outvoted_sample_is_a_wrong_answer_and_no_correct_one_is(built, slug):
    published = {s.hash for s in built["rows"][slug].solutions}
    _check_outvoted(slug, _rejects(built["out"], "uniqueness"), published)


# values drawn with counts such that the k most frequent are unique ("It is guaranteed that the
# answer is unique"), often with equal counts inside the k (where #9's dict by count loses one)
TOP_K_GENERATOR = """
import random

def generate_test_case():
    values = random.sample(range(-20, 21), random.randint(1, 8))
    counts = [random.randint(1, 4) for _ in values]
    nums = [v for v, c in zip(values, counts) for _ in range(c)]
    random.shuffle(nums)
    order = sorted(counts, reverse=True)
    ks = [k for k in range(1, len(order) + 1) if k == len(order) or order[k - 1] > order[k]]
    return [nums, random.choice(ks)]
"""


def test_top_k_frequent_values_through_testcases_and_uniqueness():
    from quicksilver.config import CasesSection, SandboxConfig
    from tests.stagekit import load_stage, testcases_shard, uniqueness_shard

    slug = "top-k-frequent-values"
    loaded = load_stage([MESSY], only=[slug])
    tasks, solutions = loaded["tasks"], loaded["solutions"]
    section = CasesSection(n=16, seed=3, solution_cpu_seconds=1.0, call_floor_seconds=0.2)
    cases = testcases_shard(
        tasks,
        solutions,
        [{"slug": slug, "generator_code": TOP_K_GENERATOR}],
        section,
        sandbox=SandboxConfig(),
    )
    (record,) = cases["records"]
    done = uniqueness_shard(tasks, solutions, [record], tol=1e-5, min_solutions_=2)
    assert "multiple-valid-answers" not in done["counts"].drops, done["rejects"][:1]
    (verdict,) = done["records"]
    assert verdict["classification"] == "minority-wrong"
    assert verdict["decision"]["rule"] == "vote, then what every valid answer shares"
    _check_outvoted(slug, done["rejects"], set(verdict["solutions"]))
