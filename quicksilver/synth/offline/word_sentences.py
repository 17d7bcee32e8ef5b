"""Sentences of words and tokens: a text's spaces in more wordings, and how many words it holds.

- single spaces between words, in the wordings the ``single`` rule of spaces did not read:
  ``All words in sentence are separated by a single space``, ``There is (a) single space
  between consecutive words (of report[i])``, ``All tokens are separated by a single space in
  expression``; and ``There will be at least 1 token`` (the ``word`` rule: not only spaces).
  These are restated (:func:`word_wordings`, tried by :func:`~.wording.restate`) as the
  sentences :meth:`~.sentences.LineReader._spaces` reads, so they mean exactly what those mean;
- a count of words: ``The number of words in s is between 1 and 9``, ``The number of tokens in s
  is between 2 and 100, inclusive``, ``... is in the range [1, 9]``, ``... is at least 2``
  (:func:`word_count_form`, one of ``char_sentences.TEXT_FORMS``), and ``There are at least 2
  words in s`` (restated as the last). A word is a maximal run of characters other than the
  space. The spec's ``words`` key holds ``[lo, hi]`` (``hi`` None: as many as the length
  allows); the text's length is then at least ``2 * lo - 1`` (``lo`` words, one space
  between each two), which the line adds to the length's bounds.

The runtime (:mod:`.runtime_words`) lays the drawn characters out again as a word count drawn
in the range (at most ``(length + 1) // 2``, so every length drawn has room), with single
spaces between them where a rule of spaces asks it and none at either end where one does; the
checker (:mod:`.checker_words`) counts the words. A count is read only for one plain string
parameter whose alphabet has the space and another character, with no other rule on its
characters (an order, distinctness, leading zeros, fixed positions, counted characters or a
form), which the layout could break; otherwise the line is refused. ``k is in the range [1, the
number of words in s]`` (a bound by a count drawn with the text) is not read.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import REF_RE, Param, Unsupported
from quicksilver.synth.offline.facts import Facts, LeafInfo

_UNIT = r"(?:words|tokens)"
_INT = r"(\d+|10\^\d+)"


def _one_string(facts: Facts) -> str | None:
    """The one string parameter, which a sentence with no subject speaks of."""
    names = [p.name for p in facts.params if p.join]
    return names[0] if len(names) == 1 else None


def word_wordings(text: str, facts: Facts) -> list[list[str]]:
    """The restatements of ``text`` (a cleaned Constraints item) this module knows."""
    out: list[list[str]] = []
    ref = REF_RE.pattern
    m = re.fullmatch(
        rf"all {_UNIT} (?:in|of) (?P<s>{ref}) are separated by (?:a |one )?single space",
        text,
        flags=re.I,
    ) or re.fullmatch(
        rf"(?:all )?(?:the )?{_UNIT} are separated by (?:a |one )?single space "
        rf"(?:in|of) (?P<s>{ref})",
        text,
        flags=re.I,
    )
    if m:
        out.append([f"All the words in {m['s']} are separated by a single space"])
    m = re.fullmatch(
        r"(?:(?:it's|it is) guaranteed that )?there (?:is|will be) "
        r"(?:(?:only |exactly )?one (?:single )?|(?:only )?a single |single )space between "
        r"(?:(?:every|each|any|the) )?(?:(?:two|2|pairs? of) )?"
        rf"(?:consecutive |adjacent )?{_UNIT}(?: (?:of|in) (?P<s>{ref}))?",
        text,
        flags=re.I,
    )
    if m and (subject := m["s"] or _one_string(facts)):
        out.append([f"All the words in {subject} are separated by a single space"])
    m = re.fullmatch(
        rf"there (?:will be|is|are) at least (?P<n>\d+|one|two) (?:word|token)s?"
        rf"(?: in (?P<s>{ref}))?",
        text,
        flags=re.I,
    )
    if m and (subject := m["s"] or _one_string(facts)):
        n = {"one": "1", "two": "2"}.get(m["n"].lower(), m["n"])
        if n == "1":
            out.append([f"There will be at least one word in {subject}"])
        else:
            out.append([f"The number of words in {subject} is at least {n}"])
    return out


def _count(raw: str) -> int:
    if "^" in raw:
        base, exp = raw.split("^")
        return int(base) ** int(exp)
    return int(raw)


def word_count_form(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``The number of words in s is between 1 and 9`` (or ``in the range [1, 9]``, ``at least
    2``): how many words the string ``s`` holds, and its length at least room for the least."""
    m = re.fullmatch(
        rf"the (?:total )?number of {_UNIT} in (?P<s>{REF_RE.pattern}) (?:is|will be) "
        rf"(?:between {_INT} and {_INT}(?:,? inclusive)?|in the range \[{_INT}, ?{_INT}\]|"
        rf"at least {_INT})",
        text,
        flags=re.I,
    )
    if m is None:
        return False
    lo_raw = m.group(2) or m.group(4) or m.group(6)
    hi_raw = m.group(3) or m.group(5)
    lo, hi = _count(lo_raw), (_count(hi_raw) if hi_raw else None)
    p = facts.by_name.get(m["s"])
    if p is None or not p.join or p.depth != 1:
        raise Unsupported(f"a count of words in {m['s']}, which is not one string parameter")
    if lo < 1 or (hi is not None and hi < lo):
        raise Unsupported(f"a count of words in [{lo}, {hi}]: only a range from 1 is drawn")
    # lo words and a space between each two: the length has room for them
    Comparisons(facts).chain(f"{p.name}.length >= {2 * lo - 1}", acts, line)
    acts.append(partial(setattr, facts.leaf[p.name], "words", (lo, hi, line)))
    return True


def words_spec(p: Param, info: LeafInfo, out: dict[str, Any], problems: list[str]) -> None:
    """The ``words`` key of ``p``'s spec, or the problem that blocks it: one plain string
    whose alphabet has the space and another character, and no other rule on its characters
    (the runtime lays them out again, which would break it)."""
    assert info.words is not None
    lo, hi, line = info.words
    alphabet = out["leaf"].get("alphabet") or ""
    ruled = info.sorted or info.distinct or info.lead or info.pins or info.apart
    ruled = ruled or info.counts or info.at or info.kinds or info.tokens or info.form
    if p.depth != 1 or not p.join or " " not in alphabet or not alphabet.strip() or ruled:
        problems.append(
            f'"{line}": a count of words, for one string whose alphabet has the space and '
            "another character (and no other rule on its characters)"
        )
    if any(c.isdigit() for c in alphabet) and any(c.isalpha() for c in alphabet):
        # words of letters and digits have a shape the description gives (a word that ends
        # with its position, a count before a name) and these lines do not: not drawn blind
        problems.append(
            f'"{line}": a count of words whose alphabet has digits beside letters (a word\'s '
            "shape, given in the description, is not read)"
        )
    out["words"] = [lo, hi]
