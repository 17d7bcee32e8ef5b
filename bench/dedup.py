"""Dedup benchmark: MinHash + LSH throughput of the dedup stage against datasketch's defaults.

A synthetic corpus of N solutions (default 50,000) is generated from the bundled corpus: many
synthetic tasks, each built on one bundled question, holding that question's solutions and
mutated copies of them (kinds below), all shuffled into snapshot positions. Both sides then
shingle the same token streams (the stage's canonical tokens, computed once and timed apart)
and, task by task, build MinHash signatures, run one MinHash LSH (insert + query) with the same
bands x rows, and verify candidates with the exact Jaccard:

- ``ours``: :mod:`quicksilver.stages.dedup` -- 32-bit xxHash as ``hashfunc``, every signature
  a copy of one template MinHash filled by a single vectorised ``update_batch``;
- ``baseline``: datasketch's default usage -- ``MinHash(num_perm, seed)`` per solution (its
  default SHA-1 ``hashfunc``) and ``MinHash.update`` once per shingle, no bulk.

Printed side by side: solutions per second for the MinHash and the LSH phases and both
together, candidate pairs, and the near-duplicates found (solutions linked to an earlier one).
Then the whole stage, ``deduplicate()`` (exact step, canonicalisation, tokens, MinHash, LSH),
end to end, with what it did per mutation kind.

Mutation kinds: ``copy`` (identical), ``rename`` (local names replaced), ``reformat`` (ast
layout, blank lines, redundant parentheses), ``comments`` (comment lines and trailing comments),
``rename+comments``, ``insert`` (one statement added: a no-op, a debug print or an unused local)
and ``one-token`` (one comparison operator flipped or one integer constant changed: a different
program that must NOT be merged).

``--tune`` instead measures parameter settings on the bundled corpus (confusion against its
annotations, what happens to the intended-wrong solutions) and on a small synthetic corpus
(linked share per mutation kind): the numbers behind the defaults in docs/dedup.md.

Run ``python bench/dedup.py`` (2-3 minutes on a 2-core VM; the baseline's MinHash is most of
it), ``--n`` to change the size, ``--json OUT`` to dump every number. Numbers: docs/dedup.md.
"""

from __future__ import annotations

import ast
import logging
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import xxhash
from datasketch import MinHash
from rich.console import Console

from quicksilver.config import DedupSection
from quicksilver.sources.snapshot import SnapshotFile, load_snapshot_dir
from quicksilver.stages.dedup import (
    deduplicate,
    describe_params,
    jaccard,
    local_names,
    lsh_candidate_pairs,
    minhash_template,
    shingles,
    signatures,
    solution_tokens,
)

from common import BUNDLED, header, parser, start, table, write_json

log = logging.getLogger("bench.dedup")

KINDS = ("copy", "rename", "reformat", "comments", "rename+comments", "insert", "one-token")
TASK_SIZE = (16, 32)  # solutions per synthetic task (uniform)


# ============================================================================ mutations

# fmt: off
_NAME_POOL = (
    "acc", "total", "res", "ans", "out", "best", "cur", "prev", "nxt", "idx", "pos", "val",
    "item", "elem", "left", "right", "lo", "hi", "mid", "node", "stack", "queue", "seen", "memo",
    "dp", "table", "count", "freq", "size", "length", "key", "value", "tmp", "buf", "head",
    "tail", "root", "level", "depth", "step", "gap", "span", "width", "limit", "start", "stop",
    "front", "back", "first", "last", "pair", "tally",
)
# fmt: on


def _fresh_name(rng: random.Random, taken: set[str]) -> str:
    while True:
        name = rng.choice(_NAME_POOL) + rng.choice(("", "_", "2", "_x", "s", "0"))
        if name not in taken:
            taken.add(name)
            return name


def mutate_rename(code: str, rng: random.Random) -> str | None:
    """Every local name but ``self`` replaced by a fresh one (textually: layout and comments
    kept)."""
    local = sorted(local_names(code) - {"self"})
    if not local:
        return None
    taken = set(re.findall(r"\w+", code))
    mapping = {name: _fresh_name(rng, taken) for name in local}
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, local)) + r")\b")
    return pattern.sub(lambda m: mapping[m.group(1)], code)


class _Parenthesise(ast.NodeTransformer):
    """Wraps about half of the comparisons in a call of ``__paren__``, which
    :func:`mutate_reformat` then prints as plain (redundant) parentheses."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if self.rng.random() < 0.5:
            return ast.Call(func=ast.Name("__paren__", ast.Load()), args=[node], keywords=[])
        return node


def mutate_reformat(code: str, rng: random.Random) -> str | None:
    """ast layout, redundant parentheses around some comparisons, blank lines: same program."""
    tree = _Parenthesise(rng).visit(ast.parse(code))
    text = ast.unparse(ast.fix_missing_locations(tree))
    text = re.sub(r"__paren__\(", "(", text)  # a call of __paren__(x) prints as (x)
    lines = []
    for line in text.splitlines():
        lines.append(line)
        if line.lstrip().startswith(("def ", "class ")) or rng.random() < 0.15:
            lines.append("")
    out = "\n".join(lines) + "\n"
    return out if out.strip() != code.strip() else None


_COMMENTS = (
    "# walk the input once",
    "# edge case first",
    "# keep the invariant",
    "# TODO: tidy up",
    "# this is the main loop",
    "# note: indices are 0-based",
)


def mutate_comments(code: str, rng: random.Random) -> str | None:
    """Comment lines above some statements and trailing comments on others."""
    lines = code.splitlines()
    out: list[str] = []
    changed = False
    for line in lines:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped and not stripped.startswith(("#", "@")) and rng.random() < 0.25:
            out.append(indent + rng.choice(_COMMENTS))
            changed = True
        if stripped and not stripped.endswith(("\\", ",", "(", "[", "{")) and rng.random() < 0.1:
            line += "  " + rng.choice(_COMMENTS)
            changed = True
        out.append(line)
    if not changed:
        out.insert(0, rng.choice(_COMMENTS))
    return "\n".join(out) + "\n"


_INSERTS = ("pass", "print('debug')", "_unused = 0", "assert True")


def mutate_insert(code: str, rng: random.Random) -> str | None:
    """One statement added at a random place of the first method's body."""
    lines = code.splitlines()
    for k, line in enumerate(lines):
        if line.lstrip().startswith("def ") and k + 1 < len(lines):
            body = lines[k + 1]
            indent = body[: len(body) - len(body.lstrip())]
            if not indent:
                return None
            spots = [
                m
                for m in range(k + 1, len(lines))
                if lines[m].startswith(indent) and not lines[m].startswith(indent + " ")
            ]
            m = rng.choice(spots)
            return "\n".join([*lines[:m], indent + rng.choice(_INSERTS), *lines[m:]]) + "\n"
    return None


_FLIP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


class _OneToken(ast.NodeTransformer):
    """Counts (target < 0) or changes (the target-th) comparison operator / integer constant."""

    def __init__(self, target: int) -> None:
        self.target, self.seen = target, 0

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if self.seen == self.target:
            node.ops = [_FLIP[type(node.ops[0])](), *node.ops[1:]]
        self.seen += 1
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            if self.seen == self.target:
                node = ast.copy_location(ast.Constant(node.value + 1), node)
            self.seen += 1
        return node


def mutate_one_token(code: str, rng: random.Random) -> str | None:
    """One comparison operator flipped or one integer constant + 1 (printed from the AST: the
    layout changes too, which the canonical tokens ignore anyway)."""
    counter = _OneToken(-1)
    counter.visit(ast.parse(code))
    if not counter.seen:
        return None
    return ast.unparse(_OneToken(rng.randrange(counter.seen)).visit(ast.parse(code))) + "\n"


MUTATORS: dict[str, Callable[[str, random.Random], str | None]] = {
    "copy": lambda code, rng: code,
    "rename": mutate_rename,
    "reformat": mutate_reformat,
    "comments": mutate_comments,
    "rename+comments": lambda code, rng: (
        mutate_comments(r, rng) if (r := mutate_rename(code, rng)) else None
    ),
    "insert": mutate_insert,
    "one-token": mutate_one_token,
}


def signed_hash(code: str) -> int:
    """int64 content hash, as the upstream stage provides (here: xxh64 of the code as is)."""
    return int.from_bytes(xxhash.xxh64_digest(code.encode("utf-8")), "big", signed=True)


def usable_solutions(files: Sequence[SnapshotFile]) -> list[tuple[str, list[str]]]:
    out = []
    for snap in files:
        codes = []
        for sol in snap.solutions:
            try:
                ast.parse(sol.code)
            except SyntaxError:
                continue
            codes.append(sol.code)
        if len(codes) >= 2:
            out.append((snap.slug, codes))
    return out


def _make_task(
    task: int, seed: int, slug: str, codes: list[str], size: int
) -> list[dict[str, Any]]:
    """One synthetic task: the question's solutions (``kind`` "original") and mutated copies,
    positions shuffled; seeded by (seed, task) so the corpus does not depend on the workers."""
    rng = random.Random(f"{seed}:{task}")
    members: list[tuple[str, int, str]] = [("original", k, code) for k, code in enumerate(codes)]
    members = members[:size]
    tries = 0
    while len(members) < size and tries < 10 * size:
        tries += 1
        origin = rng.randrange(len(codes))
        kind = rng.choice(KINDS)
        try:
            mutated = MUTATORS[kind](codes[origin], rng)
            if mutated is None:
                continue
            ast.parse(mutated)
        except (SyntaxError, ValueError, RecursionError):
            continue
        if kind != "copy" and mutated == codes[origin]:
            continue
        members.append((kind, origin, mutated))
    positions = list(range(len(members)))
    rng.shuffle(positions)
    name = f"synth-{task:05d}-{slug}"
    return [
        {
            "slug": name,
            "hash": signed_hash(code),
            "code": code,
            "position": position,
            "kind": kind,
            "origin": origin,
        }
        for (kind, origin, code), position in zip(members, positions, strict=True)
    ]


def _make_task_star(job: tuple[int, int, str, list[str], int]) -> list[dict[str, Any]]:
    return _make_task(*job)


def make_corpus(
    n: int, seed: int, files: Sequence[SnapshotFile], workers: int = 1
) -> list[dict[str, Any]]:
    """About N rows over synthetic tasks of 16-32 solutions, each built on one bundled
    question: its solutions (``origin`` ids) plus mutated copies (``kind``)."""
    rng = random.Random(seed)
    questions = usable_solutions(files)
    jobs = []
    planned = 0
    while planned < n:
        slug, codes = rng.choice(questions)
        size = min(rng.randint(*TASK_SIZE), n - planned)
        jobs.append((len(jobs), seed, slug, codes, size))
        planned += size
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            tasks = list(pool.map(_make_task_star, jobs, chunksize=max(1, len(jobs) // 32)))
    else:
        tasks = [_make_task_star(job) for job in jobs]
    return [r for task_rows in tasks for r in task_rows]


# ============================================================================ throughput


def _shingle_code(code: str) -> set[str]:
    params = DedupSection()
    return shingles(solution_tokens(code, params), params.ngram)


def baseline_signature(shingle_set: set[str], params: DedupSection) -> MinHash:
    """datasketch's default usage: a new MinHash (SHA-1 hashfunc), one update per shingle."""
    m = MinHash(num_perm=params.num_perm, seed=params.seed)
    for sh in shingle_set:
        m.update(sh.encode("utf-8"))
    return m


@dataclass
class SideResult:
    method: str
    minhash_s: float
    lsh_s: float
    verify_s: float
    candidate_pairs: int
    verified_pairs: int
    duplicates_found: int


def run_side(
    method: str,
    tasks: list[list[set[str]]],
    params: DedupSection,
    bands: int,
    rows: int,
) -> SideResult:
    template = minhash_template(params)
    minhash_s = lsh_s = verify_s = 0.0
    candidates = verified = found = 0
    for sets in tasks:
        t0 = time.process_time()
        if method == "ours":
            sigs = signatures(template, sets)
        else:
            sigs = [baseline_signature(s, params) for s in sets]
        t1 = time.process_time()
        pairs = lsh_candidate_pairs(sigs, bands, rows, params.num_perm)
        t2 = time.process_time()
        parent = list(range(len(sets)))

        def find(x: int, parent: list[int] = parent) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        for a, b in pairs:
            if jaccard(sets[a], sets[b]) >= params.threshold:
                verified += 1
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
        t3 = time.process_time()
        candidates += len(pairs)
        found += sum(1 for k in range(len(sets)) if find(k) != k)
        minhash_s += t1 - t0
        lsh_s += t2 - t1
        verify_s += t3 - t2
    return SideResult(method, minhash_s, lsh_s, verify_s, candidates, verified, found)


def keeper_of(rows: list[dict[str, Any]], removed: list[dict[str, Any]]) -> dict[int, int]:
    """Row index -> index of the row its group keeps (following the twin links)."""
    by_pos = {(r["slug"], r["position"]): i for i, r in enumerate(rows)}
    twin = {
        by_pos[(r["slug"], r["position"])]: by_pos[(r["slug"], r["twin_position"])] for r in removed
    }
    out: dict[int, int] = {}
    for i in range(len(rows)):
        j = i
        while j in twin:
            j = twin[j]
        out[i] = j
    return out


def linked_by_kind(rows: list[dict[str, Any]], removed: list[dict[str, Any]]) -> dict[str, Any]:
    """Per mutation kind: the share of mutated solutions grouped with their original."""
    keeper = keeper_of(rows, removed)
    original = {
        (r["slug"], r["origin"]): i for i, r in enumerate(rows) if r.get("kind") == "original"
    }
    total: Counter[str] = Counter()
    linked: Counter[str] = Counter()
    for i, r in enumerate(rows):
        if r.get("kind") in (None, "original"):
            continue
        o = original.get((r["slug"], r["origin"]))
        if o is None:
            continue
        total[r["kind"]] += 1
        linked[r["kind"]] += keeper[i] == keeper[o]
    return {k: {"n": total[k], "linked": linked[k]} for k in KINDS if total[k]}


# ============================================================================ tuning


def annotated_pairs(snap: SnapshotFile) -> dict[int, int]:
    """Annotated near-duplicate index -> the index it duplicates (tests and tuning only)."""
    near = (snap.annotations or {}).get("near_duplicates") or {}
    return {int(k): int(str(v).split(":")[0]) for k, v in near.items()}


def corpus_rows(files: Sequence[SnapshotFile]) -> list[dict[str, Any]]:
    return [
        {"slug": snap.slug, "hash": signed_hash(sol.code), "code": sol.code, "position": k}
        for snap in files
        for k, sol in enumerate(snap.solutions)
    ]


def corpus_confusion(files: Sequence[SnapshotFile], params: DedupSection) -> dict[str, Any]:
    """Removed solutions against the annotations: TP (annotated and removed), FN (annotated,
    kept), FP (removed, not annotated); and the fate of each intended-wrong solution."""
    rows = corpus_rows(files)
    result = deduplicate(rows, params)
    removed = {(r["slug"], r["position"]): r for r in result.removed}
    annotated = {(s.slug, k) for s in files for k in annotated_pairs(s)}
    wrong = {
        (s.slug, int(k))
        for s in files
        for k in ((s.annotations or {}).get("wrong_solutions") or {})
    }
    return {
        "tp": sorted(annotated & removed.keys()),
        "fn": sorted(annotated - removed.keys()),
        "fp": sorted(removed.keys() - annotated),
        "wrong_removed": sorted(wrong & removed.keys()),
        "wrong": len(wrong),
        "bands": result.params["bands"],
        "rows": result.params["rows"],
    }


def tune(console: Console, files: Sequence[SnapshotFile], seed: int, n_synth: int) -> dict:
    grid = [
        ("as written", False, False),
        ("canonical", True, False),
        ("canonical+rename", True, True),
    ]
    synth = make_corpus(n_synth, seed, files)
    t = table(
        "settings on the bundled corpus and a small synthetic corpus",
        *("tokens", "n", "threshold", "b x r", "TP", "FN", "FP", "wrong rm"),
        *KINDS,
    )
    out = []
    for label, canonical, rename in grid:
        for ngram in (3, 5):
            for threshold in (0.7, 0.8, 0.85, 0.9, 0.95):
                params = DedupSection(
                    threshold=threshold, ngram=ngram, canonical=canonical, rename_locals=rename
                )
                conf = corpus_confusion(files, params)
                res = deduplicate(synth, params)
                kinds = linked_by_kind(synth, res.removed)
                out.append(
                    {
                        "tokens": label,
                        "ngram": ngram,
                        "threshold": threshold,
                        "corpus": conf,
                        "synthetic": kinds,
                    }
                )
                t.add_row(
                    label,
                    str(ngram),
                    f"{threshold:.2f}",
                    f"{conf['bands']}x{conf['rows']}",
                    str(len(conf["tp"])),
                    str(len(conf["fn"])),
                    str(len(conf["fp"])),
                    f"{len(conf['wrong_removed'])}/{conf['wrong']}",
                    *(
                        f"{100 * kinds[k]['linked'] / kinds[k]['n']:.0f}%" if k in kinds else "-"
                        for k in KINDS
                    ),
                )
                log.info(
                    "%s n=%d t=%.2f: FN %s FP %s wrong removed %s",
                    label,
                    ngram,
                    threshold,
                    conf["fn"],
                    conf["fp"],
                    conf["wrong_removed"],
                )
    console.print(t)
    console.print(
        "TP/FN/FP: annotated near-duplicates removed / kept, and removed solutions the "
        "annotations do not list; 'wrong rm': intended-wrong solutions removed. Kind columns: "
        f"share of synthetic mutants ({len(synth)} solutions) grouped with their original "
        "(one-token: a different program, so lower is better)."
    )
    return {"synthetic_n": len(synth), "settings": out}


# ============================================================================ main


def main(argv: Sequence[str] | None = None) -> int:
    p = parser(__doc__, verbose=True, seed="seed of the synthetic corpus")
    p.add_argument("--n", type=int, default=50_000, help="synthetic solutions (default 50000)")
    p.add_argument(
        "--stage-n", type=int, default=10_000, help="solutions for the end-to-end run (10000)"
    )
    p.add_argument("--tune", action="store_true", help="measure settings instead (docs/dedup.md)")
    p.add_argument("--tune-n", type=int, default=3000, help="synthetic solutions for --tune")
    args = p.parse_args(argv)
    started = time.perf_counter()
    console = start(level=logging.WARNING, verbose=args.verbose)
    machine, _ = header(console)
    files = load_snapshot_dir(BUNDLED).files
    if args.tune:
        write_json(args.json, tune(console, files, args.seed, args.tune_n))
        return 0

    params = DedupSection()
    info = describe_params(params)
    bands, rows_per_band = info["bands"], info["rows"]
    console.print(
        f"[bold]params[/]: threshold {params.threshold}, ngram {params.ngram}, num_perm "
        f"{params.num_perm}, seed {params.seed}, LSH {bands} bands x {rows_per_band} rows "
        f"(candidate probability {info['candidate_probability_at_threshold']:.2f} at the "
        f"threshold), canonical={params.canonical}, rename_locals={params.rename_locals}"
    )

    workers = max(1, min(int(machine["cores"] or 1), 8))
    t0 = time.perf_counter()
    rows = make_corpus(args.n, args.seed, files, workers)
    gen_s = time.perf_counter() - t0
    n = len(rows)
    by_task: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_task[r["slug"]].append(i)
    kinds = Counter(r["kind"] for r in rows)
    console.print(
        f"synthetic corpus: {len(rows)} solutions in {len(by_task)} tasks, generated in "
        f"{gen_s:.1f} s; kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    )

    # shared by both sides and not what is compared: spread over the cores
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        token_sets = list(
            pool.map(_shingle_code, [r["code"] for r in rows], chunksize=max(1, n // 64))
        )
    token_s = time.perf_counter() - t0
    tasks = [[token_sets[i] for i in members] for members in by_task.values()]
    mean_shingles = sum(map(len, token_sets)) / n

    sides = [run_side(m, tasks, params, bands, rows_per_band) for m in ("ours", "baseline")]
    t = table(
        f"MinHash + LSH on {n} solutions ({mean_shingles:.0f} shingles each); "
        "rates per CPU second of one process",
        ("method", "left"),
        "MinHash sol/s",
        "LSH insert+query sol/s",
        "MinHash+LSH sol/s",
        "MinHash+LSH CPU s",
        "candidate pairs",
        "verified pairs",
        "near-dups found",
    )
    for s in sides:
        t.add_row(
            s.method,
            f"{n / s.minhash_s:,.0f}",
            f"{n / s.lsh_s:,.0f}",
            f"{n / (s.minhash_s + s.lsh_s):,.0f}",
            f"{s.minhash_s + s.lsh_s:.1f}",
            f"{s.candidate_pairs:,}",
            f"{s.verified_pairs:,}",
            f"{s.duplicates_found:,}",
        )
    console.print(t)
    ours, base = sides
    speedup = (base.minhash_s + base.lsh_s) / (ours.minhash_s + ours.lsh_s)
    console.print(
        f"speed-up MinHash+LSH: {speedup:.1f}x"
        f" (MinHash alone {base.minhash_s / ours.minhash_s:.1f}x). Shared by both: canonical "
        f"tokens + shingles {token_s:.1f} s on {workers} processes; exact verification "
        f"{ours.verify_s:.2f} s (ours), {base.verify_s:.2f} s (baseline)."
    )

    # the whole stage, on whole tasks up to --stage-n solutions (canonicalising is the slow part)
    stage_rows: list[dict[str, Any]] = []
    for members in by_task.values():
        if len(stage_rows) + len(members) > args.stage_n:
            break
        stage_rows.extend(rows[i] for i in members)
    t0 = time.process_time()
    result = deduplicate(stage_rows, params)
    stage_s = time.process_time() - t0
    per_kind = linked_by_kind(stage_rows, result.removed)
    m = len(stage_rows)
    console.print(
        f"[bold]deduplicate()[/] end to end on the first {m} solutions "
        f"({len({r['slug'] for r in stage_rows})} tasks): {m / stage_s:,.0f} sol/s "
        f"({stage_s:.1f} CPU s); kept "
        f"{len(result.kept)}, removed {result.exact} exact + {result.near} near. Grouped with "
        "their original: "
        + ", ".join(
            f"{k} {v['linked']}/{v['n']} ({100 * v['linked'] / v['n']:.0f}%)"
            for k, v in per_kind.items()
        )
    )
    console.print(f"total bench time {time.perf_counter() - started:.0f} s (wall)")
    write_json(
        args.json,
        {
            "machine": machine,
            "params": info,
            "n": n,
            "tasks": len(by_task),
            "kinds": kinds,
            "mean_shingles": mean_shingles,
            "generate_seconds_wall": gen_s,
            "token_seconds_wall": token_s,
            "workers": workers,
            "sides": [asdict(s) for s in sides],
            "stage_n": m,
            "stage_cpu_seconds": stage_s,
            "stage_counts": result.counts,
            "linked_by_kind": per_kind,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
