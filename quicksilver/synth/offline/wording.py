"""Other wordings of what the forms read: a Constraints item that no form reads whole is
restated as one or more sentences they do read (:func:`restate`), and the line is applied only
when every one of them is understood. A line some form reads today never gets here, so it reads
as before.

- one subject, two statements: ``num only consists of digits and does not contain any leading
  zeros`` (the second a negation or a permission);
- a sentence of words: ``text consists of words separated by a single space without any leading
  or trailing spaces`` (single spaces, none at either end), and then ``Each word consists of
  lowercase English letters`` (the sentence's alphabet: those and the space);
- characters named without a quantifier, or for all strings at once: ``characters in words[i]
  are either ...``, ``The letters in all input strings are from the set {...}``.
"""

from __future__ import annotations

import re

from quicksilver.synth.offline.constraints import REF_RE
from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.node_wording import node_wordings
from quicksilver.synth.offline.prods import prod_wordings
from quicksilver.synth.offline.sums import sum_wordings
from quicksilver.synth.offline.unique_wording import unique_wordings
from quicksilver.synth.offline.word_sentences import word_wordings

_REFS = rf"{REF_RE.pattern}(?:(?:,\s*|,?\s+and\s+){REF_RE.pattern})*"
# one subject, two statements: "s consists of digits and does not contain any leading zeros"
_TWO_CLAUSES = re.compile(
    rf"(?P<subj>{_REFS}) (?P<a>.+?),? and "
    r"(?P<b>(?:does not|do not|doesn't|don't|will not|won't|has no|have no|contains? no|"
    r"may contain|can contain) .+)",
    flags=re.I,
)
_SENTENCE = re.compile(
    rf"(?P<s>{REF_RE.pattern}) consists? of (?:one or more )?words separated by a single space"
    r"(?P<trim>,? (?:without any|with no) (?:leading or trailing|leading and trailing) spaces)?",
    flags=re.I,
)
_EACH_WORD = re.compile(
    r"(?:each|every) word(?: only)? (?:consists?|is made up|is composed) (?:only )?of (?:only )?"
    r"(?P<a>.+?)(?: and is non-empty)?",
    flags=re.I,
)


def restate(text: str, facts: Facts) -> list[list[str]]:
    """The ways ``text`` (a cleaned Constraints item) may be restated, each a list of
    sentences the forms read; the first one whose sentences are all understood is applied."""
    out: list[list[str]] = []
    m = _TWO_CLAUSES.fullmatch(text)
    if m:
        out.append([f"{m['subj']} {m['a']}", f"{m['subj']} {m['b']}"])
    m = _SENTENCE.fullmatch(text)
    if m and m["s"] in facts.by_name:
        # noted even if the restatement fails: the question is then refused for this line
        facts.sentences.add(m["s"])
        parts = [f"All the words in {m['s']} are separated by a single space"]
        if m["trim"]:
            parts.append(f"{m['s']} does not contain any leading or trailing spaces")
        out.append(parts)
    m = _EACH_WORD.fullmatch(text)
    if m and len(facts.sentences) == 1:
        # the words of the one sentence the statement describes: its alphabet and the space
        out.append([f"{next(iter(facts.sentences))} consists of {m['a']}, and spaces"])
    m = re.fullmatch(r"characters? (?:in|of) (.+)", text, flags=re.I)
    if m:
        out.append([f"All characters in {m.group(1)}"])
    m = re.fullmatch(r"(.*?)\b([A-Za-z_]\w*)\.length\[([a-z])\](.*)", text)
    if m and m[2] in facts.by_name:
        # LeetCode's typo `n == mat.length[i]` for `mat[i].length`: no other reading indexes a
        # length (an int), and the index is the row's (issue 26)
        out.append([f"{m[1]}{m[2]}[{m[3]}].length{m[4]}"])
    m = re.fullmatch(
        r"(?:the )?(?:letters|characters) (?:in|of) all (?:the )?(?:input |given )?strings "
        r"(?:are|is) (?:all )?(?:from|in) (.+)",
        text,
        flags=re.I,
    )
    if m:
        out.append([f"All strings consist of letters from {m.group(1)}"])
    out += _character_wordings(text, facts)
    out += node_wordings(text, facts)  # a tree's or a linked list's nodes (node_wording.py)
    out += unique_wordings(text, facts)  # distinctness, permutations, order (unique_wording.py)
    out += word_wordings(text, facts)  # spaces and words in more wordings (word_sentences.py)
    out += sum_wordings(text, facts)  # totals of lengths and values (sums.py)
    out += prod_wordings(text, facts)  # a range up to a product (prods.py)
    return out


def _character_wordings(text: str, facts: Facts) -> list[list[str]]:
    """Issue 26's wordings of alphabets: an alphabet and a count in one sentence (``p contains
    only lowercase English letters and exactly one '*'``), ``No letter occurs more than once in
    words[i]`` (``... in any string of a or b``), ``Each string of a and b consists of ...``,
    and ``The string may contain ...`` (of the one string parameter)."""
    out: list[list[str]] = []
    m = re.fullmatch(
        rf"(?P<s>{_REFS}) (?P<v>contains? only|consists? (?:only )?of) (?P<a>.+?),? and "
        r"(?P<q>(?:exactly|only|at least|at most) (?:one|two|\d+)) (?P<c>'.'.*)",
        text,
        flags=re.I,
    )
    if m:
        out.append([f"{m['s']} consists of {m['a']}, {m['c']}", f"{m['s']} has {m['q']} {m['c']}"])
    of_each = r"(?:any|each|every) string (?:of|in) (\w+)(?:,? (?:or|and) (\w+))?"
    m = re.fullmatch(
        rf"no (letter|character) (?:occurs|appears) more than once in (?:{of_each}|(\S+))",
        text,
        flags=re.I,
    )
    if m:
        subjects = [f"{n}[i]" for n in m.groups()[1:3] if n] or [m[4]]
        out.append([f"Each {m[1]} occurs at most once in {s}" for s in subjects])
    m = re.fullmatch(rf"{of_each} (consists? .+)", text, flags=re.I)
    if m:
        names = [f"{n}[i]" for n in m.groups()[:2] if n]
        out.append([f"{' and '.join(names)} {m[3]}"])
    strings = [p.name for p in facts.params if p.join and p.depth == 1]
    m = re.fullmatch(r"the (?:input |given )?string (?:may|can) contain (.+)", text, flags=re.I)
    if m and len(strings) == 1:
        out.append([f"{strings[0]} consists of {m[1]}"])
    return out


def permission(text: str) -> bool:
    """``s may contain leading zero(s)``: a permission, which states no constraint (the
    alphabet that allows a zero is stated elsewhere)."""
    return bool(
        re.fullmatch(
            rf"{_REFS} (?:may|can) (?:contain|have) (?:a )?leading zeros?(?:\(s\))?",
            text,
            flags=re.I,
        )
    )


# orders stated in words: the direction, and whether it is strict
ORDER_WORDS = {
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
