"""Stage 2, dedup: exact and near-duplicate solutions within a task (quicksilver/stages/dedup.py).

The corpus test reads the bundled corpus's annotations to judge the stage; the stage itself never
reads them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import xxhash
from datasketch import MinHashLSH

from quicksilver.config import DedupSection, load_build_config
from quicksilver.pipeline.records import solution_hash
from quicksilver.sources.snapshot import load_snapshot_dir
from quicksilver.stages.dedup import (
    canonical_source,
    code_tokens,
    collision_probability,
    deduplicate,
    defer_near_duplicates,
    derive_bands_rows,
    local_names,
    shingles,
    solution_tokens,
)
from quicksilver.stages.load import normalise_code

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = Path(__file__).resolve().parents[1] / "data" / "snapshot" / "bundled"


def content_hash(code: str) -> int:
    return int.from_bytes(xxhash.xxh64_digest(code.encode()), "big", signed=True)


def row(slug: str, position: int, code: str, **extra: Any) -> dict[str, Any]:
    return {"slug": slug, "position": position, "code": code, "hash": content_hash(code), **extra}


def loaded_row(slug: str, position: int, code: str) -> dict[str, Any]:
    """A row as the load stage writes it: normalised code, Mercury's hash of it."""
    code = normalise_code(code)
    return {"slug": slug, "position": position, "code": code, "hash": solution_hash(code)}


HASHMAP = """\
class Solution:
    def pairSum(self, nums: List[int], target: int) -> List[int]:
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return [seen[target - x], i]
            seen[x] = i
        return []
"""

# the same program: variables renamed, reformatted, comments and a docstring added
HASHMAP_DISGUISED = """\
class Solution:

    def pairSum(self, nums: List[int], target: int) -> List[int]:
        '''One pass with a dictionary.'''
        index_of = {}  # value -> position
        for (pos, val) in enumerate(nums):
            # is the partner behind us?
            if (target - val) in index_of: return [ index_of[(target - val)], pos ]
            index_of[val] = pos

        return []
"""

BRUTE = """\
class Solution:
    def pairSum(self, nums: List[int], target: int) -> List[int]:
        for i in range(len(nums)):
            for j in range(i + 1, len(nums)):
                if nums[i] + nums[j] == target:
                    return [i, j]
        return []
"""

LIS_LEFT = """\
class Solution:
    def longestRising(self, nums: List[int]) -> int:
        tails = []
        for x in nums:
            k = bisect_left(tails, x)
            if k == len(tails):
                tails.append(x)
            else:
                tails[k] = x
        return len(tails)
"""
LIS_RIGHT = LIS_LEFT.replace("bisect_left", "bisect_right")  # wrong: one token apart


# ============================================================================ tokens


def test_code_tokens_keep_case_and_operators_and_drop_comments_and_docstrings() -> None:
    code = (
        "def f(Value, value):\n"
        '    """A docstring, not code."""\n'
        "    # a comment, not code\n"
        "    x = Value // 2 <= value  # trailing comment\n"
        "    return x != -1 and 'two words'\n"
    )
    assert code_tokens(code) == [
        *("def", "f", "(", "Value", ",", "value", ")", ":"),
        *("x", "=", "Value", "/", "/", "2", "<", "=", "value"),
        *("return", "x", "!", "=", "-", "1", "and", "'", "two", "words", "'"),
    ]


def test_code_tokens_fall_back_to_the_pattern_when_tokenize_fails() -> None:
    # an unterminated triple-quoted string: tokenize raises, the pattern still splits the text
    assert code_tokens('x = y_1 + """never closed') == [
        *("x", "=", "y_1", "+", '"', '"', '"', "never", "closed"),
    ]


def test_canonical_form_absorbs_layout_comments_docstrings_and_renamed_locals() -> None:
    assert canonical_source(HASHMAP) == canonical_source(HASHMAP_DISGUISED)
    canon = canonical_source(HASHMAP)
    assert canon is not None
    # method, builtin, annotation and attribute-free names are kept; locals are placeholders
    assert "def pairSum(_1, _2: List[int], _3: int) -> List[int]:" in canon
    assert "enumerate(_2)" in canon
    assert "seen" not in canon and "index_of" not in canon
    # without renaming the two differ only in their names
    assert canonical_source(HASHMAP, rename_locals=False) != canonical_source(
        HASHMAP_DISGUISED, rename_locals=False
    )


def test_renaming_keeps_attributes_keywords_imports_and_module_names() -> None:
    code = (
        "import heapq as hq\n"
        "MOD = 7\n"
        "class Solution:\n"
        "    def f(self, head, k):\n"
        "        node = head\n"
        "        def step(n):\n"
        "            return n.next\n"
        "        vals = sorted([node.val], key=abs, reverse=True)\n"
        "        return hq.nlargest(k, vals), step(node), MOD\n"
    )
    assert local_names(code) == {"self", "head", "k", "node", "step", "n", "vals"}
    canon = canonical_source(code)
    assert canon is not None
    assert ".next" in canon and ".val" in canon  # attributes
    assert "key=abs, reverse=True" in canon  # keyword names and builtins
    assert "hq.nlargest" in canon and "MOD" in canon  # imports and module-level names
    assert "def f(" in canon  # the method name
    assert "def _5(_6):" in canon  # the nested helper and its argument are locals


def test_self_update_is_augmented_only_for_numbers() -> None:
    numbers = (
        "def f(nums):\n    acc = 0\n    for v in nums:\n        acc = acc ^ v\n    return acc\n"
    )
    lists = (
        "def f(nums):\n    acc = []\n    for v in nums:\n        acc = acc + [v]\n    return acc\n"
    )
    assert "acc ^= v" in (canonical_source(numbers, rename_locals=False) or "")
    # for a list `acc = acc + [v]` is O(n) per step where `acc += [v]` is amortised O(1)
    assert "acc = acc + [v]" in (canonical_source(lists, rename_locals=False) or "")


def test_solution_tokens_fall_back_to_the_source_when_it_does_not_parse() -> None:
    py2 = "print 'hello'  # python 2\n"
    assert solution_tokens(py2, DedupSection()) == ["print", "'", "hello", "'"]


def test_shingles() -> None:
    assert shingles(list("abcd"), 3) == {"a b c", "b c d"}
    assert shingles(list("ab"), 3) == {"a b"}  # shorter than n: one shingle
    assert shingles([], 3) == set()


# ============================================================================ parameters


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.85, 0.95])
def test_bands_and_rows_are_derived_from_the_threshold(threshold: float) -> None:
    bands, rows = derive_bands_rows(threshold, 128, 0.5, 0.5)
    assert bands >= 2 and bands * rows <= 128
    # datasketch's own choice for the same threshold and weights
    lsh = MinHashLSH(threshold=threshold, num_perm=128, weights=(0.5, 0.5))
    assert (bands, rows) == (lsh.b, lsh.r)
    # the S-curve's steepest point, (1/b)^(1/r), sits near the threshold
    assert abs((1 / bands) ** (1 / rows) - threshold) < 0.05
    assert collision_probability(1.0, bands, rows) == 1.0
    assert collision_probability(threshold - 0.2, bands, rows) < 0.1


@pytest.mark.parametrize("build", ["mercury", "dpe"])
def test_a_threshold_the_lsh_cannot_index_is_refused_before_any_stage_runs(
    build: str, tmp_path: Path
) -> None:
    """0.99 with 16 permutations derives one band, which MinHashLSH refuses: the config's types
    accept it, so the stage's own check says so when the build starts, not after load ran."""
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "quicksilver.cli",
            "build",
            build,
            "--config",
            str(ROOT / "configs" / f"{build}.yaml"),
            "--set",
            "dedup.threshold=0.99",
            "--set",
            "dedup.num_perm=16",
            "--set",
            f"out_dir={out}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 2, proc.stderr
    assert f"error: {build} stage dedup: threshold 0.99 with num_perm 16 derives 1 band(s)" in (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr
    assert not out.exists()  # nothing ran, nothing was made
    # the default derives 2 or more: the same check lets the shipped config through
    from quicksilver.builds import BUILDS

    cfg = load_build_config(ROOT / "configs" / f"{build}.yaml", cls=BUILDS[build].config)
    BUILDS[build].check_settings(cfg)


def test_weights_move_the_s_curve() -> None:
    balanced = derive_bands_rows(0.8, 128, 0.5, 0.5)
    fewer_misses = derive_bands_rows(0.8, 128, 0.1, 0.9)
    assert collision_probability(0.8, *fewer_misses) > collision_probability(0.8, *balanced)


def test_params_are_recorded_in_the_result() -> None:
    params = DedupSection(threshold=0.8, num_perm=64, ngram=4, fp_weight=0.3, fn_weight=0.7)
    result = deduplicate([row("t", 0, HASHMAP), row("t", 1, BRUTE)], params)
    p = result.params
    assert (p["bands"], p["rows"]) == derive_bands_rows(0.8, 64, 0.3, 0.7)
    assert p["bands"] * p["rows"] <= 64
    assert p["threshold"] == 0.8 and p["num_perm"] == 64 and p["ngram"] == 4 and p["seed"] == 1
    assert p["weights"] == {"false_positive": 0.3, "false_negative": 0.7}
    assert p["hashfunc"] == "xxhash.xxh32_intdigest"
    assert "case kept" in p["tokenizer"] and "renamed" in p["identifiers"]
    defaults = deduplicate([], DedupSection()).params
    assert (defaults["threshold"], defaults["ngram"], defaults["num_perm"]) == (0.95, 5, 128)
    assert (defaults["bands"], defaults["rows"]) == (3, 42)


@pytest.mark.parametrize(
    "kwargs",
    [{"threshold": 0.0}, {"threshold": 1.0}, {"ngram": 0}, {"num_perm": 1}, {"fp_weight": -1}],
)
def test_bad_params_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # threshold 1.0 would derive a single LSH band
        DedupSection(**kwargs)


def test_rows_without_the_needed_fields_are_refused() -> None:
    with pytest.raises(KeyError, match="row 1 lacks hash"):
        deduplicate([row("t", 0, BRUTE), {"slug": "t", "position": 1, "code": BRUTE}])


# ============================================================================ deduplicate


def test_exact_duplicates() -> None:
    rows = [
        row("two-sum", 0, HASHMAP, source="a"),
        row("two-sum", 1, BRUTE),
        row("two-sum", 2, HASHMAP, source="b"),
        row("two-sum", 3, HASHMAP, source="c"),
    ]
    result = deduplicate(rows)
    assert result.kept == [rows[0], rows[1]]
    assert result.kept[0] is rows[0]  # the input dicts themselves
    assert [(r["position"], r["source"]) for r in result.removed] == [(2, "b"), (3, "c")]
    h = content_hash(HASHMAP)
    for r in result.removed:
        assert r["kind"] == "exact"
        assert (r["twin_position"], r["twin_hash"], r["similarity"]) == (0, h, 1.0)
        assert r["reason"] == f"exact duplicate of solution #0 (hash {h})"
    assert (result.exact, result.near) == (2, 0)
    assert "reason" not in rows[2]  # the input rows are not modified


def test_near_duplicates() -> None:
    rows = [
        row("two-sum", 0, BRUTE),
        row("two-sum", 1, HASHMAP),
        row("two-sum", 2, HASHMAP_DISGUISED),
    ]
    result = deduplicate(rows)
    assert [r["position"] for r in result.kept] == [0, 1]
    [removed] = result.removed
    assert removed["position"] == 2 and removed["kind"] == "near"
    assert (removed["twin_position"], removed["twin_hash"]) == (1, content_hash(HASHMAP))
    assert removed["similarity"] == 1.0
    assert removed["reason"] == "near-duplicate of solution #1 (Jaccard 1.00 >= 0.95)"
    assert result.counts["verified_pairs"] == 1 and (result.exact, result.near) == (0, 1)


def test_deferred_near_duplicates_are_marked_not_removed() -> None:
    # the build's default: near-duplicates go on to the test cases, marked with their group, so
    # the uniqueness stage removes them only among passing solutions; exact ones still go here
    rows = [
        row("two-sum", 0, BRUTE),
        row("two-sum", 1, HASHMAP),
        row("two-sum", 2, HASHMAP_DISGUISED),
        row("two-sum", 3, HASHMAP),
    ]
    result = deduplicate(rows)
    kept, removed = defer_near_duplicates(rows, result)
    assert [r["position"] for r in kept] == [0, 1, 2]
    assert [(r["position"], r["kind"]) for r in removed] == [(3, "exact")]
    assert "near_group" not in kept[0]
    assert kept[1]["near_group"] == kept[2]["near_group"] == content_hash(HASHMAP)
    assert kept[2]["near_detail"] == "Jaccard 1.00 to solution #1"
    assert "near_group" not in rows[1]  # the input rows are not modified


def test_solutions_one_token_apart_are_not_merged() -> None:
    # bisect_right for bisect_left makes a wrong solution: it must reach the later stages
    rows = [row("lis", 0, LIS_LEFT), row("lis", 1, LIS_RIGHT)]
    result = deduplicate(rows)
    assert result.removed == [] and result.kept == rows


def test_different_solutions_are_not_merged() -> None:
    rows = [row("two-sum", 0, BRUTE), row("two-sum", 1, HASHMAP)]
    assert deduplicate(rows).removed == []


def test_other_tasks_are_never_merged() -> None:
    rows = [row("a", 0, HASHMAP), row("b", 0, HASHMAP), row("c", 0, HASHMAP_DISGUISED)]
    result = deduplicate(rows)
    assert result.removed == [] and result.kept == rows
    assert result.counts["tasks"] == 3


def test_keep_rule_lowest_position_then_lowest_hash() -> None:
    # listed later in the input but first in the snapshot file: it is the one kept
    rows = [row("t", 5, HASHMAP), row("t", 2, HASHMAP_DISGUISED), row("t", 9, HASHMAP)]
    result = deduplicate(rows)
    assert [r["position"] for r in result.kept] == [2]
    by_pos = {r["position"]: r for r in result.removed}
    assert by_pos[5]["kind"] == "near" and by_pos[5]["twin_position"] == 2
    assert by_pos[9]["kind"] == "exact" and by_pos[9]["twin_position"] == 5  # same hash as #5

    # equal positions (rows merged from two sources): the lower hash is kept
    a, b = row("t", 0, HASHMAP), row("t", 0, HASHMAP_DISGUISED)
    low, high = sorted([a, b], key=lambda r: r["hash"])
    result = deduplicate([high, low])
    assert result.kept == [low]
    assert result.removed[0]["twin_hash"] == low["hash"]


def test_a_group_linked_through_a_middle_solution_keeps_one() -> None:
    # A ~ B ~ C, but A and C are too far apart: union-find still makes one group
    tokens = [f"t{k}" for k in range(60)]
    a, b, c = ("\n".join(tokens[s : s + 40]) + "\n" for s in (0, 8, 16))
    params = DedupSection(threshold=0.5, ngram=1, fp_weight=0.1, fn_weight=0.9)
    # J(A,B) = J(B,C) = 32/48 and J(A,C) = 24/56; the LSH misses a 2/3 pair with p < 0.001
    assert collision_probability(2 / 3, *derive_bands_rows(0.5, 128, 0.1, 0.9)) > 0.999
    result = deduplicate([row("t", 0, a), row("t", 1, b), row("t", 2, c)], params)
    assert [r["position"] for r in result.kept] == [0]
    first, second = result.removed
    assert (first["position"], first["twin_position"]) == (1, 0)
    assert first["reason"] == "near-duplicate of solution #0 (Jaccard 0.67 >= 0.50)"
    # the twin is always the group's keeper; the reason names the link that got it there
    assert (second["position"], second["twin_position"]) == (2, 0)
    assert second["similarity"] == round(24 / 56, 4)
    assert second["reason"] == (
        "near-duplicate of solution #0 through solution #1 (Jaccard 0.67 >= 0.50 to it; 0.43 to #0)"
    )


def test_lsh_candidates_below_the_threshold_are_rejected() -> None:
    # weights that only fear misses: (13 bands x 1 row), the one-token pair (Jaccard 0.86)
    # is a candidate with probability 1 - 0.14**13; the exact Jaccard then says no
    params = DedupSection(threshold=0.95, fp_weight=0.0, fn_weight=1.0)
    bands, rows_per_band = derive_bands_rows(0.95, 128, 0.0, 1.0)
    assert collision_probability(0.8, bands, rows_per_band) > 0.999_999
    result = deduplicate([row("lis", 0, LIS_LEFT), row("lis", 1, LIS_RIGHT)], params)
    assert result.removed == []
    assert result.counts["lsh_candidates"] == result.counts["rejected_candidates"] == 1


def test_the_result_is_deterministic() -> None:
    rows = [
        row("t", k, code) for k, code in enumerate([BRUTE, HASHMAP, LIS_LEFT, HASHMAP_DISGUISED])
    ]
    first, second = deduplicate(rows), deduplicate(rows)
    assert first.removed == second.removed and first.counts == second.counts


# ============================================================================ bundled corpus

# Rewritten, not renamed / reformatted / commented: `cur.next, prev, cur = prev, cur, cur.next`
# for a four-line loop body. Its Jaccard to #0 is 0.26, below genuinely different pairs.
KNOWN_MISSES = {("reverse-chain", 1)}


def test_bundled_corpus_annotated_near_duplicates_are_removed_and_nothing_else() -> None:
    loaded = load_snapshot_dir(BUNDLED)
    rows = [
        loaded_row(snap.slug, k, sol.code)
        for snap in loaded.files
        for k, sol in enumerate(snap.solutions)
    ]
    result = deduplicate(rows)
    exact = {(r["slug"], r["position"]): r for r in result.removed if r["kind"] == "exact"}
    removed = {(r["slug"], r["position"]): r for r in result.removed if r["kind"] == "near"}
    annotated_exact = {
        (snap.slug, int(k)): int(str(v).split(":")[0])
        for snap in loaded.files
        for k, v in ((snap.annotations or {}).get("exact_duplicates") or {}).items()
    }
    assert annotated_exact and {k: r["twin_position"] for k, r in exact.items()} == annotated_exact

    annotated: dict[tuple[str, int], int] = {}
    wrong: set[tuple[str, int]] = set()
    for snap in loaded.files:
        notes = snap.annotations or {}
        for k, what in (notes.get("near_duplicates") or {}).items():
            annotated[(snap.slug, int(k))] = int(str(what).split(":")[0])
        wrong |= {(snap.slug, int(k)) for k in notes.get("wrong_solutions") or {}}
    assert len(annotated) == 8

    assert set(removed) == set(annotated) - KNOWN_MISSES
    for key, r in removed.items():
        assert r["kind"] == "near"
        assert r["twin_position"] == annotated[key]  # the solution it was copied from
        assert r["similarity"] == 1.0  # identical once canonical
    assert not wrong & set(removed)  # bisect_right & co. reach the correctness stages
    assert len(result.kept) == len(rows) - len(removed) - len(exact)
