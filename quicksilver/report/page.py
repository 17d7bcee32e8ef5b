"""The report's page: one self-contained HTML document (plotly.js inline, once, in its head),
made of sections with a heading, a sentence, plots and tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jinja2
import plotly.graph_objects as go  # type: ignore[import-untyped]
from plotly.offline import get_plotlyjs  # type: ignore[import-untyped]

_PAGE = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined).from_string(
    """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.n { text-align: right; }
section { margin-bottom: 2.5em; }
.meta { color: #555; }
</style>
<script>{{ plotly_js | safe }}</script>
</head><body>
<h1>{{ title }}</h1>
<p class="meta">{% for line in meta %}{{ line }}<br>{% endfor %}</p>
{% for s in sections %}
<section id="{{ s.id }}">
<h2>{{ s.heading }}</h2>
{% if s.text %}<p>{{ s.text }}</p>{% endif %}
{% for plot in s.plots %}{{ plot | safe }}{% endfor %}
{% for t in s.tables %}
{% if t.caption %}<h3>{{ t.caption }}</h3>{% endif %}
<table><thead><tr>{% for c in t.columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for r in t.rows %}<tr>{% for c in t.columns %}{% set v = r[c] %}
<td{% if v is number %} class="n"{% endif %}>{{ v }}</td>{% endfor %}</tr>
{% endfor %}</tbody></table>
{% endfor %}
</section>
{% endfor %}
</body></html>
"""
)


@dataclass
class Section:
    id: str
    heading: str
    text: str = ""
    plots: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)


def _plot(fig: go.Figure, div_id: str) -> str:
    """A figure as a div of the page (plotly.js is in the page's head, once)."""
    html: str = fig.to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        config={"displaylogo": False, "responsive": True},
    )
    return html


def _table(rows: Sequence[Mapping[str, Any]], caption: str = "") -> dict[str, Any]:
    return {"columns": list(rows[0]) if rows else [], "rows": list(rows), "caption": caption}


def render_page(title: str, meta: Sequence[str], sections: Sequence[Section]) -> str:
    """A self-contained HTML page: plotly.js inline, then the sections."""
    return _PAGE.render(title=title, meta=meta, sections=sections, plotly_js=get_plotlyjs())
