"""LeetCode statement HTML as plain text (Mercury's ``pretty_content``).

Keeps what a reader needs: paragraphs, example blocks, list items as ``- ...`` lines, exponents as
``10^5`` (``<sup>``), subscripts as ``_i``, entities decoded. No third-party parser: the HTML
LeetCode serves is a small, regular subset.
"""

from __future__ import annotations

import html
import re

_BLOCK_END = re.compile(r"</(p|div|pre|ul|ol|h\d|blockquote)>", re.I)
_BLOCK_START = re.compile(r"<(p|div|pre|ul|ol|h\d|blockquote)(\s[^>]*)?>", re.I)


def html_to_text(content: str | None) -> str:
    if not content:
        return ""
    text = content.replace("\r\n", "\n")
    text = re.sub(r"<sup>(.*?)</sup>", r"^\1", text, flags=re.S | re.I)
    text = re.sub(r"<sub>(.*?)</sub>", r"_\1", text, flags=re.S | re.I)
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"<li(\s[^>]*)?>\s*", "\n- ", text, flags=re.I)
    text = re.sub(r"</li>", "", text, flags=re.I)
    text = _BLOCK_START.sub("\n", text)
    text = _BLOCK_END.sub("\n", text)
    text = re.sub(r"<img[^>]*alt=\"([^\"]*)\"[^>]*>", r"[image: \1]", text, flags=re.I)
    text = re.sub(r"<[^>]+>", "", text)
    text = html.unescape(text).replace("\xa0", " ")
    # zero-width characters LeetCode's editor leaves inside words (`ports_\u200b\u200bi`, 49 of
    # 2,264 public statements): invisible, and a name with them is no name the constraints use
    text = re.sub("[\u200b\u200c\u200d\u2060\ufeff]", "", text)
    lines = [ln.rstrip() for ln in text.split("\n")]
    out: list[str] = []
    for ln in lines:
        if not ln.strip():
            if out and out[-1] != "":
                out.append("")
            continue
        item = ln.lstrip().startswith("- ")
        if item and len(out) >= 2 and out[-1] == "" and out[-2].lstrip().startswith("- "):
            out.pop()  # list items stay together
        out.append(ln)
    return "\n".join(out).strip() + "\n"


_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]|&#8203;|&ZeroWidthSpace;", re.I)


def _item_text(fragment: str) -> str:
    """One list item as plain text: ``10<sup>5</sup>`` -> ``10^5``, no tags, entities decoded."""

    def sup(m: re.Match[str]) -> str:
        inner = re.sub(r"<[^>]+>", "", m.group(1)).strip()
        if not inner:
            return ""
        return "^" + inner if re.fullmatch(r"[\w.]+", inner) else f"^({inner})"

    # zero-width spaces and joiners: LeetCode's editor leaves runs of them inside names and
    # exponents (``s\u200b\u200b consists of``, ``10<sup>(\u200b4)</sup>``)
    fragment = _ZERO_WIDTH.sub("", fragment)
    text = re.sub(r"<sup>(.*?)</sup>", sup, fragment, flags=re.S | re.I)
    text = re.sub(r"<sub>(.*?)</sub>", r"_\1", text, flags=re.S | re.I)
    text = re.sub(r"<[^>]+>", "", text)
    text = html.unescape(text).replace("\xa0", " ")
    text = text.replace("≤", "<=").replace("≥", ">=").replace("−", "-").replace("’", "'")
    return re.sub(r"\s+", " ", text).strip()


def constraint_lines(content_html: str | None) -> list[str] | None:
    """The Constraints list's items as plain text (one line each, ``10<sup>5</sup>`` -> ``10^5``,
    ``≤`` -> ``<=``); None when the statement has no such list."""
    if not content_html:
        return None
    head = re.search(
        r"<(strong|b)[^>]*>\s*Constraints\s*:?\s*(?:</\1>|:)", content_html, flags=re.I
    ) or re.search(r"Constraints\s*:", content_html, flags=re.I)
    if not head:
        return None
    ul = re.search(r"<ul[^>]*>(.*?)</ul>", content_html[head.end() :], flags=re.S | re.I)
    if not ul:
        return None
    items = re.findall(r"<li[^>]*>(.*?)</li>", ul.group(1), flags=re.S | re.I)
    return [t for t in (_item_text(i) for i in items) if t]


_ANY_ORDER = re.compile(
    r"\b(return|returned|answer|output)\b[^.]{0,120}?\bin any order\b|"
    r"\bin any order\b[^.]{0,40}\b(is|are) (accepted|fine|allowed)",
    re.I,
)
_MANY_ANSWERS = re.compile(
    r"\b(return|output|print) (the \w+ (of )?)?any (one )?(of them|valid|such|answer)\b|"
    r"\b(you )?may return any\b(?! order)|"
    r"\bis also a (valid|correct|accepted) answer\b|"
    r"\b(would|will) also be (accepted|valid|correct)\b|"
    r"\b(is|are) also accepted\b|\bare also (valid|correct|accepted) answers\b|"
    r"\b(multiple|several|more than one) (valid |possible |correct )?(answers|solutions) "
    r"(exist|are (possible|valid|accepted))",
    re.I,
)


def says_any_order(statement: str) -> bool:
    """The statement accepts the answer in any order ("You may return them in any order")."""
    return bool(_ANY_ORDER.search(statement))


def says_many_answers(statement: str) -> bool:
    """The statement accepts any one of several answers ("you may return any of them")."""
    return bool(_MANY_ANSWERS.search(statement))
