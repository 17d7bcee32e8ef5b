"""The score report's page (``quicksilver score --report PATH``), from ``ScoreReport.to_dict()``
(what ``quicksilver score --json`` writes): the summary, per task Pass, Beyond or DPS, every
sample placed among the references measured on this machine, and why the failed samples failed."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go  # type: ignore[import-untyped]

from quicksilver import __version__
from quicksilver.report.figures import _LAYOUT, _height
from quicksilver.report.model import _float
from quicksilver.report.page import Section, _plot, _table, render_page
from quicksilver.report.tables import _num

FAILURE_DETAIL_CHARS = 160
"""A failed sample's error text is cut to this many characters in the report (one line); the
whole text is in the ``--json`` report."""

_FAILED = ("failed", "error", "timeout", "memory")
_EXCEPTION = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Interrupt|Exit))\b")


def _failure_kind(status: str, error: str | None) -> str:
    """``wrong answer``, ``error (NameError)``, ``timeout``, ``memory``, ... from a verdict."""
    text = error or ""
    if status == "failed":
        return "wrong answer" if "wrong answer" in text else "failed"
    if status == "error":
        found = _EXCEPTION.search(text)
        return f"error ({found.group(1)})" if found else "error"
    return status


def _detail(error: str | None) -> str:
    text = " ".join((error or "").split())
    if len(text) <= FAILURE_DETAIL_CHARS:
        return text or "-"
    return text[: FAILURE_DETAIL_CHARS - 1].rstrip() + "…"


def sample_failure(sample: Mapping[str, Any]) -> tuple[str, str] | None:
    """(reason, detail) of a sample that failed, None for one that passed: its verdict on the
    test cases, or for a DPE sample that passed them, its profile on the performance input."""
    status = str(sample.get("status") or "")
    if status in _FAILED:
        return _failure_kind(status, sample.get("error")), _detail(sample.get("error"))
    pe = str(sample.get("pe_status") or "")
    if status == "passed" and pe in _FAILED:
        kind = _failure_kind(pe, sample.get("pe_error"))
        return f"performance input: {kind}", _detail(sample.get("pe_error"))
    return None


def failure_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per failed sample: its task, index, verdict, reason and error (cut)."""
    out = []
    for t in data.get("tasks") or []:
        for s in t.get("samples") or []:
            why = sample_failure(s)
            if why is None:
                continue
            verdict = str(s.get("status"))
            if verdict == "passed":
                verdict = f"passed; performance input: {s.get('pe_status')}"
            out.append(
                {
                    "task": t.get("task_id"),
                    "sample": s.get("index"),
                    "verdict": verdict,
                    "reason": why[0],
                    "error": why[1],
                }
            )
    return out


def failure_summary_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per reason: the failed samples and the tasks they belong to, the most first."""
    samples: Counter[str] = Counter()
    tasks: dict[str, set[str]] = {}
    for r in failure_rows(data):
        samples[r["reason"]] += 1
        tasks.setdefault(r["reason"], set()).add(str(r["task"]))
    return [
        {"reason": reason, "samples": n, "tasks": ", ".join(sorted(tasks[reason]))}
        for reason, n in sorted(samples.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def score_task_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per scored task of a score report (``ScoreReport.to_dict()``)."""
    out = []
    for t in data.get("tasks") or []:
        dpe = bool(t.get("dpe"))
        out.append(
            {
                "task": t.get("task_id"),
                "difficulty": t.get("difficulty") or "?",
                "samples": t.get("n", len(t.get("samples") or [])),
                "correct": t.get("c", t.get("n_correct", 0)),
                "pass@k": _num(_float(t.get("pass_at_k")), 3),
                "Beyond": "-" if dpe else _num(_float(t.get("beyond")), 3),
                "DPS": _num(_float(t.get("dps")), 3) if dpe else "-",
                "Beyond-memory": "-" if dpe else _num(_float(t.get("beyond_memory")), 3),
                "NMU": "-" if dpe else _num(_float(t.get("nmu")), 3),
                "NTMU": "-" if dpe else _num(_float(t.get("ntmu")), 3),
                "unconverged": _unconverged_cell(t),
                "note": t.get("dps_error") or ("unscorable" if t.get("unscorable") else ""),
                "failed (why)": _failures_cell(t),
            }
        )
    return out


def _failures_cell(task: Mapping[str, Any]) -> str:
    """A task's failed samples per reason, ``wrong answer: 2; timeout: 1`` (``-``: none)."""
    why = Counter(w[0] for w in map(sample_failure, task.get("samples") or []) if w is not None)
    return "; ".join(f"{k}: {n}" for k, n in sorted(why.items())) or "-"


def _unconverged_cell(task: Mapping[str, Any]) -> str:
    """A task's samples and references scored from a profile that did not converge or split
    into modes (their RunResult flags), e.g. ``sample 2 (modes); reference 0 (max-rounds)``."""
    parts = [
        f"reference {j} ({', '.join(flags)})"
        for j, flags in enumerate(task.get("reference_flags") or [])
        if flags
    ]
    parts += [
        f"sample {s.get('index')} ({', '.join(s['flags'])})"
        for s in task.get("samples") or []
        if s.get("flags")
    ]
    return "; ".join(parts)


def _score_figure(data: Mapping[str, Any]) -> go.Figure:
    """Per task: Beyond (0-100) or DPS, and pass@k, as bars."""
    tasks = list(data.get("tasks") or [])
    names = [str(t.get("task_id")) for t in tasks]
    metric = [
        (_float(t.get("dps")) if t.get("dpe") else _mul(_float(t.get("beyond")), 100.0))
        for t in tasks
    ]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=names,
            y=[100 * (_float(t.get("pass_at_k")) or 0.0) for t in tasks],
            name="pass@k (%)",
        )
    )
    fig.add_trace(go.Bar(x=names, y=metric, name="Beyond × 100, or DPS for a DPE task"))
    fig.update_yaxes(range=[0, 105])
    fig.update_layout(_LAYOUT, barmode="group", title="Per task")
    return fig


def _mul(value: float | None, factor: float) -> float | None:
    return None if value is None else value * factor


def _placement_figure(data: Mapping[str, Any]) -> go.Figure:
    """Every sample placed among its task's references (both measured on this machine)."""
    refs_x: list[float] = []
    refs_y: list[str] = []
    samples: dict[bool, tuple[list[float], list[str], list[str]]] = {
        True: ([], [], []),
        False: ([], [], []),
    }
    tasks = list(data.get("tasks") or [])
    for t in tasks:
        name = str(t.get("task_id"))
        refs = t.get("reference_costs") if t.get("dpe") else t.get("reference_runtimes")
        for cost in refs or []:
            c = _float(cost)
            if c is not None and c > 0:
                refs_x.append(c)
                refs_y.append(name)
        for s in t.get("samples") or []:
            c = _float(s.get("pe_cost") if t.get("dpe") else s.get("runtime"))
            if c is None or c <= 0:
                continue
            ok = s.get("status") == "passed"
            xs, ys, texts = samples[ok]
            xs.append(c)
            ys.append(name)
            score = (
                f"DPS {s.get('dps')}, cluster {s.get('cluster')}"
                if t.get("dpe")
                else f"Beyond {_num(_float(s.get('beyond')), 3)}"
            )
            flags = f" [{', '.join(s['flags'])}]" if s.get("flags") else ""
            texts.append(f"sample {s.get('index')}: {s.get('status')}; {score}{flags}")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=refs_x,
            y=refs_y,
            mode="markers",
            name="reference",
            marker={"size": 9, "color": "steelblue", "opacity": 0.6},
        )
    )
    for ok, colour, label in (
        (True, "crimson", "sample (passed)"),
        (False, "gray", "sample (failed)"),
    ):
        xs, ys, texts = samples[ok]
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name=label,
                text=texts,
                marker={"symbol": "diamond", "size": 12, "color": colour},
            )
        )
    fig.update_xaxes(type="log", title=f"cost ({data.get('unit') or '-'}, log scale)")
    fig.update_yaxes(
        type="category",
        categoryorder="array",
        categoryarray=[str(t.get("task_id")) for t in tasks][::-1],
    )
    fig.update_layout(_LAYOUT, title="Samples among the references", height=_height(len(tasks)))
    return fig


def _summary_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The score report's summary: its figures, one row each."""
    k_pass = next((k for k in data if k.startswith("pass_at_") and k != "pass_at_k"), "pass_at_k")
    k_beyond = next(
        (k for k in data if k.startswith("beyond_at_") and k != "beyond_at_k"), "beyond_at_k"
    )
    summary = [
        {"figure": k_pass, "value": _num(_float(data.get(k_pass)), 4)},
        {"figure": k_beyond, "value": _num(_float(data.get(k_beyond)), 4)},
        {"figure": "gap", "value": _num(_float(data.get("gap")), 4)},
        {"figure": "tasks", "value": data.get("n_tasks", 0)},
        {"figure": "unscorable for Beyond", "value": data.get("n_unscorable", 0)},
        {
            # docs/profiler.md: a time meter's profile that did not converge, or whose passes
            # split into modes (scored by its median pass); listed per task below
            "figure": "scored from unconverged profiles",
            "value": f"{data.get('unconverged_samples', 0)} sample(s), "
            f"{data.get('unconverged_references', 0)} reference(s)",
        },
    ]
    if data.get("memory_tasks") or data.get("nmu_tasks") or data.get("ntmu_tasks"):
        # docs/metrics.md, "Memory": each mean over the tasks that have the figure
        for figure, key, count in (
            ("Beyond-memory@1", "beyond_memory_at_1", "memory_tasks"),
            ("NMU", "nmu", "nmu_tasks"),
            ("NTMU", "ntmu", "ntmu_tasks"),
        ):
            summary.append(
                {
                    "figure": f"{figure} (over {data.get(count, 0)} tasks)",
                    "value": _num(_float(data.get(key)), 4),
                }
            )
    if "dps" in data:
        summary += [
            {"figure": "DPS", "value": _num(_float(data.get("dps")), 4)},
            {"figure": "DPS_norm", "value": _num(_float(data.get("dps_norm")), 4)},
            {
                "figure": "DPE tasks with a DPS",
                "value": f"{data.get('dps_tasks')} of {data.get('dpe_tasks')}",
            },
        ]
    return summary


def _failures_section(data: Mapping[str, Any]) -> Section:
    rows = failure_rows(data)
    if not rows:
        return Section("failures", "Why samples failed", "No sample failed.")
    return Section(
        "failures",
        "Why samples failed",
        f"{len(rows)} sample(s) failed: their verdict on the test cases (wrong answer, error, "
        "timeout, memory), or for a DPE sample that passed them, its run on the performance "
        f"input; the error as the judge gave it, cut at {FAILURE_DETAIL_CHARS} characters (the "
        "--json report holds it whole).",
        [],
        [
            _table(failure_summary_rows(data), "Per reason"),
            _table(rows, "Per sample"),
        ],
    )


SCORE_PLOT_IDS = ("plot-scores", "plot-placement")


def score_report_html(
    data: Mapping[str, Any], *, dataset: str, samples: str, title: str = "Quicksilver score"
) -> str:
    """The score report's page, from ``ScoreReport.to_dict()``."""
    summary = _summary_rows(data)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    meta = [
        f"dataset: {dataset}",
        f"samples: {samples}",
        f"meter {data.get('meter') or '-'}, unit {data.get('unit') or '-'}, "
        f"isolation {data.get('isolation') or '-'}",
        f"written {stamp} by Quicksilver {__version__}",
    ]
    missing = list(data.get("missing_tasks") or [])
    sections = [
        Section("summary", "Summary", "", [], [_table(summary)]),
        Section(
            "tasks",
            "Per task",
            "Pass@k and Beyond (Mercury rows, × 100 in the plot) or DPS (DPE rows); for Mercury "
            "rows also Beyond with peak memory in place of runtime, and EffiBench's NMU and NTMU "
            "(peak memory and memory integrated over time, each against the task's first "
            "reference)."
            + (f" Samples of tasks not in the dataset: {', '.join(missing)}." if missing else ""),
            [_plot(_score_figure(data), "plot-scores")],
            [_table(score_task_rows(data))],
        ),
        Section(
            "placement",
            "The samples on the reference distribution",
            "Each sample's cost among its task's references, all measured on this machine "
            "(DPE: on the performance input; only the references the scan needed were measured).",
            [_plot(_placement_figure(data), "plot-placement")],
        ),
        _failures_section(data),
    ]
    return render_page(title, meta, sections)
