"""The facts the analysis gathers from Constraints lines, and what the names in them denote.

:class:`Facts` is the store the line readers (:mod:`quicksilver.synth.offline.sentences`,
:mod:`quicksilver.synth.offline.comparisons`) write into and the later steps read: the integer
quantities and the relations between them (linear forms, equalities, exclusions, remainders), and
per parameter its value facts (:class:`LeafInfo`). It also resolves the references of a line
(``nums[i]``, ``grid[i].length``, ``Node.val``, ``the tree``, a row's field ``a_i``) against the
parameters, and keeps the quantity keys that an alias makes equal (``n == nums.length``) in one
union-find.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from quicksilver.synth.offline.constraints import (
    FIELDS_RE,
    FIELDS_WORDS_RE,
    REF_RE,
    ExprParser,
    Lin,
    Param,
    Ref,
    Unsupported,
    clean,
    split_top,
)
from quicksilver.synth.offline.field_names import (
    case_twin,
    field_definitions,
    named_field,
    string_field,
)


@dataclass
class LeafInfo:
    """What the constraints say about a parameter's values (or one field of its rows)."""

    lo: list[tuple[Lin, bool, str]] = field(default_factory=list)  # (bound, strict, line)
    hi: list[tuple[Lin, bool, str]] = field(default_factory=list)
    values: list[int] | None = None  # a stated value set
    alphabet: str | None = None
    sorted: str | None = None  # "asc" | "desc"
    distinct: dict[str, str] | None = None  # {"level": "value"|"string", "scope": "all"|"each"}
    ne: list[int] = field(default_factory=list)  # excluded values (``nums[i] != 0``)
    union: list[list[Any]] | None = None  # parts of a union of values and ranges (unions.py)
    bst: bool = False  # a TreeNode parameter that is a binary search tree
    depth_max: tuple[int, str] | None = None  # a tree no deeper than this (root: 1), the line
    tree_shape: tuple[str, str] | None = None  # "complete" | "perfect" (tree_shapes.py), the line
    cols: dict[int, LeafInfo] = field(default_factory=dict)  # per-field bounds of rows
    pairs: list[tuple[int, int, str, str]] = field(default_factory=list)  # (a, b, op, line)
    # relations between fields of one row or of consecutive rows (row_fields.py)
    lins: list[tuple[Any, ...]] = field(default_factory=list)
    unique_rows: str | None = None  # the line that says no two rows are the same
    # the fields that tell rows apart when only some do (``All pairs (from_i, to_i) are
    # distinct`` of rows with more fields); empty: every field
    unique_key: list[int] = field(default_factory=list)
    tree: str | None = None  # the line that says the rows are the edges of a tree
    # the rows are a graph's edges (first two fields, its ends): "loops" (no self loops),
    # "simple" (no two edges between the same ends), "connected", "dag" -> the line
    graph: dict[str, str] = field(default_factory=dict)
    # a square matrix's diagonal value (``isConnected[i][i] == 1``) and the line; the line that
    # says it is symmetric (``isConnected[i][j] == isConnected[j][i]``)
    diag: tuple[int, str] | None = None
    symmetric: str | None = None
    # no leading zeros in its strings: "zero-ok" (a lone "0" allowed: "except for the zero
    # itself"), "strict"; and the line that says so
    lead: tuple[str, str] | None = None
    # spaces in its strings: "trim" (no leading or trailing one), "single" (no two in a row),
    # "word" (not only spaces) -> the line that says so
    spaces: dict[str, str] = field(default_factory=dict)
    words: tuple[int, int | None, str] | None = None  # a count of words (word_sentences.py)
    # values apart from others: "next" (``nums[i] != nums[i + 1]``), "index" (``edges[i] != i``)
    # -> the line that says so
    apart: dict[str, str] = field(default_factory=dict)
    # fixed positions (``stones[0] == 0``, ``grid[m - 1][n - 1] == 0``): (an index per level,
    # the value, the line, "==" or "!=": ``s[0] != 'i'``, a value the position does not hold)
    pins: list[tuple[list[Lin], int | str, str, str]] = field(default_factory=list)
    distinct_cols: dict[int, str] = field(default_factory=dict)  # distinct fields -> the line
    # each value at most its index plus k (``0 <= nextVisit[i] <= i``: k = 0), and the line
    below_index: tuple[int, str] | None = None
    # rows sorted by a field (``position_i < position_i+1``): (field, "asc" | "desc", the line);
    # fields no row repeats from the row before (``id_i != id_i+1``) -> the line
    sorted_col: tuple[int, str, str] | None = None
    apart_cols: dict[int, str] = field(default_factory=dict)
    # how many times characters occur (char_sentences.py): (the characters, least, most or
    # None, [m, r] or None, [a, b] (a / b of the length) or None, "each" string or "all" of
    # the parameter, the line)
    counts: list[tuple[str, int, int | None, list[int] | None, list[int] | None, str, str]] = field(
        default_factory=list
    )
    # the alphabet of some positions of each string: (an index, or [2, r] for i % 2 == r, the
    # characters, the line); characters taken out of the alphabet (``does not contain``)
    at: list[tuple[Any, str, str]] = field(default_factory=list)
    exclude: str = ""
    include: str = ""  # characters added to its stated alphabet (``The only space ... is ' '``)
    # how its strings' characters repeat: ("times", k, line): each one that occurs, k times;
    # ("repeat", 2, line): one at least twice; ("kinds", k, line): k distinct ones at least
    kinds: tuple[str, int, str] | None = None
    # a string made of whole tokens (``command consists of "G", "()", and/or "(al)" in some
    # order``): (the tokens, the line)
    tokens: tuple[list[str], str] | None = None
    # a structure stated in words (formats.py: a rotated sorted list, a mountain array,
    # balanced parentheses, a clock format): (its spec, the line)
    form: tuple[dict[str, Any], str] | None = None


class Facts:
    """The parameters, the facts stated about them, and the resolution of names."""

    def __init__(self, params: list[Param]) -> None:
        self.params = params
        self.by_name = {p.name: p for p in params}
        self.parent: dict[str, str] = {}
        self.mentions: dict[str, list[str]] = {}  # quantity key -> lines naming it
        self.aliases: dict[str, str] = {}  # a misspelt collection name -> the parameter read
        # a range the statement guarantees for the answer (``The answer is guaranteed to fit in
        # a 32-bit integer``): (lo, hi, line); the build keeps only inputs whose answer is in it
        self.answer: tuple[int, int, str] | None = None
        # ``lo <= a * b <= hi`` between two quantities: (a, b, lo or None, hi, line)
        self.products: list[tuple[str, str, int | None, int, str]] = []
        # two parameters of one format compared whole (``current <= correct``, ``loginTime and
        # logoutTime are not equal``): (a, op, b, line), formats.py
        self.relations: list[tuple[str, str, str, str]] = []
        self.num_order: list[tuple[str, str, str, str]] = []  # the same, of numbers (numstrings)
        self.returns: str | None = None  # the method's return type (metaData), numstrings.py
        self.lins: list[tuple[Lin, str]] = []  # (form >= 0, line) over q refs
        # what a chain says across its values (1 <= people[i] <= limit: limit >= 1), used by
        # the schedule only where nothing else bounds that quantity on that side
        self.across: list[tuple[Lin, str]] = []
        self.leaf: dict[str, LeafInfo] = {p.name: LeafInfo() for p in params}
        self.sums: dict[str, list[tuple[int, str]]] = {}
        self.sum_mins: dict[str, list[tuple[int, str]]] = {}  # stated least sums of lengths
        # a list's values summed (``sum(nums[i]) <= 1000``): name -> [(limit, line)]; an empty
        # list where only a least sum that cannot bind was stated
        self.value_sums: dict[str, list[tuple[int, str]]] = {}
        # a least sum or a parity of a list's values (sums.py): name -> [(kind, a, b, line)]
        self.sum_rules: dict[str, list[tuple[str, int, int, str]]] = {}
        # a scalar at most a sum (``k <= sum(piles[i].length)``, sums.py): (key, of, strict, line)
        self.below_sums: list[tuple[str, str, bool, str]] = []
        self.below_counts: list[tuple[str, str, str, int, str]] = []  # derived_counts.py
        self.eqs: list[tuple[Lin, str]] = []  # equalities that are not aliases (n == e.length + 1)
        self.nes: list[tuple[Lin, str]] = []  # form != 0 over quantities
        # relations item by item between two lists (``l[i] < r[i]``): (a, b, op, line)
        self.zips: list[tuple[str, str, str, str]] = []
        # membership between parameters (members.py): (op, a, b, line)
        self.members: list[tuple[str, str, Any, str]] = []
        self.presence: list[tuple[Any, ...]] = []  # a value present, one position (presence.py)
        self.uniq: list[tuple[str, list[str], str]] = []  # uniqueness.py: (mode, names, line)
        # a quantity bounded by a product or power of others (nonlinear.py): (key, op, expr,
        # denominator, line)
        self.polys: list[tuple[str, str, Any, int, str]] = []
        self.derived: set[str] = set()  # quantities pinned to a product's value (arith.py)
        self.prod_bounds: list[tuple[Any, int | None, int | None, str]] = []  # (prods.py)
        self.mods: list[tuple[str, int, int, str]] = []  # (quantity key, m, r, line): key % m == r
        self.fields: dict[str, tuple[str, int]] = {}  # a_i -> (edges, 0) for edges[i] = [a_i, b_i]
        # inner lengths every item shares (a rectangular grid): dimension key -> why
        # (``grid[0].length`` in a line, or the description's ``matrix grid``)
        self.rect: dict[str, str] = {}
        self.same_len: dict[str, str] = {}  # stated equal lengths (neighbours.py): key -> line
        self.no_adjacent: dict[str, str] = {}  # no two 1s side by side (neighbours.py)
        self.apart_cells: dict[str, str] = {}  # no two adjacent cells equal (neighbours.py)
        self.adj: dict[str, dict[str, str]] = {}  # adjacency lists (adjacency.py): rule -> line
        self.degree: dict[str, tuple[int, str]] = {}  # a graph's degree bound (graph_degree.py)
        # lists of strings whose every string is one of a set of words (``instructions[i] is
        # either "add" or "jump"``): name -> (the words, the line)
        self.words: dict[str, tuple[list[str], str]] = {}
        # strings a line calls a sentence of words (``text consists of words separated by a
        # single space``): ``Each word consists of ...`` then states their alphabet
        self.sentences: set[str] = set()
        # an integer parameter's decimal digits (``num consists of only 6 and 9 digits``):
        # name -> (the digits allowed, the line)
        self.digits: dict[str, tuple[str, str]] = {}
        # how many times a list's values occur (occurs.py): name -> (rule, line); a list whose
        # largest ("max") or smallest ("min") value occurs once: name -> (end, line)
        self.occurs: dict[str, tuple[dict[str, Any], str]] = {}
        self.end_once: dict[str, tuple[str, str]] = {}
        # a number-theoretic property of a list's values (numtheory.py): name -> (rule, line)
        self.values_are: dict[str, tuple[list[Any], str]] = {}
        # a property of sizes (numtheory.py): ("pow2", key, c, line): key + c a power of two;
        # ("divides", key a, key b, line): a divides b
        self.size_props: list[tuple[str, str, Any, str]] = []
        self.known: set[str] = set()
        self.prose = ""  # the statement as text (an edge's direction: ``directed graph``)
        for p in params:
            if p.is_quantity:
                self.known.add(p.name)
            for d in range(p.depth if not p.tree else 1):
                self.known.add(p.dim_key(d))
        for k in sorted(self.known):
            self.find(k)

    # -- union-find over quantity keys ------------------------------------------------------

    def find(self, k: str) -> str:
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra

    # -- row fields ---------------------------------------------------------------------------

    def read_fields(self, lines: list[str], prose: str) -> None:
        """The names of row fields (``intervals[i] = [start_i, end_i]``), from the Constraints
        items and from ``prose`` (the statement as text), where LeetCode defines them more often.
        Read before any line: ``0 <= a_i, b_i < n`` may come before their definition."""
        defined: dict[str, set[tuple[str, int]]] = {}
        matches = [FIELDS_RE.fullmatch(clean(line)) for line in lines]
        matches += list(FIELDS_RE.finditer(prose))
        matches += list(FIELDS_WORDS_RE.finditer(prose))
        forms = [(m.group(1), m.group(2)) for m in matches if m]
        forms += field_definitions(self.by_name, prose)  # queries[j] = [...], startPos = [...]
        for owner, names in forms:
            if owner not in self.by_name and (named := self._misspelt(owner, 2)):
                owner = named.name  # rectangle[i] = [...] for rectangles
            if owner in self.by_name:
                for col, name in enumerate(split_top(names)):
                    if name not in self.by_name:
                        defined.setdefault(name, set()).add((owner, col))
        # a name given to two different fields means nothing here
        self.fields = {n: next(iter(d)) for n, d in defined.items() if len(d) == 1}

    def width_fields(self, name: str) -> list[str]:
        """The named fields of ``name``'s rows."""
        return [f for f, (owner, _) in self.fields.items() if owner == name]

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
        if p is None and name not in self.fields and (item := self._item_name(name, len(idx))):
            p, idx = item[0], [item[1], *idx]  # nums_i (LeetCode's nums<sub>i</sub>): nums[i]
        if p is None and (idx or suffix) and name not in self.fields:
            p = self._misspelt(name, len(idx) + (suffix in ("length", "size")))
        if (
            p is None
            and not idx
            and name not in self.fields
            and (twin := case_twin(self.params, name))
        ):
            p = twin  # arrivaltime for arrivalTime: the notes say so
            self.aliases[name] = twin.name
        if p is None and not idx and (text := string_field(self, name, suffix)):
            return text  # cityA_i.length of string rows: every field alike (field_names.py)
        if p is None and name in self.fields and not idx:
            owner, col = self.fields[name]
            if suffix:
                raise Unsupported(f"{raw}: a field of {owner} has no .{suffix}")
            return Ref("leaf", params=(owner,), col=col)
        if p is None and not suffix and (named := named_field(self, name, idx)):
            return named  # weight[i] for weight_i, weights_i for weight_i (row_fields.py)
        if p is None:
            if idx or suffix:
                raise Unsupported(f"{raw} is not a parameter or a size of one")
            return Ref("q", key=name)
        if suffix in ("length", "size"):
            if p.tree or len(idx) >= p.depth:
                raise Unsupported(f"{raw}: {p.name} ({p.type}) has no such length")
            key = p.dim_key(len(idx))
            if idx and re.fullmatch(r"\d+", idx[-1].strip()):
                # grid[0].length: LeetCode names a grid's width by its first row, so every
                # row has that length (a jagged grid breaks the statement's own solutions)
                self.rect.setdefault(key, raw.strip())
            return Ref("q", key=key)
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
        if any(re.fullmatch(r"\d+", i.strip()) or i.strip() in self.fields for i in idx):
            raise Unsupported(f"{raw}: a constraint on one specific position")
        if len(idx) == p.depth and not p.tree:
            return Ref("leaf", params=(p.name,))
        if len(idx) < p.depth:
            return Ref("container", params=(p.name,), depth=len(idx))
        raise Unsupported(f"{raw}: {p.name} ({p.type}) has no such element")

    def _item_name(self, name: str, depth: int) -> tuple[Param, str] | None:
        """``nums_i`` for ``nums[i]``: a collection's name with an index subscript (LeetCode
        writes ``nums<sub>i</sub>.length``), when ``nums`` is a parameter deep enough and
        ``nums_i`` names no row field. The parameter and the index."""
        m = re.fullmatch(r"([A-Za-z]\w*?)_([a-z])", name)
        if not m:
            return None
        p = self.by_name.get(m.group(1))
        if p is None or p.tree or p.depth <= depth:
            return None
        return p, m.group(2)

    def _misspelt(self, name: str, depth: int) -> Param | None:
        """The parameter a collection's name stands for when LeetCode's constraints shorten or
        lengthen it (``mat[i].length`` for ``matrix``, ``nums`` for ``num``): the one parameter
        deep enough whose name starts with the other (three letters at least); None when none
        or several do. Only names used as collections (indexed, or with ``.length``) get here,
        so a free ``n`` never becomes ``nums``."""
        if len(name) < 3:
            return None
        found = [
            p
            for p in self.params
            if len(p.name) >= 3
            and not p.tree
            and p.depth >= depth
            and (p.name.startswith(name) or name.startswith(p.name))
        ]
        if not found and len(name) >= 6:
            # one letter dropped, added, changed or two swapped (rectanges for rectangles)
            found = [
                p
                for p in self.params
                if not p.tree and p.depth >= depth and _one_edit(name, p.name)
            ]
        if len(found) != 1:
            return None
        self.aliases[name] = found[0].name
        return found[0]

    def parse(self, text: str) -> Lin:
        """A linear expression whose names are resolved against the parameters."""
        try:
            return ExprParser(text, self.resolve).parse()
        except Unsupported as exc:
            raise Unsupported(f"cannot read {text.strip()!r} ({exc})") from None

    def phrase_refs(self, phrase: str) -> list[Ref]:
        """Targets of a sentence: references, ``the tree``, ``the number of nodes in ...``."""
        phrase = re.sub(r"^(?:both|each of|all of)\s+", "", phrase.strip(), flags=re.I)
        phrase = re.sub(
            r"^the (?:given )?(?:string|array|integer array|list)\s+(?=\w)", "", phrase, flags=re.I
        )
        m = re.fullmatch(r"the (?:total )?number of (?:the )?nodes in (.+)", phrase, flags=re.I)
        if m:
            return [
                Ref("q", key=self.by_name[n].dim_key(0)) for n in self.structure_params(m.group(1))
            ]
        if re.fullmatch(r"(?:the )?(?:binary )?tree|the list|the linked list", phrase, flags=re.I):
            return [Ref("container", params=(n,)) for n in self.structure_params(phrase)]
        out: list[Ref] = []
        for part in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", phrase):
            part = part.strip()
            if not part:
                continue
            if not REF_RE.fullmatch(part):
                raise Unsupported(f"{part!r} is not a parameter")
            out.append(self.resolve(part))
        return out

    def structure_params(self, where: str) -> list[str]:
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

    # -- recording ----------------------------------------------------------------------------

    def mention(self, lin: Lin, line: str) -> None:
        """Note the line that names each quantity of ``lin`` (quoted if it stays unknown)."""
        for ref in lin.terms:
            if ref.kind == "q":
                self.find(ref.key)
                self.mentions.setdefault(ref.key, []).append(line)

    def info(self, name: str, col: int) -> LeafInfo:
        """The value facts of a parameter, or of one field (column) of its rows."""
        info = self.leaf[name]
        return info if col < 0 else info.cols.setdefault(col, LeafInfo())


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter dropped, added or changed, or two
    neighbouring letters swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = sorted((a, b), key=len)
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))
