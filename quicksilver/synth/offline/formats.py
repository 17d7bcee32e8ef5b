"""Structure stated in words (issue 26): a list or string whose values have a shape of their own
rather than a rule on each value. Read by :class:`~.sentences.LineReader`, kept on the
parameter's :class:`~.facts.LeafInfo` as ``form`` and written to its spec as ``"form"``:

- ``nums is sorted and rotated between 1 and n times``, ``nums is an ascending array that is
  possibly rotated``, ``nums is guaranteed to be rotated at some pivot``: a list sorted in
  non-decreasing order, then rotated by a random k in [0, n) (``{"kind": "rotated"}``; the
  list's ``sorted`` is ``asc``; a rotation by n is none at all);
- ``arr is guaranteed to be a mountain array``: strictly increasing up to a peak strictly inside,
  strictly decreasing after it (``{"kind": "mountain"}``; its length at least 3);
- ``s is a valid parentheses string``, ``s is a balanced parentheses string``, ``It is guaranteed
  that parentheses expression s is a VPS``, ``It is guaranteed that all parentheses are
  balanced``: every ``(`` closed by a later ``)`` (``{"kind": "balanced"}``; the other characters
  of the alphabet are free; where the alphabet has only the two, the length is even);
- ``time is in the format "HH:MM"``, ``timePoints[i] is in the format "HH:MM"``, ``time is a
  valid string of length 5 in the format "hh:mm"``: a clock time, fields of two digits (hours 00
  to 23, minutes and seconds 00 to 59) between fixed separators (``{"kind": "format", "parts"}``);
  ``00 <= hh <= 23`` and ``"00" <= mm <= "59"`` narrow a field's range. A statement that speaks
  of a 12-hour clock is refused (its hours are another range). Two such strings compared
  whole (``current <= correct``) are the spec's ``relations``; ``Some of the digits might be
  replaced with '?'`` hides digits (the form's ``mask``);
- ``path is a valid absolute Unix path``, ``folder[i] always starts with the character '/'``:
  ``/`` then non-empty names joined by single slashes (``{"kind": "path"}``: narrower than
  "starts with '/'", which it always meets);
- ``date[4] == date[7] == '-', and all other date[i]'s are digits`` with ``date represents a
  calendar date between Jan 1st, 1900 and Dec 31st, 2019``, ``The given dates are valid dates
  between the years 1971 and 2100`` (laid out as the description says): a valid YYYY-MM-DD
  date in the range (``{"kind": "date", "lo", "hi"}``).
- ``version1 and version2 are valid version numbers`` (revisions of at most 9 digits, so ``All
  the given revisions ... can be stored in a 32-bit integer`` holds), ``The given address is a
  valid IPv4 address``, ``It is guaranteed that s is a valid roman numeral in the range [1,
  3999]``: numbers so written (``{"kind": "version", "digits": 9}``, ``{"kind": "ipv4"}``,
  ``{"kind": "roman", "lo", "hi"}``).
- ``Each emails[i] contains exactly one '@' character``, with ``Local names do not start with
  a '+' character`` and ``Domain names end with the ".com" suffix``: an email address
  (``{"kind": "email", "not_first", "suffix"}``).
- ``There will be at most 20 parentheses in s`` (``{"kind": "count", "chars", "most"}``) and
  ``The number of opening brackets '[' equals n / 2, and the number of closing brackets ']'
  equals n / 2`` (``{"kind": "halves", "chars"}``): counts of characters.
- ``n is a valid representation of an integer`` (with ``The digits in n are in the range [1,
  9]``: ``{"kind": "integer", "digits"}``) and ``text begins with a capital letter and then
  contains lowercase letters and single space between words`` (``{"kind": "sentence"}``).

The runtime draws each form whole (:mod:`~.runtime_forms`); the checker checks it with code of
its own. A form is not drawn together with other rules of text or values (they could break it).
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import partial
from typing import Any

from quicksilver.synth.offline.comparisons import Acts, Comparisons
from quicksilver.synth.offline.constraints import Lin, Param, Ref, Unsupported, split_top
from quicksilver.synth.offline.facts import Facts, LeafInfo
from quicksilver.synth.offline.numstrings import number_problem

_ROTATED = re.compile(
    r"(\w+) is (?:sorted and rotated|sorted in (?:ascending|non-decreasing) order and "
    r"(?:then )?(?:possibly )?rotated)(?: between \S+ and \S+ times| at (?:some|an unknown) "
    r"pivot(?: index)?)?|"
    r"(\w+) is an? (?:ascending|sorted) array that (?:is|was|may have been) possibly rotated|"
    r"(\w+) is (?:guaranteed to be |possibly )?rotated at (?:some|an unknown) pivot(?: index)?",
    flags=re.I,
)
_MOUNTAIN = re.compile(r"(\w+) is (?:guaranteed to be )?a (?:valid )?mountain array", re.I)
_BALANCED = re.compile(
    r"(\w+) is a (?:valid|balanced) parenthes[ie]s (?:string|expression)|"
    r"(?:it is guaranteed that )?(?:the )?parenthes[ie]s (?:string|expression) (\w+) is "
    r"(?:a VPS|a valid parenthes[ie]s string|valid|balanced)|"
    r"(?:it is guaranteed that )?all (?:the )?parenthes[ie]s (?:in (\w+) )?are balanced",
    flags=re.I,
)
_PATH = re.compile(
    r"(\w+)(?:\[i\])? is a valid absolute (?:unix |file )?path|"
    r"(\w+)(?:\[i\])? (?:always )?(?:starts|begins) with (?:the character |a slash )?'/'",
    flags=re.I,
)
_NAMES_UNIQUE = re.compile(r"each (\w+) name is (?:unique|distinct)", flags=re.I)
_FORMAT = re.compile(
    r"(.+?) (?:is|are) (?:a valid string of length (\d+) )?in the format "
    r"\"?([A-Za-z]{2}(?::[A-Za-z]{2})+)\"?",
    flags=re.I,
)
_FIELD = re.compile(r"\"?(\d+)\"? <= ([A-Za-z]{2}) <= \"?(\d+)\"?")
# a clock's fields: hours, minutes, seconds (two digits each)
_CLOCK = {"hh": 23, "mm": 59, "ss": 59}


def _string_param(facts: Facts, name: str, refusal: str) -> Param:
    """The parameter ``name`` when it is one string; else the line is refused with ``refusal``."""
    p = facts.by_name.get(name)
    if p is None or not p.join or p.depth != 1:
        raise Unsupported(refusal)
    return p


def read_form(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """A form of :mod:`formats` in ``text``: its facts queued in ``acts``, True; False when
    ``text`` states none."""
    m = _ROTATED.fullmatch(text)
    if m:
        name = _list_of_ints(facts, next(g for g in m.groups() if g), "a rotated sorted list")
        _set_form(facts.leaf[name], {"kind": "rotated"}, line, acts)
        acts.append(partial(_ascending, facts.leaf[name]))
        return True
    m = _MOUNTAIN.fullmatch(text)
    if m:
        p = facts.by_name[_list_of_ints(facts, m.group(1), "a mountain array")]
        size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
        cmp.relate(Lin(Fraction(3)), "<=", size, line, acts)
        _set_form(facts.leaf[p.name], {"kind": "mountain"}, line, acts)
        return True
    m = _BALANCED.fullmatch(text)
    if m:
        strings = [p.name for p in facts.params if p.join and p.depth == 1]
        named = next((g for g in m.groups() if g), None)
        target = strings[0] if named is None and len(strings) == 1 else named
        if target is None or target not in strings:
            raise Unsupported("balanced parentheses, but not in one string parameter")
        _set_form(facts.leaf[target], {"kind": "balanced"}, line, acts)
        return True
    m = _PATH.fullmatch(text)
    if m:
        owner = facts.by_name.get(next(g for g in m.groups() if g))
        if owner is None or not owner.join or owner.depth > 2:
            raise Unsupported("a path that is not a string or a list of strings")
        size = Lin(Fraction(0), {Ref("q", key=owner.dim_key(owner.depth - 1)): Fraction(1)})
        cmp.relate(Lin(Fraction(1)), "<=", size, line, acts)
        _set_form(facts.leaf[owner.name], {"kind": "path"}, line, acts)
        return True
    m = _NAMES_UNIQUE.fullmatch(text)
    if m:
        owner = facts.by_name.get(m.group(1))
        if owner is None or not owner.join or owner.depth != 2:
            return False
        distinct = {"level": "string", "scope": "all"}
        acts.append(partial(setattr, facts.leaf[owner.name], "distinct", distinct))
        return True
    if _date(facts, cmp, text, line, acts) or _written(facts, cmp, text, line, acts):
        return True
    if _email(facts, cmp, text, line, acts) or _counted(facts, text, line, acts):
        return True
    if _integer(facts, cmp, text, line, acts) or _sentence(facts, cmp, text, line, acts):
        return True
    return _clock(facts, cmp, text, line, acts)


def _written(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """A number written in a notation: ``The given address is a valid IPv4 address`` (four
    numbers 0 to 255 with no leading zeros, joined by dots: 7 to 15 characters), ``It is
    guaranteed that s is a valid roman numeral in the range [1, 3999]`` (the standard subtractive
    numeral of a number in the range: as long as the range's shortest to its longest, 1 to 15
    characters in [1, 3999]; a length between them that no number has is drawn again)."""
    m = re.fullmatch(
        r"((?:\w+, )*\w+(?:,? and \w+)?) (?:is a|are) valid version numbers?", text, flags=re.I
    )
    if m:
        for part in split_top(re.sub(r",?\s+and\s+", ", ", m.group(1))):
            p = _string_param(
                facts, part.strip(), f"a version number in {part}, which is not a string parameter"
            )
            size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
            cmp.relate(Lin(Fraction(1)), "<=", size, line, acts)
            _set_form(facts.leaf[p.name], {"kind": "version", "digits": 9}, line, acts)
            acts.append(partial(_default_alphabet, facts.leaf[p.name], "0123456789."))
        return True
    m = re.fullmatch(
        r"all the (?:given )?revisions in (\w+) and (\w+) can be stored in a 32-bit integer",
        text,
        flags=re.I,
    )
    if m:  # met by the version form: revisions of at most 9 digits are below 2^31
        versions = {n for n, i in facts.leaf.items() if i.form and i.form[0]["kind"] == "version"}
        return {m.group(1), m.group(2)} <= versions
    m = re.fullmatch(r"(?:the (?:given )?)?(\w+) is a valid ipv4 address", text, flags=re.I)
    if m:
        form: dict[str, Any] = {"kind": "ipv4"}
        name, lengths = m.group(1), (7, 15)
    else:
        m = re.fullmatch(
            r"(?:it is guaranteed that )?(\w+) is a valid roman numeral in the range "
            r"\[(\d+), (\d+)\]",
            text,
            flags=re.I,
        )
        if not m:
            return False
        lo, hi = int(m.group(2)), int(m.group(3))
        if not 1 <= lo <= hi <= 3999:
            raise Unsupported("roman numerals outside [1, 3999]")
        form = {"kind": "roman", "lo": lo, "hi": hi}
        written = [len(_numeral(v)) for v in range(lo, hi + 1)]
        name, lengths = m.group(1), (min(written), max(written))
    p = _string_param(facts, name, f"a written number in {name}, which is not a string parameter")
    size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
    cmp.relate(Lin(Fraction(lengths[0])), "<=", size, line, acts)
    cmp.relate(size, "<=", Lin(Fraction(lengths[1])), line, acts)
    _set_form(facts.leaf[p.name], form, line, acts)
    chars = "0123456789." if form["kind"] == "ipv4" else "IVXLCDM"
    acts.append(partial(_default_alphabet, facts.leaf[p.name], chars))
    return True


def _numeral(v: int) -> str:
    """``v``'s roman numeral, greatest symbols first (the subtractive pairs count as one)."""
    out = ""
    for worth, sym in zip(
        (1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1),
        ("M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"),
        strict=True,
    ):
        count, v = divmod(v, worth)
        out += sym * count
    return out


def _email(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """An email address: ``Each emails[i] contains exactly one '@' character`` (a local name,
    ``@``, a domain name; both non-empty, so ``All local and domain names are non-empty`` then
    holds), ``Local names do not start with a '+' character``, ``Domain names end with the
    ".com" suffix`` (and ``Domain names must contain at least one character before ".com"
    suffix``, which the form meets): ``{"kind": "email", "not_first", "suffix"}``."""
    m = re.fullmatch(
        r"(?:each )?(\w+)(?:\[i\])? contains exactly one '@'(?: character| sign)?", text, re.I
    )
    if m:
        p = facts.by_name.get(m.group(1))
        if p is None or not p.join:
            raise Unsupported(f"an email address in {m.group(1)}, which holds no strings")
        size = Lin(Fraction(0), {Ref("q", key=p.dim_key(p.depth - 1)): Fraction(1)})
        cmp.relate(Lin(Fraction(3)), "<=", size, line, acts)
        _set_form(facts.leaf[p.name], {"kind": "email", "not_first": "", "suffix": ""}, line, acts)
        return True
    emails = [
        (facts.by_name[n], info.form[0])
        for n, info in facts.leaf.items()
        if info.form and info.form[0]["kind"] == "email"
    ]
    if len(emails) != 1:
        return False
    (p, form) = emails[0]
    if re.fullmatch(r"all local and domain names are non-empty", text, re.I):
        return True
    m = re.fullmatch(r"local names do not start with an? '(.)'(?: character)?", text, re.I)
    if m:
        acts.append(partial(form.__setitem__, "not_first", m.group(1)))
        return True
    m = re.fullmatch(r"domain names end with the \"(\.\w+)\" suffix", text, re.I)
    if m:
        size = Lin(Fraction(0), {Ref("q", key=p.dim_key(p.depth - 1)): Fraction(1)})
        cmp.relate(Lin(Fraction(3 + len(m.group(1)))), "<=", size, line, acts)
        acts.append(partial(form.__setitem__, "suffix", m.group(1)))
        return True
    m = re.fullmatch(
        r"domain names must contain at least one character before \"(\.\w+)\" suffix", text, re.I
    )
    return bool(m) and form["suffix"] == m.group(1)  # type: ignore[union-attr]


_COUNTED = {"parentheses": "()", "brackets": "[]", "digits": "0123456789", "spaces": " "}


def _counted(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """``There will be at most 20 parentheses in s``: a string with at most that many of a
    class of characters (``{"kind": "count", "chars", "most"}``); the runtime turns the ones
    beyond it into other characters of the alphabet."""
    half = r"the number of (?:\w+ )*?'(.)' (?:equals|is) (\w+) / 2"
    m = re.fullmatch(rf"{half},? and {half}", text, flags=re.I)
    if m and m.group(1) != m.group(3) and m.group(2) == m.group(4):
        return _halves(facts, m.group(1) + m.group(3), m.group(2), line, acts)
    m = re.fullmatch(
        r"there (?:will be|are|is) at most (\d+) (parentheses|brackets|digits|spaces) in (\w+)",
        text,
        flags=re.I,
    )
    if not m:
        return False
    p = _string_param(
        facts, m.group(3), f"a count of characters in {m.group(3)}, which is not a string"
    )
    form = {"kind": "count", "chars": _COUNTED[m.group(2).lower()], "most": int(m.group(1))}
    _set_form(facts.leaf[p.name], form, line, acts)
    return True


def _halves(facts: Facts, chars: str, size: str, line: str, acts: Acts) -> bool:
    """``The number of opening brackets '[' equals n / 2, and the number of closing brackets
    ']' equals n / 2``, ``n`` the string's length: half of it each of the two characters
    (``{"kind": "halves", "chars"}``; the length is even: a ``mod`` of the schedule)."""
    strings = [p for p in facts.params if p.join and p.depth == 1]
    key = facts.find(strings[0].dim_key(0)) if len(strings) == 1 else None
    if key is None or (size != strings[0].dim_key(0) and facts.find(size) != key):
        raise Unsupported("halves of a string's length, but not of one string's length")
    p = strings[0]
    _set_form(facts.leaf[p.name], {"kind": "halves", "chars": chars}, line, acts)
    acts.append(partial(facts.mods.append, (p.dim_key(0), 2, 0, line)))
    return True


def _integer(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """``n is a valid representation of an integer`` (an optional ``-``, then digits: no leading
    zero but in ``0`` itself), with ``The digits in n are in the range [1, 9]`` (its digits)
    and ``In the case of a negative n, it will begin with '-'`` (which the form meets):
    ``{"kind": "integer", "digits"}``. The digits alone, with no such sentence, are refused."""
    m = re.fullmatch(r"the digits in (\w+) are in the range \[(\d), (\d)\]", text, flags=re.I)
    m2 = re.fullmatch(r"(\w+) is a valid representation of an integer", text, flags=re.I)
    m3 = re.fullmatch(r"in the case of a negative (\w+), it will begin with '-'", text, re.I)
    found = m or m2 or m3
    if not found:
        return False
    p = _string_param(
        facts, found.group(1), f"an integer written in {found.group(1)}, which is not a string"
    )
    info = facts.leaf[p.name]

    def act() -> None:
        fresh: dict[str, Any] = {"kind": "integer", "digits": "0123456789"}
        form = info.form[0] if info.form else fresh
        if form["kind"] != "integer":
            raise Unsupported("two structures for one parameter")
        if m:
            form["digits"] = "".join(str(d) for d in range(int(m.group(2)), int(m.group(3)) + 1))
        if m2:
            form["valid"] = True
        info.form = (form, line if m2 or info.form is None else info.form[1])

    acts.append(act)
    if m2:
        size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
        cmp.relate(Lin(Fraction(1)), "<=", size, line, acts)
        acts.append(lambda: _default_alphabet(info, "".join(info.form[0]["digits"]) + "-"))  # type: ignore[index]
    return True


def _sentence(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """``text begins with a capital letter and then contains lowercase letters and single space
    between words``: words of lowercase letters, one space between two, the first letter a
    capital (``{"kind": "sentence"}``)."""
    m = re.fullmatch(
        r"(\w+) begins with a capital letter and then contains lowercase letters and single "
        r"spaces? between words",
        text,
        flags=re.I,
    )
    if not m:
        return False
    p = _string_param(facts, m.group(1), f"a sentence in {m.group(1)}, which is not a string")
    size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
    cmp.relate(Lin(Fraction(1)), "<=", size, line, acts)
    _set_form(facts.leaf[p.name], {"kind": "sentence"}, line, acts)
    letters = "abcdefghijklmnopqrstuvwxyz"
    acts.append(partial(_default_alphabet, facts.leaf[p.name], letters + letters.upper() + " "))
    return True


def _default_alphabet(info: LeafInfo, chars: str) -> None:
    if info.alphabet is None:
        info.alphabet = chars


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DAY = r"([A-Za-z]{3})[a-z]* (\d{1,2})(?:\^?(?:st|nd|rd|th))?,? (\d{4})"
_DATES = re.compile(
    r"(?:it is guaranteed that |the input is generated such that )?(?:the given dates|(\w+)) "
    r"(?:represents?|are|is) (?:a |the )?(?:valid )?(?:gregorian )?(?:calendar )?dates? "
    rf"(?:between {_DAY} and {_DAY}(?: \(both inclusive\))?|"
    r"between the years (\d{4}) and (\d{4}))",
    flags=re.I,
)


def _date(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """``date[4] == date[7] == '-', and all other date[i]'s are digits`` (a date's layout,
    YYYY-MM-DD), and ``date represents a calendar date between Jan 1st, 1900 and Dec 31st,
    2019`` / ``The given dates are valid dates between the years 1971 and 2100`` (every
    string, laid out as the description says: ``formatted as YYYY-MM-DD``): a valid date of
    the Gregorian calendar in the range, ``{"kind": "date", "lo": [y, m, d], "hi": [y, m, d]}``.
    A layout with no range is refused where the spec is written."""
    m = re.fullmatch(r"(\w+)\[4\] == \1\[7\] == '-',? and all other \1\[i\]'s are digits", text)
    if m:
        _dated(facts, cmp, m.group(1), None, line, acts)
        return True
    m = _DATES.fullmatch(text)
    if not m:
        return False
    g = m.groups()
    if g[7]:
        span = ([int(g[7]), 1, 1], [int(g[8]), 12, 31])
    else:
        if g[1][:3].lower() not in _MONTHS or g[4][:3].lower() not in _MONTHS:
            raise Unsupported("a date range whose months are not read")
        lo = [int(g[3]), _MONTHS.index(g[1][:3].lower()) + 1, int(g[2])]
        span = (lo, [int(g[6]), _MONTHS.index(g[4][:3].lower()) + 1, int(g[5])])
    if g[0]:
        names = [g[0]]
    else:
        names = [p.name for p in facts.params if p.join and p.depth == 1]
        if not re.search(
            r"format(?:ted)?(?: is| as)? \"?YYYY-MM-DD|in the yyyy-mm-dd format",
            facts.prose,
            flags=re.I,
        ):
            raise Unsupported("dates, but no YYYY-MM-DD layout stated for them")
    for name in names:
        _dated(facts, cmp, name, span, line, acts)
    return True


def _dated(
    facts: Facts,
    cmp: Comparisons,
    name: str,
    span: tuple[list[int], list[int]] | None,
    line: str,
    acts: Acts,
) -> None:
    """``name`` a date string of 10 characters (YYYY-MM-DD), in ``span`` when given."""
    p = _string_param(facts, name, f"a date in {name}, which is not a string parameter")
    size = Lin(Fraction(0), {Ref("q", key=p.dim_key(0)): Fraction(1)})
    cmp.relate(size, "==", Lin(Fraction(10)), line, acts)
    info = facts.leaf[p.name]

    def act() -> None:
        fresh: dict[str, Any] = {"kind": "date", "lo": None, "hi": None}
        form = info.form[0] if info.form else fresh
        if form["kind"] != "date":
            raise Unsupported("two structures for one parameter")
        if span is not None:
            if form["lo"] is not None and [form["lo"], form["hi"]] != list(span):
                raise Unsupported("two ranges of dates")
            form["lo"], form["hi"] = span
        info.form = (form, line if span is not None or info.form is None else info.form[1])
        if info.alphabet is None:
            info.alphabet = "0123456789-"

    acts.append(act)


def _clock(facts: Facts, cmp: Comparisons, text: str, line: str, acts: Acts) -> bool:
    """``time is in the format "HH:MM"`` (its strings) and ``00 <= hh <= 23`` (a field); two
    strings of one format compared, digits hidden (:func:`_format_rules`)."""
    if _format_rules(facts, text, line, acts):
        return True
    m = _FIELD.fullmatch(text)
    if m:
        found = [
            info
            for info in facts.leaf.values()
            if info.form and info.form[0]["kind"] == "format"
            for part in info.form[0]["parts"]
            if isinstance(part, list) and part[0] == m.group(2).lower()
        ]
        if not found:
            return False
        for info in found:
            acts.append(
                partial(_narrow, info, m.group(2).lower(), int(m.group(1)), int(m.group(3)))
            )
        return True
    m = _FORMAT.fullmatch(text)
    if not m:
        return False
    fields = m.group(3).lower().split(":")
    if any(f not in _CLOCK for f in fields) or len(set(fields)) != len(fields):
        raise Unsupported(f"the format {m.group(3)}: only a clock's hh, mm and ss are read")
    if re.search(r"12-hour|\bAM\b|\bPM\b", facts.prose):
        raise Unsupported("a clock format on a 12-hour clock")
    parts: list[Any] = []
    for f in fields:
        parts += [":", [f, 2, 0, _CLOCK[f]]] if parts else [[f, 2, 0, _CLOCK[f]]]
    width = 3 * len(fields) - 1
    if m.group(2) and int(m.group(2)) != width:
        raise Unsupported(f"a string of length {m.group(2)} in a format of {width} characters")
    for part in split_top(re.sub(r",?\s+and\s+", ", ", m.group(1))):
        base = re.fullmatch(r"(\w+)((?:\[[a-z]\])*)", part.strip())
        p = facts.by_name.get(base.group(1)) if base else None
        if p is None or base is None or not p.join or base.group(2).count("[") != p.depth - 1:
            raise Unsupported(f"a format for {part}, which is not a string parameter or item")
        size = Lin(Fraction(0), {Ref("q", key=p.dim_key(p.depth - 1)): Fraction(1)})
        cmp.relate(size, "==", Lin(Fraction(width)), line, acts)
        form = {"kind": "format", "parts": [list(x) if isinstance(x, list) else x for x in parts]}
        _set_form(facts.leaf[p.name], form, line, acts)
        acts.append(partial(_clock_alphabet, facts.leaf[p.name]))
    return True


def _formatted(facts: Facts) -> dict[str, LeafInfo]:
    """The parameters a format line has given a format so far."""
    return {
        name: info
        for name, info in facts.leaf.items()
        if info.form is not None and info.form[0]["kind"] == "format"
    }


def _format_rules(facts: Facts, text: str, line: str, acts: Acts) -> bool:
    """Said of strings a format line has read: ``current <= correct``, ``loginTime and
    logoutTime are not equal`` (two of them compared whole: in one fixed-width format of
    two-digit fields from the greatest unit down, text order is time order), ``Some of the
    digits might be replaced with '?'`` (digits hidden), and ``It is guaranteed that you can
    produce a valid time from the given string`` (digits hidden, with the character the
    description names: ``some of the digits ... are hidden (represented by ?)``). False when
    ``text`` says none of these of formatted strings."""
    formatted = _formatted(facts)
    m = re.fullmatch(r"\[(\w+)\[i\], (\w+)\[i\]\] is unique", text)
    if m and m.group(2) in formatted and m.group(1) in facts.by_name:
        acts.append(partial(facts.relations.append, (m.group(1), "pairs", m.group(2), line)))
        return True
    m = re.fullmatch(r"(\w+) (<=|<|>=|>|!=) (\w+)", text) or re.fullmatch(
        r"(\w+) and (\w+) are (not equal|different)", text, flags=re.I
    )
    if m and len(m.groups()) == 3 and m.group(2) in ("<=", "<", ">=", ">", "!="):
        a, op, b = m.group(1), m.group(2), m.group(3)
    elif m:
        a, op, b = m.group(1), "!=", m.group(2)
    if m:
        if a not in formatted or b not in formatted or a == b:
            return False
        acts.append(partial(facts.relations.append, (a, op, b, line)))
        return True
    m = re.fullmatch(
        r"some (?:of the )?digits (?:might|may|can|could) be replaced (?:with|by) '(.)'"
        r"(?: and .+)?",
        text,
        flags=re.I,
    )
    mask = m.group(1) if m else None
    if re.fullmatch(
        r"it is guaranteed that you can produce a valid time from the given string",
        text,
        flags=re.I,
    ):
        found = re.search(
            r"digits[^.]*?(?:hidden|replaced)[^.]*?(?:represented by|with) ['\"]?([?*#_])",
            facts.prose,
        )
        if found is None:
            raise Unsupported("a valid time to produce, but no hidden digits in the description")
        mask = found.group(1)
    if mask is None:
        return False
    if len(formatted) != 1:
        raise Unsupported("hidden digits, but not in one formatted string parameter")
    (info,) = formatted.values()
    acts.append(partial(_hide, info, mask))
    return True


def _hide(info: LeafInfo, mask: str) -> None:
    assert info.form is not None
    if info.form[0].get("mask", mask) != mask:
        raise Unsupported("digits hidden by two characters")
    info.form[0]["mask"] = mask
    if info.alphabet is not None and mask not in info.alphabet:
        info.alphabet += mask


def relations_spec(facts: Facts, params: list[dict[str, Any]], problems: list[str]) -> list[Any]:
    """``spec["relations"]``: ``[a, op, b]`` by parameter index, for two strings whose specs
    are the same but for the name (either may then hold the other's value) and whose digits are
    not hidden (a hidden digit has no order). Their lengths are both the format's width."""
    index = {p["name"]: i for i, p in enumerate(params)}
    out = []
    for a, op, b, line in facts.relations:
        pa, pb = params[index[a]], params[index[b]]
        if op == "pairs":  # [a[i], b[i]] unique: b's strings drawn whole (a format or a date)
            lists = pa["kind"] == pb["kind"] == "list" and pa["dims"][0] == pb["dims"][0]
            whole = pb.get("form", {}).get("kind") in ("format", "date")
            if not lists or not whole or pb["form"].get("mask") or pb.get("distinct"):
                problems.append(
                    f'"{line}": unique pairs, of two lists of one length whose '
                    "second holds strings of a format or dates"
                )
            out.append([index[a], op, index[b]])
            continue
        same = _unnamed(pa) == _unnamed(pb)  # lengths: the format's width, for both
        if not same or pa.get("form", {}).get("mask"):
            problems.append(f'"{line}": a comparison of two strings of one format and one spec')
        out.append([index[a], op, index[b]])
    return out


def _unnamed(p: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in p.items() if k not in ("name", "dims")}


def _narrow(info: LeafInfo, field: str, lo: int, hi: int) -> None:
    assert info.form is not None
    for part in info.form[0]["parts"]:
        if isinstance(part, list) and part[0] == field:
            part[2], part[3] = max(part[2], lo), min(part[3], hi)
            if part[2] > part[3]:
                raise Unsupported(f"an empty range for the field {field}")


def _clock_alphabet(info: LeafInfo) -> None:
    """A clock's characters, where no line states the alphabet (one that does is checked to
    hold them when the spec is written)."""
    if info.alphabet is None:
        info.alphabet = "0123456789:"


def _ascending(info: LeafInfo) -> None:
    if info.sorted not in (None, "asc"):
        raise Unsupported("a rotated list sorted in descending order")
    info.sorted = "asc"


def _set_form(info: LeafInfo, form: dict[str, Any], line: str, acts: Acts) -> None:
    def act() -> None:
        if info.form is not None and info.form[0] != form:
            raise Unsupported("two structures for one parameter")
        info.form = (form, line)

    acts.append(act)


def _list_of_ints(facts: Facts, name: str, what: str) -> str:
    p = facts.by_name.get(name)
    if p is None or p.depth != 1 or p.join or p.tree or p.leaf != "int":
        raise Unsupported(f"{what} in {name}, which is not a list of integers")
    return name


def even_lengths(facts: Facts) -> None:
    """A balanced string whose alphabet holds only the two parentheses has an even length
    (added before the schedule, once every alphabet line is read)."""
    for p in facts.params:
        info = facts.leaf[p.name]
        form = info.form
        if form and form[0]["kind"] == "balanced" and set(info.alphabet or "x") <= set("()"):
            facts.mods.append((p.dim_key(0), 2, 0, form[1]))


def form_problem(p: Param, info: LeafInfo, out: dict[str, Any]) -> str | None:
    """Why ``p``'s form cannot be drawn with the rest of its spec ``out``, or None."""
    assert info.form is not None
    kind = info.form[0]["kind"]
    leaf = out["leaf"]
    if kind == "number":  # an integer written as a string (numstrings.py)
        return number_problem(info, out)
    if info.pins or info.apart or info.lead or info.spaces or out.get("values_sum_max") is not None:
        return "a structure together with fixed positions, values apart or rules of text"
    if kind == "rotated":
        return None
    if kind == "path":
        others = set(leaf.get("alphabet") or "") - {"/"}
        ok = "/" in (leaf.get("alphabet") or "") and others and not info.sorted
        return None if ok else "a path, whose alphabet needs '/' and another character"
    if info.distinct or (info.sorted and kind != "rotated"):
        return "a structure together with distinct or sorted values"
    if kind == "mountain":
        ends = leaf.get("lo", []) + leaf.get("hi", [])
        if "set" in leaf or leaf.get("ne") or not all(isinstance(b, int) for b in ends):
            return "a mountain array, whose values need one constant range"
        return None
    alphabet = leaf.get("alphabet") or ""
    if kind == "date":
        if info.form[0]["lo"] is None:
            return "a date's layout, but no range of dates"
        if not set("0123456789-") <= set(alphabet):
            return "a date whose characters are not all in the stated alphabet"
        return None if info.form[0]["lo"] <= info.form[0]["hi"] else "an empty range of dates"
    if kind == "email":
        form = info.form[0]
        required = {"@", *form["suffix"]}
        names = set(alphabet) - {"@", form["not_first"]}
        if not required <= set(alphabet) or not names or info.distinct or info.sorted:
            return "an email address whose alphabet lacks '@', its suffix or a first character"
        return None
    if kind == "integer":
        form = info.form[0]
        if not form.get("valid"):
            return "the digits of a string, but no sentence that it writes an integer"
        return None if set(form["digits"] + "-") <= set(alphabet) else "digits not in the alphabet"
    if kind == "sentence":
        letters = "abcdefghijklmnopqrstuvwxyz"
        ok = set(letters + letters.upper() + " ") <= set(alphabet)
        return None if ok else "a sentence whose letters the alphabet lacks"
    if kind == "halves":
        both = set(info.form[0]["chars"]) <= set(alphabet)
        return None if both else "halves of two characters that the alphabet lacks"
    if kind == "count":
        others = set(alphabet) - set(info.form[0]["chars"])
        return None if others else "a count of characters, but no other character to draw"
    if kind in ("ipv4", "roman", "version"):
        need = "IVXLCDM" if kind == "roman" else "0123456789."
        ok = set(need) <= set(alphabet)
        return None if ok else f"a written number whose characters ({need}) the alphabet lacks"
    if kind == "balanced":
        return None if "(" in alphabet and ")" in alphabet else "parentheses not in the alphabet"
    if not set("0123456789:") <= set(alphabet):
        return "a clock format whose characters are not all in the stated alphabet"
    return None
