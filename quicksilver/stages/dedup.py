"""Stage 2, dedup: remove duplicate solutions within each task.

Two steps, both only ever comparing solutions of the same task (same ``slug``):

1. **Exact duplicates**: solutions with the same ``hash`` (the content hash of the normalised
   code, computed upstream) collapse to one.
2. **Near-duplicates**: MinHash signatures (datasketch, xxhash-based hash function) of token
   n-gram shingles, indexed in a MinHash LSH whose bands x rows are derived from the threshold;
   every LSH candidate pair is verified with the *exact* Jaccard similarity of the two shingle
   sets (cheap at LeetCode-solution sizes) and only pairs at or above the threshold are linked.

Linked solutions form groups (union-find over exact and verified near links). Each group keeps
one solution: the lowest ``position`` (listed first in its snapshot file), ties broken by the
lower ``hash``. Every other member is reported in ``removed`` with its twin, kind, similarity and
a human-readable reason.

Before tokenising, each solution is put in a canonical form from its AST (one layout, no
comments or docstrings, redundant parentheses gone, ``x = x op y`` as ``x op= y`` for numbers)
and its local identifiers (arguments, local variables, nested helpers) are alpha-renamed to
positional placeholders, so reformatted, commented and renamed copies become identical token
streams. Tokens are code-aware (bigcode near-dedup style): identifier runs and single operator /
punctuation characters, case kept, operators kept. docs/dedup.md explains the defaults and the
measurements behind them.
"""

from __future__ import annotations

import ast
import io
import json
import logging
import re
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import xxhash
from datasketch import MinHash, MinHashLSH  # type: ignore[import-untyped]
from datasketch.lsh import _optimal_param  # type: ignore[import-untyped]

from quicksilver import astparse
from quicksilver.config import DedupSection
from quicksilver.fsutil import write_text_atomic
from quicksilver.pipeline.records import Solution, TaskRecord
from quicksilver.pipeline.stage import Context, Stage

log = logging.getLogger(__name__)

# One token: a run of identifier characters, or one other non-blank character.
_TOKEN_RE = re.compile(r"\w+|[^\w\s]")
_SKIPPED_TOKEN_TYPES = frozenset(
    {
        tokenize.COMMENT,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENDMARKER,
        tokenize.ENCODING,
    }
)

TOKENIZER_DESCRIPTION = (
    "identifier runs [A-Za-z0-9_]+ and single operator/punctuation characters, case kept; "
    "comments, docstrings, newlines and indentation dropped (python tokenize)"
)
CANONICAL_DESCRIPTION = (
    "ast.parse -> docstrings dropped, `x = x op y` -> `x op= y` where x is assigned a number "
    "literal in the same scope -> ast.unparse (one layout, no comments, no redundant "
    "parentheses); source as written when it does not parse"
)
RENAME_DESCRIPTION = (
    "names bound inside functions (arguments, assignment/loop/with/comprehension/except "
    "targets, nested defs) renamed _1, _2, ... in order of first appearance; attribute, "
    "keyword-argument, builtin, import, module-level and method names kept"
)


# ============================================================================ parameters


@lru_cache(maxsize=64)
def derive_bands_rows(
    threshold: float, num_perm: int, fp_weight: float = 0.5, fn_weight: float = 0.5
) -> tuple[int, int]:
    """LSH bands x rows minimising the weighted false-positive / false-negative areas.

    datasketch's own optimiser (the one ``MinHashLSH(threshold=...)`` runs, and text-dedup
    imports): it integrates the S-curve ``1 - (1 - s**r)**b`` below the threshold (false
    positives) and above it (false negatives) for every ``b * r <= num_perm``.
    """
    total = fp_weight + fn_weight
    bands, rows = _optimal_param(threshold, num_perm, fp_weight / total, fn_weight / total)
    if bands < 2:  # MinHashLSH refuses a single band
        raise ValueError(
            f"threshold {threshold} with num_perm {num_perm} derives {bands} band(s); "
            "MinHashLSH needs at least 2: raise num_perm or lower the threshold"
        )
    return int(bands), int(rows)


def collision_probability(similarity: float, bands: int, rows: int) -> float:
    """Probability that a pair of the given Jaccard similarity becomes an LSH candidate."""
    return 1.0 - (1.0 - similarity**rows) ** bands


# ============================================================================ tokens


def _char_col(line: str, byte_col: int) -> int:
    """ast reports UTF-8 byte columns; tokenize reports character columns."""
    if line.isascii():
        return byte_col
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def _docstring_starts(tree: ast.AST) -> list[tuple[int, int]]:
    """(line, byte column) where each docstring starts: the leading string expression of a
    module, class or function body."""
    starts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                starts.append((body[0].value.lineno, body[0].value.col_offset))
    return starts


_STMT_LIST_FIELDS = ("body", "orelse", "finalbody")


def _is_number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        node = node.operand
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float | complex)
        and not isinstance(node.value, bool)
    )


def _strip_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[1:] or [ast.Pass()]
    return body


def _numeric_targets(node: ast.Assign | ast.AnnAssign) -> list[str]:
    """Names an assignment gives a number literal: ``x = 0``, ``a, b = 1, -1``, ``x: int = 0``."""
    if isinstance(node, ast.AnnAssign):
        ann_target, value = node.target, node.value
        if isinstance(ann_target, ast.Name) and value is not None and _is_number(value):
            return [ann_target.id]
        return []
    out = []
    for target in node.targets:
        if isinstance(target, ast.Name) and _is_number(node.value):
            out.append(target.id)
        elif (
            isinstance(target, ast.Tuple)
            and isinstance(node.value, ast.Tuple)
            and len(target.elts) == len(node.value.elts)
        ):
            out.extend(
                t.id
                for t, v in zip(target.elts, node.value.elts, strict=True)
                if isinstance(t, ast.Name) and _is_number(v)
            )
    return out


def _self_update(stmt: ast.stmt) -> bool:
    """``x = x op y`` with a plain name ``x``."""
    return (
        type(stmt) is ast.Assign
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.BinOp)
        and isinstance(stmt.value.left, ast.Name)
        and stmt.value.left.id == stmt.targets[0].id
    )


@dataclass
class _Scan:
    """What one pass over a file's AST found (see :func:`_scan`)."""

    bound: set[str] = field(default_factory=set)  # names bound inside a function
    imported: set[str] = field(default_factory=set)
    numeric: dict[int, set[str]] = field(default_factory=dict)  # id(scope) -> number names
    # every place that holds an identifier, in source order: (node, attribute)
    occurrences: list[tuple[ast.AST, str]] = field(default_factory=list)
    # every `x = x op y` statement: (statement list, index, id(scope))
    self_updates: list[tuple[list[ast.stmt], int, int]] = field(default_factory=list)

    @property
    def local(self) -> set[str]:
        return self.bound - self.imported


def _scan(tree: ast.Module) -> _Scan:
    """One pre-order pass (source order) over a file's AST; drops docstrings on the way.

    A name is *local* when it is bound inside a function: an argument, an assignment / loop /
    with / comprehension / except target, a ``global``/``nonlocal`` name, or a def or class
    nested in a function. Module-level and class-level names (the entry-point method, imports,
    module constants) are not. A name is *number-valued* in a scope (module, class or function
    body) when the scope assigns it a number literal.
    """
    out = _Scan()
    bound, occurrences = out.bound, out.occurrences
    stack: list[tuple[ast.AST, int, int]] = [(tree, id(tree), 0)]  # node, scope, function depth
    while stack:
        node, scope, depth = stack.pop()
        if isinstance(node, ast.Name):
            if depth and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            occurrences.append((node, "id"))
            continue
        if isinstance(node, ast.arg):
            occurrences.append((node, "arg"))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            if not isinstance(node, ast.Lambda):
                if depth:
                    bound.add(node.name)
                occurrences.append((node, "name"))
                node.body = _strip_docstring(node.body)
                scope = id(node)
            args = node.args
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if a is not None:
                    bound.add(a.arg)
            depth += 1
        elif isinstance(node, ast.ClassDef):
            if depth:
                bound.add(node.name)
            occurrences.append((node, "name"))
            node.body = _strip_docstring(node.body)
            scope, depth = id(node), 0  # a class body is not a function scope
        elif isinstance(node, ast.Module):
            node.body = _strip_docstring(node.body)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            names = _numeric_targets(node)
            if names:
                out.numeric.setdefault(scope, set()).update(names)
        elif isinstance(node, ast.ExceptHandler):
            if node.name:
                if depth:
                    bound.add(node.name)
                occurrences.append((node, "name"))
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
            occurrences.append((node, "names"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                out.imported.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                out.imported.add(alias.asname or alias.name)
        for name in _STMT_LIST_FIELDS:
            body = getattr(node, name, None)
            if isinstance(body, list):  # Lambda.body / IfExp.body are expressions
                out.self_updates.extend(
                    (body, k, scope) for k, stmt in enumerate(body) if _self_update(stmt)
                )
        children = list(ast.iter_child_nodes(node))
        stack.extend((child, scope, depth) for child in reversed(children))
    return out


def local_names(code: str) -> set[str]:
    """The identifiers :func:`canonical_source` renames (names bound inside a function)."""
    return _scan(astparse.parse(code)).local


def _rewrite(scan: _Scan, local: set[str], placeholder: str | None) -> None:
    """In place: number-valued ``x = x op y`` as ``x op= y``; names in ``local`` renamed
    ``_1``, ``_2``, ... by first appearance (or all to ``placeholder``).

    Only numbers are augmented: for a list, set or Counter ``x = x + y`` builds a new object
    where ``x += y`` works in place, an O(n) difference an efficiency benchmark must keep.
    """
    for body, k, scope in scan.self_updates:
        stmt = body[k]
        numeric = scan.numeric.get(scope)
        assert isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp)  # _self_update
        target = stmt.targets[0]
        if numeric and isinstance(target, ast.Name) and target.id in numeric:
            aug = ast.AugAssign(target=target, op=stmt.value.op, value=stmt.value.right)
            body[k] = ast.copy_location(aug, stmt)
    if not local:
        return
    names: dict[str, str] = {}

    def rename(name: str) -> str:
        if name not in local:
            return name
        new = names.get(name)
        if new is None:
            new = names[name] = placeholder or f"_{len(names) + 1}"
        return new

    for node, attr in scan.occurrences:
        if isinstance(node, ast.Global | ast.Nonlocal):
            node.names = [rename(n) for n in node.names]
        else:
            setattr(node, attr, rename(getattr(node, attr)))


def canonical_source(
    code: str, *, rename_locals: bool = True, placeholder: str | None = None
) -> str | None:
    """The solution re-written from its AST: one layout, no comments or docstrings, redundant
    parentheses gone, ``x = x op y`` as ``x op= y`` for number-valued ``x``, and
    (``rename_locals``) local identifiers renamed ``_1``, ``_2``, ... in order of first
    appearance (or all to ``placeholder``). None if the code does not parse."""
    try:
        tree = astparse.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    scan = _scan(tree)
    _rewrite(scan, scan.local if rename_locals else set(), placeholder)
    try:
        return ast.unparse(tree)
    except (ValueError, TypeError, RecursionError) as exc:  # pragma: no cover - defensive
        log.debug("ast.unparse failed (%s); using the source as written", exc)
        return None


def code_tokens(code: str) -> list[str]:
    """Code-aware tokens of a Python source, as written (no canonicalisation).

    Identifier runs (``\\w+``: for ASCII exactly ``[A-Za-z0-9_]+``) and single operator /
    punctuation characters, case kept. Comments and docstrings do not count (Python's
    ``tokenize`` drops COMMENT tokens; docstrings are found with ``ast``), nor do newlines and
    indentation. Code that Python cannot tokenise falls back to the regular expression over the
    whole text (comments then count).
    """
    try:
        tree = astparse.parse(code)
    except (SyntaxError, ValueError):
        tree = None
    lines = code.splitlines()
    doc_starts = set()
    if tree is not None:
        for line_no, byte_col in _docstring_starts(tree):
            line = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
            doc_starts.add((line_no, _char_col(line, byte_col)))
    out: list[str] = []
    in_docstring = False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type in _SKIPPED_TOKEN_TYPES:
                continue
            # a docstring can be several implicitly concatenated string tokens
            if tok.type == tokenize.STRING and (tok.start in doc_starts or in_docstring):
                in_docstring = True
                continue
            in_docstring = False
            if tok.type == tokenize.NAME:
                out.append(tok.string)
            else:
                out.extend(_TOKEN_RE.findall(tok.string))
    except (tokenize.TokenError, SyntaxError) as exc:  # IndentationError is a SyntaxError
        log.debug("tokenize failed (%s); falling back to the regular expression", exc)
        return _TOKEN_RE.findall(code)
    return out


def solution_tokens(code: str, params: DedupSection) -> list[str]:
    """What the near-duplicate step compares: tokens of the canonical source (see
    :func:`canonical_source`), or of the source as written when it does not parse."""
    if params.canonical:
        canon = canonical_source(code, rename_locals=params.rename_locals)
        if canon is not None:
            # the canonical text has no comments or docstrings: the pattern alone tokenises it
            return _TOKEN_RE.findall(canon)
    return code_tokens(code)


def shingles(tokens: Sequence[str], ngram: int) -> set[str]:
    """Token n-grams joined by a space (tokens never contain one). Fewer tokens than ``ngram``
    make one shingle of all of them, so short code still has a signature."""
    if not tokens:
        return set()
    if len(tokens) <= ngram:
        return {" ".join(tokens)}
    # the n shifted views stop at the shortest one: exactly the len - n + 1 full windows
    return set(map(" ".join, zip(*(tokens[i:] for i in range(ngram)), strict=False)))


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


# The MinHash hash function: 32-bit xxHash (C, called directly: no Python wrapper per shingle),
# the input width of datasketch's default ``affine32`` scheme; datasketch's own default is a
# SHA-1 prefix (``sha1_hash32``).
HASHFUNC = xxhash.xxh32_intdigest


def minhash_template(params: DedupSection) -> MinHash:
    """An empty MinHash; every signature is a copy of it, so the permutations are drawn once
    (what ``MinHash.generator`` does inside one call)."""
    return MinHash(num_perm=params.num_perm, seed=params.seed, hashfunc=HASHFUNC)


def signatures(template: MinHash, shingle_sets: Iterable[Iterable[str]]) -> list[MinHash]:
    """One MinHash per shingle set: a copy of ``template`` updated with the whole set in one
    vectorised ``update_batch``."""
    out = []
    for shingle_set in shingle_sets:
        m = template.copy()
        m.update_batch([s.encode("utf-8") for s in shingle_set])
        out.append(m)
    return out


def lsh_candidate_pairs(
    sigs: Sequence[MinHash], bands: int, rows: int, num_perm: int
) -> list[tuple[int, int]]:
    """Candidate pairs (i, j), i < j, from one MinHash LSH: each signature is queried against
    the ones inserted before it, then inserted."""
    lsh = MinHashLSH(num_perm=num_perm, params=(bands, rows))
    pairs: list[tuple[int, int]] = []
    for j, sig in enumerate(sigs):
        if j:
            pairs.extend((i, j) for i in sorted(lsh.query(sig)))
        lsh.insert(j, sig, check_duplication=False)
    return pairs


# ============================================================================ deduplicate


@dataclass
class DedupResult:
    """``kept``: the input dicts themselves, in input order. ``removed``: copies with
    ``reason``, ``kind`` ("exact" | "near"), ``twin_hash``, ``twin_position`` and ``similarity``
    added, in input order. ``params``: everything that decided the outcome (derived bands and
    rows included). ``counts``: input, tasks, kept, removed, exact, near, and the LSH work
    (candidate pairs, verified, rejected)."""

    kept: list[dict[str, Any]]
    removed: list[dict[str, Any]]
    params: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def exact(self) -> int:
        return self.counts.get("exact", 0)

    @property
    def near(self) -> int:
        return self.counts.get("near", 0)


class _UnionFind:
    """Roots are always the smallest index of their set."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def describe_params(params: DedupSection) -> dict[str, Any]:
    """The parameters as recorded in a result: the knobs plus what was derived from them."""
    bands, rows = derive_bands_rows(
        params.threshold, params.num_perm, params.fp_weight, params.fn_weight
    )
    out = params.model_dump(exclude={"near_duplicates"})  # the near step's knobs
    out.update(
        bands=bands,
        rows=rows,
        weights={"false_positive": params.fp_weight, "false_negative": params.fn_weight},
        candidate_probability_at_threshold=round(
            collision_probability(params.threshold, bands, rows), 4
        ),
        hashfunc="xxhash.xxh32_intdigest",
        minhash_scheme="affine32",
        verification="exact Jaccard of the shingle sets >= threshold",
        tokenizer=TOKENIZER_DESCRIPTION,
        canonical_form=CANONICAL_DESCRIPTION if params.canonical else "source as written",
        identifiers=(
            RENAME_DESCRIPTION if params.canonical and params.rename_locals else "as written"
        ),
        keep_rule="in each group of duplicates keep the lowest position, then the lowest hash",
    )
    return out


def deduplicate(rows: list[dict[str, Any]], params: DedupSection | None = None) -> DedupResult:
    """Remove exact and near-duplicate solutions within each task (see the module docstring).

    Each row needs ``slug``, ``hash``, ``code`` and ``position``; other keys pass through.
    """
    params = params or DedupSection()
    info = describe_params(params)
    template = minhash_template(params)

    by_task: dict[str, list[int]] = {}
    for index, row in enumerate(rows):
        missing = [k for k in ("slug", "hash", "code", "position") if k not in row]
        if missing:
            raise KeyError(f"solution row {index} lacks {', '.join(missing)}")
        by_task.setdefault(row["slug"], []).append(index)

    removal: dict[int, dict[str, Any]] = {}
    counts = dict.fromkeys(
        ("exact", "near", "lsh_candidates", "verified_pairs", "rejected_candidates"), 0
    )
    for members in by_task.values():
        _dedup_task(rows, members, params, info, template, removal, counts)

    kept = [row for index, row in enumerate(rows) if index not in removal]
    removed = [{**rows[index], **removal[index]} for index in sorted(removal)]
    counts = {
        "input": len(rows),
        "tasks": len(by_task),
        "kept": len(kept),
        "removed": len(removed),
        **counts,
    }
    log.info(
        "dedup: %d solutions in %d tasks -> kept %d, removed %d exact + %d near "
        "(LSH %d bands x %d rows: %d candidate pairs, %d verified at Jaccard >= %s)",
        len(rows),
        len(by_task),
        len(kept),
        counts["exact"],
        counts["near"],
        info["bands"],
        info["rows"],
        counts["lsh_candidates"],
        counts["verified_pairs"],
        params.threshold,
    )
    return DedupResult(kept=kept, removed=removed, params=info, counts=counts)


def _dedup_task(
    rows: list[dict[str, Any]],
    members: list[int],
    params: DedupSection,
    info: dict[str, Any],
    template: MinHash,
    removal: dict[int, dict[str, Any]],
    counts: dict[str, int],
) -> None:
    """One task: fills ``removal`` (row index -> fields to add) and ``counts``."""
    # keep-rule order; the sort is stable, so identical (position, hash) rows stay in input order
    ordered = sorted(members, key=lambda i: (int(rows[i]["position"]), int(rows[i]["hash"])))

    # 1. exact: the first of each hash in keep-rule order represents it
    representative: dict[int, int] = {}
    reps: list[int] = []
    for i in ordered:
        h = int(rows[i]["hash"])
        if h not in representative:
            representative[h] = i
            reps.append(i)
            continue
        twin = rows[representative[h]]
        removal[i] = {
            "kind": "exact",
            "twin_hash": h,
            "twin_position": twin["position"],
            "similarity": 1.0,
            "reason": f"exact duplicate of solution #{twin['position']} (hash {h})",
        }
        counts["exact"] += 1
    if len(reps) < 2:
        return

    # 2. near: LSH candidates among the representatives, verified by exact Jaccard
    sets = [shingles(solution_tokens(rows[i]["code"], params), params.ngram) for i in reps]
    sigs = signatures(template, sets)
    uf = _UnionFind(len(reps))
    links: dict[int, list[tuple[float, int]]] = {}
    for a, b in lsh_candidate_pairs(sigs, info["bands"], info["rows"], params.num_perm):
        counts["lsh_candidates"] += 1
        sim = jaccard(sets[a], sets[b])
        if sim < params.threshold:
            counts["rejected_candidates"] += 1
            continue
        counts["verified_pairs"] += 1
        uf.union(a, b)
        links.setdefault(a, []).append((sim, b))
        links.setdefault(b, []).append((sim, a))

    # reps are in keep-rule order and the union-find root is the smallest index: the keeper.
    # The twin of a removed solution is always its group's keeper (no chains, no cycles); when
    # the two are linked only through other members, the reason names the first hop.
    hops = _first_hops(links, uf, len(reps))
    for k, i in enumerate(reps):
        root = uf.find(k)
        if root == k:
            continue
        keeper = rows[reps[root]]
        via, via_sim = hops[k]
        sim = via_sim if via == root else jaccard(sets[k], sets[root])
        if via == root:
            reason = (
                f"near-duplicate of solution #{keeper['position']} "
                f"(Jaccard {sim:.2f} >= {params.threshold:.2f})"
            )
        else:
            reason = (
                f"near-duplicate of solution #{keeper['position']} through solution "
                f"#{rows[reps[via]]['position']} (Jaccard {via_sim:.2f} >= "
                f"{params.threshold:.2f} to it; {sim:.2f} to #{keeper['position']})"
            )
        removal[i] = {
            "kind": "near",
            "twin_hash": int(keeper["hash"]),
            "twin_position": keeper["position"],
            "similarity": round(sim, 4),
            "reason": reason,
        }
        counts["near"] += 1


def _first_hops(
    links: dict[int, list[tuple[float, int]]], uf: _UnionFind, n: int
) -> dict[int, tuple[int, float]]:
    """For every linked non-keeper: the first solution on a shortest path of verified links to
    its group's keeper, and the Jaccard of that link (breadth-first from each keeper, the
    frontier in keep-rule order: among equally short paths the earliest solution wins)."""
    hops: dict[int, tuple[int, float]] = {}
    for root in range(n):
        if root not in links or uf.find(root) != root:
            continue
        frontier = [root]
        seen = {root}
        while frontier:
            nxt: list[int] = []
            for node in frontier:
                for sim, other in sorted(links[node], key=lambda e: (-e[0], e[1])):
                    if other not in seen:
                        seen.add(other)
                        hops[other] = (node, sim)
                        nxt.append(other)
            frontier = sorted(nxt)
    return hops


def defer_near_duplicates(
    rows: list[dict[str, Any]], result: DedupResult
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(kept, removed) with near-duplicates kept instead of removed, each member of a near group
    marked: ``near_group`` (the hash of the group's first solution, its keeper here) and
    ``near_detail`` (why it is in the group). Exact duplicates stay removed.

    Two near-duplicates can still behave differently (``return one_step`` / ``return
    three_steps``); the uniqueness stage removes near-duplicates only among solutions that pass,
    once their answers are known, so no behaviour is merged away and the copy kept passes.
    """
    near = {(r["slug"], r["position"]): r for r in result.removed if r["kind"] == "near"}
    keepers = {(r["slug"], r["twin_position"]) for r in near.values()}
    exact = {(r["slug"], r["position"]) for r in result.removed if r["kind"] == "exact"}
    kept: list[dict[str, Any]] = []
    for row in rows:
        key = (row["slug"], row["position"])
        if key in exact:
            continue
        if key in near:
            r = near[key]
            detail = f"Jaccard {r['similarity']:.2f} to solution #{r['twin_position']}"
            kept.append({**row, "near_group": int(r["twin_hash"]), "near_detail": detail})
        elif key in keepers:
            kept.append({**row, "near_group": int(row["hash"])})
        else:
            kept.append(row)
    removed = [r for r in result.removed if r["kind"] != "near"]
    return kept, removed


# --- the stage -----------------------------------------------------------------------------------


def dedup(ctx: Context, records: list[TaskRecord], *, dedup: DedupSection) -> list[TaskRecord]:
    """Every task, its exact duplicates removed; near-duplicates removed too (``before-tests``)
    or marked (``after-answers``: the uniqueness stage removes them among passing solutions)."""
    rows = [s.row() for r in records for s in r.solutions]
    defer = dedup.near_duplicates == "after-answers"
    result = deduplicate(rows, dedup)
    kept, removed = result.kept, result.removed
    if defer:
        kept, removed = defer_near_duplicates(rows, result)
    for r in removed:
        twin = {k: r[k] for k in ("kind", "twin_hash", "twin_position", "similarity")}
        solution = Solution.model_validate(
            {k: v for k, v in r.items() if k in Solution.model_fields}
        )
        # the stage's reason category; its own sentence (naming the twin) is the detail
        ctx.drop(solution, f"{r['kind']}-duplicate", r["reason"], **twin)
    ctx.note(
        "LSH bands x rows = {bands} x {rows} for threshold {threshold}".format(**result.params)
    )
    if defer:
        marked = sum("near_group" in r for r in kept)
        ctx.note(
            f"{marked} solution(s) in near-duplicate groups, kept until their answers are "
            "known (the uniqueness stage removes near-duplicates among passing solutions)"
        )
    write_text_atomic(ctx.path("params.json"), json.dumps(result.params, indent=1) + "\n")
    by_slug: dict[str, list[Solution]] = {}
    for row in kept:
        by_slug.setdefault(row["slug"], []).append(Solution.model_validate(row))
    return [r.with_solutions(by_slug.get(r.slug, [])) for r in records]


def _check(cfg: Any) -> None:
    """The LSH the threshold derives must have at least two bands (:func:`derive_bands_rows`)."""
    section: DedupSection = cfg.dedup
    derive_bands_rows(section.threshold, section.num_perm, section.fp_weight, section.fn_weight)


DEDUP = Stage(
    "dedup",
    logic=dedup,
    reads=("dedup",),
    writes=("params.json",),
    needs=("solutions",),
    check=_check,
)
