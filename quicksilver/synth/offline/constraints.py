"""The constraint parser: LeetCode types, references (``nums[i]``, ``grid[i].length``), linear
integer expressions (``2 * 10^4 - n``), alphabets and value sets, as Constraints items write them;
and the number formats the notes use (``10^5`` rather than ``100000``). The analysis
(:mod:`quicksilver.synth.offline.analysis`) reads Constraints lines with these.
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# Types, references and expressions
# ---------------------------------------------------------------------------------------------

_SCALAR_LEAF = {
    "integer": "int",
    "long": "int",
    "double": "float",
    "boolean": "bool",
    "character": "char",
}


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    depth: int  # list nesting of the value (a string's characters count; a tree: its node count)
    leaf: str  # int | float | bool | char
    join: bool = False  # innermost character lists are strings
    tree: bool = False
    node: bool = False  # TreeNode / ListNode forms: ``Node.val`` names their values

    def dim_key(self, d: int) -> str:
        return f"{self.name}.nodes" if self.tree else self.name + "[i]" * d + ".length"

    @property
    def is_quantity(self) -> bool:
        return self.depth == 0 and self.leaf == "int"


def parse_type(name: str, t: str) -> Param | None:
    base, depth = t.strip(), 0
    while True:
        if base.endswith("[]"):
            base, depth = base[:-2].strip(), depth + 1
        elif base.startswith("list<") and base.endswith(">"):
            base, depth = base[5:-1].strip(), depth + 1
        else:
            break
    if base in _SCALAR_LEAF:
        return Param(name, t, depth, _SCALAR_LEAF[base])
    if base == "string":
        return Param(name, t, depth + 1, "char", join=True)
    if base == "TreeNode" and depth == 0:
        return Param(name, t, 1, "int", tree=True, node=True)
    if base == "ListNode" and depth <= 1:
        return Param(name, t, depth + 1, "int", node=True)
    return None


@dataclass(frozen=True)
class Ref:
    """What a name in a constraint denotes."""

    kind: str  # "q": an integer quantity; "leaf": values of params; "container": a (sub)list
    key: str = ""  # q: the quantity's key (a parameter, a dimension, or a free name like n)
    params: tuple[str, ...] = ()  # leaf / container
    depth: int = 0  # container: how many indexes deep
    col: int = -1  # leaf: one field of each row (``edges[i] = [a_i, b_i]``: a_i is column 0)


class Unsupported(ValueError):
    """The line has a recognised form but something in it cannot be generated."""


REF_RE = re.compile(r"[A-Za-z_]\w*(?:\[[^\[\]]*\])*(?:\.\w+(?:\(\))?)?")


def split_top(text: str) -> list[str]:
    """``a, b, and c`` -> its items, keeping commas inside brackets (``min(50, nums.length)``)."""
    items: list[str] = []
    depth = 0
    cur = ""
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    out = [re.sub(r"^and\s+", "", i.strip()) for i in items]
    return [i for i in out if i]


def clean(line: str) -> str:
    """A Constraints item ready for the forms: no final period, ``10,000`` -> ``10000``,
    LeetCode's odd minus signs (``–10^4``) as ``-``, and its ``5 x 10^4`` as ``5 * 10^4``."""
    text = line.strip().rstrip(".").strip()
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = re.sub(r"\b(\d+) x (?=10\^)", r"\1 * ", text)  # LeetCode's "5 x 10^4"
    return re.sub(r"[\u2013\u2212](?=\s*\d)", "-", text)


# ``edges[i] = [a_i, b_i]``, ``queries[i] == [l_i, r_i, x_i]``: names for the fields of each row
FIELDS_RE = re.compile(r"([A-Za-z_]\w*)\[i\] ?==? ?\[([A-Za-z_]\w*(?:,\s*[A-Za-z_]\w*)+)\]")
# the same said in words: "Each element of intervals is a closed interval [start_i, end_i]"
FIELDS_WORDS_RE = re.compile(
    r"\b(?:each|every) (?:element|item|entry|row|pair|member) (?:of|in) ([A-Za-z_]\w*) "
    r"(?:is|represents|describes|has the form|is of the form) [^.\[\]]{0,60}?"
    r"\[([A-Za-z_]\w*_i(?:,\s*[A-Za-z_]\w*_i)+)\]",
    flags=re.I,
)


class Lin:
    """A linear form ``const + sum(coef * ref)`` with exact rational coefficients."""

    def __init__(self, const: Fraction = Fraction(0), terms: dict[Ref, Fraction] | None = None):
        self.const = Fraction(const)
        self.terms = {k: v for k, v in (terms or {}).items() if v != 0}

    def __add__(self, other: Lin) -> Lin:
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, Fraction(0)) + v
        return Lin(self.const + other.const, terms)

    def scale(self, f: Fraction) -> Lin:
        return Lin(self.const * f, {k: v * f for k, v in self.terms.items()})

    def __sub__(self, other: Lin) -> Lin:
        return self + other.scale(Fraction(-1))

    def single(self) -> Ref | None:
        """The reference when the form is exactly one reference (coefficient 1, no constant)."""
        if self.const == 0 and len(self.terms) == 1:
            ref, coef = next(iter(self.terms.items()))
            return ref if coef == 1 else None
        return None


_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?)|(?P<ref>" + REF_RE.pattern + r")|(?P<op>[-+*/^()]))"
)


def tokenize(text: str, token: re.Pattern[str]) -> list[tuple[str, str]]:
    """(kind, text) per token of ``text`` by ``token``'s named groups; Unsupported at the first
    character no token starts with."""
    tokens: list[tuple[str, str]] = []
    pos, text = 0, text.strip()
    while pos < len(text):
        m = token.match(text, pos)
        if not m or m.end() == pos:
            raise Unsupported(f"cannot read {text[pos:]!r}")
        kind = m.lastgroup or ""
        tokens.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return tokens


class ExprParser:
    """Recursive descent over ``+ - * ^ ( )``, numbers and references; linear results only."""

    def __init__(self, text: str, resolve: Callable[[str], Ref]) -> None:
        self.tokens = tokenize(text, _TOKEN)
        self.i = 0
        self.resolve = resolve

    def parse(self) -> Lin:
        if not self.tokens:
            raise Unsupported("an empty expression")
        out = self._expr()
        if self.i != len(self.tokens):
            raise Unsupported(f"unexpected {self.tokens[self.i][1]!r}")
        return out

    def _peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def _expr(self) -> Lin:
        out = self._term()
        while self._peek() in ("+", "-"):
            op = self.tokens[self.i][1]
            self.i += 1
            rhs = self._term()
            out = out + rhs if op == "+" else out - rhs
        return out

    def _term(self) -> Lin:
        out = self._unary()
        while self._peek() in ("*", "/"):
            op = self.tokens[self.i][1]
            self.i += 1
            rhs = self._unary()
            if op == "/":
                # ``s.length / 2``: exact (rational) here; a bound between integer quantities
                # is scaled back to integers later, a bound on values must not be fractional
                if rhs.terms or rhs.const == 0:
                    raise Unsupported("a division by a quantity")
                out = out.scale(1 / rhs.const)
            elif not rhs.terms:
                out = out.scale(rhs.const)
            elif not out.terms:
                out = rhs.scale(out.const)
            else:
                raise Unsupported("a product of two quantities")
        return out

    def _unary(self) -> Lin:
        if self._peek() == "-":
            self.i += 1
            return self._unary().scale(Fraction(-1))
        if self._peek() == "+":
            self.i += 1
            return self._unary()
        return self._power()

    def _power(self) -> Lin:
        base = self._atom()
        if self._peek() == "^":
            self.i += 1
            exp = self._unary()
            if base.terms or exp.terms or exp.const.denominator != 1 or exp.const < 0:
                raise Unsupported("a power of a quantity")
            return Lin(base.const ** int(exp.const))
        return base

    def _atom(self) -> Lin:
        if self.i >= len(self.tokens):
            raise Unsupported("an incomplete expression")
        kind, tok = self.tokens[self.i]
        self.i += 1
        if kind == "num":
            return Lin(Fraction(tok))
        if kind == "ref":
            return Lin(Fraction(0), {self.resolve(tok): Fraction(1)})
        if tok == "(":
            out = self._expr()
            if self._peek() != ")":
                raise Unsupported("unbalanced parentheses")
            self.i += 1
            return out
        raise Unsupported(f"unexpected {tok!r}")


# ---------------------------------------------------------------------------------------------
# Alphabets
# ---------------------------------------------------------------------------------------------

_LETTERS = string.ascii_lowercase + string.ascii_uppercase
_CHAR_CLASSES = {
    "lowercase english letters": string.ascii_lowercase,
    "lowercase english letter": string.ascii_lowercase,
    "lowercase english characters": string.ascii_lowercase,
    "lowercase letters": string.ascii_lowercase,
    "lowercase letter": string.ascii_lowercase,
    "uppercase english letters": string.ascii_uppercase,
    "uppercase english letter": string.ascii_uppercase,
    "uppercase letters": string.ascii_uppercase,
    "uppercase letter": string.ascii_uppercase,
    "english letters": _LETTERS,
    "english letter": _LETTERS,
    "letters": _LETTERS,
    "letter": _LETTERS,
    "digits": string.digits,
    "digit": string.digits,
    "symbols": string.punctuation,
    "symbol": string.punctuation,
    "round brackets": "()",
    "parentheses": "()",
    "square brackets": "[]",
    "curly brackets": "{}",
    "stars": "*",
    "star": "*",
    "spaces": " ",
    "space": " ",
    "space characters": " ",
    "space character": " ",
    "the space character": " ",
    "english small letters": string.ascii_lowercase,
    "small english letters": string.ascii_lowercase,
    "small letters": string.ascii_lowercase,
    "printable ascii characters": "".join(chr(c) for c in range(32, 127)),
    "printable ascii character": "".join(chr(c) for c in range(32, 127)),
}
_CLASS_NAMES = {
    string.ascii_lowercase: "lowercase English letters",
    string.ascii_uppercase: "uppercase English letters",
    _LETTERS: "English letters",
    string.digits: "digits",
}
QUOTED = re.compile(r"'(.)'|\"(.)\"")
# a quoted run of characters where the sentence lists characters: "!@#$", square brackets '[]'
_QUOTED_RUN = re.compile(
    r"(\b(?:characters?|brackets|parenthes[ie]s|in|from|string|symbols?)(?:\s+only)?\s*:?\s*)"
    r"'([^'\s]{2,40})'|"
    r"(\b(?:characters?|brackets|parenthes[ie]s|in|from|string|symbols?)(?:\s+only)?\s*:?\s*)"
    r"\"([^\"\s]{2,40})\""
)
_QUOTED_RANGE = re.compile(
    r"(?:from\s+)?(['\"])(.)\1\s*(?:to|through|-)\s*(['\"])(.)\3|"
    r"(?:in\s+)?the\s+range\s+\[\s*(['\"])(.)\5\s*,\s*(['\"])(.)\7\s*\]",  # ['2', '9']
    flags=re.I,
)
# unquoted single letters named as characters: "a, b or c characters", "characters a, b and c"
_LETTER_LIST = r"[A-Za-z](?:\s*,\s*[A-Za-z])*,?\s+(?:and|or)\s+[A-Za-z]"
_BARE_LETTERS = re.compile(
    rf"(?:only\s+)?(?:the\s+)?(?:characters|letters)\s+(?P<a>{_LETTER_LIST})|"
    rf"(?:only\s+)?(?P<b>{_LETTER_LIST})\s+(?:characters|letters)"
)
# "digits 2 through 9", "digits (0-9)", "digits from 0 to 9", "digits 0-9"
_DIGIT_RANGE = re.compile(r"\bdigits?\s*(?:from\s+)?\(?(\d)\s*(?:to|through|-)\s*(\d)\)?")
# names that a quoted character follows ("period '.'", "the characters '0' and '1'")
_CHAR_NAMES = (
    r"(?:(?:the\s+)?(?:special\s+)?(?:characters?|letters?|digits?|symbols?)(?:\s+(?:from|in))?"
    r"(?:\s+the\s+(?:set|string))?|(?:lowercase\s+)?(?:english\s+)?letters(?:\s+from)?(?:\s+the\s+set)?|"
    r"operators?|(?:from\s+)?the\s+set|periods?|slash(?:es)?|dots?|plus|minus|commas?|hyphens?|underscores?|"
    r"apostrophes?|asterisks?|dash(?:es)?|stars?|vertical\s+bars?|"
    r"(?:square\s+|round\s+|curly\s+)?brackets|parenthes[ie]s|negative\s+sign|"
    r"exclamation\s+marks?|spaces?|the\s+following\s+characters|"
    r"one\s+(?:of\s+)?(?:the\s+)?following(?:\s+characters)?)"
)


def set_items(text: str) -> list[str | int] | None:
    """``'0' or '1'`` / ``0, 1, or 2`` / ``lowercase English letters, '.', and '*'``: the items
    (a class expands to its characters; ints stay ints); None when something is not recognised.

    Reads LeetCode's many ways to say it: ``English lowercase letters``, ``lower case``,
    ``the characters 'a', 'b', and 'c'``, ``digits from '0' to '9'``, ``digits (0-9)``,
    ``period '.'``, ``the special characters in "!@#$"``, ``{'a', 'b'}``, ``0's and 1's``.
    """
    quoted: list[str] = []

    def hold(chars: str) -> str:
        quoted.append(chars)
        return f" \x00{len(quoted) - 1}\x00 "

    def run(m: re.Match[str]) -> str:
        lead = m.group(1) if m.group(1) is not None else m.group(3)
        return lead + hold(m.group(2) if m.group(2) is not None else m.group(4))

    def span(m: re.Match[str]) -> str:
        a, b = (ord(m.group(i) or m.group(i + 4)) for i in (2, 4))
        return hold("".join(chr(c) for c in range(a, b + 1))) if a <= b else m.group(0)

    def keep(m: re.Match[str]) -> str:
        return hold(m.group(1) if m.group(1) is not None else m.group(2))

    bare = _BARE_LETTERS.fullmatch(text.strip().rstrip(".").strip())
    if bare:  # "a, b or c characters": the letters themselves, not the article "a"
        return list(dict.fromkeys(re.findall(r"\b[A-Za-z]\b", bare["a"] or bare["b"])))
    text = re.sub(r"\s*\(excluding the quotes\)$", "", text.strip(), flags=re.I)
    text = _QUOTED_RUN.sub(run, text)
    text = _QUOTED_RANGE.sub(span, text)
    text = QUOTED.sub(keep, text).lower().strip().rstrip(".").strip()
    text = _DIGIT_RANGE.sub(
        lambda m: hold("".join(str(d) for d in range(int(m.group(1)), int(m.group(2)) + 1))),
        text,
    )
    text = re.sub(r"^only\s+|\s+only$", "", text)  # "digits only"
    # "... if it is non-empty" (an empty string meets any alphabet), "..., inclusive"
    text = re.sub(r"\s+if it is non-empty$|,?\s+inclusive$", "", text)
    text = re.sub(r"\bor,\s", "or ", text)  # "'G', 'L' or, 'R'"
    # "characters with ASCII values in the range [33, 122]": the printable ones among them
    text = re.sub(
        r"\b(?:the )?characters? with ascii (?:values?|codes?) (?:in the range )?"
        r"\[(\d+),\s*(\d+)\]",
        lambda m: hold("".join(chr(c) for c in range(max(32, int(m[1])), min(126, int(m[2])) + 1))),
        text,
    )
    # "any possible characters out of all the 256 ASCII characters": as "any ascii character"
    text = re.sub(
        r"\bany (?:possible )?characters? (?:out of|of|from) (?:all )?(?:the )?(?:256 |128 )?"
        r"(?=ascii characters?\b)",
        "",
        text,
    )
    # "any valid ascii character": drawn from the printable ones, a part of what it allows
    text = re.sub(
        r"\b(?:any\s+(?:valid\s+)?|valid\s+)?(?<!printable )ascii characters?\b",
        "printable ascii characters",
        text,
    )
    text = re.sub(r"\bstars?\s+\*", "stars", text)  # "stars *"
    text = re.sub(r"(\d)'s\b", r"\1", text)  # "0's and 1's"
    text = text.replace("and/or", "and").replace("lower-case", "lowercase")
    text = re.sub(r"\b(lower|upper)[- ]case\b", r"\1case", text)
    text = re.sub(r"\bnumeric digits\b", "digits", text)
    text = re.sub(
        r"\benglish (?:uppercase and lowercase|lowercase and uppercase) letters",
        "english letters",
        text,
    )
    text = re.sub(r"\benglish (lowercase|uppercase)\b", r"\1 english", text)
    text = re.sub(
        r"(?:english )?(?:lower(?:case)?|upper(?:case)?) and (?:lower(?:case)?|upper(?:case)?) "
        r"(?:english )?(?:letters|characters)",
        "english letters",
        text,
    )
    text = re.sub(
        r"letters of the english alphabet in (?:lowercase and uppercase|uppercase and lowercase)",
        "english letters",
        text,
    )
    text = re.sub(
        r"(?:english )?(letters?) \((?:both )?(?:lowercase|uppercase) (?:and|or) "
        r"(?:uppercase|lowercase)\)",
        r"english \1",
        text,
    )
    text = re.sub(r"\b(lowercase|uppercase) english characters?\b", r"\1 english letters", text)
    # a name before a quoted character or run ("period '.'"), or after it ("'#' letter")
    text = re.sub(rf"\b{_CHAR_NAMES}(?:\s+only)?\s*:?\s*(?=[\[({{]?\s*\x00)", "", text)
    text = re.sub(r"(\x00\d+\x00)\s+(?:characters?|letters?|s)\b", r"\1", text)  # '0's
    text = re.sub(r"\b(?:the\s+)?digits\s+(?=\d\b)", "", text)  # "the digits 0 and 1"
    if "\x00" in text:
        text = re.sub(r"[{}\[\]()]", " ", text)  # {'a', 'b'}, ['A', 'C'], ('I', 'V')
    out: list[str | int] = []
    for raw in re.split(r"\s*,\s*|\s+(?:and|or)\s+", text):
        item = raw.strip().rstrip(".").strip()
        item = re.sub(r"^(?:(?:and|or|either|only|one of|a|an|the|from)\s+)+", "", item).strip()
        if not item:
            continue
        held = re.findall(r"\x00(\d+)\x00", item)
        if held and not re.sub(r"\x00\d+\x00", "", item).strip():
            out.extend(c for i in held for c in quoted[int(i)])
        elif re.fullmatch(r"-?\d+", item):
            out.append(int(item))
        elif item in _CHAR_CLASSES:
            out.extend(_CHAR_CLASSES[item])
        else:
            return None
    return out or None


def word_items(text: str) -> list[str] | None:
    """``either "add" or "jump"``, ``"UP", "RIGHT", "DOWN", and "LEFT"``, ``the strings "rook",
    "queen", and "bishop"``: the quoted words, each a whole string; None when anything else is
    there, or when every word is one character (an alphabet, read by :func:`set_items`)."""
    text = re.sub(r"\s+", " ", text.strip().rstrip(".").strip())
    text = re.sub(
        r"^(?:(?:either|only|one of|of|the|strings|words)\s*:?\s+)+", "", text, flags=re.I
    )
    parts = [
        p
        for p in re.split(r"\s*,\s*(?:and/or\s+|and\s+|or\s+)?|\s+(?:and|or|and/or)\s+", text)
        if p
    ]
    words = [m.group(1) for p in parts if (m := re.fullmatch(r'"([^"]+)"', p))]
    if not words or len(words) != len(parts) or all(len(w) == 1 for w in words):
        return None
    return list(dict.fromkeys(words))


def describe_alphabet(chars: str) -> str:
    """E.g. ``lowercase English letters``, ``digits, symbols, spaces``, ``{'(', ')'}``."""
    if chars in _CLASS_NAMES:
        return _CLASS_NAMES[chars]
    parts: list[str] = []
    rest = chars
    groups = (
        (_LETTERS, "English letters"),
        (string.ascii_lowercase, "lowercase English letters"),
        (string.ascii_uppercase, "uppercase English letters"),
        (string.digits, "digits"),
        (string.punctuation, "symbols"),
    )
    for group, name in groups:
        if all(c in rest for c in group):
            parts.append(name)
            rest = "".join(c for c in rest if c not in group)
    if " " in rest and parts:
        parts.append("spaces")
        rest = rest.replace(" ", "")
    if not parts:
        return "{" + ", ".join(repr(c) for c in rest) + "}"
    return ", ".join(parts + [repr(c) for c in rest])


# ---------------------------------------------------------------------------------------------
# Number formatting for notes
# ---------------------------------------------------------------------------------------------


def fmt(n: Fraction | int | float) -> str:
    """10^5 rather than 100000 in notes, as statements write it."""
    if isinstance(n, Fraction):
        if n.denominator != 1:
            return str(float(n))
        n = int(n)
    if isinstance(n, float):
        return repr(n)
    if n < 0:
        return "-" + fmt(-n)
    if n >= 1000:
        for p in range(3, 20):
            for a in range(1, 10):
                if n == a * 10**p:
                    return f"10^{p}" if a == 1 else f"{a} * 10^{p}"
        for p in range(10, 64):
            if n == 2**p:
                return f"2^{p}"
            if n == 2**p - 1:
                return f"2^{p} - 1"
    return str(n)


def fmt_form(form: object) -> str:
    """A bound as a statement would write it: ``n - 1``, ``2 * 10^5 - m``."""
    if not isinstance(form, dict):
        return fmt(form)  # type: ignore[arg-type]
    text = ""
    for name, coef in form["terms"].items():
        mag = name if abs(coef) == 1 else f"{fmt(abs(coef))} * {name}"
        if not text:
            text = mag if coef > 0 else f"-{mag}"
        else:
            text += f" + {mag}" if coef > 0 else f" - {mag}"
    c = form["const"]
    if c > 0:
        text += f" + {fmt(c)}"
    elif c < 0:
        text += f" - {fmt(-c)}"
    return text


def fmt_range(los: list[str], his: list[str]) -> str:
    lo = los[0] if len(los) == 1 else f"max({', '.join(los)})"
    hi = his[0] if len(his) == 1 else f"min({', '.join(his)})"
    return f"[{lo}, {hi}]"
