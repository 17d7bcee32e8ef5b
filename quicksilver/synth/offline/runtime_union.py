"""The runtime of value sets that are unions of listed values and ranges (:mod:`.unions`, a
leaf's ``"union"``): copied verbatim into every emitted generator with the rest of the runtime
(``UNION_RUNTIME`` in :data:`.runtime._RUNTIME`), so it uses only ``random`` and builtins.

``runtime._draw`` hands it the values of a leaf with a ``union`` (not distinct ones, and only
when values are drawn at random: the low and high modes take the least or greatest value, an
end of a part). A leaf without the key draws as before.
"""

from __future__ import annotations

import random


def _draw_union(parts: list, count: int, edge: bool, text: bool) -> list:
    """``count`` values, each from a part picked first (each part as likely, so a listed
    value such as ``-1`` beside ``[1, 10^5]`` occurs), then uniformly within it; ``edge``: half
    the time an end of the part. A part is a range ``[a, b]`` or one listed word ``[w]``;
    ``text``: the integers written as strings (a list of words)."""
    out = []
    for _ in range(count):
        part = random.choice(parts)
        if len(part) == 1:
            out.append(part[0])
            continue
        a, b = part
        v = random.choice((a, b)) if edge and random.random() < 0.5 else random.randint(a, b)
        out.append(str(v) if text else v)
    return out


UNION_RUNTIME = (_draw_union,)
