"""The analysis: Constraints lines -> facts -> a spec (quantities with linear bounds, and per
parameter its dimensions and value domain), or the problems that block one.

:class:`Analysis` runs the steps, each in its own module:

1. :mod:`~.sentences` (with :mod:`~.comparisons`) reads one Constraints item at a time, with the
   parser of :mod:`quicksilver.synth.offline.constraints`, into :class:`~.facts.Facts`;
2. :mod:`~.quantities` merges aliased quantity keys into classes;
3. :mod:`~.schedule` orders the quantities and bounds each one, checking that every quantity is
   bounded and orderable;
4. :mod:`~.shapes` writes each parameter's spec;
5. :mod:`~.report` writes the notes of what was understood.

Every step appends to one list of problems and one of notes, in this order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from quicksilver.synth.offline.adjacency import adj_prepare, adj_specs
from quicksilver.synth.offline.arith import derived_ranges
from quicksilver.synth.offline.constraints import FIELDS_RE, Param, clean, split_top
from quicksilver.synth.offline.derived_counts import count_specs
from quicksilver.synth.offline.described import DescribedGuarantees, description_sentences
from quicksilver.synth.offline.described_rows import described_rows
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.field_names import other_index_rows, string_fields_problems
from quicksilver.synth.offline.formats import even_lengths, relations_spec
from quicksilver.synth.offline.graph_degree import degree_room, degree_specs
from quicksilver.synth.offline.graph_sentences import described_graph
from quicksilver.synth.offline.members import members_prepare, members_spec
from quicksilver.synth.offline.neighbours import neighbour_checks, neighbour_specs
from quicksilver.synth.offline.numstrings import order_spec
from quicksilver.synth.offline.numtheory import numtheory_specs
from quicksilver.synth.offline.occurs import occur_room, occur_specs
from quicksilver.synth.offline.presence import presence_prepare, presence_spec
from quicksilver.synth.offline.prods import attach_prod_bounds
from quicksilver.synth.offline.quantified import chain_room, quant_specs
from quicksilver.synth.offline.quantities import Quantities
from quicksilver.synth.offline.relations import share_ranges, zip_specs
from quicksilver.synth.offline.report import param_notes
from quicksilver.synth.offline.row_fields import base1_problems
from quicksilver.synth.offline.schedule import Schedule
from quicksilver.synth.offline.sentences import LineReader
from quicksilver.synth.offline.shapes import ParamSpecs
from quicksilver.synth.offline.sums import below_specs, sum_specs
from quicksilver.synth.offline.uniqueness import uniq_spec, used_params

_NAME = r"[A-Za-z_]\w*"
_ALONE = r"(?![\w\[]|\.\w|\s*[-+*/^(])"  # a bare name: n, not n + 1, 2 * n or n.length
_OF_LENGTH = re.compile(
    rf"\b(?P<param>{_NAME}),? (?:of|with|having) (?:a )?(?:length|size) (?:of )?"
    rf"(?P<n>{_NAME}){_ALONE}"
)
_OF_LENGTHS = re.compile(
    rf"\b(?P<a>{_NAME}),? and (?P<b>{_NAME}),? (?:of|with) (?:lengths|sizes) "
    rf"(?P<n>{_NAME}){_ALONE},? and (?P<m>{_NAME}){_ALONE}"
)
_GRID_BEFORE = re.compile(
    rf"\b(?P<rows>{_NAME}) x (?P<cols>{_NAME}) (?:[\w-]+ ){{0,3}}?"
    rf"(?:matrix|grid|board|array|image|map|field)\s+(?P<param>{_NAME})\b"
)
_BST_PROSE = re.compile(
    r"\b(?:given|you are given) (?:the )?root(?: node)? of an? (?:valid )?"
    r"(?:binary search tree|BST)(?: \(BST\))?(?P<rest>[^.]*)",
    flags=re.I,
)
# ``a binary string s``, ``a binary array nums``, ``an m x n binary matrix grid``
_BINARY = re.compile(
    rf"\bbinary (?:(?:string|array|matrix|grid)s? |(?:string|array) of length \w+ )"
    rf"(?P<param>{_NAME})\b"
)
# ``an m x n binary matrix grid``, ``the 2D grid board``: a grid, so every row has one length
_GRID_NAMED = re.compile(rf"\b(?:matrix|grid|board)\s+(?P<param>{_NAME})\b")
_GRID_AFTER = re.compile(
    rf"\b(?P<param>{_NAME}),? (?:of size|with dimensions|of dimensions) "
    rf"(?P<rows>{_NAME}) x (?P<cols>{_NAME}){_ALONE}"
)


@dataclass
class SpecResult:
    """What :func:`build_spec` understood: a spec, or the problems that prevent one."""

    spec: dict[str, Any] | None
    notes: list[str]
    problems: list[str]


class Analysis:
    """One statement's analysis. ``perf``: the notes describe ``perf_input_gen(scale)`` (sizes
    min(max, scale)); ``size_cap`` only decides which stated bounds the notes call capped."""

    def __init__(self, params: list[Param], size_cap: int, *, perf: bool = False) -> None:
        self.params = params
        self.size_cap = size_cap
        self.perf = perf
        self.cap_note = "min(its max, scale)" if perf else f"at most {size_cap}"
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.facts = Facts(params)

    def run(self, lines: list[str], prose: str = "") -> SpecResult:
        """Read every Constraints item. ``prose`` (the statement as text) is read only for
        what LeetCode states in the description more often than among the constraints: the
        definitions of row fields (``intervals[i] = [start_i, end_i]``), a binary search tree,
        the sizes it names, the grids it calls a matrix, grid or board, and the guarantees it
        states about the input (:mod:`~.described`: read, or reported)."""
        self.facts.read_fields(lines, prose)
        self.facts.prose = prose
        reader = LineReader(self.facts, self.problems)
        for line in lines:
            reader.read(line)
        for definition in self._row_forms(lines, prose):
            reader.read(definition)
        self.problems += string_fields_problems(self.facts, lines) + base1_problems(
            self.facts, lines
        )  # field_names.py, row_fields.py
        self._described_bst(prose)
        self._described_grids(prose)
        self._described_binary(prose)
        DescribedGuarantees(self.facts, self.problems, self.notes).run(prose, lines)
        described_graph(self.facts, description_sentences(prose))
        described_rows(self.facts, prose, description_sentences(prose), self.problems, self.notes)
        for equality in self._named_sizes(prose):
            reader.read(equality)
            self.notes.append(f"{equality}: the description names this size")
        self._word_lists()
        for alias, name in sorted(self.facts.aliases.items()):
            self.notes.append(f"{alias} in the constraints read as the parameter {name}")
        neighbour_checks(self.facts, self.problems)
        adj_prepare(self.facts, self.problems)
        degree_room(self.facts, self.problems)
        share_ranges(self.facts)
        chain_room(self.facts)  # quantified.py
        even_lengths(self.facts)
        occur_room(self.facts)
        members_prepare(self.facts)
        presence_prepare(self.facts)
        q = Quantities(self.facts, self.problems)
        schedule = Schedule(
            self.facts,
            q,
            size_cap=self.size_cap,
            cap_note=self.cap_note,
            problems=self.problems,
            notes=self.notes,
        )
        quantities, qnotes, per_item = schedule.run()
        self._attach_products(quantities, q.names)
        attach_prod_bounds(self.facts, quantities, q.names, self.problems, self.notes)
        for name, (digits, line) in self.facts.digits.items():  # num's decimal digits
            item = next(i for i in quantities if i["name"] == q.names.get(name, name))
            item["digits"] = digits
            if "mod" in item:  # the nearest value with those digits may have another remainder
                self.problems.append(f'"{line}": the digits of a number with a stated remainder')
            self.notes.append(f"{item['name']}: its decimal digits from {digits} ({line})")
        shapes = ParamSpecs(self.facts, q, self.problems, quantities)
        params = [shapes.param_spec(p, per_item) for p in self.params]
        occur_specs(self.facts, params, self.problems, self.notes, quantities)
        quant_specs(self.facts, q, params, self.problems, self.notes)  # quantified.py
        numtheory_specs(self.facts, params, self.problems, quantities, q.names)
        neighbour_specs(self.facts, params, self.problems)
        adj_specs(self.facts, params, quantities, self.problems)
        degree_specs(self.facts, params, self.problems)
        sum_specs(self.facts, params, self.problems)  # a least or odd sum of values (sums.py)
        below_specs(self.facts, params, quantities, q.names, self.problems)  # k <= sum(x)
        count_specs(self.facts, params, quantities, q.names, self.problems)  # k <= a count
        zips = zip_specs(self.facts, params, self.problems)
        relations = relations_spec(self.facts, params, self.problems)
        num_order = order_spec(self.facts, params, quantities, self.problems)
        self.problems += derived_ranges(self.facts.derived, quantities, params)
        spec: dict[str, Any] = {"quantities": quantities, "params": params}
        members = members_spec(self.facts, spec, zips, relations, self.problems, self.notes)
        presence = presence_spec(self.facts, spec, members, self.problems, self.notes)
        used = used_params(spec, members, presence, zips)  # uniqueness.py
        uniq = uniq_spec(self.facts, spec, used, self.problems, self.notes)
        if self.problems:
            return SpecResult(None, self.notes, self.problems)
        if relations:
            spec["relations"] = relations
        if members:
            spec["members"] = members
        if presence:  # a value present, one position (presence.py)
            spec["presence"] = presence
        if uniq:  # uniqueness across parameters (uniqueness.py)
            spec["uniq"] = uniq
        if num_order:  # two integers written as strings, in order (numstrings.py)
            spec["num_order"] = num_order
        if zips:
            spec["zips"] = zips
            for a, b, op in zips:
                self.notes.append(
                    f"{a}[i] {op} {b}[i] at every index: items out of order swapped (one "
                    "range for both), an equal item drawn again"
                )
        if self.facts.answer is not None:
            lo, hi, line = self.facts.answer
            spec["answer"] = {"lo": lo, "hi": hi, "text": line}
            self.notes.append(f"{line}: only inputs whose answer is in [{lo}, {hi}] are kept")
        sizes = {item["name"] for item in quantities if item["size"]}
        notes = param_notes(params, qnotes, sizes, perf=self.perf, cap_note=self.cap_note)
        self.notes = [*notes, *self.notes]
        return SpecResult(spec, self.notes, [])

    def _described_bst(self, prose: str) -> None:
        """``Given the root of a binary search tree, ...``: a guarantee LeetCode often states
        only in the description. The tree is then drawn as a BST: strict (distinct values,
        placed in order), or with duplicates where the sentence says so. A sentence that
        qualifies it (``where the values of exactly two nodes ... were swapped``) is reported:
        such a tree is not a BST and not drawn as one."""
        description = prose.split("Constraints:")[0]
        trees = [p.name for p in self.params if p.tree and p.type.startswith("TreeNode")]
        for m in _BST_PROSE.finditer(description):
            sentence, rest = m.group(0).strip(), m.group("rest")
            if len(trees) != 1:
                self.problems.append(f'"{sentence}": a binary search tree, but not one tree')
                return
            if re.search(r"\b(?:where|swapped|except|not|almost|nearly)\b", rest, flags=re.I):
                self.problems.append(f'"{sentence}": a binary search tree with a condition')
                return
            info = self.facts.leaf[trees[0]]
            info.bst = True
            if not re.search(r"\bwith duplicates\b", rest, flags=re.I) and info.distinct is None:
                info.distinct = {"level": "value", "scope": "all"}
            self.notes.append(f"{trees[0]}: a binary search tree, as the description says")
            return

    def _word_lists(self) -> None:
        """A list of strings drawn from a set of words has no string length to draw: each
        string is a whole word. A line that bounds that length is reported (the words would
        have to be checked against it)."""
        for name, (_, line) in self.facts.words.items():
            key = self.facts.by_name[name].dim_key(1)
            for other in dict.fromkeys(self.facts.mentions.get(key, [])):
                self.problems.append(f'"{other}": a length of strings drawn from words ({line})')
            if key not in self.facts.mentions and self.facts.find(key) == key:
                self.facts.known.discard(key)
                self.facts.parent.pop(key, None)

    def _described_binary(self, prose: str) -> None:
        """``You are given a binary string s``, ``a binary array nums``: the characters '0' and
        '1', or the values 0 and 1, where the Constraints state no alphabet or range at all
        (so a statement read before reads the same)."""
        description = prose.split("Constraints:")[0]
        for m in _BINARY.finditer(description):
            p = self.facts.by_name.get(m["param"])
            if p is None or p.tree or p.depth < 1:
                continue
            info = self.facts.leaf[p.name]
            if p.join and info.alphabet is None:
                info.alphabet = "01"
            elif p.leaf == "int" and not p.join and info.values is None and not info.lo + info.hi:
                info.values = [0, 1]
            else:
                continue
            self.notes.append(f'{p.name}: binary, as the description says ("{m[0]}")')

    def _described_grids(self, prose: str) -> None:
        """``Given an m x n integer matrix grid``: a matrix, grid or board is rectangular, so
        its rows share one length even where the Constraints bound ``grid[i].length`` alone
        (which would let each row draw its own). Only the description is read."""
        description = prose.split("Constraints:")[0]
        for m in _GRID_NAMED.finditer(description):
            p = self.facts.by_name.get(m["param"])
            if p is None or p.tree or p.node or p.depth < 2:
                continue
            for d in range(1, p.depth):
                self.facts.rect.setdefault(p.dim_key(d), f'the description says "{m[0]}"')

    def _attach_products(self, quantities: list[dict[str, Any]], names: dict[str, str]) -> None:
        """``lo <= a * b <= hi``: the later of the two quantities in drawing order is drawn
        within [lo / earlier, hi / earlier] (``prod`` on its spec item; the runtime divides)."""
        order = {item["name"]: i for i, item in enumerate(quantities)}
        for ka, kb, lo, hi, line in self.facts.products:
            a, b = names.get(ka, ka), names.get(kb, kb)
            if a not in order or b not in order or a == b:
                self.problems.append(f'"{line}": a product of quantities not drawn one by one')
                continue
            first, last = sorted((a, b), key=order.__getitem__)
            quantities[order[last]].setdefault("prod", []).append([first, lo, hi])
            self.notes.append(f"{last} drawn so that {line} holds, after {first}")

    def _named_sizes(self, prose: str) -> list[str]:
        """Sizes the description names (``nums of length n``, ``nums1 and nums2 of lengths n and
        m``, ``an m x n integer matrix grid``, ``grid of size n x n``) for the free names the
        Constraints items bound (``1 <= n, m <= 10^5``, where nothing else says what n is), as
        equalities read like Constraints items: ``nums.length == n``, ``grid[i].length == n``.
        A name that is a parameter, or that the description ties to two different sizes, is
        left alone."""
        facts = self.facts
        free = {k for k in facts.mentions if re.fullmatch(r"[A-Za-z_]\w*", k)}
        free -= set(facts.by_name) | set(facts.fields)
        # a name the Constraints already equate with something (m == grid.length) is not free
        free = {
            k for k in free if not any(facts.find(o) == facts.find(k) != o for o in facts.parent)
        }
        found: dict[str, set[str]] = {}

        def tie(param: str, dims: list[str]) -> None:
            p = self.facts.by_name.get(param)
            if p is None or p.tree or p.depth < len(dims):
                return
            for d, name in enumerate(dims):
                if name in free:
                    found.setdefault(name, set()).add(p.dim_key(d))

        for m in _OF_LENGTH.finditer(prose):
            tie(m["param"], [m["n"]])
        for m in _OF_LENGTHS.finditer(prose):
            tie(m["a"], [m["n"]])
            tie(m["b"], [m["m"]])
        for m in _GRID_BEFORE.finditer(prose):
            tie(m["param"], [m["rows"], m["cols"]])
        for m in _GRID_AFTER.finditer(prose):
            tie(m["param"], [m["rows"], m["cols"]])
        return [f"{next(iter(keys))} == {name}" for name, keys in found.items() if len(keys) == 1]

    def _row_forms(self, lines: list[str], prose: str) -> list[str]:
        """The description's row forms (``tasks[i] = [actual_i, minimum_i]``), read as if they
        were Constraints items: they state each row's length as well as its fields' names. Only
        for integer rows whose fields the facts took from them, and that no Constraints item
        defines already (it is read there)."""
        stated = {m.group(1) for line in lines if (m := FIELDS_RE.fullmatch(clean(line)))}
        out: dict[str, str] = {}
        forms = [(m.group(1), m.group(2)) for m in FIELDS_RE.finditer(prose)]
        for owner, text in forms + other_index_rows(self.facts.by_name, prose):
            p = self.facts.by_name.get(owner)
            if p is None or p.name in stated or p.name in out or p.depth != 2 or p.leaf != "int":
                continue
            names = split_top(text)
            if all(self.facts.fields.get(n) == (p.name, j) for j, n in enumerate(names)):
                out[p.name] = f"{p.name}[i] = [{', '.join(names)}]"
        return list(out.values())
