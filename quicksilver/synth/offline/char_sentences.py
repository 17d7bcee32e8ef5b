"""Sentences about the characters of text beyond its alphabet (issue 26), read by
:class:`~.sentences.LineReader`, and the spec keys they give (:func:`char_rules_spec`):

- how many times characters occur (``"counts"``): ``p contains exactly one '*'``, ``s contains
  at least one '1'``, ``s contains an even number of vertical bars '|'``, ``There are at least
  two digits in number``, ``There is exactly one cell with board[i][j] == 'R'``, ``There is
  only one of each character 'C', 'M', and 'F' in grid`` (each of them once), ``key contains
  every letter in the English alphabet ('a' to 'z') at least once``; counted in each string
  (``emails[i]``) or over the whole parameter (``grid``, ``board``);
- the alphabet of some positions only (``"at"``): ``equations[i][1] is either '=' or '!'``,
  ``'a' <= coordinates[0] <= 'h'``, ``rings[i] where i is even is either 'R', 'G', or 'B'``;
  with no alphabet stated for the whole text, the positions' alphabets are its alphabet when
  they cover every position (each parity, or each index of a text no longer than them);
- characters a text does not contain (``s does not contain '\\"' or '\\\\'``): taken out of its
  stated alphabet (with no stated alphabet, there is still none).

The runtime (``runtime_parts._char_rules``) sets the counted characters after the text is drawn
(a character above a count becomes one of the characters no count names, one below takes the
place of such a character) and draws each ruled position again from its alphabet; the checker
(``checker_chars``) checks both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.adjacency import adj_form, degree_form
from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import (
    REF_RE,
    Lin,
    Param,
    Ref,
    Unsupported,
    describe_alphabet,
    set_items,
    split_top,
    word_items,
)
from quicksilver.synth.offline.derived_counts import derived_form
from quicksilver.synth.offline.facts import Facts, LeafInfo
from quicksilver.synth.offline.field_names import described_length
from quicksilver.synth.offline.members import read_members
from quicksilver.synth.offline.neighbours import neighbour_form
from quicksilver.synth.offline.numstrings import answer_form, number_form
from quicksilver.synth.offline.numtheory import numtheory_form, size_form
from quicksilver.synth.offline.occurs import occur_form
from quicksilver.synth.offline.presence import presence_form
from quicksilver.synth.offline.quantified import parent_tree, quantified_bound
from quicksilver.synth.offline.sums import sum_parity
from quicksilver.synth.offline.unions import union_form
from quicksilver.synth.offline.uniqueness import uniq_form
from quicksilver.synth.offline.word_sentences import word_count_form

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_HOW_MANY = (
    r"(?P<q>(?:exactly|only|precisely) (?:one|two|three|\d+)|one|at least (?:one|two|three|\d+)|"
    r"at most (?:one|two|three|\d+)|an? (?:even|odd) number of)"
)
_CONTAINS = r"(?:contains?|has|have|will contain|will have)"


def _how_many(q: str) -> tuple[int, int | None, list[int] | None]:
    """``exactly one`` -> (1, 1, None); ``at least two`` -> (2, None, None); ``an even number
    of`` -> (0, None, [2, 0])."""
    q = q.lower()
    if "even" in q:
        return 0, None, [2, 0]
    if "odd" in q:
        return 1, None, [2, 1]
    word = q.split()[-1]
    k = int(word) if word.isdigit() else _NUMBERS[word]
    if q.startswith("at least"):
        return k, None, None
    if q.startswith("at most"):
        return 0, k, None
    return k, k, None


def _chars(phrase: str) -> str | None:
    """The characters a phrase names (``'*'``, ``vertical bars '|'``, ``digits``, ``the
    characters 'S', 'B', and 'T'``); None when it names something else."""
    phrase = re.sub(r"\s+(?:characters?|symbols?)$", "", phrase.strip(), flags=re.I)
    named = re.fullmatch(r"(?:(?!and |or )[A-Za-z]+ ){1,3}'(.)'", phrase)  # "opening brackets '['"
    items = [named[1]] if named else set_items(phrase)
    if items is None or not all(isinstance(i, str) for i in items):
        return None
    return "".join(dict.fromkeys(str(i) for i in items))


def _text_param(facts: Facts, subject: str) -> tuple[Param, str]:
    """The text a count is over and its scope: ``each`` string (``emails[i]``, or a string
    parameter) or ``all`` of a list of strings or a grid of characters (``grid``)."""
    subject = re.sub(r"^(?:the|each|every)\s+", "", subject.strip(), flags=re.I)
    if not REF_RE.fullmatch(subject):
        raise Unsupported(f"{subject!r} is not a parameter")
    ref = facts.resolve(subject)
    p = facts.by_name.get(ref.params[0]) if ref.params else None
    if p is None or ref.kind != "container" or p.leaf != "char" or p.tree:
        raise Unsupported(f"a count of characters in {subject}, which is not text")
    if ref.depth == p.depth - 1:
        return p, "each"
    if ref.depth == 0:
        return p, "all"
    raise Unsupported(f"a count of characters of {p.name} ({p.type}) at that level")


def char_counts(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """How many times characters occur in a text (module docstring); the text's length is
    bounded below by the counts' sum where it is one quantity (a string, or each string)."""
    each = False
    m = re.fullmatch(rf"(?P<s>.+?) {_CONTAINS} {_HOW_MANY} (?P<c>.+?)", text, flags=re.I)
    m = m or re.fullmatch(
        rf"there (?:is|are|will be) {_HOW_MANY} (?P<c>.+?) in (?P<s>.+)", text, flags=re.I
    )
    c = re.sub(r"^of (?=each |every )", "", m["c"], flags=re.I) if m else ""
    if re.match(r"(?:each|every) ", c, flags=re.I):
        each, c = True, re.sub(r"^(?:each|every) (?:of (?:the )?)?", "", c, flags=re.I)
    m2 = re.fullmatch(
        rf"there is {_HOW_MANY} cell with (?P<s>\w+)\[i\]\[j\] == (?P<c>'.')", text, flags=re.I
    )
    m3 = re.fullmatch(
        r"(?P<s>\S+) contains every (?:letter|character) (?:in|of) the (?:English )?alphabet "
        r"\(?(?P<c>'.' to '.')\)? at least once",
        text,
        flags=re.I,
    )
    if m2:
        m, c = m2, m2["c"]
    elif m3:
        m, c, each = m3, m3["c"], True
    if m is None or re.match(r"(?:distinct|different|repeated|unique) ", c, flags=re.I):
        return False
    if re.match(r"(?:character|letter)s? '.', ", c, flags=re.I):
        each = True  # "only one character 'S', 'B', and 'T'": one of each
    chars = _chars(re.sub(r"^(?:of )?", "", c))
    if chars is None:
        return False
    lo, hi, mod = _how_many(m["q"]) if not m3 else (1, None, None)
    p, scope = _text_param(facts, m["s"])
    groups = list(chars) if each else [chars]
    info = facts.leaf[p.name]
    for group in groups:
        acts.append(partial(info.counts.append, (group, lo, hi, mod, None, scope, line)))
    least = lo * len(groups)
    if least and (scope == "each" or p.depth == 1):
        length = Lin(Fraction(0), {Ref("q", key=p.dim_key(p.depth - 1)): Fraction(1)})
        cmp.relate(Lin(Fraction(least)), "<=", length, line, acts)
    return True


def char_kinds(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """How the characters of each string repeat: ``Each letter appears in s exactly twice``
    (``"times"``: every character that occurs, that many times; the length a multiple of it),
    ``s has at least one repeated letter`` (``"repeat"``), ``letters contains at least two
    different characters`` (``"kinds"``: that many distinct characters at least)."""
    noun = r"(?:letters?|characters?)"
    m = re.fullmatch(
        rf"(?:each|every) {noun} (?:that (?:occurs|appears) )?(?:appears|occurs)"
        rf"(?: in (?P<s>\S+))? exactly (?P<k>twice|thrice|\d+ times)(?: in (?P<t>\S+))?",
        text,
        flags=re.I,
    )
    if m and (m["s"] or m["t"]):
        k = {"twice": 2, "thrice": 3}.get(m["k"].lower()) or int(m["k"].split()[0])
        p, _ = _text_param(facts, m["s"] or m["t"])
        if p.depth != 1 or k < 2:
            raise Unsupported("characters repeated a number of times, in something but a string")
        acts.append(partial(setattr, facts.leaf[p.name], "kinds", ("times", k, line)))
        length = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
        acts.append(partial(facts.mention, length, line))
        acts.append(partial(facts.mods.append, (p.dim_key(0), k, 0, line)))
        return True
    m = re.fullmatch(
        rf"(?P<s>\S+) (?:has|contains) at least one (?:repeated|duplicated?) {noun}",
        text,
        flags=re.I,
    ) or re.fullmatch(
        rf"(?P<s>\S+) (?:has|contains) at least (?P<k>two|three|\d+) (?:different|distinct) "
        rf"{noun}",
        text,
        flags=re.I,
    )
    if not m:
        return False
    p, _ = _text_param(facts, m["s"])
    if p.depth != 1:
        raise Unsupported("a rule on repeated characters, in something but one string")
    k = _NUMBERS.get(m["k"].lower()) or int(m["k"]) if m.groupdict().get("k") else 2
    rule = ("kinds", k, line) if m.groupdict().get("k") else ("repeat", 2, line)
    acts.append(partial(setattr, facts.leaf[p.name], "kinds", rule))
    length = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
    cmp.relate(Lin(Fraction(k)), "<=", length, line, acts)
    return True


def char_tokens(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """A string made of whole tokens, in any order: ``command consists of "G", "()", and/or
    "(al)" in some order`` (``"tokens"``; its alphabet, the tokens' characters). Only for a
    string parameter (a list of strings each one word is :meth:`~.sentences.LineReader._words`).
    """
    m = re.fullmatch(
        r"(?P<s>[A-Za-z_]\w*)(?: only)? (?:consists?|is made up|is composed) (?:only )?of "
        r"(?:only )?(?P<w>.+?)(?:,? in (?:some|any) order)?",
        text,
        flags=re.I,
    )
    p = facts.by_name.get(m["s"]) if m else None
    words = word_items(m["w"]) if m else None
    if p is None or not p.join or p.depth != 1 or not words:
        return False
    acts.append(partial(setattr, facts.leaf[p.name], "tokens", (words, line)))
    return True


def int_digits(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """The decimal digits of an integer parameter (a scalar quantity): ``num consists of only
    6 and 9 digits``, ``num does not contain 0 as one of its digits``."""
    m = re.fullmatch(
        r"(?P<x>[A-Za-z_]\w*) consists? (?:only )?of (?:only )?(?:the )?(?P<d>.+?) digits( only)?",
        text,
        flags=re.I,
    ) or re.fullmatch(
        r"(?P<x>[A-Za-z_]\w*) (?:does not|doesn't|will not) contain (?:the digit )?(?P<n>.+?) "
        r"as (?:one of )?its digits?",
        text,
        flags=re.I,
    )
    p = facts.by_name.get(m["x"]) if m else None
    if m is None or p is None or not p.is_quantity:
        return False
    items = set_items(m.groupdict().get("d") or m["n"])
    if items is None or not all(isinstance(i, int) and 0 <= i <= 9 for i in items):
        return False
    digits = "".join(str(i) for i in sorted(set(items)))  # type: ignore[arg-type]
    if m.groupdict().get("n") is not None:
        digits = "".join(d for d in "0123456789" if d not in digits)
    acts.append(partial(facts.digits.__setitem__, p.name, (digits, line)))
    return True


def char_parts(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``The number of opening brackets '[' equals n / 2, and the number of closing brackets
    ']' equals n / 2`` (``n == s.length``): a count that is a part of the one string's length
    (``"part": [a, b]``: exactly length * a / b), or a number."""
    clauses = re.split(r",? and (?=the number of )", text, flags=re.I)
    found = [
        re.fullmatch(
            r"the number of (?P<c>.+?) (?:equals|is equal to|is|==) (?P<e>.+)", c, flags=re.I
        )
        for c in clauses
    ]
    strings = [p for p in facts.params if p.join and p.depth == 1]
    if not all(found) or len(strings) != 1:
        return False
    p = strings[0]
    entry: tuple[str, int, int | None, list[int] | None, list[int] | None, str, str]
    for m in found:
        assert m is not None
        chars = _chars(m["c"])
        if chars is None:
            return False
        e = facts.parse(m["e"])
        if e.terms:
            ref, coef = next(iter(e.terms.items()))
            own = ref.kind == "q" and facts.find(ref.key) == facts.find(p.dim_key(0))
            if len(e.terms) != 1 or e.const or not own or not 0 < coef <= 1:
                raise Unsupported("a count that is not a part of the string's own length")
            part = [coef.numerator, coef.denominator]
            entry = (chars, 0, None, None, part, "each", line)
        elif e.const.denominator == 1 and e.const >= 0:
            entry = (chars, int(e.const), int(e.const), None, None, "each", line)
        else:
            raise Unsupported("a count that is not a whole number")
        acts.append(partial(facts.leaf[p.name].counts.append, entry))
    return True


_POSITION = r"([A-Za-z_]\w*)((?:\[i\])?)\[(\d+)\]"


def char_positions(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """The alphabet of one position of each string (``equations[i][1] is either '=' or
    '!'``, ``'a' <= coordinate1[0], coordinate2[0] <= 'h'``) or of every other position
    (``rings[i] where i is even is ...``)."""
    m = re.fullmatch(rf"'(?P<a>.)' <= (?P<refs>{_POSITION}(?:, {_POSITION})*) <= '(?P<b>.)'", text)
    if m:
        if m["a"] > m["b"]:
            raise Unsupported("an empty range of characters")
        chars = "".join(chr(c) for c in range(ord(m["a"]), ord(m["b"]) + 1))
        for ref in split_top(m["refs"]):
            found = re.fullmatch(_POSITION, ref)
            assert found is not None
            _position(facts, found[1], found[2], int(found[3]), chars, line, acts)
        return True
    m = re.fullmatch(
        r"(?P<x>[A-Za-z_]\w*)\[i\] where i is (?P<par>even|odd) (?:is|will be) "
        r"(?:either |one of )?(?P<v>.+?)(?: \(0-indexed\))?",
        text,
        flags=re.I,
    ) or re.fullmatch(
        rf"{_POSITION} (?:is|will be) (?:either |one of |an? )?(?P<v>.+)", text, flags=re.I
    )
    if not m:
        return False
    allowed = _chars(m["v"])
    if allowed is None:
        return False
    if m.groupdict().get("par"):
        p = facts.by_name.get(m["x"])
        if p is None or not p.join or p.depth != 1:
            raise Unsupported(f"positions of {m['x']}, which is not a string")
        sel: Any = [2, 0 if m["par"].lower() == "even" else 1]
        acts.append(partial(facts.leaf[p.name].at.append, (sel, allowed, line)))
        return True
    _position(facts, m[1], m[2], int(m[3]), allowed, line, acts)
    return True


def _position(
    facts: Facts, name: str, inner: str, k: int, chars: str, line: str, acts: Acts
) -> None:
    """``name[k]`` (a string) or ``name[i][k]`` (each string of a list): the alphabet of the
    character at index ``k``."""
    p = facts.by_name.get(name)
    if p is None or not p.join or p.depth != (2 if inner else 1):
        raise Unsupported(f"{name}{inner}[{k}]: a position, but not of a string's character")
    acts.append(partial(facts.leaf[p.name].at.append, (k, chars, line)))


def char_exclusion(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``s does not contain '\\"' or '\\\\'``: characters taken out of the text's alphabet
    (a backslash before a quoted character escapes it)."""
    m = re.fullmatch(
        r"(?P<s>.+?) (?:does not|do not|doesn't|don't|will not|won't) contain (?:any )?"
        r"(?P<c>'.+)",
        text,
        flags=re.I,
    )
    if not m:
        return False
    chars = _chars(re.sub(r"'\\(.)'", r"'\1'", m["c"]))
    if chars is None:
        return False
    for part in split_top(re.sub(r"\s+and\s+", ", ", m["s"])):
        ref = facts.resolve(part) if REF_RE.fullmatch(part) else None
        p = facts.by_name.get(ref.params[0]) if ref and ref.params else None
        if p is None or not p.join or ref is None or ref.kind != "container":
            raise Unsupported(f"characters left out of {part}, which is not text")
        acts.append(partial(_exclude, facts.leaf[p.name], chars))
    return True


def only_space(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``The only space character in s is ' '``: s may hold the space ' ' and no other
    whitespace; the space joins its stated alphabet (with none stated, there is still none)."""
    m = re.fullmatch(
        r"the only (?:space|whitespace|blank) character in (?P<s>\S+) is ' '", text, re.I
    )
    p = facts.by_name.get(m["s"]) if m else None
    if m is None or p is None or not p.join:
        return False
    info = facts.leaf[p.name]
    acts.append(partial(setattr, info, "include", " "))
    acts.append(partial(_exclude, info, "\t\n\r\x0b\x0c"))
    return True


def _exclude(info: LeafInfo, chars: str) -> None:
    info.exclude += "".join(c for c in chars if c not in info.exclude)


# -- the spec -----------------------------------------------------------------------------------


def largest_length(dim: dict[str, Any], quantities: list[dict[str, Any]]) -> int | None:
    """The largest length a dimension's items may have, when a constant bounds it."""
    if "q" not in dim:
        return dim.get("hi")
    his = [
        b["rest"] // -b["coef"]
        for item in quantities
        if item["name"] == dim["q"]
        for b in item["bounds"]
        if b["coef"] < 0 and isinstance(b["rest"], int)
    ]
    return min(his) if his else None


def alphabet_of(info: LeafInfo, fixed_hi: int | None) -> str | None:
    """The alphabet ``info`` gives its text: the stated one, or the positions' (below), less
    the characters it does not contain."""
    alphabet = info.alphabet if info.alphabet is not None else position_alphabet(info, fixed_hi)
    if info.tokens:  # the tokens' characters (within a stated alphabet: checked with the rule)
        alphabet = alphabet or "".join(dict.fromkeys("".join(info.tokens[0])))
    if alphabet is None:
        return None
    alphabet += "".join(c for c in info.include if c not in alphabet)
    return "".join(c for c in alphabet if c not in info.exclude)


def position_alphabet(info: LeafInfo, fixed_hi: int | None) -> str | None:
    """With no alphabet stated for the whole text: the union of the positions' alphabets when
    they cover every position (both parities, or every index below the text's largest
    length ``fixed_hi``); None otherwise."""
    if info.alphabet is not None or not info.at:
        return None
    parities = {tuple(sel[1:]) for sel, _, _ in info.at if isinstance(sel, list)}
    indexes = {sel for sel, _, _ in info.at if isinstance(sel, int)}
    covered = parities == {(0,), (1,)} or (fixed_hi is not None and indexes >= set(range(fixed_hi)))
    if not covered:
        return None
    return "".join(dict.fromkeys(c for _, chars, _ in info.at for c in chars))


def char_rules_spec(
    p: Param, info: LeafInfo, out: dict[str, Any], problems: list[str], longest: int | None
) -> None:
    """The ``counts``, ``at`` and ``kinds`` keys of ``p``'s spec, or the problems that block
    them: text only, one kind of rule, and no distinctness, rule of spaces or leading zeros,
    fixed position or values apart (which the runtime's changes could break); an order only
    with counts or repeats (the runtime sorts again: sorting keeps them). ``longest``: the
    largest length of a string, when a constant bounds it."""
    alphabet = out["leaf"].get("alphabet") or ""
    if not alphabet:
        return  # no stated alphabet (or none in common): reported as such, and nothing to draw
    ruled = info.distinct or info.lead or info.spaces or info.pins or info.apart
    lines = [c[-1] for c in info.counts] + [a[-1] for a in info.at]
    lines += [info.kinds[-1]] if info.kinds else []
    lines += [info.tokens[-1]] if info.tokens else []
    kinds = bool(info.counts) + bool(info.at) + bool(info.kinds) + bool(info.tokens)
    if ruled or kinds > 1 or ((info.at or info.tokens) and info.sorted) or p.leaf != "char":
        problems += [
            f'"{line}": a rule on characters, for text with no distinctness, fixed position or '
            "other rule (one such rule, and a position's alphabet only with no order)"
            for line in dict.fromkeys(lines)
        ]
        return
    if info.counts:
        out["counts"] = _counts_spec(info, alphabet, problems)
    if info.tokens:
        words, line = info.tokens
        if not any(len(w) == 1 for w in words) or not set("".join(words)) <= set(alphabet):
            problems.append(
                f'"{line}": tokens, where one has a single character (so every length can be '
                "made) and all are in the alphabet"
            )
        out["tokens"] = words
    if info.kinds:
        rule, k, line = info.kinds
        if len(alphabet) < (1 if rule == "repeat" else k) or (
            rule == "times" and (longest is None or longest > k * len(alphabet))
        ):
            problems.append(f'"{line}": more characters than the alphabet of {p.name} holds')
        out["kinds"] = [rule, k]
    if info.at:
        at = []
        for sel, chars, line in info.at:
            allowed = "".join(c for c in chars if c in alphabet)
            if not allowed:
                problems.append(f'"{line}": no character of it is in the alphabet of {p.name}')
            at.append([sel, allowed])
        out["at"] = at


def _counts_spec(info: LeafInfo, alphabet: str, problems: list[str]) -> list[dict[str, Any]]:
    """One entry per count; their characters apart, each in the alphabet where one is needed,
    and, wherever a count has an upper bound, a parity or a part of the length, some character
    no count names or another count with no upper bound (or a part: ``'['`` and ``']'`` each
    half) to put in place of a counted one."""
    out: list[dict[str, Any]] = []
    named: set[str] = set()
    for chars, lo, hi, mod, part, scope, line in info.counts:
        allowed = "".join(c for c in chars if c in alphabet)
        if named & set(chars):
            problems.append(f'"{line}": counts of characters that another count names too')
        named |= set(chars)
        if (lo or part) and not allowed:
            problems.append(f'"{line}": the counted characters are not in the alphabet')
        entry = {"chars": allowed, "min": lo, "max": hi, "mod": mod, "scope": scope}
        if part:
            entry["part"] = part
        out.append(entry)
    free = [c for c in alphabet if c not in named]
    for entry, (*_, line) in zip(out, info.counts, strict=True):
        others = [
            e for e in out if e is not entry and not e["mod"] and (e["max"] is None or "part" in e)
        ]
        bounded = entry["max"] is not None or entry["mod"] or "part" in entry
        if not free and bounded and not others:
            problems.append(f'"{line}": no other character to put in place of a counted one')
    return out


def char_notes(p: dict[str, Any]) -> list[str]:
    """How a spec's ``counts`` and ``at`` are drawn, for the parameter's note."""
    out = []
    for c in p.get("counts", ()):
        how = f"at least {c['min']}" if c["max"] is None else f"{c['min']} to {c['max']}"
        if "part" in c:
            how = f"{c['part'][0]} / {c['part'][1]} of the length"
        if c["min"] == c["max"]:
            how = f"exactly {c['min']}"
        if c["mod"] == [2, c["min"]] and c["max"] is None:
            how = "an even number" if c["min"] == 0 else "an odd number"
        elif c["mod"]:
            how += f", {c['mod'][1]} mod {c['mod'][0]}"
        where = "in each string" if c["scope"] == "each" else "in all of it"
        out.append(f"{how} of {describe_alphabet(c['chars'])} {where} (set after drawing)")
    if p.get("kinds"):
        rule, k = p["kinds"]
        out.append(
            f"each character that occurs, {k} times"
            if rule == "times"
            else "a character at least twice"
            if rule == "repeat"
            else f"{k} distinct characters at least"
        )
    if p.get("tokens"):
        out.append(f"made of the tokens {', '.join(map(repr, p['tokens']))} in a random order")
    for sel, chars in p.get("at", ()):
        at = f"index {sel}" if isinstance(sel, int) else f"indexes i % {sel[0]} == {sel[1]}"
        out.append(f"{at}: {describe_alphabet(chars)}")
    return out


# the forms LineReader tries together (each: facts, text, line, acts -> whether it read the line)
TEXT_FORMS: tuple[Callable[[Facts, str, str, Acts], bool], ...] = (
    derived_form,  # a scalar at most a count of another input (derived_counts.py)
    char_parts,
    only_space,
    char_exclusion,
    int_digits,
    occur_form,
    size_form,
    numtheory_form,
    read_members,  # membership between parameters (members.py)
    number_form,  # integers written as strings (numstrings.py)
    answer_form,  # ranges of the answer in more words (numstrings.py)
    neighbour_form,  # neighbours and equal lengths (neighbours.py)
    quantified_bound,  # a bound for some indexes (quantified.py)
    parent_tree,  # a tree given by its parents (quantified.py)
    word_count_form,  # how many words a text holds (word_sentences.py)
    adj_form,  # adjacency lists (adjacency.py)
    degree_form,  # a graph's degree bound (graph_degree.py)
    presence_form,  # a value present, one position (presence.py)
    sum_parity,  # the parity of a sum of values (sums.py)
    described_length,  # the length of an array no parameter holds (field_names.py)
    union_form,  # value sets that are unions of values and ranges (unions.py)
    uniq_form,  # uniqueness across parameters (uniqueness.py)
)
