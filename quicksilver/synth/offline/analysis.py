"""The analysis: Constraints lines -> facts -> a spec (quantities with linear bounds, and per
parameter its dimensions and value domain), or the problems that block one. :class:`Analysis`
reads one line at a time with the parser (:mod:`quicksilver.synth.offline.constraints`), checks
that every quantity is bounded and orderable, and writes the notes of what it understood.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.constraints import (
    FIELDS_RE,
    FIELDS_WORDS_RE,
    QUOTED,
    REF_RE,
    ExprParser,
    Lin,
    Param,
    Ref,
    Unsupported,
    clean,
    describe_alphabet,
    fmt,
    fmt_form,
    fmt_range,
    set_items,
    split_top,
)

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# The analysis: constraint lines -> facts -> spec
# ---------------------------------------------------------------------------------------------


@dataclass
class _LeafInfo:
    lo: list[tuple[Lin, bool, str]] = field(default_factory=list)  # (bound, strict, line)
    hi: list[tuple[Lin, bool, str]] = field(default_factory=list)
    values: list[int] | None = None  # a stated value set
    alphabet: str | None = None
    sorted: str | None = None  # "asc" | "desc"
    distinct: dict[str, str] | None = None  # {"level": "value"|"string", "scope": "all"|"each"}
    ne: list[int] = field(default_factory=list)  # excluded values (``nums[i] != 0``)
    bst: bool = False  # a TreeNode parameter that is a binary search tree
    cols: dict[int, _LeafInfo] = field(default_factory=dict)  # per-field bounds of rows
    pairs: list[tuple[int, int, str, str]] = field(default_factory=list)  # (a, b, op, line)
    unique_rows: str | None = None  # the line that says no two rows are the same


@dataclass
class SpecResult:
    """What :func:`build_spec` understood: a spec, or the problems that prevent one."""

    spec: dict[str, Any] | None
    notes: list[str]
    problems: list[str]


_ORDER_WORDS = {
    "non-decreasing": ("asc", False),
    "non-descending": ("asc", False),
    "non-ascending": ("desc", False),
    "nondecreasing": ("asc", False),
    "non-increasing": ("desc", False),
    "nonincreasing": ("desc", False),
    "ascending": ("asc", True),
    "increasing": ("asc", True),
    "strictly increasing": ("asc", True),
    "strictly ascending": ("asc", True),
    "descending": ("desc", True),
    "decreasing": ("desc", True),
    "strictly decreasing": ("desc", True),
    "strictly descending": ("desc", True),
}
_NOUNS = (
    r"values|integers|numbers|elements|strings|words|characters|letters|node values|"
    r"nodes' values|nodes"
)


class Analysis:
    def __init__(self, params: list[Param], size_cap: int, *, perf: bool = False) -> None:
        self.params = params
        self.by_name = {p.name: p for p in params}
        self.size_cap = size_cap
        self.perf = perf  # notes describe perf_input_gen(scale): sizes min(max, scale)
        self.cap_note = "min(its max, scale)" if perf else f"at most {size_cap}"
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.parent: dict[str, str] = {}
        self.mentions: dict[str, list[str]] = {}  # quantity key -> lines naming it
        self.lins: list[tuple[Lin, str]] = []  # (form >= 0, line) over q refs
        self.leaf: dict[str, _LeafInfo] = {p.name: _LeafInfo() for p in params}
        self.sums: dict[str, list[tuple[int, str]]] = {}
        self.sum_mins: dict[str, list[tuple[int, str]]] = {}  # stated least sums of lengths
        self.eqs: list[tuple[Lin, str]] = []  # equalities that are not aliases (n == e.length + 1)
        self.nes: list[tuple[Lin, str]] = []  # form != 0 over quantities
        self.mods: list[tuple[str, int, int, str]] = []  # (quantity key, m, r, line): key % m == r
        self.hidden: set[str] = set()  # classes of free names tied to parameters by an equality
        self.hidden_sizes: set[str] = set()  # ... tied to a length or count (capped like one)
        self.cap_fit: dict[str, list[int]] = {}  # hidden size -> [a, c]: length == a * it + c
        self.fields: dict[str, tuple[str, int]] = {}  # a_i -> (edges, 0) for edges[i] = [a_i, b_i]
        self.known: set[str] = set()
        for p in params:
            if p.is_quantity:
                self.known.add(p.name)
            for d in range(p.depth if not p.tree else 1):
                self.known.add(p.dim_key(d))
        for k in sorted(self.known):
            self._find(k)

    # -- union-find over quantity keys ------------------------------------------------------

    def _find(self, k: str) -> str:
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[rb] = ra

    # -- references ---------------------------------------------------------------------------

    def _node_params(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params if p.node)

    def resolve(self, raw: str) -> Ref:
        m = re.fullmatch(r"([A-Za-z_]\w*)((?:\[[^\[\]]*\])*)(?:\.(\w+)(\(\))?)?", raw.strip())
        if not m:
            raise Unsupported(f"cannot read {raw!r}")
        name, idx_text, suffix = m.group(1), m.group(2), m.group(3)
        idx = re.findall(r"\[([^\[\]]*)\]", idx_text)
        if name == "Node" and suffix == "val" and not idx:
            nodes = self._node_params()
            if not nodes:
                raise Unsupported("Node.val, but no TreeNode / ListNode parameter")
            return Ref("leaf", params=nodes)
        p = self.by_name.get(name)
        if p is None and name in self.fields and not idx:
            owner, col = self.fields[name]
            if suffix:
                raise Unsupported(f"{raw}: a field of {owner} has no .{suffix}")
            return Ref("leaf", params=(owner,), col=col)
        if p is None:
            if idx or suffix:
                raise Unsupported(f"{raw} is not a parameter or a size of one")
            return Ref("q", key=name)
        if suffix in ("length", "size"):
            if p.tree or len(idx) >= p.depth:
                raise Unsupported(f"{raw}: {p.name} ({p.type}) has no such length")
            return Ref("q", key=p.dim_key(len(idx)))
        if suffix:
            raise Unsupported(f"{raw}: .{suffix} is not modelled")
        if p.is_quantity and not idx:
            return Ref("q", key=p.name)
        if (
            not suffix
            and len(idx) == p.depth == 2
            and p.leaf == "int"
            and re.fullmatch(r"\d+", idx[1].strip())
            and not re.fullmatch(r"\d+", idx[0].strip())
        ):
            return Ref("leaf", params=(p.name,), col=int(idx[1]))  # edges[i][0]: a column
        if any(re.fullmatch(r"\d+", i.strip()) for i in idx):
            raise Unsupported(f"{raw}: a constraint on one specific position")
        if len(idx) == p.depth and not p.tree:
            return Ref("leaf", params=(p.name,))
        if len(idx) < p.depth:
            return Ref("container", params=(p.name,), depth=len(idx))
        raise Unsupported(f"{raw}: {p.name} ({p.type}) has no such element")

    def _parse(self, text: str) -> Lin:
        try:
            return ExprParser(text, self.resolve).parse()
        except Unsupported as exc:
            raise Unsupported(f"cannot read {text.strip()!r} ({exc})") from None

    def _phrase_refs(self, phrase: str) -> list[Ref]:
        """Targets of a sentence: references, ``the tree``, ``the number of nodes in ...``."""
        phrase = re.sub(r"^(?:both|each of|all of)\s+", "", phrase.strip(), flags=re.I)
        phrase = re.sub(
            r"^the (?:given )?(?:string|array|integer array|list)\s+(?=\w)", "", phrase, flags=re.I
        )
        m = re.fullmatch(r"the (?:total )?number of (?:the )?nodes in (.+)", phrase, flags=re.I)
        if m:
            return [
                Ref("q", key=self.by_name[n].dim_key(0)) for n in self._structure_params(m.group(1))
            ]
        if re.fullmatch(r"(?:the )?(?:binary )?tree|the list|the linked list", phrase, flags=re.I):
            return [Ref("container", params=(n,)) for n in self._structure_params(phrase)]
        out: list[Ref] = []
        for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", phrase):
            part = part.strip()
            if not part:
                continue
            if not REF_RE.fullmatch(part):
                raise Unsupported(f"{part!r} is not a parameter")
            out.append(self.resolve(part))
        return out

    def _structure_params(self, where: str) -> list[str]:
        """``the tree`` / ``the list`` / ``each list`` / ``both trees`` -> parameter names."""
        w = where.strip().lower()
        w = re.sub(r"^(?:the given|the|each|both|every)\s+", "", w)
        w = re.sub(r"^(?:binary\s+|linked\s+)", "", w)
        tree = [p.name for p in self.params if p.tree]
        lists = [p.name for p in self.params if p.node and not p.tree and p.depth == 1]
        many = re.match(r"(each|both|every)\b", where.strip().lower()) is not None
        if w in ("tree", "trees"):
            found = tree
        elif w in ("list", "lists"):
            found = lists
        elif w in self.by_name and self.by_name[w].node and self.by_name[w].depth == 1:
            found = [w]
        else:
            raise Unsupported(f"{where!r} names no TreeNode / ListNode parameter")
        if not found or (len(found) > 1 and not many):
            raise Unsupported(f"{where!r} does not name exactly one parameter")
        return found

    # -- facts -------------------------------------------------------------------------------

    def _q_form(self, lin: Lin) -> Lin:
        for ref in lin.terms:
            if ref.kind != "q":
                raise Unsupported("a relation between a list and a quantity or between elements")
        return lin

    def _mention(self, lin: Lin, line: str) -> None:
        for ref in lin.terms:
            if ref.kind == "q":
                self._find(ref.key)
                self.mentions.setdefault(ref.key, []).append(line)

    def _relate(self, a: Lin, op: str, b: Lin, line: str, acts: list[Callable[[], None]]) -> None:
        if op in (">=", ">"):
            a, b, op = b, a, "<=" if op == ">=" else "<"
        kinds = {r.kind for r in (*a.terms, *b.terms)}
        if "container" in kinds:
            raise Unsupported("compares a whole list")
        if "leaf" not in kinds:
            if not a.terms and not b.terms:
                ok = (
                    a.const == b.const
                    if op == "=="
                    else a.const < b.const
                    if op == "<"
                    else (a.const <= b.const)
                )
                if not ok:
                    raise Unsupported("a false statement about numbers")
                return
            acts.append(lambda: self._mention(a, line))
            acts.append(lambda: self._mention(b, line))
            if op == "==":
                ra, rb = a.single(), b.single()
                if ra and rb:
                    acts.append(partial(self._union, ra.key, rb.key))
                    return
                acts.append(lambda: self.lins.append((b - a, line)))
                acts.append(lambda: self.lins.append((a - b, line)))
                acts.append(lambda: self.eqs.append((a - b, line)))
                return
            diff = b - a - (Lin(Fraction(1)) if op == "<" else Lin())
            acts.append(lambda: self.lins.append((diff, line)))
            return
        ra, rb = a.single(), b.single()
        if (
            ra is not None
            and rb is not None
            and ra.kind == rb.kind == "leaf"
            and min(ra.col, rb.col) >= 0
            and ra.params == rb.params
            and op in ("<=", "<")
        ):
            # two fields of one row: "start_i <= end_i", "l_i <= r_i" (drawn, then ordered)
            pair = (ra.col, rb.col, op, line)
            acts.append(partial(self.leaf[ra.params[0]].pairs.append, pair))
            return
        if ra is not None and ra.kind == "leaf" and "leaf" not in {r.kind for r in b.terms}:
            leaf_ref, other, leaf_left = ra, self._q_form(b), True
        elif rb is not None and rb.kind == "leaf" and "leaf" not in {r.kind for r in a.terms}:
            leaf_ref, other, leaf_left = rb, self._q_form(a), False
        else:
            raise Unsupported("a relation between elements")
        acts.append(lambda: self._mention(other, line))
        strict = op == "<"
        for name in leaf_ref.params:
            p = self.by_name[name]
            if p.leaf not in ("int", "float"):
                raise Unsupported(f"a numeric bound on {p.name}, whose values are {p.leaf}")
            if p.leaf == "float" and other.terms:
                raise Unsupported("a floating-point value bounded by a quantity")
            info = self._info(name, leaf_ref.col)
            if op == "==":
                acts.append(partial(info.lo.append, (other, False, line)))
                acts.append(partial(info.hi.append, (other, False, line)))
            elif leaf_left:
                acts.append(partial(info.hi.append, (other, strict, line)))
            else:
                acts.append(partial(info.lo.append, (other, strict, line)))

    def _info(self, name: str, col: int) -> _LeafInfo:
        """The value facts of a parameter, or of one field (column) of its rows."""
        info = self.leaf[name]
        return info if col < 0 else info.cols.setdefault(col, _LeafInfo())

    def _unique_rows(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        """``There are no repeated edges``, ``All the pairs [x_i, y_i] are unique``, ``All the
        given points are unique``: no two rows hold the same values (in any order, which
        satisfies both the ordered and the unordered reading)."""
        unique = r"(?:unique|distinct)"
        name: str | None = None
        m = re.fullmatch(
            r"there (?:are|will be) no (?:repeated|duplicate|duplicated) (\w+)"
            r"(?: in (?:the )?(?:input|graph))?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            rf"all (?:the )?(?:given )?(\w+) (?:are|is) {unique}|"
            rf"(\w+) contains? (?:all |only )?{unique} (?:coordinates|points|rows|pairs)|"
            rf"(\w+) contains? no duplicate (?:coordinates|points|rows|pairs|\w+)",
            text,
            flags=re.I,
        )
        if m:
            word = next(g for g in m.groups() if g)
            for cand in (word, word + "s"):
                p = self.by_name.get(cand)
                if p is not None and p.depth == 2 and p.leaf == "int" and not p.join:
                    name = p.name
                    break
            if name is None:
                return False
        else:
            whole = re.fullmatch(rf"all (?:the )?pairs (\w+)\[i\] are {unique}", text, flags=re.I)
            if whole and whole.group(1) in self.by_name:  # "All the pairs prerequisites[i] are"
                acts.append(partial(setattr, self.leaf[whole.group(1)], "unique_rows", line))
                return True
            m = re.fullmatch(
                rf"all (?:the )?pairs \[?\(?([^\]\)]+)\)?\]? are {unique}", text, flags=re.I
            )
            if not m:
                return False
            refs = [self.resolve(f) for f in split_top(m.group(1))]
            owners = {r.params for r in refs if r.kind == "leaf" and r.col >= 0}
            if len(owners) != 1 or len(refs) != len(self._width_fields(next(iter(owners))[0])):
                raise Unsupported("a uniqueness of some fields of the rows only")
            name = next(iter(owners))[0]
        acts.append(partial(setattr, self.leaf[name], "unique_rows", line))
        return True

    def _width_fields(self, name: str) -> list[str]:
        return [f for f, (owner, _) in self.fields.items() if owner == name]

    def _chain(self, text: str, acts: list[Callable[[], None]], line: str) -> bool:
        # a lone ``=`` is an equality too (``n = board[i].length``)
        parts = re.split(r"(<=|>=|==|!=|<|>|(?<![<>=!])=(?!=))", text)
        if len(parts) < 3:
            return False
        ops, segs = ["==" if o == "=" else o for o in parts[1::2]], parts[0::2]
        if "!=" in ops:
            if len(ops) != 1:
                raise Unsupported("an inequality (!=) in a chain")
            self._not_equal(segs[0], segs[1], line, acts)
            return True
        sides = [[self._side_item(e) for e in split_top(s)] for s in segs]
        if any(not side for side in sides):
            raise Unsupported("an empty side of a comparison")
        for i, op in enumerate(ops):
            for a in sides[i]:
                for b in sides[i + 1]:
                    self._relate_items(a, op, b, line, acts)
        return True

    def _side_item(self, text: str) -> tuple[str, list[Lin], str]:
        """One expression of a comparison: ``("one", [form], "")``, ``("min"/"max", [forms], "")``
        for ``min(50, nums.length)``, or ``("sum", [], key)`` for ``sum(words[i].length)``."""
        text = text.strip()
        m = re.fullmatch(r"(min|max)\s*\((.*)\)", text, flags=re.I)
        if m:
            args = split_top(m.group(2))
            if len(args) < 2:
                raise Unsupported(f"cannot read {text!r}")
            return (m.group(1).lower(), [self._parse(a) for a in args], "")
        m = re.fullmatch(r"sum\s*\((.*)\)", text, flags=re.I)
        if m:
            ref = self.resolve(m.group(1))
            if ref.kind != "q" or not re.fullmatch(r".+\[i\]\.length", ref.key):
                raise Unsupported("only sums of per-item lengths (x[i].length) are supported")
            return ("sum", [], ref.key)
        return ("one", [self._parse(text)], "")

    def _relate_items(
        self,
        a: tuple[str, list[Lin], str],
        op: str,
        b: tuple[str, list[Lin], str],
        line: str,
        acts: list[Callable[[], None]],
    ) -> None:
        """``a op b`` where either side may be a min / max / sum (see :meth:`_side_item`)."""
        if op in (">=", ">"):
            a, b, op = b, a, "<=" if op == ">=" else "<"
        if a[0] == "sum" or b[0] == "sum":
            self._sum_relation(a, op, b, line, acts)
            return
        if op == "==" and (a[0] != "one" or b[0] != "one"):
            raise Unsupported("an equality with min(...) or max(...)")
        if a[0] == "min" or b[0] == "max":
            # x <= max(a, b) means "x <= a or x <= b": not a conjunction of bounds
            raise Unsupported("a bound by the larger (or smaller) of two values")
        # max(a, b) <= x <= min(c, d): every pair is a bound
        for la in a[1]:
            for lb in b[1]:
                self._relate(la, op, lb, line, acts)

    def _sum_relation(
        self,
        a: tuple[str, list[Lin], str],
        op: str,
        b: tuple[str, list[Lin], str],
        line: str,
        acts: list[Callable[[], None]],
    ) -> None:
        if (a[0] == "sum" and b[0] == "sum") or op == "==":
            raise Unsupported("only a constant bound on a sum of lengths is supported")
        bound = b if a[0] == "sum" else a
        if bound[0] != "one" or bound[1][0].terms or bound[1][0].const.denominator != 1:
            raise Unsupported("only a constant bound on a sum of lengths is supported")
        value = int(bound[1][0].const)
        if a[0] == "sum":  # sum <= value (or < value)
            limit = value - 1 if op == "<" else value
            acts.append(lambda: self.sums.setdefault(a[2], []).append((limit, line)))
        else:  # value <= sum: holds when every draw reaches it (checked when scheduling)
            least = value + 1 if op == "<" else value
            acts.append(lambda: self.sum_mins.setdefault(b[2], []).append((least, line)))

    def _not_equal(self, left: str, right: str, line: str, acts: list[Callable[[], None]]) -> None:
        """``divisor != 0``, ``nums[i] != 0``, ``src != dst``: an excluded value or pair."""
        a, b = self._parse(left), self._parse(right)
        kinds = {r.kind for r in (*a.terms, *b.terms)}
        if "container" in kinds:
            raise Unsupported("an inequality (!=) between lists")
        if "leaf" not in kinds:
            if not a.terms and not b.terms:
                if a.const == b.const:
                    raise Unsupported("a false statement about numbers")
                return
            acts.append(lambda: self._mention(a, line))
            acts.append(lambda: self._mention(b, line))
            acts.append(lambda: self.nes.append((a - b, line)))
            return
        ra, rb = a.single(), b.single()
        if (
            ra is not None
            and rb is not None
            and ra.kind == rb.kind == "leaf"
            and min(ra.col, rb.col) >= 0
            and ra.params == rb.params
        ):
            pair = (ra.col, rb.col, "!=", line)  # "a_i != b_i": two fields of one row
            acts.append(partial(self.leaf[ra.params[0]].pairs.append, pair))
            return
        leaf_ref, other = (ra, b) if ra is not None and ra.kind == "leaf" else (rb, a)
        if leaf_ref is None or leaf_ref.kind != "leaf" or other.terms:
            raise Unsupported("an inequality (!=) between elements")
        if other.const.denominator != 1:
            raise Unsupported("an inequality (!=) with a fraction")
        for name in leaf_ref.params:
            if self.by_name[name].leaf != "int":
                raise Unsupported(f"an inequality (!=) on {name}, whose values are not integers")
            acts.append(partial(self._info(name, leaf_ref.col).ne.append, int(other.const)))

    def _modulus(
        self, targets: str, m: int, r: int, line: str, acts: list[Callable[[], None]]
    ) -> None:
        """``n is even``, ``nums.length % 2 == 0``, ``n is a multiple of 3``."""
        if m < 1:
            raise Unsupported(f"a remainder modulo {m}")
        for ref in self._phrase_refs(targets):
            if ref.kind != "q":
                raise Unsupported("a divisibility condition on something that is not a count")
            key = ref.key
            acts.append(partial(self._mention, Lin(Fraction(0), {ref: Fraction(1)}), line))
            acts.append(partial(self.mods.append, (key, m, r % m, line)))

    def _set_alphabet(self, refs: list[Ref], chars: str, acts: list[Callable[[], None]]) -> None:
        for ref in refs:
            if ref.kind not in ("leaf", "container"):
                raise Unsupported("an alphabet for something that is not text")
            for name in ref.params:
                if self.by_name[name].leaf != "char":
                    raise Unsupported(f"an alphabet for {name}, which holds no characters")
                info = self.leaf[name]

                def act(info: _LeafInfo = info) -> None:
                    old = info.alphabet
                    info.alphabet = chars if old is None else "".join(c for c in old if c in chars)

                acts.append(act)

    def _line(self, line: str) -> None:
        """Understand one Constraints item, or record it as a problem (quoted)."""
        text = clean(line)
        acts: list[Callable[[], None]] = []
        try:
            if not self._try_forms(text, line, acts):
                self.problems.append(f'"{line}": not understood')
                return
            for act in acts:
                act()
        except Unsupported as exc:
            self.problems.append(f'"{line}": {exc}')

    def _try_forms(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        m = FIELDS_RE.fullmatch(text)
        if m and m.group(1) in self.by_name:
            p = self.by_name[m.group(1)]
            names = split_top(m.group(2))
            if p.depth != 2 or p.leaf != "int":
                raise Unsupported(f"fields of {p.name} ({p.type}): only integer rows are")
            if any(self.fields.get(n) != (p.name, j) for j, n in enumerate(names)):
                raise Unsupported("a field name that is already a parameter or another field")
            width = Lin(Fraction(0), {Ref("q", key=p.dim_key(1)): Fraction(1)})
            self._relate(width, "==", Lin(Fraction(len(names))), line, acts)
            return True
        if self._unique_rows(text, line, acts):
            return True
        m = re.fullmatch(
            r"the number of (?:the )?nodes in (.+?) (?:is|will be|equals) ([A-Za-z_]\w*|\d+)",
            text,
            flags=re.I,
        )
        if m:
            refs = self._phrase_refs(f"the number of nodes in {m.group(1)}")
            value = self._parse(m.group(2))
            for ref in refs:
                self._relate(Lin(Fraction(0), {ref: Fraction(1)}), "==", value, line, acts)
            return True
        # "is in the range [a, b]", and LeetCode's variants: "is the range" (reverse-linked-list),
        # "will be in the range", "is within the range", "is in the range of"
        m = re.fullmatch(
            r"(.+?) (?:is|are|will be|will always be|should be)(?: always)? "
            r"(?:(?:in|within) )?the range (?:of )?\[([^\[\],]+),\s*([^\[\]]+)\]"
            r"(?:,? inclusive)?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            r"(.+?) (?:is|are|will be) between (\S+(?: [-+*/] \S+)*) and "
            r"(\S+(?: [-+*/] \S+)*?)(?:,? inclusive)?",
            text,
            flags=re.I,
        )
        if m:
            lo, hi = self._parse(m.group(2)), self._parse(m.group(3))
            for ref in self._phrase_refs(m.group(1)):
                target = Lin(Fraction(0), {ref: Fraction(1)})
                self._relate(lo, "<=", target, line, acts)
                self._relate(target, "<=", hi, line, acts)
            return True
        m = re.fullmatch(
            r"the sum of (.+?) (?:will not exceed|does not exceed|won't exceed|is at most|"
            r"is less than or equal to|is smaller than or equal(?: to)?|<=) (.+)",
            text,
            flags=re.I,
        ) or re.fullmatch(r"sum\((.+?)\) <= (.+)", text, flags=re.I)
        if m:
            self._sum(m.group(1), m.group(2), line, acts)
            return True
        if self._order_forms(text, acts):
            return True
        if self._distinct(text, acts):
            return True
        if self._permutation(text, line, acts):
            return True
        if self._parity(text, line, acts):
            return True
        m = re.fullmatch(
            r"(?:root|the (?:given )?(?:binary )?tree) is (?:guaranteed to be )?"
            r"a (?:valid )?(?:binary search tree|BST)",
            text,
            flags=re.I,
        )
        if m:
            self._bst(acts)
            return True
        m = re.fullmatch(
            r"(?:both )?(.+?)(?: only| will| both)? (?:consists?|contains?|has|have|"
            r"is made up|is consisting) (?:only )?(?:of )?(?:only )?(.+)",
            text,
            flags=re.I,
        )
        if m and not re.search(r"<=|>=|==|<|>", QUOTED.sub("", text)):
            items = set_items(m.group(2))
            if items is None:
                return False
            refs = self._phrase_refs(m.group(1))
            if all(isinstance(i, int) for i in items) and all(
                self.by_name[n].leaf == "int" for r in refs for n in r.params
            ):
                for ref in refs:  # "nums1 and nums2 consist only of 0 and 1"
                    self._value_set_ref(ref, items, m.group(1), acts)
                return True
            if not all(isinstance(i, str) or 0 <= i <= 9 for i in items):
                return False
            chars = "".join(dict.fromkeys(str(i) for i in items))  # "the digits 0 and 1"
            self._set_alphabet(refs, chars, acts)
            return True
        m = re.fullmatch(r"'(.)' <= (\S+) <= '(.)'", text)
        if m and REF_RE.fullmatch(m.group(2)):
            chars = "".join(chr(c) for c in range(ord(m.group(1)), ord(m.group(3)) + 1))
            if not chars:
                raise Unsupported("an empty range of characters")
            self._set_alphabet([self.resolve(m.group(2))], chars, acts)
            return True
        ref_list = REF_RE.pattern + r"(?:(?:,\s*|,?\s+and\s+)" + REF_RE.pattern + r")*"
        m = re.fullmatch(
            rf"(?:both )?({ref_list}) (?:is|are)(?: both)? (?:either |one of |all )?(.+)",
            text,
            flags=re.I,
        )
        if m:
            items = set_items(m.group(2))
            if items is not None:
                for target in split_top(re.sub(r"\s+and\s+", ", ", m.group(1))):
                    self._value_set(target, items, acts)
                return True
        if re.search(r"<=|>=|==|!=|<|>|(?<![<>=!])=(?!=)", text) and not QUOTED.search(text):
            return self._chain(text, acts, line)
        return False

    def _order_forms(self, text: str, acts: list[Callable[[], None]]) -> bool:
        """``X is sorted in non-decreasing order`` and LeetCode's other ways to say it."""
        words = "|".join(sorted((re.escape(w) for w in _ORDER_WORDS), key=len, reverse=True))
        lead = r"(?:both )?(.+?) (?:is|are) (?:(?:guaranteed to be|already|also|each|all) )?"
        m = re.fullmatch(
            lead + rf"sorted in (?:an? )?({words}) order"
            r"(?:,? and all (?:of )?(?:the |its )?(?:elements|values|integers|numbers) "
            r"(?:are|is) (unique|distinct))?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            lead + rf"(?:in )?(?:an? )?({words})(?: order| array| list| sequence)?()",
            text,
            flags=re.I,
        )
        if m:
            self._sorted(m.group(1), m.group(2).lower(), acts)
            if m.group(3):
                self._distinct_targets(m.group(1), "", acts)
            return True
        m = re.fullmatch(
            rf"(.+?) (?:contains|consists of) (?:only )?(?:unique|distinct) (?:{_NOUNS}) "
            rf"sorted in (?:an? )?({words}) order",
            text,
            flags=re.I,
        )
        if m:
            self._sorted(m.group(1), m.group(2).lower(), acts)
            self._distinct_targets(m.group(1), "", acts)
            return True
        return False

    def _permutation(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        """``nums is a permutation of integers from 0 to n - 1`` / ``of [1, 2, ..., n]`` /
        ``of the integers in the range [1, n]``: distinct values in [a, b], b - a + 1 of them."""
        m = re.fullmatch(
            r"(?:it is guaranteed that )?(.+?) (?:is|are) (?:a )?permutations? of "
            r"(?:all )?(?:the )?(?:(?:distinct )?(?:integers|numbers|values) )?"
            r"(?:(?:from|between) (.+?) (?:to|and) (.+?)|(?:in the range )?\[(.+)\])"
            r"(?:,? inclusive)?",
            text,
            flags=re.I,
        )
        if not m:
            return False
        if m.group(4) is not None:
            items = split_top(m.group(4))
            if len(items) == 2 or (len(items) >= 3 and items[-2] in ("...", "…")):
                lo_text, hi_text = items[0], items[-1]
            else:
                raise Unsupported(f"cannot read the range [{m.group(4)}]")
        else:
            lo_text, hi_text = m.group(2), m.group(3)
        lo, hi = self._parse(lo_text), self._parse(hi_text)
        for ref in self._phrase_refs(m.group(1)):
            if ref.kind != "container" or ref.depth != 0:
                raise Unsupported("a permutation that is not a whole list")
            for name in ref.params:
                p = self.by_name[name]
                if p.depth != 1 or p.leaf != "int" or p.tree:
                    raise Unsupported(f"a permutation of numbers in {name} ({p.type})")
                values = Lin(Fraction(0), {Ref("leaf", params=(name,)): Fraction(1)})
                self._relate(lo, "<=", values, line, acts)
                self._relate(values, "<=", hi, line, acts)
                size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
                self._relate(size, "==", hi - lo + Lin(Fraction(1)), line, acts)
                info = self.leaf[name]
                acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))
        return True

    def _parity(self, text: str, line: str, acts: list[Callable[[], None]]) -> bool:
        """``n is even``, ``m and n are both odd``, ``s has an even length``,
        ``n is a multiple of 3``, ``nums.length % 2 == 0``."""
        m = re.fullmatch(r"(.+?) (?:is|are)(?: both)? (even|odd)(?: numbers?| integers?)?", text)
        if m:
            self._modulus(m.group(1), 2, int(m.group(2) == "odd"), line, acts)
            return True
        m = re.fullmatch(r"(\S+) has an? (even|odd) length", text)
        if m:
            self._modulus(m.group(1) + ".length", 2, int(m.group(2) == "odd"), line, acts)
            return True
        m = re.fullmatch(r"(.+?) (?:is|are) (?:a multiple of|divisible by) (\d+)", text)
        if m:
            self._modulus(m.group(1), int(m.group(2)), 0, line, acts)
            return True
        m = re.fullmatch(r"(\S+) % (\d+) == (\d+)", text)
        if m:
            self._modulus(m.group(1), int(m.group(2)), int(m.group(3)), line, acts)
            return True
        return False

    def _bst(self, acts: list[Callable[[], None]]) -> None:
        """``root is a valid binary search tree``: LeetCode's BSTs are strict (left < node <
        right), so the values are distinct and placed in order."""
        for name in self._structure_params("the tree"):
            info = self.leaf[name]
            acts.append(partial(setattr, info, "bst", True))
            acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))

    def _sum(self, what: str, bound: str, line: str, acts: list[Callable[[], None]]) -> None:
        ref = self.resolve(what.strip())
        if ref.kind != "q" or not re.fullmatch(r".+\[i\]\.length", ref.key):
            raise Unsupported("only sums of per-item lengths (x[i].length) are supported")
        limit = self._parse(bound)
        self._sum_relation(("sum", [], ref.key), "<=", ("one", [limit], ""), line, acts)

    def _sorted(self, targets: str, order: str, acts: list[Callable[[], None]]) -> None:
        if order not in _ORDER_WORDS:
            raise Unsupported(f"the order {order!r}")
        direction, strict = _ORDER_WORDS[order]
        for ref in self._phrase_refs(targets):
            if ref.kind != "container":
                raise Unsupported("sortedness of something that is not a list")
            for name in ref.params:
                p = self.by_name[name]
                if p.tree or ref.depth != p.depth - 1 or p.leaf in ("bool",):
                    raise Unsupported(f"sortedness of {name} ({p.type}) at that level")
                info = self.leaf[name]

                def act(info: _LeafInfo = info, p: Param = p) -> None:
                    if info.sorted not in (None, direction):
                        raise Unsupported("contradictory orders")
                    info.sorted = direction
                    if strict:
                        scope = "each" if p.depth > 1 else "all"
                        info.distinct = info.distinct or {"level": "value", "scope": scope}

                acts.append(act)

    def _distinct(self, text: str, acts: list[Callable[[], None]]) -> bool:
        flags = re.I
        unique = r"(?:unique|distinct|pairwise distinct)"
        node = (
            r"(?:the input is generated such that )?(?:"
            r"each node (?:in the (?:tree|list) )?has a unique value|"
            r"(?:the )?values? of (?:each|the|all(?: the)?) nodes?(?: in the (?:tree|list))? "
            r"(?:is|are) (?:all )?unique|"
            rf"(?:the )?value of each node(?: in the (?:tree|list))? is {unique}|"
            rf"each node(?:'s |\.)val(?:ue)? is {unique}|"
            rf"all (?:the )?node values(?: in the (?:tree|list))? are {unique})"
        )
        if re.fullmatch(node, text, flags=flags):
            self._distinct_targets("Node.val", "", acts)
            return True
        m = re.fullmatch(rf"all (?:of )?(?:the )?(?P<noun>{_NOUNS}) are {unique}", text, flags)
        if m:  # "All values are unique": only when the statement has one list or tree
            lists = [p.name for p in self.params if p.depth and not p.join]
            if len(lists) != 1:
                raise Unsupported("does not say which list's values are unique")
            self._distinct_targets(lists[0], m.group("noun").lower(), acts)
            return True
        forms = (
            rf"all (?:of )?(?:the )?(?P<noun>{_NOUNS}) (?:of|in) (?P<t>.+?) are {unique}",
            rf"(?:the )?(?P<noun>{_NOUNS}) (?:of|in) (?P<t>.+?) are (?:all )?{unique}",
            rf"all (?:the )?(?P<noun>{_NOUNS}) (?P<t>\S+) are {unique}",
            rf"all (?:the )?(?P<t>\S+) are {unique}",
            rf"(?P<t>.+?) (?:contains?|consists? of) (?:only |all )?{unique} (?P<noun>{_NOUNS})",
            rf"(?P<t>\S+) (?:contains|has) no duplicates?(?: (?P<noun>{_NOUNS}))?",
        )
        for form in forms:
            m = re.fullmatch(form, text, flags=flags)
            if m:
                break
        else:
            return False
        self._distinct_targets(m.group("t"), (m.groupdict().get("noun") or "").lower(), acts)
        return True

    def _distinct_targets(self, targets: str, noun: str, acts: list[Callable[[], None]]) -> None:
        """Distinct values (or strings, for lists of strings) for each named list."""
        for ref in self._phrase_refs(targets):
            if ref.kind not in ("leaf", "container"):
                raise Unsupported("distinctness of something that is not a list")
            if ref.col >= 0:
                raise Unsupported("distinct values of one field of the rows")
            for name in ref.params:
                p = self.by_name[name]
                if p.leaf == "bool":
                    raise Unsupported("distinct booleans")
                words = p.join and p.depth >= 2 and noun not in ("characters", "letters")
                if words and ref.kind == "container" and ref.depth == p.depth - 2:
                    level, scope = "string", "all"
                elif ref.kind == "leaf" or ref.depth == 0:
                    level, scope = "value", "all"
                elif ref.depth == p.depth - 1:
                    level, scope = "value", "each"
                else:
                    raise Unsupported(f"distinctness of {name} ({p.type}) at that level")
                info = self.leaf[name]
                acts.append(partial(setattr, info, "distinct", {"level": level, "scope": scope}))

    def _value_set(
        self, target: str, items: list[str | int], acts: list[Callable[[], None]]
    ) -> None:
        self._value_set_ref(self.resolve(target), items, target, acts)

    def _value_set_ref(
        self, ref: Ref, items: list[str | int], target: str, acts: list[Callable[[], None]]
    ) -> None:
        if ref.kind == "container" and all(isinstance(i, int) for i in items):
            p = self.by_name[ref.params[0]]
            if len(ref.params) == 1 and ref.depth < p.depth and not p.tree:
                ref = Ref("leaf", params=ref.params)  # "land consists of only 0's and 1's"
        if ref.kind == "q" and ref.key in self.by_name:
            ref = Ref("leaf", params=(ref.key,))  # an int scalar parameter with a value set
        if ref.kind not in ("leaf", "container"):
            raise Unsupported(f"a value set for {target}")
        ints = [i for i in items if isinstance(i, int)]
        chars = [i for i in items if isinstance(i, str)]
        if ints and chars:
            raise Unsupported("a mix of numbers and characters")
        if chars:
            self._set_alphabet([ref], "".join(dict.fromkeys(chars)), acts)
            return
        for name in ref.params:
            p = self.by_name[name]
            if p.leaf != "int" or ref.kind != "leaf":
                raise Unsupported(f"a set of numbers for {name} ({p.type})")
            if p.is_quantity:
                raise Unsupported(f"a value set for the scalar {name}")
            info = self._info(name, ref.col)

            def act(info: _LeafInfo = info) -> None:
                old = info.values
                info.values = list(ints) if old is None else [v for v in old if v in ints]

            acts.append(act)

    # -- building the spec ---------------------------------------------------------------------

    def run(self, lines: list[str], prose: str = "") -> SpecResult:
        """Read every Constraints item. ``prose`` (the statement as text) is read only for the
        definitions of row fields (``intervals[i] = [start_i, end_i]``), which LeetCode states
        in the description more often than among the constraints."""
        defined: dict[str, set[tuple[str, int]]] = {}
        matches = [FIELDS_RE.fullmatch(clean(line)) for line in lines]
        matches += list(FIELDS_RE.finditer(prose))
        matches += list(FIELDS_WORDS_RE.finditer(prose))
        for m in matches:
            if m and m.group(1) in self.by_name:
                for col, name in enumerate(split_top(m.group(2))):
                    if name not in self.by_name:
                        defined.setdefault(name, set()).add((m.group(1), col))
        # fields first: "0 <= a_i, b_i < n" may come before their definition; a name given
        # to two different fields means nothing here
        self.fields = {n: next(iter(d)) for n, d in defined.items() if len(d) == 1}
        for line in lines:
            self._line(line)
        classes = self._classes()
        quantities, qnotes, per_item = self._schedule(classes)
        params = [self._param_spec(p, classes, per_item) for p in self.params]
        if self.problems:
            return SpecResult(None, self.notes, self.problems)
        spec = {"quantities": quantities, "params": params}
        sizes = {q["name"] for q in quantities if q["size"]}
        self.notes = [*self._param_notes(params, qnotes, sizes), *self.notes]
        return SpecResult(spec, self.notes, [])

    def _classes(self) -> dict[str, str]:
        """Quantity key -> class name (a parameter name, else an alias, else a dimension).

        A free name (``n``) that no alias ties to a parameter is still a quantity when an
        equality determines it from ones that are: ``nums.length == n + 1``,
        ``edges.length == n - 1``, ``nums.length == 2 * n``. It is drawn like the others (a
        *hidden* quantity); tied to a length or count, it is capped like one and drawn first,
        so that the length follows from it. A free name with inequalities only is reported:
        what it means is in the prose.
        """
        members: dict[str, list[str]] = {}
        for k in list(self.parent):
            members.setdefault(self._find(k), []).append(k)
        known = {r for r, g in members.items() if any(k in self.known for k in g)}
        sized = {
            r for r in known if any(k in self.known and k not in self.by_name for k in members[r])
        }
        accepted = set(known)
        hidden_sized: set[str] = set()
        cap_fit: dict[str, list[int]] = {}
        changed = True
        while changed:
            changed = False
            for lin, _ in self.eqs:
                roots = {self._find(ref.key) for ref in lin.terms if ref.kind == "q"}
                new = roots - accepted
                if len(new) == 1 and roots & accepted:
                    root = new.pop()
                    accepted.add(root)
                    changed = True
                    if roots & (sized | hidden_sized):
                        hidden_sized.add(root)
                        fit = self._cap_fit(lin, root, sized)
                        if fit:
                            cap_fit[root] = fit
        names: dict[str, str] = {}
        for root, group in members.items():
            if root not in accepted:
                for k in sorted(group):
                    lines = self.mentions.get(k) or ["(an alias)"]
                    for line in dict.fromkeys(lines):
                        self.problems.append(f'"{line}": {k} is not a parameter or a size of one')
                continue

            def rank(k: str) -> tuple[int, int, str]:
                if k in self.by_name:
                    return (0, len(k), k)
                return (1, len(k), k) if k not in self.known else (2, len(k), k)

            name = min(group, key=rank)
            for k in group:
                names[k] = name
            if root not in known:
                self.hidden.add(name)
                if root in hidden_sized:
                    self.hidden_sizes.add(name)
                if root in cap_fit:
                    self.cap_fit[name] = cap_fit[root]
        return names

    def _cap_fit(self, lin: Lin, hidden: str, sized: set[str]) -> list[int] | None:
        """For ``length == a * n + c`` (one length, a > 0, integers): ``[a, c]``, so that the
        runtime caps ``n`` at ``(size_cap - c) // a`` and the length stays within the cap."""
        coef: dict[str, Fraction] = {}
        for ref, v in lin.terms.items():
            root = self._find(ref.key)
            coef[root] = coef.get(root, Fraction(0)) + v
        coef = {k: v for k, v in coef.items() if v != 0}
        others = [k for k in coef if k != hidden]
        if hidden not in coef or len(others) != 1 or others[0] not in sized:
            return None
        a = -coef[hidden] / coef[others[0]]
        c = -lin.const / coef[others[0]]
        if a <= 0 or a.denominator != 1 or c.denominator != 1:
            return None
        return [int(a), int(c)]

    def _is_size(self, cls: str, classes: dict[str, str]) -> bool:
        return any(
            classes.get(k) == cls and k in self.known and k not in self.by_name for k in classes
        )

    def _label(self, cls: str, classes: dict[str, str]) -> str:
        others = sorted(k for k, c in classes.items() if c == cls and k != cls and k in self.known)
        return cls if not others else f"{cls} (= {', '.join(others)})"

    def _to_cls(
        self, lin: Lin, classes: dict[str, str], *, integral: bool = False
    ) -> tuple[dict[str, int], int] | None:
        """The form over quantity classes with integer coefficients. ``integral``: the form is
        a constraint between integer quantities (``form >= 0`` or ``!= 0``), so it may be
        multiplied out (``k <= s.length / 2`` is ``2 * k <= s.length``)."""
        terms: dict[str, Fraction] = {}
        for ref, coef in lin.terms.items():
            if ref.key not in classes:
                return None  # an unknown name: already reported
            c = classes[ref.key]
            terms[c] = terms.get(c, Fraction(0)) + coef
        terms = {k: v for k, v in terms.items() if v != 0}
        const = lin.const
        if integral and terms:
            scale = math.lcm(const.denominator, *(v.denominator for v in terms.values()))
            const *= scale
            terms = {k: v * scale for k, v in terms.items()}
        if const.denominator != 1 or any(v.denominator != 1 for v in terms.values()):
            raise Unsupported("a fractional bound on an integer")
        return {k: int(v) for k, v in terms.items()}, int(const)

    def _schedule(
        self, classes: dict[str, str]
    ) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, dict[str, Any]]]:
        cons: list[tuple[dict[str, int], int, str]] = []
        for lin, line in self.lins:
            try:
                got = self._to_cls(lin, classes, integral=True)
            except Unsupported as exc:
                self.problems.append(f'"{line}": {exc}')
                continue
            if got is None:
                continue
            terms, const = got
            if not terms:
                if const < 0:
                    self.problems.append(f'"{line}": contradicts the other constraints')
                continue
            cons.append((terms, const, line))
        cons += self._distinct_room(classes)
        # per-item lengths (words[i].length, lists[i].length): only constant bounds of their own
        leaf_refs = {
            classes.get(ref.key)
            for info in self.leaf.values()
            for lin, _, _ in (*info.lo, *info.hi)
            for ref in lin.terms
        }
        per_item: dict[str, dict[str, Any]] = {}
        for p in self.params:
            for d in range(1, 0 if p.tree else p.depth):
                key = p.dim_key(d)
                cls = classes.get(key)
                if cls is None or cls != key or cls in leaf_refs:
                    continue
                if sum(1 for c in classes.values() if c == cls) != 1:
                    continue
                own = [c for c in cons if cls in c[0]]
                if any(len(t) != 1 for t, _, _ in own):
                    continue
                per_item[cls] = {"name": cls, **self._per_item(cls, own)}
                cons = [c for c in cons if cls not in c[0]]
        cons += self._string_room(classes, per_item)
        cons += self._row_room(classes)
        self._conditions(classes, per_item)
        self._least_sums(classes, per_item, cons)
        for key, limits in self.sums.items():
            cls = classes.get(key)
            if cls not in per_item:
                for _, line in limits:
                    self.problems.append(
                        f'"{line}": a sum bound on {key}, which is not a per-item length'
                    )
                continue
            per_item[cls]["sum_max"] = min(v for v, _ in limits)
            outer = classes.get(re.sub(r"\[i\]\.length$", ".length", key))
            if per_item[cls]["lo"] > 0 and outer is not None:
                # every item takes at least lo of the sum: no more than sum_max // lo items
                room = per_item[cls]["sum_max"] // per_item[cls]["lo"]
                why = f"(each of {key} >= {per_item[cls]['lo']}: at most {room} items fit the sum)"
                cons.append(({outer: -1}, room, why))
            if per_item[cls]["sum_max"] > self.size_cap:
                self.notes.append(
                    f"sum of {key} capped at {self.size_cap} of the stated "
                    f"{fmt(per_item[cls]['sum_max'])}"
                )
        return (*self._order(classes, cons, set(per_item)), per_item)

    def _conditions(self, classes: dict[str, str], per_item: dict[str, dict[str, Any]]) -> None:
        """Divisibility (``n is even``) and exclusions (``src != dst``) per quantity class."""
        self.mod_of: dict[str, tuple[int, int, str]] = {}
        for key, m, r, line in self.mods:
            cls = classes.get(key)
            if cls is None:
                continue  # an unknown name: already reported
            if cls in per_item:
                self.problems.append(f'"{line}": a divisibility condition on {cls}, drawn per item')
                continue
            old = self.mod_of.get(cls)
            if old is None or old[:2] == (m, r):
                self.mod_of[cls] = (m, r, line)
            elif old[0] == m:
                self.problems.append(f'"{line}": contradicts "{old[2]}"')
            else:
                self.problems.append(f'"{line}": a second divisibility condition on {cls}')
        self.ne_cons: list[tuple[dict[str, int], int, str]] = []
        for lin, line in self.nes:
            try:
                got = self._to_cls(lin, classes, integral=True)
            except Unsupported as exc:
                self.problems.append(f'"{line}": {exc}')
                continue
            if got is None:
                continue
            terms, const = got
            if not terms:
                if const == 0:
                    self.problems.append(f'"{line}": contradicts the other constraints')
            elif any(t in per_item for t in terms):
                self.problems.append(f'"{line}": an inequality (!=) on a length drawn per item')
            else:
                self.ne_cons.append((terms, const, line))

    def _least_sums(
        self,
        classes: dict[str, str],
        per_item: dict[str, dict[str, Any]],
        cons: list[tuple[dict[str, int], int, str]],
    ) -> None:
        """``1 <= sum(words[i].length)``: met by every draw when the fewest items of the
        shortest length reach it; otherwise reported (the runtime only shrinks sums)."""
        for key, least in self.sum_mins.items():
            cls = classes.get(key)
            outer = classes.get(re.sub(r"\[i\]\.length$", ".length", key))
            if cls not in per_item or outer is None:
                for _, line in least:
                    self.problems.append(
                        f'"{line}": a sum bound on {key}, which is not a per-item length'
                    )
                continue
            outer_lo = 0
            for terms, const, _ in cons:
                if list(terms) == [outer] and terms[outer] > 0:
                    outer_lo = max(outer_lo, -(const // terms[outer]))
            floor = outer_lo * per_item[cls]["lo"]
            for value, line in least:
                if value > floor:
                    self.problems.append(
                        f'"{line}": the other constraints allow a sum of {floor} '
                        f"({outer} >= {outer_lo}, {cls} >= {per_item[cls]['lo']})"
                    )

    def _per_item(self, cls: str, own: list[tuple[dict[str, int], int, str]]) -> dict[str, Any]:
        lo, hi = 0, None
        for terms, const, _ in own:
            a = terms[cls]
            if a > 0:
                lo = max(lo, -(const // a))
            else:
                v = const // -a
                hi = v if hi is None else min(hi, v)
        if hi is None:
            self.problems.append(f"no stated upper bound for {cls}")
            hi = lo
        elif lo > hi:
            self.problems.append(f"{cls}: the stated bounds [{lo}, {hi}] are empty")
        elif hi > self.size_cap:
            self.notes.append(f"{cls} capped at {self.size_cap} of the stated {fmt(hi)}")
        return {"lo": lo, "hi": hi}

    def _distinct_room(self, classes: dict[str, str]) -> list[tuple[dict[str, int], int, str]]:
        """Distinct values need a list no longer than its value range: one more bound each."""
        out: list[tuple[dict[str, int], int, str]] = []
        for p in self.params:
            info = self.leaf[p.name]
            if not info.distinct or info.distinct["level"] != "value":
                continue
            if info.distinct["scope"] == "all" and p.depth != 1:
                continue  # checked when drawing
            key = p.dim_key(p.depth - 1)
            if key not in classes:
                continue
            why = f"(distinct values of {p.name} need {key} <= the number of possible values)"
            room: list[tuple[dict[str, int], int]] = []
            choices = info.values if info.values is not None else info.alphabet
            if choices is not None:
                room.append(({}, len(choices)))
            elif p.leaf == "int" and info.lo and info.hi:
                for lo, lo_strict, _ in info.lo:
                    for hi, hi_strict, _ in info.hi:
                        excluded = len(set(info.ne))
                        form = hi - lo + Lin(Fraction(1 - lo_strict - hi_strict - excluded))
                        got = self._to_cls(form, classes)
                        if got is not None:
                            room.append(got)
            for terms, const in room:
                t = dict(terms)
                t[classes[key]] = t.get(classes[key], 0) - 1
                t = {k: v for k, v in t.items() if v != 0}
                if not t:
                    if const < 0:
                        self.problems.append(f"{p.name}: distinct values cannot fit {why}")
                    continue
                out.append((t, const, why))
        return out

    def _row_room(self, classes: dict[str, str]) -> list[tuple[dict[str, int], int, str]]:
        """Distinct rows need no more rows than there are sets of field values (each field
        range constant; counted as unordered, which is what the runtime tells apart)."""
        out: list[tuple[dict[str, int], int, str]] = []
        for p in self.params:
            info = self.leaf[p.name]
            outer = classes.get(p.dim_key(0))
            if not info.unique_rows or outer is None:
                continue
            width = max([len(self._width_fields(p.name)), *(c + 1 for c in info.cols)])
            cols = self._columns(p, info, width) if width else "no fields"
            sizes = []
            for c in cols if not isinstance(cols, str) else []:
                if c.values is not None:
                    sizes.append(len(set(c.values) - set(c.ne)))
                    continue
                los = [b.const for b, st, _ in c.lo if not b.terms]
                his = [b.const for b, st, _ in c.hi if not b.terms]
                if len(los) != len(c.lo) or len(his) != len(c.hi) or not los or not his:
                    sizes = []
                    break
                lo = max(b.const + st for b, st, _ in c.lo)
                hi = min(b.const - st for b, st, _ in c.hi)
                sizes.append(max(0, int(hi - lo + 1)))
            if sizes:
                room = math.prod(sizes) // math.factorial(len(sizes))
                why = f"(distinct rows of {p.name}: at least {room} exist)"
                out.append(({outer: -1}, room, why))
                continue
            # a range that depends on quantities (0 <= a_i, b_i < n): at least as many distinct
            # rows as values of the first field (one fewer when it must differ from another
            # field), a linear bound that keeps the rejection of repeated rows quick
            col = cols[0] if not isinstance(cols, str) else None
            if col is None or not col.lo or not col.hi:
                self.problems.append(
                    f'"{info.unique_rows}": distinct rows need a stated range for each field'
                )
                continue
            paired = any(op != "<=" and 0 in (a, b) for a, b, op, _ in info.pairs)
            why = f"(distinct rows of {p.name}: no more rows than values of its first field)"
            for lo, lo_strict, _ in col.lo:
                for hi, hi_strict, _ in col.hi:
                    form = hi - lo + Lin(Fraction(1 - lo_strict - hi_strict - paired))
                    got = self._to_cls(form, classes, integral=True)
                    if got is not None:
                        terms = dict(got[0])
                        terms[outer] = terms.get(outer, 0) - 1
                        out.append(({k: v for k, v in terms.items() if v}, got[1], why))
        return out

    def _string_room(
        self, classes: dict[str, str], per_item: dict[str, dict[str, Any]]
    ) -> list[tuple[dict[str, int], int, str]]:
        """Distinct strings need a list no longer than the number of strings that exist."""
        out: list[tuple[dict[str, int], int, str]] = []
        for p in self.params:
            info = self.leaf[p.name]
            if not info.distinct or info.distinct["level"] != "string" or p.depth != 2:
                continue
            outer, inner = classes.get(p.dim_key(0)), classes.get(p.dim_key(1))
            if outer is None or inner not in per_item or not info.alphabet:
                continue  # checked when drawing
            lo, hi = per_item[inner]["lo"], per_item[inner]["hi"]
            count = 0
            for length in range(lo, hi + 1):
                count += len(info.alphabet) ** length
                if count > 10**9:
                    break
            if count <= 10**9:
                why = f"(distinct strings of {p.name}: only {count} exist)"
                out.append(({outer: -1}, count, why))
        return out

    def _order(
        self,
        classes: dict[str, str],
        cons: list[tuple[dict[str, int], int, str]],
        skip: set[str],
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """A topological order of the quantities (sizes first) and each one's bounds.

        A quantity is ready when the constraints over it and already-placed quantities give it a
        lower and an upper bound; each constraint then bounds the last-placed quantity in it.
        """
        sizes = {c for c in set(classes.values()) if self._is_size(c, classes)}
        capped = sizes | self.hidden_sizes  # drawn as sizes; only true sizes are >= 0 unstated
        remaining = set(classes.values()) - skip
        implied = self._implied(remaining, sizes, cons)
        cons = cons + [(t, c, line) for t, c, line, _ in implied]
        pos: dict[str, int] = {}
        order: list[str] = []
        while remaining:
            chosen = None
            for c in sorted(remaining, key=lambda c: (c not in capped, c not in self.hidden, c)):
                lo_ok, hi_ok = c in sizes, False
                for terms, _, _ in cons:
                    if c in terms and all(t == c or t in pos for t in terms):
                        if terms[c] > 0:
                            lo_ok = True
                        else:
                            hi_ok = True
                if lo_ok and hi_ok:
                    chosen = c
                    break
            if chosen is None:
                for c in sorted(remaining):
                    self.problems.append(self._unbounded(c, classes, cons, sizes))
                break
            pos[chosen] = len(order)
            order.append(chosen)
            remaining.discard(chosen)

        def target(terms: dict[str, int]) -> str:
            return max(terms, key=lambda t: pos.get(t, -1))

        # an implied bound is redundant where the constraint it came from bounds the same quantity
        redundant = [(t, c, line) for t, c, line, src in implied if target(src) == next(iter(t))]
        cons = [c for c in cons if c not in redundant]
        quantities: list[dict[str, Any]] = []
        qnotes: dict[str, str] = {}
        for c in order:
            bounds: list[dict[str, Any]] = []
            if c in sizes:
                bounds.append({"coef": 1, "rest": 0, "text": "a length or count is at least 0"})
            for terms, const, line in cons:
                if c in terms and target(terms) == c:
                    rest_terms = {t: v for t, v in terms.items() if t != c}
                    rest: Any = {"const": const, "terms": rest_terms} if rest_terms else const
                    bounds.append({"coef": terms[c], "rest": rest, "text": line})
            item = {"name": c, "label": self._label(c, classes), "size": c in capped}
            item["bounds"] = bounds
            if c in self.cap_fit:
                item["cap"] = self.cap_fit[c]
            if c in self.mod_of:
                item["mod"] = list(self.mod_of[c][:2])
            for terms, const, line in self.ne_cons:
                if c in terms and target(terms) == c:
                    rest_terms = {t: v for t, v in terms.items() if t != c}
                    rest = {"const": const, "terms": rest_terms} if rest_terms else const
                    item.setdefault("ne", []).append({"coef": terms[c], "rest": rest, "text": line})
            quantities.append(item)
            qnotes[c] = self._describe_quantity(c, bounds, c in capped, classes)
            if "mod" in item:
                m, r = item["mod"]
                qnotes[c] += (
                    f", {'even' if (m, r) == (2, 0) else 'odd' if m == 2 else f'% {m} == {r}'}"
                )
            if "ne" in item:
                qnotes[c] += ", " + ", ".join(b["text"] for b in item["ne"])
        return quantities, qnotes

    def _implied(
        self, names: set[str], sizes: set[str], cons: list[tuple[dict[str, int], int, str]]
    ) -> list[tuple[dict[str, int], int, str, dict[str, int]]]:
        """Constant bounds implied by the others (``1 <= k <= n`` gives ``n >= 1``), each with
        the constraint it came from.

        Interval propagation to a fixpoint; the implied bounds let a quantity placed early avoid
        values that leave a later one no room, and an empty interval is reported.
        """
        lo: dict[str, int | None] = {c: 0 if c in sizes else None for c in names}
        hi: dict[str, int | None] = dict.fromkeys(names)
        direct_lo, direct_hi = dict(lo), dict(hi)
        src_lo: dict[str, dict[str, int]] = {}
        src_hi: dict[str, dict[str, int]] = {}
        for _round in range(50):
            changed = False
            for terms, const, _ in cons:
                if any(t not in names for t in terms):
                    continue
                for x, a in terms.items():
                    rest = const  # the largest value the other terms can add
                    for y, b in terms.items():
                        if y == x:
                            continue
                        v = hi[y] if b > 0 else lo[y]
                        if v is None:
                            break
                        rest += b * v
                    else:
                        if a > 0:
                            new = -(rest // a)
                            if lo[x] is None or new > lo[x]:  # type: ignore[operator]
                                lo[x], changed, src_lo[x] = new, True, terms
                                if len(terms) == 1:
                                    direct_lo[x] = new
                        else:
                            new = rest // -a
                            if hi[x] is None or new < hi[x]:  # type: ignore[operator]
                                hi[x], changed, src_hi[x] = new, True, terms
                                if len(terms) == 1:
                                    direct_hi[x] = new
            if not changed:
                break
        out: list[tuple[dict[str, int], int, str, dict[str, int]]] = []
        for c in sorted(names):
            lo_c, hi_c = lo[c], hi[c]
            if lo_c is not None and hi_c is not None and lo_c > hi_c:
                lines = "; ".join(dict.fromkeys(f'"{ln}"' for t, _, ln in cons if c in t))
                self.problems.append(
                    f"the constraints on {c} cannot all hold (they leave [{lo_c}, {hi_c}]): {lines}"
                )
                continue
            if lo_c is not None and lo_c != direct_lo[c]:
                why = f"{c} >= {fmt(lo_c)} (implied by the others)"
                out.append(({c: 1}, -lo_c, why, src_lo[c]))
            if hi_c is not None and hi_c != direct_hi[c]:
                why = f"{c} <= {fmt(hi_c)} (implied by the others)"
                out.append(({c: -1}, hi_c, why, src_hi[c]))
        return out

    def _unbounded(
        self,
        c: str,
        classes: dict[str, str],
        cons: list[tuple[dict[str, int], int, str]],
        sizes: set[str],
    ) -> str:
        lo = c in sizes or any(t.get(c, 0) > 0 for t, _, _ in cons)
        hi = any(t.get(c, 0) < 0 for t, _, _ in cons)
        label = self._label(c, classes)
        if lo and hi:
            others = sorted({t for terms, _, _ in cons if c in terms for t in terms} - {c})
            return (
                f"no constant bound reaches {label}: its bounds involve only "
                f"{', '.join(others)}, which are bounded by it (a cycle)"
            )
        if not hi and not lo:
            return f"no stated bound for {label}"
        return f"no stated {'upper' if not hi else 'lower'} bound for {label}"

    def _describe_quantity(
        self, c: str, bounds: list[dict[str, Any]], size: bool, classes: dict[str, str]
    ) -> str:
        const_lo = [
            -b["rest"] for b in bounds if b["coef"] == 1 and not isinstance(b["rest"], dict)
        ]
        const_hi = [
            b["rest"] for b in bounds if b["coef"] == -1 and not isinstance(b["rest"], dict)
        ]
        los = [fmt(max(const_lo))] if const_lo else []
        his = [fmt(min(const_hi))] if const_hi else []
        for b in bounds:
            a, rest = b["coef"], b["rest"]
            if a in (1, -1) and not isinstance(rest, dict):
                continue
            if a > 0:
                los.append(
                    fmt_form(_neg(rest)) if a == 1 else f"ceil({fmt_form(_neg(rest))} / {a})"
                )
            else:
                his.append(fmt_form(rest) if a == -1 else f"floor({fmt_form(rest)} / {-a})")
        label = self._label(c, classes)
        text = f"{label} in {fmt_range(los, his)}"
        if not size:
            return text
        cap = self.size_cap
        if c in self.cap_fit:  # a free n whose length is a * n + c
            cap = (cap - self.cap_fit[c][1]) // self.cap_fit[c][0]
        if const_hi and min(const_hi) > cap:
            self.notes.append(f"{label} capped at {cap} of the stated {fmt(min(const_hi))}")
        return text + f", {self.cap_note}"

    def _param_spec(
        self, p: Param, classes: dict[str, str], per_item: dict[str, dict[str, Any]]
    ) -> dict[str, Any]:
        base: dict[str, Any] = {"name": p.name, "type": p.type}
        if p.is_quantity:
            return {**base, "kind": "quantity", "q": classes.get(p.name, p.name)}
        info = self.leaf[p.name]
        dims: list[dict[str, Any]] = []
        for d in range(1 if p.tree else p.depth):
            cls = classes.get(p.dim_key(d), p.dim_key(d))
            dims.append(dict(per_item[cls]) if cls in per_item else {"q": cls})
        if info.cols or info.pairs or info.unique_rows:
            return self._rows_spec(p, info, classes, base, dims)
        kind = "tree" if p.tree else "list" if p.depth else "scalar"
        out = {
            **base,
            "kind": kind,
            "dims": dims,
            "leaf": self._leaf_spec(p, info, classes),
            "join": p.join,
            "sorted": info.sorted,
            "distinct": info.distinct,
        }
        if info.bst:
            out["bst"] = True
        return out

    def _columns(self, p: Param, info: _LeafInfo, width: int) -> list[_LeafInfo] | str:
        """Each field's facts: the whole list's bounds plus its own; the two fields of an
        ordered pair share both ranges (drawn from the common range, then ordered). A problem
        (text) when a field or a pair cannot be placed."""
        for col in info.cols:
            if col >= width:
                return f"{p.name} has {width} fields per row, not {col + 1}"
        cols = []
        for j in range(width):
            own = info.cols.get(j, _LeafInfo())
            values = info.values
            if own.values is not None:
                values = own.values if values is None else [v for v in values if v in own.values]
            cols.append(
                _LeafInfo(
                    lo=[*info.lo, *own.lo],
                    hi=[*info.hi, *own.hi],
                    values=values,
                    ne=[*info.ne, *own.ne],
                )
            )
        ordered: set[int] = set()
        for a, b, op, line in info.pairs:
            if max(a, b) >= width or a == b:
                return f'"{line}": names fields that {p.name}\'s rows do not have'
            if op == "!=":
                continue
            if a in ordered or b in ordered:
                return f'"{line}": a field in two orderings'
            ordered |= {a, b}
            ca, cb = cols[a], cols[b]
            merged = _LeafInfo(lo=[*ca.lo, *cb.lo], hi=[*ca.hi, *cb.hi], ne=[*ca.ne, *cb.ne])
            if ca.values is not None or cb.values is not None:
                sets = [c.values for c in (ca, cb) if c.values is not None]
                merged.values = [v for v in sets[0] if all(v in x for x in sets)]
            cols[a] = cols[b] = merged
        return cols

    def _rows_spec(
        self,
        p: Param,
        info: _LeafInfo,
        classes: dict[str, str],
        base: dict[str, Any],
        dims: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """A list of rows with named fields (``edges[i] = [a_i, b_i]``): a leaf per field."""
        out = {**base, "kind": "list", "dims": dims, "join": False, "sorted": None}
        out["distinct"] = None
        width = dims[-1].get("lo") if len(dims) == 2 and "q" not in dims[-1] else None
        if p.depth != 2 or p.leaf != "int" or not width or width != dims[-1].get("hi"):
            self.problems.append(
                f"{p.name} ({p.type}): fields per row need rows of one stated length "
                f"({p.name}[i].length == k or {p.name}[i] = [a_i, b_i, ...])"
            )
            return {**out, "leaf": {"type": "int", "lo": [0], "hi": [0]}}
        if info.sorted or info.distinct:
            self.problems.append(f"{p.name}: sorted or distinct values together with fields")
        cols = self._columns(p, info, width)
        if isinstance(cols, str):
            self.problems.append(cols)
            return {**out, "leaf": {"type": "int", "lo": [0], "hi": [0]}}
        names = {col: f for f, (owner, col) in self.fields.items() if owner == p.name}
        leaves = [
            self._leaf_spec(p, c, classes, what=f"{names.get(j, f'{p.name}[i][{j}]')}")
            for j, c in enumerate(cols)
        ]
        out["leaf"] = leaves[0]
        out["cols"] = leaves
        out["fields"] = [names.get(j, f"{p.name}[i][{j}]") for j in range(width)]
        if info.pairs:
            out["pairs"] = [[a, b, op] for a, b, op, _ in info.pairs]
        if info.unique_rows:
            out["unique_rows"] = True
        return out

    def _leaf_spec(
        self, p: Param, info: _LeafInfo, classes: dict[str, str], what: str | None = None
    ) -> dict[str, Any]:
        what = what or (f"the values of {p.name}" if p.depth else p.name)
        if p.leaf == "bool":
            return {"type": "bool"}
        if p.leaf == "char":
            if info.alphabet is None:
                self.problems.append(f"no stated alphabet for {what}")
                return {"type": "char", "alphabet": ""}
            if not info.alphabet:
                self.problems.append(f"the stated alphabets of {what} have no common character")
            return {"type": "char", "alphabet": info.alphabet}
        if p.leaf == "float":
            if not info.lo or not info.hi:
                self.problems.append(f"no stated range for {what}")
                return {
                    "type": "float",
                    "lo": 0.0,
                    "hi": 0.0,
                    "lo_strict": False,
                    "hi_strict": False,
                }
            # the tightest bounds; at equal values a strict bound is the tighter one
            lo, lo_strict = max((float(b.const), s) for b, s, _ in info.lo)
            hi, hi_loose = min((float(b.const), not s) for b, s, _ in info.hi)
            hi_strict = not hi_loose
            if lo > hi or (lo == hi and (lo_strict or hi_strict)):
                self.problems.append(f"{what}: the stated range is empty")
            return {
                "type": "float",
                "lo": lo,
                "hi": hi,
                "lo_strict": lo_strict,
                "hi_strict": hi_strict,
            }
        los = [self._int_bound(b, strict, +1, classes) for b, strict, _ in info.lo]
        his = [self._int_bound(b, strict, -1, classes) for b, strict, _ in info.hi]
        if info.values is not None:
            lo_c = [v for v in los if not isinstance(v, dict)]
            hi_c = [v for v in his if not isinstance(v, dict)]
            if len(lo_c) != len(los) or len(hi_c) != len(his):
                self.problems.append(f"{what}: a value set together with bounds on quantities")
            values = [
                v
                for v in info.values
                if all(v >= x for x in lo_c if x is not None)
                and all(v <= x for x in hi_c if x is not None)
                and v not in info.ne
            ]
            if not values:
                self.problems.append(f"{what}: no stated value satisfies every constraint")
            return {"type": "int", "set": values}
        if not los or not his:
            self.problems.append(f"no stated range for {what}")
            return {"type": "int", "lo": [0], "hi": [0]}
        lo_c = [v for v in los if isinstance(v, int)]
        hi_c = [v for v in his if isinstance(v, int)]
        if lo_c and hi_c and max(lo_c) > min(hi_c):
            self.problems.append(f"{what}: the stated range is empty")
        out: dict[str, Any] = {"type": "int", "lo": los, "hi": his}
        if info.ne:
            out["ne"] = sorted(set(info.ne))
        return out

    def _int_bound(self, lin: Lin, strict: bool, sign: int, classes: dict[str, str]) -> Any:
        adjusted = lin + Lin(Fraction(sign if strict else 0))
        try:
            got = self._to_cls(adjusted, classes)
        except Unsupported as exc:
            self.problems.append(str(exc))
            return 0
        if got is None:
            return 0
        terms, const = got
        return {"const": const, "terms": terms} if terms else const

    def _param_notes(
        self, params: list[dict[str, Any]], qnotes: dict[str, str], sizes: set[str]
    ) -> list[str]:
        out = []
        for p in params:
            head = f"{p['name']} ({p['type']}): "
            if p["kind"] == "quantity":
                how = _size_policy(self.perf) if p["q"] in sizes else _scalar_policy(self.perf)
                out.append(head + f"integer {qnotes.get(p['q'], p['q'])}, {how}")
                continue
            leaf = _describe_leaf(p["leaf"])
            extras = []
            if p.get("distinct"):
                d = p["distinct"]
                extras.append(
                    "distinct strings"
                    if d["level"] == "string"
                    else "distinct values" + (" within each list" if d["scope"] == "each" else "")
                )
            if p.get("sorted"):
                order = "non-decreasing" if p["sorted"] == "asc" else "non-increasing"
                extras.append(f"sorted ({order})")
            tail = "".join(f"; {e}" for e in extras)
            if p["kind"] == "scalar":
                out.append(head + leaf + tail)
                continue
            shape = []
            for d in p["dims"]:
                if "q" in d:
                    shape.append(qnotes.get(d["q"], d["q"]))
                else:
                    extra = f", their sum at most {fmt(d['sum_max'])}" if "sum_max" in d else ""
                    rng = f"[{fmt(d['lo'])}, {fmt(d['hi'])}]"
                    shape.append(f"{d['name']} each in {rng}, {self.cap_note}{extra}")
            if "cols" in p:
                fields = p["fields"]
                what = f"{shape[0]}; rows [{', '.join(fields)}]; " + "; ".join(
                    f"{f}: {_describe_leaf(c)}" for f, c in zip(fields, p["cols"], strict=True)
                )
                for a, b, op in p.get("pairs", ()):
                    what += f"; {fields[a]} {op} {fields[b]}"
                if p.get("unique_rows"):
                    what += "; no two rows hold the same values"
            elif p["kind"] == "tree":
                how_shaped = "" if self.perf else " (~10% path-shaped)"
                what = f"a random binary tree{how_shaped}, node count {shape[0]}; values {leaf}"
            elif p["join"] and len(shape) == 1:
                what = f"a string, length {shape[0]}; characters: {leaf}"
            else:
                dims = "; ".join(shape)
                what = f"{dims}; {'characters' if p['leaf']['type'] == 'char' else 'values'} {leaf}"
            out.append(head + what + tail)
        return out


def _neg(form: Any) -> Any:
    if isinstance(form, dict):
        return {"const": -form["const"], "terms": {k: -v for k, v in form["terms"].items()}}
    return -form


def _scalar_policy(perf: bool = False) -> str:
    if perf:
        return (
            "min(its max, scale) when the range spans >= 3 orders of magnitude from >= 0, "
            "else random"
        )
    return "log-uniform in magnitude when the range spans >= 3 orders of magnitude, else uniform"


def _size_policy(perf: bool = False) -> str:
    return "a size: min(its max, scale)" if perf else "a size: uniform"


def _describe_leaf(leaf: dict[str, Any]) -> str:
    t = leaf["type"]
    if t == "bool":
        return "true/false uniformly"
    if t == "char":
        return describe_alphabet(leaf["alphabet"])
    if t == "float":
        lo = "(" if leaf["lo_strict"] else "["
        hi = ")" if leaf["hi_strict"] else "]"
        return f"floats uniform in {lo}{leaf['lo']}, {leaf['hi']}{hi}"
    if "set" in leaf:
        return "from {" + ", ".join(str(v) for v in leaf["set"]) + "}"
    rng = fmt_range([fmt_form(x) for x in leaf["lo"]], [fmt_form(x) for x in leaf["hi"]])
    return f"integers uniform in {rng}"
