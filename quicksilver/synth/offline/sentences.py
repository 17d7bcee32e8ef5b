"""The sentences of Constraints items, one item at a time: which form it has (a comparison,
``X is in the range [a, b]``, ``The sum of ... will not exceed``, an order, a uniqueness, a
permutation, parity, a binary search tree, an alphabet or a value set, row fields), read into
facts (:class:`~.facts.Facts`). An item no form reads, or one that a form reads but cannot model,
is a *problem*: quoted, never guessed around.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial

from quicksilver.synth.offline.arith import read_arith
from quicksilver.synth.offline.char_sentences import (
    TEXT_FORMS,
    char_counts,
    char_kinds,
    char_positions,
    char_tokens,
)
from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import (
    FIELDS_RE,
    QUOTED,
    REF_RE,
    Lin,
    Param,
    Ref,
    Unsupported,
    clean,
    set_items,
    split_top,
    word_items,
)
from quicksilver.synth.offline.facts import Facts, LeafInfo
from quicksilver.synth.offline.formats import read_form
from quicksilver.synth.offline.graph_sentences import graph_pairs, graph_rows, matrix_rule
from quicksilver.synth.offline.prods import read_nonlinear
from quicksilver.synth.offline.relations import index_bound
from quicksilver.synth.offline.row_order import field_neighbours, rows_sorted_by, sorted_field
from quicksilver.synth.offline.row_sentences import tree_depth, tree_rows, unique_rows
from quicksilver.synth.offline.wording import ORDER_WORDS as _ORDER_WORDS
from quicksilver.synth.offline.wording import permission, restate

_NOUNS = (
    r"values|integers|numbers|elements|strings|words|characters|letters|node values|"
    r"nodes' values|nodes"
)


class LineReader:
    """Reads Constraints items into ``facts``; what it cannot read goes to ``problems``."""

    def __init__(self, facts: Facts, problems: list[str]) -> None:
        self.facts = facts
        self.problems = problems
        self.cmp = Comparisons(facts)

    def read(self, line: str) -> None:
        """Understand one Constraints item, or record it as a problem (quoted). An item no form
        reads whole is tried in the other wordings of :func:`~.wording.restate`."""
        text = clean(line)
        acts: Acts = []
        try:
            if not self._try_forms(text, line, acts):
                if not self._restated(text, line):
                    self.problems.append(f'"{line}": not understood')
                return
            for act in acts:
                act()
        except Unsupported as exc:
            if not self._restated(text, line):
                self.problems.append(f'"{line}": {exc}')

    def _restated(self, text: str, line: str) -> bool:
        """The first restatement of ``text`` whose every sentence is understood, applied; False
        when there is none (the line is then reported as it reads)."""
        for parts in restate(text, self.facts):
            acts: Acts = []
            try:
                if all(permission(part) or self._try_forms(part, line, acts) for part in parts):
                    for act in acts:
                        act()
                    return True
            except Unsupported:
                continue
        return False

    def _fields(self, text: str, line: str, acts: Acts) -> bool:
        """``intervals[i] = [start_i, end_i]``: an integer row's field names and its width."""
        m = FIELDS_RE.fullmatch(text)
        if m and m.group(1) in self.facts.by_name:
            p = self.facts.by_name[m.group(1)]
            names = split_top(m.group(2))
            if p.depth != 2 or p.leaf != "int":
                raise Unsupported(f"fields of {p.name} ({p.type}): only integer rows are")
            if any(self.facts.fields.get(n) != (p.name, j) for j, n in enumerate(names)):
                raise Unsupported("a field name that is already a parameter or another field")
            width = Lin(Fraction(0), {Ref("q", key=p.dim_key(1)): Fraction(1)})
            self.cmp.relate(width, "==", Lin(Fraction(len(names))), line, acts)
            return True
        return False

    def _try_forms(self, text: str, line: str, acts: Acts) -> bool:
        facts, cmp = self.facts, self.cmp
        # in this order: the first that reads the line has it
        forms: tuple[Callable[[str, str, Acts], bool], ...] = (
            self._fields,
            partial(char_tokens, facts),
            self._words,
            partial(tree_depth, facts, cmp),
            partial(graph_pairs, facts),
            partial(unique_rows, facts),
            partial(tree_rows, facts),
            partial(graph_rows, facts),
            partial(matrix_rule, facts),
            self._product,
            self._answer_range,
            self._leading_zeros,
            self._spaces,
            self._adjacent,
            self._apart,
            self._pins,
            partial(read_form, facts, cmp),
            partial(index_bound, facts),
            partial(field_neighbours, facts, cmp),
            lambda t, ln, a: rows_sorted_by(facts, t, ln, a, _ORDER_WORDS),
            partial(char_positions, facts),
            partial(char_counts, facts, cmp),
            partial(char_kinds, facts, cmp),
            *(partial(form, facts) for form in TEXT_FORMS),
        )
        if any(form(text, line, acts) for form in forms):
            return True
        m = re.fullmatch(
            r"the number of (?:the )?nodes in (.+?) (?:is|will be|equals) ([A-Za-z_]\w*|\d+)",
            text,
            flags=re.I,
        )
        if m:
            refs = self.facts.phrase_refs(f"the number of nodes in {m.group(1)}")
            value = self.facts.parse(m.group(2))
            for ref in refs:
                self.cmp.relate(Lin(Fraction(0), {ref: Fraction(1)}), "==", value, line, acts)
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
            lo, hi = self.facts.parse(m.group(2)), self.facts.parse(m.group(3))
            for ref in self.facts.phrase_refs(m.group(1)):
                target = Lin(Fraction(0), {ref: Fraction(1)})
                self.cmp.relate(lo, "<=", target, line, acts)
                self.cmp.relate(target, "<=", hi, line, acts)
            return True
        m = re.fullmatch(
            r"(?:the )?sum of (.+?) (?:will not exceed|does not exceed|won't exceed|is at most|"
            r"is less than or equal to|is smaller than or equal(?: to)?|<=) (.+)",
            text,
            flags=re.I,
        ) or re.fullmatch(r"sum\((.+?)\) <= (.+)", text, flags=re.I)
        if m:
            self.cmp.sum_bound(m.group(1), m.group(2), line, acts)
            return True
        if self._order_forms(text, acts):
            return True
        if self._distinct(text, line, acts):
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
        consists = self._consists(text, acts)
        if consists is not None:
            return consists
        m = re.fullmatch(r"'(.)' <= (\S+) <= '(.)'", text)
        if m and REF_RE.fullmatch(m.group(2)):
            chars = "".join(chr(c) for c in range(ord(m.group(1)), ord(m.group(3)) + 1))
            if not chars:
                raise Unsupported("an empty range of characters")
            self._set_alphabet([self.facts.resolve(m.group(2))], chars, acts)
            return True
        ref_list = REF_RE.pattern + r"(?:(?:,\s*|,?\s+and\s+)" + REF_RE.pattern + r")*"
        m = re.fullmatch(
            rf"(?:both )?({ref_list}) (?:is|are|will be)(?: both)? (?:either |one of |all )?(.+)",
            text,
            flags=re.I,
        )
        if m:
            items = set_items(m.group(2))
            if items is not None:
                for named in split_top(re.sub(r"\s+and\s+", ", ", m.group(1))):
                    self._value_set(named, items, acts)
                return True
        if re.search(r"<=|>=|==|!=|<|>|(?<![<>=!])=(?!=)", text) and not QUOTED.search(text):
            if read_nonlinear(text, line, self.facts, self.cmp, acts):
                return True  # a product or power of quantities bounds one (nonlinear.py)
            arith = read_arith(text, line, self.facts, self.cmp, acts, self._value_set)
            return arith or self.cmp.chain(text, acts, line)  # arith.py: products, floors, cases
        return False

    def _consists(self, text: str, acts: Acts) -> bool | None:
        """``s consists of lowercase English letters``, ``nums1 and nums2 consist only of 0 and
        1``: an alphabet or a value set. None when the sentence has another form; False when it
        has this one but its items are not understood (the line is then reported)."""
        # "All characters in words[i] and order are English lowercase letters", "Each
        # character in words[i] is an English lowercase letter": the same as "... consist of"
        text = re.sub(
            r"^(?:each|every|all(?: the)?) characters? (?:in|of) (.+?) (?:is|are) (?:an? )?(.+)",
            r"\1 consist of \2",
            text,
            flags=re.I,
        )
        m = re.fullmatch(
            r"(?:both |all (?:the )?)?(.+?)(?: only| will| both)? (?:consists?|contains?|has|"
            r"have|is made up|is consisting|(?:is|are) composed) (?:only )?(?:of )?(?:only )?(.+)",
            text,
            flags=re.I,
        )
        if m and re.fullmatch(r"(?:the )?(?:given |input )?strings", m.group(1), flags=re.I):
            # "All strings consist of lowercase English letters": every string parameter
            texts = [p.name for p in self.facts.params if p.join]
            if not texts:
                raise Unsupported("an alphabet of all strings, but no string parameter")
            text = f"{' and '.join(texts)} consist of {m.group(2)}"
            m = re.fullmatch(r"(.+?) consist of (.+)", text)
        if m and not re.search(r"<=|>=|==|<|>", QUOTED.sub("", text)):
            # "chars consists of distinct lowercase English letters": no character twice
            once = re.fullmatch(r"(?:distinct|unique) (.+)", m.group(2), flags=re.I)
            items = set_items(once.group(1) if once else m.group(2))
            if items is None:
                return False
            refs = self.facts.phrase_refs(m.group(1))
            if once:
                if not all(isinstance(i, str) for i in items):
                    return False
                self._distinct_targets(m.group(1), "characters", acts)
            if all(isinstance(i, int) for i in items) and all(
                self.facts.by_name[n].leaf == "int" for r in refs for n in r.params
            ):
                for ref in refs:  # "nums1 and nums2 consist only of 0 and 1"
                    self._value_set_ref(ref, items, m.group(1), acts)
                return True
            if not all(isinstance(i, str) or 0 <= i <= 9 for i in items):
                return False
            chars = "".join(dict.fromkeys(str(i) for i in items))  # "the digits 0 and 1"
            self._set_alphabet(refs, chars, acts)
            return True
        return None

    def _words(self, text: str, line: str, acts: Acts) -> bool:
        """``instructions[i] is either "add" or "jump"``, ``commands consists only of "UP",
        "RIGHT", "DOWN", and "LEFT"``: each string of a list of strings is one of the words.
        Only where a word has two characters at least (one-character items are an alphabet),
        which no other form reads, so nothing read before changes."""
        m = re.fullmatch(
            rf"(?P<s>{REF_RE.pattern}) (?:will )?(?:is|are|be) (?:either |one of |all )?(?P<w>.+)|"
            rf"(?P<c>{REF_RE.pattern})(?: only)? (?:consists?|contains?) "
            r"(?:only )?(?:of )?(?P<v>.+)",
            text,
            flags=re.I,
        )
        words = word_items(m["w"] or m["v"]) if m else None
        if m is None or words is None:
            return False
        ref = self.facts.resolve(m["s"] or m["c"])
        p = self.facts.by_name.get(ref.params[0]) if ref.params else None
        depth = 1 if m["s"] else (0, 1)
        if (
            p is None
            or ref.kind != "container"
            or not (p.join and p.depth == 2)
            or ref.depth not in ((depth,) if isinstance(depth, int) else depth)
        ):
            raise Unsupported("a set of words, but not for the strings of a list of strings")
        info = self.facts.words

        def act(name: str = p.name) -> None:
            old = info.get(name)
            keep = words if old is None else [w for w in old[0] if w in words]
            info[name] = (keep, line if old is None else old[1])

        acts.append(act)
        return True

    def _product(self, text: str, line: str, acts: Acts) -> bool:
        """``1 <= m * n <= 10^5``: a bound on the product of two sizes or scalars. Each factor
        is then at most the upper bound (stated here as such, for the schedule), and the runtime
        draws the later of the two within [lo / earlier, hi / earlier]."""
        ref = REF_RE.pattern
        m = re.fullmatch(
            rf"(?:([^<>=]+?) (<=|<) )?({ref}) \* ({ref}) (<=|<) ([^<>=]+)",
            text,
        )
        if not m:
            return False
        a, b = self.facts.parse(m.group(3)).single(), self.facts.parse(m.group(4)).single()
        hi_form = self.facts.parse(m.group(6))
        lo_form = self.facts.parse(m.group(1)) if m.group(1) else None
        if not (a and b and a.kind == b.kind == "q") or a.key == b.key:
            raise Unsupported(
                f"cannot read {m.group(3)} * {m.group(4)} (a product of two quantities)"
            )
        if hi_form.terms or (lo_form is not None and lo_form.terms):
            raise Unsupported("a product bounded by something other than numbers")
        hi = math.floor(hi_form.const) - (m.group(5) == "<")
        lo = None if lo_form is None else math.ceil(lo_form.const) + (m.group(2) == "<")
        for r in (a, b):  # the other factor is at least 1 (or the product is 0)
            self.cmp.relate(Lin(Fraction(0), {r: Fraction(1)}), "<=", Lin(Fraction(hi)), line, acts)
        acts.append(partial(self.facts.products.append, (a.key, b.key, lo, hi, line)))
        return True

    def _answer_range(self, text: str, line: str, acts: Acts) -> bool:
        """``The answer is guaranteed to fit in a 32-bit integer`` and LeetCode's other ways to
        say it: a guarantee on the answer, which no input generator can aim for. It is recorded
        in the spec (``answer``), and the testcases stage keeps only the inputs whose answer
        (every solution's that answered) is in the range. Intermediate values are not checkable:
        ``the answer and all intermediate calculations ...`` is not read."""
        m = re.fullmatch(
            r"(?:it is guaranteed that |the input is generated such that |test cases are "
            r"generated (?:such|so) that )?(?:the )?(?:final )?(answer|result|output|answer\[i\])"
            r"(?: for the given input)?(?: is guaranteed to| will| is going to| can)? "
            r"(?:(?:fits?|be) )?(?:in|into|inside|within|on|in the range of) (?:a )?(?:signed )?"
            r"32[- ]bits?"
            r"(?: signed)? integer(?:s)?(?:,? (?:i\.?e\.?|ie)\.?,? .*| \(.*\))?",
            text,
            flags=re.I,
        ) or re.fullmatch(
            r"(?:it is guaranteed that )?the (answer|result) (?:is guaranteed to be|will be) less "
            r"than 2\^31",
            text,
            flags=re.I,
        )
        if not m:
            return False
        acts.append(partial(setattr, self.facts, "answer", (-(2**31), 2**31 - 1, line)))
        return True

    def _subjects(self, subject: str, what: str) -> list[str]:
        """The parameters a sentence about text names (``num1 and num2``, ``nums[i]``), every
        string parameter for ``Each string``, or the one string parameter for no subject."""
        subject = re.sub(r"^(?:both|each of|all of|the)\s+", "", subject, flags=re.I)
        if not subject or re.fullmatch(
            r"(?:each|every|all) (?:the )?strings?", subject, flags=re.I
        ):
            names = [p.name for p in self.facts.params if p.join]  # Each string: all of them
            if len(names) != 1 and (not subject or not names):
                raise Unsupported(f"{what} of a text, but not exactly one string parameter")
            return names
        names = []
        for part in split_top(re.sub(r",?\s+and\s+", ", ", subject)):
            ref = self.facts.resolve(part)
            if len(ref.params) != 1:
                raise Unsupported(f"{part}: not one parameter")
            names.append(ref.params[0])
        return names

    def _leading_zeros(self, text: str, line: str, acts: Acts) -> bool:
        """``num1 and num2 don't have any leading zeros except for the zero itself``, ``b does
        not contain leading zeros``, ``Each string does not contain leading zeros``: strings of
        digits whose first character is not '0' (a lone "0" only where the zero itself is
        excepted). Said of an integer parameter, it holds of every value."""
        m = re.fullmatch(
            r"(?:it is guaranteed that )?(.+?),? (?:(?:does not|do not|doesn't|don't|will not|"
            r"won't|cannot|can't) (?:contain|have) (?:any )?|(?:has|have|contains?) no )"
            r"leading (?:zeros?|0's|0s)"
            r"(,? except (?:for )?(?:the (?:number )?)?(?:zero|0) itself)?",
            text,
            flags=re.I,
        )
        if not m:
            return False
        scalar = self.facts.by_name.get(m.group(1))
        if scalar is not None and scalar.depth == 0 and scalar.leaf == "int":
            return True  # an integer's digits: true of every value, nothing to draw
        names = self._subjects(m.group(1), "leading zeros")
        mode = "zero-ok" if m.group(2) else "strict"
        for name in names:
            p = self.facts.by_name[name]
            if not p.join and not (p.depth >= 1 and p.leaf == "int"):
                raise Unsupported(f"leading zeros of {name} ({p.type}), which holds no digits")
            acts.append(partial(setattr, self.facts.leaf[name], "lead", (mode, line)))
        return True

    def _spaces(self, text: str, line: str, acts: Acts) -> bool:
        """How a text's words are spaced: ``s does not contain any leading or trailing spaces``
        (``trim``), ``All the words in s are separated by a single space`` (``single``),
        ``There will be at least one word in s`` (``word``). The runtime turns a space that
        breaks a rule into another character of the alphabet."""
        trail = r"(?:leading|trailing) (?:or|and|nor) (?:leading|trailing) spaces?"
        forms = [
            (
                "trim",
                rf"(.+?),? (?:does not|do not|doesn't|don't|will not|won't) (?:contain|have) "
                rf"(?:any )?{trail}(?: in it)?",
            ),
            ("trim", rf"(.+?) (?:has|have|contains?) no {trail}"),
            ("trim", rf"there (?:are|will be) no {trail}(?: in (\w+))?"),
            (
                "single",
                r"(?:all )?the (?:words|tokens) (?:in|of) (.+?) are separated by a single space",
            ),
            (
                "single",
                r"(?:it's|it is) guaranteed that there is only one space between (?:2|two) words()",
            ),
            ("word", r"there (?:will be|is) at least one word in (\w+)"),
        ]
        found = next(((r, m) for r, f in forms if (m := re.fullmatch(f, text, flags=re.I))), None)
        if found is None:
            return False
        rule, m = found
        names = self._subjects((m.group(1) or "") if m.groups() else "", "spaces")
        if any(not self.facts.by_name[n].join for n in names):
            raise Unsupported("spaces of something that is not a string")
        for name in names:
            acts.append(partial(self.facts.leaf[name].spaces.__setitem__, rule, line))
        return True

    def _adjacent(self, text: str, line: str, acts: Acts) -> bool:
        """``releaseTimes[i] < releaseTimes[i+1]``, ``1 <= nums[i] <= nums[i + 1] <= 10^4``:
        an order between each element of a list and the next one, which is sortedness (strict
        for ``<`` and ``>``). A quantifier after it (``for all valid i``, ``for 0 <= i < n - 1``)
        can only name some of the neighbours, and a sorted list meets the order on every one."""
        m = re.fullmatch(
            r"(?:(?P<lo>[^<>=]+?) (?P<lop><=|<) )?(?P<x>[A-Za-z_]\w*)\[i\] (?P<op><=|<|>=|>) "
            r"(?P=x)\[i ?\+ ?1\](?: (?P<hop><=|<) (?P<hi>[^<>=,]+?))?"
            r"(?:,? (?:for (?:all|each|every|any)(?: valid)?(?: i| indices i| index i)?|"
            r"for (?:all )?(?:\d+|i) <=? .+|\(0-indexed\)|where .+))?",
            text,
            flags=re.I,
        )
        if not m:
            return False
        x = m.group("x")
        p = self.facts.by_name.get(x)
        if p is None or p.depth != 1 or p.tree or p.join:
            raise Unsupported(f"an order between neighbours of {x}, which is not a list of values")
        if m.group("lo"):
            self.cmp.chain(f"{m.group('lo')} {m.group('lop')} {x}[i]", acts, line)
        if m.group("hi"):
            self.cmp.chain(f"{x}[i] {m.group('hop')} {m.group('hi')}", acts, line)
        order = {"<": "strictly increasing", "<=": "non-decreasing", ">": "strictly decreasing"}
        self._sorted(x, order.get(m.group("op"), "non-increasing"), acts)
        return True

    def _apart(self, text: str, line: str, acts: Acts) -> bool:
        """``nums[i] != nums[i + 1] for all valid i``: no two neighbours equal; ``edges[i] !=
        i``: no value at its own index. A quantifier can only name some of the positions."""
        m = re.fullmatch(
            r"(?P<x>[A-Za-z_]\w*)\[i\] != (?:(?P=x)\[i ?\+ ?1\](?P<next>)|i)"
            r"(?:,? (?:for (?:all|each|every|any)(?: valid)?(?: i| indices i| index i)?|"
            r"for (?:all )?(?:\d+|i) <=? .+|\(0-indexed\)))?",
            text,
            flags=re.I,
        )
        if not m:
            return False
        x = m.group("x")
        p = self.facts.by_name.get(x)
        if p is None or p.depth != 1 or p.tree or p.join or p.leaf != "int":
            raise Unsupported(f"values apart from others in {x}, which is not a list of integers")
        rule = "next" if m.group("next") is not None else "index"
        acts.append(partial(self.facts.leaf[x].apart.__setitem__, rule, line))
        return True

    def _pins(self, text: str, line: str, acts: Acts) -> bool:
        """``stones[0] == 0``, ``s[0] is '1'``, ``grid[0][0] == grid[m - 1][n - 1] == 0``,
        ``obstacles[0] == obstacles[n] == 0``: a value at a fixed position, each index a number
        or an expression over sizes (resolved against the list's own length later). Each index
        is within its list: ``0 <= index < length`` is stated for the schedule."""
        cell = r"([A-Za-z_]\w*)((?:\[[^\[\]]+\])+)"
        m = re.fullmatch(rf"((?:{cell} (?:==|=|is|is equal to) )+)(-?\d+|'.'|\".\")", text)
        ne = re.fullmatch(rf"(({cell}) (?:!=|is not) )(-?\d+|'.'|\".\")", text)
        m = m or ne  # "s[0] != 'i'": a value the position does not hold
        if not m:
            return False
        raw = m.group(4) if m is not ne else m.group(5)
        value: int | str = raw[1] if raw[0] in "'\"" else int(raw)
        found = []
        for name, idx in re.findall(cell, m.group(1)):
            p = self.facts.by_name.get(name)
            parts = re.findall(r"\[([^\[\]]+)\]", idx)
            if p is None or len(parts) != p.depth or p.tree:
                return False
            if any(re.fullmatch(r"\s*[ij]\s*", i) for i in parts):
                return False  # an element bound (``nums[i] == 0``), not a position
            try:
                lins = [self.facts.parse(i) for i in parts]
            except Unsupported:
                return False
            found.append((p, lins))
        for p, lins in found:
            if p.depth > 2 or (p.join and p.depth != 1):
                raise Unsupported(f"a fixed position in {p.name} ({p.type})")
            for d, lin in enumerate(lins):
                size = Lin(Fraction(0), {Ref("q", key=p.dim_key(d)): Fraction(1)})
                self.cmp.relate(Lin(Fraction(0)), "<=", lin, line, acts)
                self.cmp.relate(lin, "<", size, line, acts)
            pin = (lins, value, line, "==" if ne is None else "!=")
            acts.append(partial(self.facts.leaf[p.name].pins.append, pin))
        return True

    def _order_forms(self, text: str, acts: Acts) -> bool:
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

    def _sorted(self, targets: str, order: str, acts: Acts) -> None:
        """Each named list sorted in ``order`` (strictly: its values distinct as well)."""
        if order not in _ORDER_WORDS:
            raise Unsupported(f"the order {order!r}")
        direction, strict = _ORDER_WORDS[order]
        for ref in self.facts.phrase_refs(targets):
            if ref.kind == "leaf" and ref.col >= 0:  # one field of rows: the rows sorted by it
                sorted_field(self.facts, ref, direction, strict, targets, acts)
                continue
            if ref.kind != "container":
                raise Unsupported("sortedness of something that is not a list")
            for name in ref.params:
                p = self.facts.by_name[name]
                if p.tree or ref.depth != p.depth - 1 or p.leaf in ("bool",):
                    raise Unsupported(f"sortedness of {name} ({p.type}) at that level")
                info = self.facts.leaf[name]

                def act(info: LeafInfo = info, p: Param = p) -> None:
                    if info.sorted not in (None, direction):
                        raise Unsupported("contradictory orders")
                    info.sorted = direction
                    if strict:
                        scope = "each" if p.depth > 1 else "all"
                        info.distinct = info.distinct or {"level": "value", "scope": scope}

                acts.append(act)

    def _distinct(self, text: str, line: str, acts: Acts) -> bool:
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
            lists = [p.name for p in self.facts.params if p.depth and not p.join]
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
            # "Each element in buses is unique", "Each nums[i] is distinct", "nums[i] will be
            # unique", "Each value grid[i][j] is unique"
            rf"each (?:element|value|number|integer) (?:in|of) (?P<t>\S+) is {unique}",
            rf"(?:each )?(?:value )?(?P<t>\w+(?:\[[ij]\])+) (?:is|will be) {unique}",
            # "Each character occurs at most once in s", "Each puzzles[i] does not contain
            # repeated characters", "Each ingredients[i] does not contain any duplicate values"
            r"each (?P<noun>character|letter) (?:occurs|appears) at most once in (?P<t>\S+)",
            rf"(?:each )?(?P<t>\S+) (?:does not|doesn't) contains? (?:any )?(?:repeated|duplicate|"
            rf"duplicated) (?P<noun>{_NOUNS})",
            # one field of rows: "id_i is unique", "Each arrival_i time is distinct"
            rf"(?:each |all (?:the )?)?(?P<t>[A-Za-z]\w*_i)(?: time| value)? (?:is|are) {unique}",
        )
        for form in forms:
            m = re.fullmatch(form, text, flags=flags)
            if m:
                break
        else:
            return False
        noun = (m.groupdict().get("noun") or "").lower()
        noun = {"character": "characters"}.get(noun, noun)
        self._distinct_targets(m.group("t"), noun, acts, line)
        return True

    def _distinct_targets(self, targets: str, noun: str, acts: Acts, line: str = "") -> None:
        """Distinct values (or strings, for lists of strings) for each named list. For a list of
        integer rows, ``All points[i] are distinct`` (the rows themselves, no noun) makes the
        rows distinct, and ``All id_i are distinct`` one field's values."""
        for ref in self.facts.phrase_refs(targets):
            if ref.kind not in ("leaf", "container"):
                raise Unsupported("distinctness of something that is not a list")
            if ref.col >= 0:
                if not line or len(ref.params) != 1:
                    raise Unsupported("distinct values of one field of the rows")
                info = self.facts.leaf[ref.params[0]]
                acts.append(partial(info.distinct_cols.__setitem__, ref.col, line))
                continue
            for name in ref.params:
                p = self.facts.by_name[name]
                rows = p.depth == 2 and p.leaf == "int" and not p.join and not p.tree
                # "All points[i] are distinct", "The elements in pairs are unique" (rows of
                # named fields: its elements are the rows)
                whole = not noun and re.fullmatch(r"\w+\[i\]", targets.strip())
                named = noun == "elements" and ref.depth == 0 and self.facts.width_fields(name)
                if rows and line and (whole or named):
                    acts.append(partial(setattr, self.facts.leaf[name], "unique_rows", line))
                    continue
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
                info = self.facts.leaf[name]
                acts.append(partial(setattr, info, "distinct", {"level": level, "scope": scope}))

    def _permutation(self, text: str, line: str, acts: Acts) -> bool:
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
        lo, hi = self.facts.parse(lo_text), self.facts.parse(hi_text)
        for ref in self.facts.phrase_refs(m.group(1)):
            if ref.kind != "container" or ref.depth != 0:
                raise Unsupported("a permutation that is not a whole list")
            for name in ref.params:
                p = self.facts.by_name[name]
                if p.depth != 1 or p.leaf != "int" or p.tree:
                    raise Unsupported(f"a permutation of numbers in {name} ({p.type})")
                values = Lin(Fraction(0), {Ref("leaf", params=(name,)): Fraction(1)})
                self.cmp.relate(lo, "<=", values, line, acts)
                self.cmp.relate(values, "<=", hi, line, acts)
                size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
                self.cmp.relate(size, "==", hi - lo + Lin(Fraction(1)), line, acts)
                info = self.facts.leaf[name]
                acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))
        return True

    def _parity(self, text: str, line: str, acts: Acts) -> bool:
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

    def _modulus(self, targets: str, m: int, r: int, line: str, acts: Acts) -> None:
        """``n is even``, ``nums.length % 2 == 0``, ``n is a multiple of 3``."""
        if m < 1:
            raise Unsupported(f"a remainder modulo {m}")
        for ref in self.facts.phrase_refs(targets):
            if ref.kind != "q":
                raise Unsupported("a divisibility condition on something that is not a count")
            key = ref.key
            acts.append(partial(self.facts.mention, Lin(Fraction(0), {ref: Fraction(1)}), line))
            acts.append(partial(self.facts.mods.append, (key, m, r % m, line)))

    def _bst(self, acts: Acts) -> None:
        """``root is a valid binary search tree``: LeetCode's BSTs are strict (left < node <
        right), so the values are distinct and placed in order."""
        for name in self.facts.structure_params("the tree"):
            info = self.facts.leaf[name]
            acts.append(partial(setattr, info, "bst", True))
            acts.append(partial(setattr, info, "distinct", {"level": "value", "scope": "all"}))

    def _value_set(self, target: str, items: list[str | int], acts: Acts) -> None:
        self._value_set_ref(self.facts.resolve(target), items, target, acts)

    def _value_set_ref(self, ref: Ref, items: list[str | int], target: str, acts: Acts) -> None:
        if ref.kind == "container" and all(isinstance(i, int) for i in items):
            p = self.facts.by_name[ref.params[0]]
            if len(ref.params) == 1 and ref.depth < p.depth and not p.tree:
                ref = Ref("leaf", params=ref.params)  # "land consists of only 0's and 1's"
        if ref.kind == "q" and ref.key in self.facts.by_name:
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
            p = self.facts.by_name[name]
            if p.leaf != "int" or ref.kind != "leaf":
                raise Unsupported(f"a set of numbers for {name} ({p.type})")
            if p.is_quantity:
                raise Unsupported(f"a value set for the scalar {name}")
            info = self.facts.info(name, ref.col)

            def act(info: LeafInfo = info) -> None:
                old = info.values
                info.values = list(ints) if old is None else [v for v in old if v in ints]

            acts.append(act)

    def _set_alphabet(self, refs: list[Ref], chars: str, acts: Acts) -> None:
        """The characters ``refs`` may hold; a second stated alphabet narrows the first."""
        for ref in refs:
            if ref.kind not in ("leaf", "container"):
                raise Unsupported("an alphabet for something that is not text")
            for name in ref.params:
                if self.facts.by_name[name].leaf != "char":
                    raise Unsupported(f"an alphabet for {name}, which holds no characters")
                info = self.facts.leaf[name]

                def act(info: LeafInfo = info) -> None:
                    old = info.alphabet
                    info.alphabet = chars if old is None else "".join(c for c in old if c in chars)

                acts.append(act)
