"""Distinctness, permutations and order in other words (issue 26), restated as the sentences
:class:`~.sentences.LineReader` reads (:func:`~.wording.restate` tries them only for a line no
form reads whole, so every line read before reads as before):

- a list's name with a noun after it or for it: ``All the integers in cuts array are
  distinct``, ``All elements in the matrix are distinct`` (the one matrix parameter; ``the
  array``: the one list parameter);
- several lists at once: ``hFences and vFences are unique``, ``All digits in each array are
  unique`` (every list parameter, each a list of integers), ``nums1 and nums2 both are sorted
  in non-decreasing order``;
- distinct values with their range or sign: ``to_delete contains distinct values between 1 and
  1000``, ``targetIndices contains distinct elements in the range [0, n - 1]``, ``grid consists
  of distinct integers from 0 to m * n - 1``, ``nums consists of distinct positive integers``:
  the distinct values and a chain ``lo <= nums[i] <= hi`` (``1 <= nums[i]`` for positive);
- a permutation without its range: ``nums is a permutation``, ``A and B are both a permutation
  of n integers``: of the integers 1 to the list's length (to ``n``), where a line before states
  1 as the items' least value (``1 <= nums[i] <= 50``; a stated range that then leaves too few
  values is reported by the schedule); otherwise the line is reported;
- two statements in one line: ``All the values of primes are unique and sorted in ascending
  order``, ``All the integers of nums are unique. nums is a permutation.``, ``All integers in
  arr are unique (i.e. arr is a permutation of the integers from 1 to arr.length)``;
- ``nums1 and nums2 are sorted``: a bare ``sorted`` is read as ascending, strictly increasing,
  which meets either reading of the word (as ``ascending`` is);
- ``No two stones are at the same coordinate point``: the rows of ``stones`` (integer rows) are
  distinct.
"""

from __future__ import annotations

import re

from quicksilver.synth.offline.constraints import REF_RE
from quicksilver.synth.offline.facts import Facts

_NAMES = rf"(?:{REF_RE.pattern})(?:(?:,\s*|,?\s+and\s+)(?:{REF_RE.pattern}))*"
_UNIQUE = r"(?:unique|distinct|pairwise distinct)"
_NOUN = r"(?:values|integers|numbers|elements|digits)"
_GUARANTEE = re.compile(
    r"(?:it is guaranteed that|it's guaranteed that|the input is generated such that|"
    r"the test ?cases are generated (?:such|so) that) (?P<rest>.+)",
    flags=re.I,
)
_SIGN = {"positive": "1 <= {e}", "non-negative": "0 <= {e}", "negative": "{e} <= -1"}


def unique_wordings(text: str, facts: Facts) -> list[list[str]]:
    """The restatements of ``text`` (a cleaned Constraints item) this module knows."""
    if not re.search(r"unique|distinct|permutation|sorted|no two", text, flags=re.I):
        return []  # another family's line: its sentences are not split here
    parts: list[str] = []
    sentences = _sentences(text)
    for sentence in sentences:
        said = _one(sentence, facts)
        if said is None:
            parts.append(sentence)
        else:
            parts += said
    return [parts] if parts != [text] else []


def _sentences(text: str) -> list[str]:
    """``A. B.`` and ``A (i.e. B)`` as their sentences."""
    m = re.fullmatch(r"(?P<a>.+?) \((?:i\.e\.|that is),? (?P<b>[^()]+)\)", text, flags=re.I)
    if m:
        return [m["a"], m["b"]]
    return [s.strip().rstrip(".") for s in re.split(r"(?<=[a-z0-9])\. (?=[A-Za-z])", text)]


def _lists(names: str, facts: Facts) -> list[str] | None:
    """The parameters ``names`` lists (``a, b and c``), or None when one is no parameter."""
    out = [n for n in re.split(r",\s*(?:and\s+)?|\s+and\s+", names.strip()) if n]
    return out if out and all(n in facts.by_name for n in out) else None


def _elem(name: str, facts: Facts) -> str:
    """One value of list ``name``: ``nums[i]``, ``grid[i][j]``."""
    return name + "".join(f"[{c}]" for c in "ijk"[: facts.by_name[name].depth])


def _one(s: str, facts: Facts) -> list[str] | None:
    """``s`` restated, or None when no form of this module speaks of it."""
    m = _GUARANTEE.fullmatch(s)
    if m:
        return _one(m["rest"], facts)
    named = _named(s, facts)
    if named != s:
        return _one(named, facts) or [named]
    for form in (_both, _split_order, _permutation, _no_two, _ranged, _each_array, _bare):
        said = form(s, facts)
        if said is not None:
            return said
    return None


def _named(s: str, facts: Facts) -> str:
    """``cuts array`` -> ``cuts``; ``the matrix`` -> the one integer matrix parameter."""

    def drop(m: re.Match[str]) -> str:
        return m[1] if m[1] in facts.by_name else m[0]

    s = re.sub(r"\b(\w+) (?:array|list|matrix)\b", drop, s)
    grids = [p.name for p in facts.params if p.depth == 2 and not p.join and not p.tree]
    lists = [p for p in facts.params if p.depth - int(p.join) >= 1 and not p.node]
    arrays = [p.name for p in lists if p.depth == 1] if len(lists) == 1 else []
    for noun, names in (("matrix|grid", grids), ("array", arrays)):
        if len(names) == 1:
            s = re.sub(rf"\b(?:in|of) the (?:{noun})\b", f"in {names[0]}", s, flags=re.I)
    return s


def _both(s: str, facts: Facts) -> list[str] | None:
    """``nums1 and nums2 both are ...`` / ``A and B are both a ...``: without ``both``."""
    m = re.fullmatch(rf"(?P<t>{_NAMES}) (?:both (?P<v>are)|(?P<w>are) both) (?P<r>.+)", s)
    if not m or _lists(m["t"], facts) is None:
        return None
    plain = f"{m['t']} are {m['r']}"
    return _one(plain, facts) or [plain]


def _split_order(s: str, facts: Facts) -> list[str] | None:
    """``All the values of primes are unique and sorted in ascending order``."""
    m = re.fullmatch(
        rf"(?P<a>(?:.+? )?(?P<t>{_NAMES}) (?:is|are) (?:all )?{_UNIQUE}) and (?:are |is )?"
        r"(?P<o>sorted in .+)",
        s,
        flags=re.I,
    )
    if not m or _lists(m["t"], facts) is None:
        return None
    return [m["a"], f"{m['t']} are {m['o']}"]


def _permutation(s: str, facts: Facts) -> list[str] | None:
    """``nums is a permutation``, ``A and B are a permutation of n integers``: of 1 to the
    length (to n)."""
    m = re.fullmatch(
        rf"(?P<t>{_NAMES}) (?:is|are) (?:a |some )?permutations?"
        r"(?: of (?P<n>[A-Za-z]\w*) (?:integers|numbers|elements))?",
        s,
    )
    names = _lists(m["t"], facts) if m else None
    if m is None or names is None or not all(_from_one(facts, name) for name in names):
        return None
    return [
        f"{name} is a permutation of the integers in the range [1, {m['n'] or name + '.length'}]"
        for name in names
    ]


def _from_one(facts: Facts, name: str) -> bool:
    """Whether a line read before states 1 as the least value of list ``name``'s items (as
    ``1 <= nums[i] <= n``): a bare permutation is then of 1..n. Otherwise (0..n - 1? no range
    yet?) the line is not restated, and reported as it reads."""
    info = facts.leaf.get(name)
    return info is not None and any(
        not lin.terms and lin.const == (0 if strict else 1) for lin, strict, _ in info.lo
    )


def _no_two(s: str, facts: Facts) -> list[str] | None:
    """``No two stones are at the same coordinate point``: the rows of ``stones`` distinct."""
    m = re.fullmatch(
        r"no two (?P<t>\w+) (?:are|lie|will be|is) (?:at|on|in) the same "
        r"(?:coordinate point|coordinates|point|position|location|cell|square)",
        s,
        flags=re.I,
    )
    p = facts.by_name.get(m["t"]) if m else None
    if p is None or p.depth != 2 or p.leaf != "int" or p.join or p.tree:
        return None
    return [f"All {p.name}[i] are distinct"]


def _ranged(s: str, facts: Facts) -> list[str] | None:
    """``to_delete contains distinct values between 1 and 1000``, ``nums consists of distinct
    positive integers``: the distinct values and a chain for their range or sign."""
    m = re.fullmatch(
        rf"(?P<t>{_NAMES}) (?:contains?|consists? of|has|have) (?:only )?{_UNIQUE} "
        rf"(?P<sign>positive |non-negative )?(?P<noun>{_NOUN})"
        r"(?: (?:between (?P<a>.+?) and (?P<b>.+)|from (?P<c>.+?) to (?P<d>.+)|"
        r"in the range \[(?P<e>[^\[\],]+), (?P<f>[^\[\],]+)\]))?",
        s,
        flags=re.I,
    )
    names = _lists(m["t"], facts) if m else None
    if m is None or names is None or (not m["sign"] and not m["a"] and not m["c"] and not m["e"]):
        return None
    noun = "integers" if m["noun"].lower() == "digits" else m["noun"]
    out = [f"{m['t']} consists of distinct {noun}"]
    lo, hi = m["a"] or m["c"] or m["e"], m["b"] or m["d"] or m["f"]
    for name in names:
        e = _elem(name, facts)
        if m["sign"]:
            out.append(_SIGN[m["sign"].strip().lower()].format(e=e))
        if lo is not None:
            out.append(f"{lo} <= {e} <= {hi}")
    return out


def _each_array(s: str, facts: Facts) -> list[str] | None:
    """``All digits in each array are unique``: of every list parameter, each of integers."""
    m = re.fullmatch(
        rf"all (?:the )?(?P<noun>{_NOUN}) (?:in|of) each (?:array|list) (?:are|is) {_UNIQUE}",
        s,
        flags=re.I,
    )
    if not m:
        return None
    lists = [p for p in facts.params if p.depth]
    if not lists or any(p.depth != 1 or p.leaf != "int" or p.node for p in lists):
        return None
    return [f"All the values of {p.name} are unique" for p in lists]


def _bare(s: str, facts: Facts) -> list[str] | None:
    """``hFences and vFences are unique`` (lists of values or of strings), ``nums1 and nums2
    are sorted`` (ascending: strictly, which meets either reading)."""
    m = re.fullmatch(rf"(?P<t>{_NAMES}) (?:is|are) (?:all )?(?P<w>{_UNIQUE}|sorted)", s)
    names = _lists(m["t"], facts) if m else None
    if m is None or names is None:
        return None
    if m["w"] == "sorted":
        return [f"{m['t']} are sorted in ascending order"]
    for name in names:
        p = facts.by_name[name]
        if p.tree or p.node or p.depth - int(p.join) != 1:  # a list of values or strings
            return None  # rows or a grid: the values, or the rows?
    return [f"All the values of {m['t']} are unique"]
