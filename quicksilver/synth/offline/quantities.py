"""Quantity classes: the integer quantities of a statement after its aliases are merged.

Every key the facts name (``n``, ``nums.length``, ``grid[i].length``, ``root.nodes``) belongs to
one class, named by a parameter, else an alias, else a dimension (:class:`Quantities`). The linear
forms of the facts are rewritten over these classes (:meth:`Quantities.to_cls`) before the
quantities are ordered and bounded (:mod:`quicksilver.synth.offline.schedule`).
"""

from __future__ import annotations

import math
from fractions import Fraction

from quicksilver.synth.offline.constraints import Lin, Unsupported
from quicksilver.synth.offline.facts import Facts


class Quantities:
    """The classes of quantity keys (:attr:`names`: key -> class name), and which of them are
    free names an equality ties to the parameters (:attr:`hidden`)."""

    def __init__(self, facts: Facts, problems: list[str]) -> None:
        self.facts = facts
        self.hidden: set[str] = set()  # classes of free names tied to parameters by an equality
        self.hidden_sizes: set[str] = set()  # ... tied to a length or count (capped like one)
        self.cap_fit: dict[str, list[int]] = {}  # hidden size -> [a, c]: length == a * it + c
        self.names = self._classes(problems)

    def _classes(self, problems: list[str]) -> dict[str, str]:
        """Quantity key -> class name (a parameter name, else an alias, else a dimension).

        A free name (``n``) that no alias ties to a parameter is still a quantity when an
        equality determines it from ones that are: ``nums.length == n + 1``,
        ``edges.length == n - 1``, ``nums.length == 2 * n``. It is drawn like the others (a
        *hidden* quantity); tied to a length or count, it is capped like one and drawn first,
        so that the length follows from it. A free name with inequalities only is reported:
        what it means is in the prose.
        """
        facts = self.facts
        members: dict[str, list[str]] = {}
        for k in list(facts.parent):
            members.setdefault(facts.find(k), []).append(k)
        known = {r for r, g in members.items() if any(k in facts.known for k in g)}
        sized = {
            r for r in known if any(k in facts.known and k not in facts.by_name for k in members[r])
        }
        accepted = set(known) | {facts.find(k) for k in facts.derived}  # arith.py
        hidden_sized: set[str] = set()
        cap_fit: dict[str, list[int]] = {}
        changed = True
        while changed:
            changed = False
            for lin, _ in facts.eqs:
                roots = {facts.find(ref.key) for ref in lin.terms if ref.kind == "q"}
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
                    lines = facts.mentions.get(k) or ["(an alias)"]
                    for line in dict.fromkeys(lines):
                        problems.append(f'"{line}": {k} is not a parameter or a size of one')
                continue

            def rank(k: str) -> tuple[int, int, str]:
                if k in facts.by_name:
                    return (0, len(k), k)
                return (1, len(k), k) if k not in facts.known else (2, len(k), k)

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
            root = self.facts.find(ref.key)
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

    def is_size(self, cls: str) -> bool:
        """Whether ``cls`` is a length or a count (a dimension of a parameter)."""
        known, by_name = self.facts.known, self.facts.by_name
        return any(self.names.get(k) == cls and k in known and k not in by_name for k in self.names)

    def label(self, cls: str) -> str:
        """``cls``, with the parameters' keys it stands for (``n (= nums.length)``)."""
        known = self.facts.known
        others = sorted(k for k, c in self.names.items() if c == cls and k != cls and k in known)
        return cls if not others else f"{cls} (= {', '.join(others)})"

    def to_cls(self, lin: Lin, *, integral: bool = False) -> tuple[dict[str, int], int] | None:
        """The form over quantity classes with integer coefficients. ``integral``: the form is
        a constraint between integer quantities (``form >= 0`` or ``!= 0``), so it may be
        multiplied out (``k <= s.length / 2`` is ``2 * k <= s.length``)."""
        classes = self.names
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
