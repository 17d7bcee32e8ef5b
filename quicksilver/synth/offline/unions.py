"""Value sets that are unions of listed values and ranges (a form of
``char_sentences.TEXT_FORMS``).

- ``commands[i] is either -2, -1, or an integer in the range [1, 9]``, ``nums[i] is -1 or an
  integer from 1 to 100``, ``grid[i][j] is 0 or in the range [2, 9]`` (integers; the ranges'
  ends constants): the values from the least to the greatest, the gaps between the parts
  excluded (the leaf's ``ne``, at most :data:`~.arith.MAX_GAP` values), and the parts kept as
  the leaf's ``"union"`` (``[[-2, -2], [-1, -1], [1, 9]]``): the runtime picks a part first,
  each as likely, then a value in it (``runtime_union._draw_union``), so a listed value is not
  lost among a wide range's; the checker asks that every value lie in some part.
- A value set said of the values in other words: ``The values in derived are either 0's or
  1's``, ``All elements of nums are 0 or 1``, ``Each value in arr is one of 1, 2 or 3``.
- A value set of an integer scalar (``veganFriendly_i and veganFriendly are 0 or 1``, ``k is
  either 1, 2 or 3``): a scalar's range, its gaps excluded (``!=``); a union with a range for a
  scalar is refused (its parts would not all be drawn).

Refused (reported): a union with a range whose ends are not constants (``either -1 or in the
range [1, n^2]``), gaps of more than :data:`~.arith.MAX_GAP` values, a union said of
characters or of strings (``tokens[i] is either an operator: "+", ... or an integer in the
range [-200, 200]``: strings holding integer text; with operators, the tokens of an expression
whose validity no line states in a form this reader knows).

A line this module claims is one no other form read before (a range part, the subjects above,
a scalar), so nothing read before changes.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.arith import MAX_GAP
from quicksilver.synth.offline.comparisons import Comparisons
from quicksilver.synth.offline.constraints import REF_RE, Lin, Ref, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

Acts = list[Callable[[], None]]
MAX_TEXTS = 2000  # integers a union of words may list as their decimal texts

_NUM = r"-?\d+(?:\^\d+)?(?: \* 10\^\d+)?"
_END = r"[^\[\],]+"
_RANGES = (  # a range part: the two ends
    rf"(?:an? (?:integer|number|value) )?(?:in|within) the (?:inclusive )?range "
    rf"\[(?P<a>{_END}),\s*(?P<b>{_END})\](?:,? inclusive)?",
    r"(?:an? (?:integer|number|value) )?from (?P<a>\S+) to (?P<b>\S+)(?:,? inclusive)?",
)
_REFS = rf"{REF_RE.pattern}(?:(?:,\s*|,?\s+and\s+){REF_RE.pattern})*"
_OF = r"(?:in|of) (?:the (?:given )?(?:array|list|matrix|grid|integer array) )?"
_SUBJECTS = (  # the values of one parameter in other words: (subject, verb, items)
    rf"(?:the |all (?:the )?)?(?:values|elements|integers|numbers|entries|items) {_OF}"
    rf"(?P<p>[A-Za-z_]\w*) (?:are|will be) (?:all )?(?:either |one of )?(?P<v>.+)",
    rf"(?:each|every) (?:value|element|integer|number|entry|item) {_OF}"
    rf"(?P<p>[A-Za-z_]\w*) (?:is|will be) (?:either |one of )?(?P<v>.+)",
)
_PLAIN = rf"(?:both )?(?P<s>{_REFS}) (?:is|are|will be)(?: both)? (?:either |one of )?(?P<v>.+)"


def union_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """One line of this family into ``facts`` (bounds, excluded values, ``union`` parts), or
    False when it is none (a value set the other forms read, or another sentence)."""
    subject = None
    for form in _SUBJECTS:
        m = re.fullmatch(form, text, flags=re.I)
        if m and m["p"] in facts.by_name and facts.by_name[m["p"]].leaf == "int":
            subject = Ref("leaf", params=(m["p"],))  # of text, left to the other forms
            break
    m = m if subject else re.fullmatch(_PLAIN, text, flags=re.I)
    if m is None:
        return False
    parts = _parts(m["v"])
    if parts is None:
        return False
    words, spans, ranged, odd = parts
    if len(words) + len(spans) + len(odd) < 2 and (subject is None or odd):
        return False  # one value or one range alone: the other forms read it (or report it)
    if subject is not None:
        refs = [subject]
    else:
        try:
            refs = [facts.resolve(s) for s in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", m["s"])]
        except Unsupported:
            return False
        scalar = any(_scalar(facts, r) for r in refs)
        if not ranged and not scalar:
            return False  # a plain value set: LineReader reads it as before
    if words and not ranged:
        return False  # a set of words: LineReader reads it as before
    if odd:
        raise Unsupported(odd[0])
    if words:
        if re.search(r"\boperators?\b|\boperands?\b", text, flags=re.I):
            raise Unsupported(
                "the tokens of an expression (operators and integers): a valid expression, "
                "which no line states in a form that is read"
            )
        for ref in refs:
            _apply_words(facts, ref, words, spans, line, acts)
        return True
    for ref in refs:
        _apply(facts, ref, spans, ranged, line, acts)
    return True


def _split(items: str) -> list[str]:
    """The parts of ``-2, -1, or an integer in the range [1, 9]`` (brackets kept whole)."""
    held: list[str] = []

    def hold(m: re.Match[str]) -> str:
        held.append(m.group(0))
        return f"\x00{len(held) - 1}\x00"

    text = re.sub(r"\[[^\[\]]*\]", hold, items.strip().rstrip(".").strip())
    out = []
    for raw in re.split(r"\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+", text):
        raw = re.sub(r"^(?:either|or|one of)\s+", "", raw.strip())
        raw = re.sub(r"\x00(\d+)\x00", lambda k: held[int(k.group(1))], raw)
        if raw:
            out.append(raw)
    return out


def _parts(items: str) -> tuple[list[str], list[tuple[int, int]], bool, list[str]] | None:
    """The quoted words and the integer parts (a value ``v`` as ``(v, v)``, a range as its
    ends) of the items, whether a part is a range, and why a range cannot be drawn (its ends
    not constants, or empty: raised by the caller once the line is known to be a union); None
    when a part is neither (another sentence)."""
    words: list[str] = []
    spans: list[tuple[int, int]] = []
    ranged = False
    odd: list[str] = []
    for part in _split(items):
        part = re.sub(r"(\d)'s$", r"\1", part)  # "0's"
        if re.fullmatch(_NUM, part):
            spans.append((_int(part), _int(part)))
            continue
        q = re.fullmatch(r'"([^"]+)"|\'([^\']+)\'', part)
        if q:
            words.append(q.group(1) or q.group(2))
            continue
        part = re.sub(r"^an operator:?\s+", "", part, flags=re.I)
        if re.fullmatch(r'"[^"]+"', part):
            words.append(part[1:-1])
            continue
        m = next((k for f in _RANGES if (k := re.fullmatch(f, part, flags=re.I))), None)
        if m is None:
            return None
        a, b = m["a"].strip().strip("'\""), m["b"].strip().strip("'\"")
        ranged = True
        if not (re.fullmatch(_NUM, a) and re.fullmatch(_NUM, b)):
            odd.append("a union with a range whose ends are not constants")
        elif _int(a) > _int(b):
            odd.append("a union with an empty range")
        else:
            spans.append((_int(a), _int(b)))
    return (words, spans, ranged, odd) if words or spans or odd else None


def _int(text: str) -> int:
    """``-2``, ``10^4``, ``2 * 10^4``."""
    sign, text = (-1, text[1:]) if text.startswith("-") else (1, text)
    total = 1
    for factor in text.split(" * "):
        base, _, power = factor.partition("^")
        total *= int(base) ** int(power) if power else int(base)
    return sign * total


def merged(spans: list[tuple[int, int]]) -> list[list[int]]:
    """The parts as disjoint sorted ranges (touching or overlapping ones joined)."""
    out: list[list[int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def _scalar(facts: Facts, ref: Ref) -> bool:
    name = ref.key if ref.kind == "q" else ""
    return name in facts.by_name and facts.by_name[name].is_quantity


def _apply(
    facts: Facts,
    ref: Ref,
    spans: list[tuple[int, int]],
    ranged: bool,
    line: str,
    acts: Acts,
) -> None:
    """The union's facts for one target: its range, its gaps excluded, its parts."""
    parts = merged(spans)
    lo, hi = parts[0][0], parts[-1][1]
    gaps = [v for (_a, b), (c, _d) in itertools.pairwise(parts) for v in range(b + 1, c)]
    if _scalar(facts, ref):
        if ranged:
            raise Unsupported(f"a union with a range for the scalar {ref.key}")
        x = Lin(Fraction(0), {ref: Fraction(1)})
    else:
        if ref.kind == "container":
            p = facts.by_name[ref.params[0]]
            if len(ref.params) == 1 and ref.depth < p.depth and not p.tree:
                ref = Ref("leaf", params=ref.params)  # "The values in grid": its values
        if ref.kind != "leaf" or any(facts.by_name[n].leaf != "int" for n in ref.params):
            raise Unsupported("a union of values for something that holds no integers")
        if not ranged:  # a plain value set in other words
            for name in ref.params:
                acts.append(partial(_narrow, facts.info(name, ref.col), [v for v, _ in spans]))
            return
        x = Lin(Fraction(0), {ref: Fraction(1)})
        for name in ref.params:
            acts.append(partial(_keep_parts, facts.info(name, ref.col), parts))
    if len(gaps) > MAX_GAP:
        raise Unsupported(f"a union whose gaps hold more than {MAX_GAP} values")
    cmp = Comparisons(facts)
    cmp.relate(Lin(Fraction(lo)), "<=", x, line, acts)
    cmp.relate(x, "<=", Lin(Fraction(hi)), line, acts)
    for g in gaps:  # excluded values: of the scalar (``nes``), or of each parameter's leaf
        if ref.kind == "q":
            acts.append(partial(facts.nes.append, (x - Lin(Fraction(g)), line)))
        for name in ref.params:
            acts.append(partial(facts.info(name, ref.col).ne.append, g))


def _apply_words(
    facts: Facts, ref: Ref, words: list[str], spans: list[tuple[int, int]], line: str, acts: Acts
) -> None:
    """Strings that are listed words or the decimal text of an integer in a range: a set of
    words (the texts listed), its parts kept for drawing."""
    p = facts.by_name.get(ref.params[0]) if ref.params else None
    if p is None or ref.kind != "container" or not (p.join and p.depth == 2) or ref.depth != 1:
        raise Unsupported("a union of words and integers, but not for the strings of a list")
    parts = merged(spans)
    if sum(b - a + 1 for a, b in parts) > MAX_TEXTS:
        raise Unsupported(f"a union with more than {MAX_TEXTS} integers written as strings")
    texts = [*words, *(str(v) for a, b in parts for v in range(a, b + 1))]
    info, leaf = facts.words, facts.leaf[p.name]

    def act() -> None:
        old = info.get(p.name)
        keep = texts if old is None else [w for w in old[0] if w in texts]
        info[p.name] = (list(dict.fromkeys(keep)), line if old is None else old[1])
        leaf.union = [*([w] for w in dict.fromkeys(words)), *parts] if old is None else None

    acts.append(act)


def word_union(info: LeafInfo, words: list[str]) -> dict[str, Any]:
    """A word leaf's ``"union"``: its parts, where they list exactly its words (another set of
    words narrowed them: nothing, the words drawn as before)."""
    if not info.union:
        return {}
    texts = []
    for part in info.union:
        texts += part if len(part) == 1 else [str(v) for v in range(part[0], part[1] + 1)]
    return {"union": info.union} if sorted(texts) == sorted(words) else {}


def _narrow(info: LeafInfo, values: list[int]) -> None:
    info.values = list(values) if info.values is None else [v for v in info.values if v in values]


def _keep_parts(info: LeafInfo, parts: list[list[int]]) -> None:
    """The parts a value is drawn from (two union lines: the parts of both)."""
    if info.union is None:
        info.union = [list(p) for p in parts]
        return
    both = [
        [max(a, c), min(b, d)] for a, b in info.union for c, d in parts if max(a, c) <= min(b, d)
    ]
    info.union = both


def union_spec(info: LeafInfo, los: list[Any], his: list[Any]) -> dict[str, Any]:
    """The leaf's ``"union"`` key: its parts within the constant bounds it has; nothing when a
    bound is not constant or fewer than two parts are left (the range and ``ne`` then hold it
    whole, drawn as before)."""
    if not info.union or not all(isinstance(b, int) for b in [*los, *his]):
        return {}
    lo, hi = max(los), min(his)
    parts = [[max(a, lo), min(b, hi)] for a, b in info.union if max(a, lo) <= min(b, hi)]
    for v in sorted(set(info.ne)):  # an excluded value (``nums[i] != 5``) splits its part
        parts = [
            q for a, b in parts for q in ([[a, v - 1], [v + 1, b]] if a <= v <= b else [[a, b]])
        ]
        parts = [[a, b] for a, b in parts if a <= b]
    return {"union": parts} if len(parts) > 1 else {}


__all__ = ["MAX_TEXTS", "merged", "union_form", "union_spec", "word_union"]
