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

from dataclasses import dataclass
from typing import Any

from quicksilver.synth.offline.constraints import FIELDS_RE, Param, clean, split_top
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.quantities import Quantities
from quicksilver.synth.offline.report import param_notes
from quicksilver.synth.offline.schedule import Schedule
from quicksilver.synth.offline.sentences import LineReader
from quicksilver.synth.offline.shapes import ParamSpecs


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
        """Read every Constraints item. ``prose`` (the statement as text) is read only for the
        definitions of row fields (``intervals[i] = [start_i, end_i]``), which LeetCode states
        in the description more often than among the constraints."""
        self.facts.read_fields(lines, prose)
        reader = LineReader(self.facts, self.problems)
        for line in lines:
            reader.read(line)
        for definition in self._row_forms(lines, prose):
            reader.read(definition)
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
        shapes = ParamSpecs(self.facts, q, self.problems)
        params = [shapes.param_spec(p, per_item) for p in self.params]
        if self.problems:
            return SpecResult(None, self.notes, self.problems)
        spec = {"quantities": quantities, "params": params}
        sizes = {item["name"] for item in quantities if item["size"]}
        notes = param_notes(params, qnotes, sizes, perf=self.perf, cap_note=self.cap_note)
        self.notes = [*notes, *self.notes]
        return SpecResult(spec, self.notes, [])

    def _row_forms(self, lines: list[str], prose: str) -> list[str]:
        """The description's row forms (``tasks[i] = [actual_i, minimum_i]``), read as if they
        were Constraints items: they state each row's length as well as its fields' names. Only
        for integer rows whose fields the facts took from them, and that no Constraints item
        defines already (it is read there)."""
        stated = {m.group(1) for line in lines if (m := FIELDS_RE.fullmatch(clean(line)))}
        out: dict[str, str] = {}
        for m in FIELDS_RE.finditer(prose):
            p = self.facts.by_name.get(m.group(1))
            if p is None or p.name in stated or p.name in out or p.depth != 2 or p.leaf != "int":
                continue
            names = split_top(m.group(2))
            if all(self.facts.fields.get(n) == (p.name, j) for j, n in enumerate(names)):
                out[p.name] = f"{p.name}[i] = [{', '.join(names)}]"
        return list(out.values())
