"""Table artifacts that render in the Prefect UI as they read in the data.

The UI renders every cell of a table artifact as Markdown: a cell that is ``-`` (our "none")
becomes an empty bullet, ``+ x`` a list, ``# x`` a heading; and a cell never wraps, so one long
cell pushes the last columns out of view. :func:`ui_cell` escapes what Markdown would read as a
block and turns the line breaks of a multi-line value (a stage's drop reasons, one per line)
into ``<br>``, which the UI renders as a line break (checked in headless Chromium: docs/report.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from prefect.artifacts import create_table_artifact

# what Markdown reads at the start of a line as a list item, a heading, a quote, a rule or a
# numbered item (for which the escape goes before the dot)
_BLOCK = re.compile(r"^([-+*](?=\s|$)|#|>|=+$)")
_NUMBERED = re.compile(r"^(\d+)\.(?=\s|$)")


def ui_cell(value: Any) -> Any:
    """``value`` as the Prefect UI's Markdown cell shows it verbatim (numbers stay numbers)."""
    if not isinstance(value, str):
        return value
    lines = []
    for line in value.split("\n"):
        line = _NUMBERED.sub(r"\1\\.", _BLOCK.sub(r"\\\1", line))
        lines.append(line)
    return "<br>".join(lines)


def ui_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{k: ui_cell(v) for k, v in row.items()} for row in rows]


def table_artifact(key: str, rows: Sequence[Mapping[str, Any]], description: str) -> UUID:
    """A Prefect table artifact of ``rows``, each cell as :func:`ui_cell` makes it; its id."""
    return create_table_artifact(key=key, table=ui_rows(rows), description=description)
