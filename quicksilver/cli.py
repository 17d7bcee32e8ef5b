"""The ``quicksilver`` command: run, score, compare, publish, doctor."""

from __future__ import annotations

import contextlib
import datetime
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.live import Live
from rich.logging import RichHandler
from rich.panel import Panel
from rich.table import Table

from quicksilver.config import MeasureConfig, SandboxConfig, SandboxLimits
from quicksilver.config.measure import LEETCODE_RECURSION_LIMIT, LEETCODE_STACK_MB

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Build code-efficiency benchmarks and score solutions against them.",
)
err = Console(stderr=True)
log = logging.getLogger("quicksilver")


def _version(value: bool) -> None:
    if value:
        from quicksilver import __version__

        print(f"quicksilver {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="print the version and exit"
        ),
    ] = False,
) -> None:
    """Build code-efficiency benchmarks and score solutions against them."""


def _mount_subcommands() -> None:
    from quicksilver.sources.leetcode_cli import scrape_app
    from quicksilver.sources.snapshot_cli import snapshot_app

    app.add_typer(snapshot_app, name="snapshot")
    app.add_typer(scrape_app, name="scrape", help="Fetch problems and solutions from a source.")


_mount_subcommands()


def _logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(message)s",
        handlers=[RichHandler(console=err, show_path=False, show_time=False)],
        force=True,
    )


MeterOpt = Annotated[
    str, typer.Option("--meter", help="icount (deterministic, default) | cpu | instructions")
]


def _check_output(path: Path | None) -> None:
    """Before any work: the report can be written at ``path`` (else one line, exit 2)."""
    from quicksilver.fsutil import WriteError, check_output_file

    if path is None:
        return
    try:
        check_output_file(path)
    except WriteError as exc:
        err.print(f"[red]error:[/] {exc}", soft_wrap=True)
        raise typer.Exit(2) from exc


def _write_output(path: Path, text: str, what: str) -> None:
    """Write ``text`` atomically (an earlier file stays whole if this fails; one line, exit 1)."""
    from quicksilver.fsutil import WriteError, write_text_atomic

    try:
        write_text_atomic(path, text)
    except WriteError as exc:
        err.print(
            f"[red]error:[/] {exc}; the {what} was not written (an earlier {path.name} is left "
            "as it was)",
            soft_wrap=True,
        )
        raise typer.Exit(1) from exc
    err.print(f"{what} written to {path}", soft_wrap=True)


def _sweep_sandboxes() -> None:
    """Remove the sandbox folders a killed quicksilver process left in the temporary folder."""
    from quicksilver.sandbox.session import sweep_orphans

    sweep_orphans()


def _configs(
    timeout: float | None,
    memory: int | None,
    allow_weak: bool,
    meter: str,
    max_rounds: int | None = None,
    budget: float | None = None,
) -> tuple[SandboxConfig, MeasureConfig]:
    # as deep as the Mercury build judged its references (configs/mercury.yaml) and LeetCode
    limits: dict[str, Any] = {
        "recursion_limit": LEETCODE_RECURSION_LIMIT,
        "stack_mb": LEETCODE_STACK_MB,
    }
    if timeout is not None:
        limits["cpu_seconds"] = timeout
    if memory is not None:
        limits["memory_mb"] = memory
    sandbox = SandboxConfig(allow_weak=allow_weak, limits=SandboxLimits(**limits))
    # samples nobody has run yet: judged natively before they are counted (docs/profiler.md)
    measure_kw: dict[str, Any] = {"meter": meter, "native_first": True}
    if max_rounds is not None:
        measure_kw["max_rounds"] = max_rounds
        measure_kw["min_rounds"] = min(6, max_rounds)
    if budget is not None:
        measure_kw["budget_seconds"] = budget
    return sandbox, MeasureConfig(**measure_kw)


@contextlib.contextmanager
def _live(table: Table) -> Iterator[None]:
    """The live table on stderr; what follows it starts on a line of its own."""
    try:
        with Live(table, console=err, refresh_per_second=4, transient=False):
            yield
    finally:
        if not err.is_terminal:  # rendered to a file or a pipe, the table ends mid-line
            err.line()


def _fmt_cost(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "s":
        for scale, name in ((1, "s"), (1e-3, "ms"), (1e-6, "µs")):
            if value >= scale:
                return f"{value / scale:.3g}{name}"
        return f"{value * 1e9:.3g}ns"
    return f"{value:,.0f}"


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    add_help_option=False,
)
def build(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="mercury | dpe")],
) -> None:
    """Build a benchmark: the Mercury or the DPE build flow (Prefect). Options after the name:
    --config PATH, --set KEY=VALUE (repeatable), -v; `quicksilver build mercury --help`."""
    if name not in ("mercury", "dpe"):
        err.print(f"error: no build {name!r}: mercury or dpe")
        raise typer.Exit(2)
    # imported here: Prefect only for a build (the other commands start without it)
    from quicksilver.orchestration.flows import main

    raise typer.Exit(main(name, list(ctx.args), prog=f"quicksilver build {name}"))


@app.command()
def run(
    task: Annotated[Path, typer.Option("--task", help="task record (JSON row, Mercury format)")],
    solution: Annotated[Path, typer.Option("--solution", help="Python source of the solution")],
    meter: MeterOpt = "icount",
    timeout: Annotated[float | None, typer.Option(help="CPU seconds for one pass")] = None,
    memory: Annotated[int | None, typer.Option(help="memory limit in MB")] = None,
    max_rounds: Annotated[int | None, typer.Option(help="rounds per test case, at most")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    allow_weak_sandbox: Annotated[bool, typer.Option(help="run without bubblewrap")] = False,
    verbose: bool = False,
) -> None:
    """Run one solution against one task record, judge it and measure its cost."""
    _logging(verbose)
    _sweep_sandboxes()
    from quicksilver.profiler import ProfileTask, profile_solution
    from quicksilver.rows import RecordError, load_records
    from quicksilver.sandbox.isolation import SandboxUnavailable
    from quicksilver.sandbox.session import SandboxStartError

    try:
        loaded = load_records(task)
    except (RecordError, OSError) as exc:
        err.print(f"[red]error:[/] {task}: {exc}")
        raise typer.Exit(2) from exc
    if not loaded.records:
        reasons = "; ".join(f"{r.source}: {r.reason}" for r in loaded.rejects) or "no rows"
        err.print(f"[red]error:[/] {task}: no usable task record ({reasons})")
        raise typer.Exit(2)
    record = loaded.records[0]
    try:
        code = solution.read_text()
        ptask = ProfileTask.from_record(record)
    except (OSError, RecordError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    sandbox, measure = _configs(timeout, memory, allow_weak_sandbox, meter, max_rounds)
    try:
        result = profile_solution(ptask, code, sandbox=sandbox, measure=measure)
    except (SandboxUnavailable, SandboxStartError) as exc:  # no verdict: nothing was judged
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(3) from exc
    data = result.to_dict()
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        table = Table(title=f"{record.task_key}: {result.status.upper()}")
        for col in ("case", "passes", "median", "CI95", "charged"):
            table.add_column(col)
        for c in result.cases:
            table.add_row(
                str(c.index),
                str(c.rounds),
                _fmt_cost(c.median, result.unit),
                f"[{_fmt_cost(c.ci_low, result.unit)}, {_fmt_cost(c.ci_high, result.unit)}]",
                _fmt_cost(c.charged, result.unit) if c.charged else "",
            )
        Console().print(table)
        Console().print(
            f"runtime: {_fmt_cost(result.runtime, result.unit)}  meter: {result.meter}"
            f"  isolation: {result.isolation}" + (f"\n{result.error}" if result.error else "")
        )
    raise typer.Exit(
        0 if result.status in ("passed", "failed", "timeout", "memory", "error") else 1
    )


@app.command()
def score(
    dataset: Annotated[
        Path, typer.Option(help="Parquet file, folder of Parquet splits, or save_to_disk folder")
    ],
    samples: Annotated[
        Path, typer.Option(help="JSONL {task_id|slug_name, completion|solution} or Mercury JSON")
    ],
    split: Annotated[str | None, typer.Option(help="split to use (e.g. eval)")] = None,
    k: Annotated[int, typer.Option(help="k of pass@k / Beyond@k")] = 1,
    json_out: Annotated[
        Path | None,
        typer.Option("--json", "--out", help="write the full report here (quicksilver compare)"),
    ] = None,
    report_out: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="write an HTML report here: per-task scores, each sample among the references",
        ),
    ] = None,
    meter: MeterOpt = "icount",
    recollect: Annotated[bool, typer.Option(help="ignore cached reference runtimes")] = False,
    shipped_counts: Annotated[
        bool,
        typer.Option(
            help="icount: take the reference counts the dataset ships when this machine's count "
            "fingerprint matches (a seeded sample is re-counted to confirm)"
        ),
    ] = True,
    cache_dir: Annotated[Path | None, typer.Option(help="reference cache folder")] = None,
    workers: Annotated[int | None, typer.Option(help="solutions profiled in parallel")] = None,
    timeout: Annotated[float | None, typer.Option(help="CPU seconds for one pass")] = None,
    memory: Annotated[int | None, typer.Option(help="memory limit in MB")] = None,
    max_rounds: Annotated[int | None, typer.Option(help="rounds per test case, at most")] = None,
    budget: Annotated[
        float | None, typer.Option(help="CPU seconds of repeated rounds per solution")
    ] = None,
    allow_weak_sandbox: Annotated[bool, typer.Option(help="run without bubblewrap")] = False,
    released_after: Annotated[
        str | None,
        typer.Option(
            help="YYYY-MM-DD (a model's training cutoff): score only the tasks released after "
            "it; undated tasks are left out and counted"
        ),
    ] = None,
    dps_tolerance: Annotated[
        float | None,
        typer.Option(
            help="DPS: a sample up to this share above a cluster reference's cost still matches "
            "it (default: 0 with icount, 0.1 with cpu; docs/metrics.md)"
        ),
    ] = None,
    complete_from_prompt: Annotated[
        bool,
        typer.Option(
            help="put a LeetCode sample that is only the method's body under the task's prompt "
            "(as evalplus-style harnesses do); without it such samples are judged as they are "
            "and counted in the report"
        ),
    ] = False,
    verbose: bool = False,
) -> None:
    """Score model samples against a dataset (Pass@k, Beyond@k, percentile, DPS)."""
    _logging(verbose)
    _check_output(json_out)  # before any work: a report that cannot be written is found now
    _check_output(report_out)
    cutoff = _date_option("--released-after", released_after)
    _sweep_sandboxes()
    from quicksilver.publishing.views import view_slugs
    from quicksilver.scoring import ReferenceCache
    from quicksilver.scoring import score as run_score

    loaded, sample_set, unreadable = _scoring_inputs(dataset, split, samples)
    sandbox, measure = _configs(timeout, memory, allow_weak_sandbox, meter, max_rounds, budget)
    cache = ReferenceCache(cache_dir, enabled=not recollect)
    difficulty = {rec.task_key: rec.difficulty for rec in loaded.records}

    table, on_sample = _score_table(meter, difficulty)

    def _run_score() -> Any:
        return run_score(
            loaded.records,
            sample_set.by_task(),
            k=k,
            meter=meter,
            sandbox=sandbox,
            measure=measure,
            cache=cache,
            workers=workers,
            on_sample=on_sample,
            sample_rejects=sample_set.rejects,
            released_after=cutoff,
            trained_on=view_slugs(dataset) if cutoff is not None else None,
            dps_tolerance=dps_tolerance,
            complete_from_prompt=complete_from_prompt,
            shipped_counts=shipped_counts,
        )

    report = _stoppable_scoring(_run_score, table, cache.root, unreadable)
    data = report.to_dict()
    lines = report.summary_lines(data)
    Console().print(Panel("\n".join(lines), title=f"meter {meter} · isolation {report.isolation}"))
    if json_out is not None:
        _write_output(json_out, json.dumps(data, indent=1), "report")
    if report_out is not None:
        from quicksilver.report import score_report_html

        page = score_report_html(data, dataset=str(dataset), samples=str(samples))
        _write_output(report_out, page, "HTML report")


def _stoppable_scoring(work: Any, table: Table, cache_root: Path, unreadable: list[str]) -> Any:
    """``work()`` (the scoring) under the live ``table``; a signal stops it with nothing
    written, a sandbox that cannot start exits 3, a scoring error 2."""
    from quicksilver.lifecycle import GracefulStop, signal_name
    from quicksilver.sandbox.isolation import SandboxUnavailable
    from quicksilver.sandbox.session import SandboxStartError

    stop = GracefulStop(
        lambda signum: (
            f"error: stopped by {signal_name(signum)}: no report written; the references "
            f"measured so far are kept in the cache ({cache_root}): run the same command "
            "again to go on"
        )
    )
    try:
        try:
            with _live(table):
                report = stop.run(work)
        finally:
            if stop.stopped:  # whatever the work left behind, a stopped run writes nothing
                stop.announce()
                raise typer.Exit(stop.exit_code)
    except (SandboxUnavailable, SandboxStartError) as exc:  # no verdict: nothing was judged
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(3) from exc
    except ValueError as exc:
        cause = f" ({'; '.join(unreadable)})" if unreadable else ""
        err.print(f"[red]error:[/] {exc}{cause}", soft_wrap=True)
        raise typer.Exit(2) from exc
    return report


def _scoring_inputs(dataset: Path, split: str | None, samples: Path) -> tuple[Any, Any, list[str]]:
    """``quicksilver score``'s dataset rows and samples, and the dataset files that could not be
    read; exit 2 when either gives nothing usable."""
    from quicksilver.rows import RecordError, load_records
    from quicksilver.samples import load_samples

    try:
        loaded = load_records(dataset, split=split)
    except RecordError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    for r in loaded.rejects:
        log.warning("dataset row set aside: %s (%s): %s", r.source, r.task, r.reason)
    # whole files that could not be read (a truncated Parquet file): the cause, when nothing or
    # nothing matching loads
    unreadable = [
        f"{r.source}: {r.reason}"
        for r in loaded.rejects
        if r.task is None and Path(r.source).is_file()
    ]
    if not loaded.records:
        cause = "; ".join(unreadable) or (
            f"{dataset}: no usable task record ({len(loaded.rejects)} row(s) set aside, "
            "each named above)"
        )
        err.print(f"[red]error:[/] {cause}", soft_wrap=True)
        raise typer.Exit(2)
    sample_set = load_samples(samples)
    for source, reason in sample_set.rejects:
        log.warning("sample set aside: %s: %s", source, reason)
    if not sample_set.samples:
        err.print(f"[red]error:[/] {samples}: no usable samples")
        raise typer.Exit(2)
    return loaded, sample_set, unreadable


def _score_table(meter: str, difficulty: dict[str, str | None]) -> tuple[Table, Any]:
    """``quicksilver score``'s live table, and the callback that adds a scored sample to it."""
    from quicksilver.scoring import SampleScore, TaskScore

    table = Table(title="Quicksilver score", expand=False)
    for col in ("#", "Problem", "Diff", "Status", "Cost", "Pctl", "Beyond", "DPS"):
        table.add_column(col)
    unit = "s" if meter == "cpu" else "instructions"
    counter = [0]

    def on_sample(task: TaskScore, s: SampleScore) -> None:
        counter[0] += 1
        status = {
            "passed": "[green]OK[/]",
            "failed": "[red]FAIL[/]",
            "timeout": "[yellow]TLE[/]",
            "memory": "[yellow]MLE[/]",
        }.get(s.status, "[red]ERR[/]")
        if task.dpe:  # cost on the performance input; DPS with the matched cluster
            cost = _fmt_cost(s.pe_cost, unit) if s.pe_status != "skipped" else "skipped"
            if s.pe_status not in (None, "passed", "skipped"):
                cost = f"[yellow]{s.pe_status}[/]"
            dps = "-" if s.dps is None else f"{s.dps:.0f}"
            if s.dps is not None:
                dps += f" (c{s.cluster})" if s.cluster is not None else " (none)"
        else:
            cost, dps = _fmt_cost(s.runtime, unit), "-"
        if s.flags:  # the profile it is scored from did not converge, or split into modes
            cost += f" [yellow]({', '.join(s.flags)})[/]"
        table.add_row(
            str(counter[0]),
            f"{task.task}[{s.index}]",
            (difficulty.get(task.task) or "?")[:1],
            status,
            cost,
            "-" if s.percentile is None or s.status != "passed" else f"P{s.percentile:.0f}",
            "-" if s.beyond is None else f"{s.beyond:.3f}",
            dps,
        )

    return table, on_sample


def _date_option(flag: str, value: str | None) -> datetime.date | None:
    """A YYYY-MM-DD option as a date; a usage error (exit 2) otherwise."""
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        err.print(f"[red]error:[/] {flag}: not a YYYY-MM-DD date: {value!r}")
        raise typer.Exit(2) from None


def _fmt_num(value: float | None, fmt: str = "{:.1f}") -> str:
    return "-" if value is None else fmt.format(value)


@app.command()
def compare(
    report_a: Annotated[Path, typer.Argument(help="score report A (quicksilver score --json)")],
    report_b: Annotated[Path, typer.Argument(help="score report B")],
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the comparison here as JSON")
    ] = None,
    tie: Annotated[
        float, typer.Option(help="a DPS difference within this many points is a tie")
    ] = 1.0,
    verbose: bool = False,
) -> None:
    """Compare two score reports on the tasks both passed (DPS, and Beyond where present)."""
    _logging(verbose)
    _check_output(json_out)
    from quicksilver.compare import ReportError, compare_files
    from quicksilver.scoring.summary import interval_text

    try:
        result = compare_files(report_a, report_b, tie=tie)
    except ReportError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    winner_text = {"a": "[green]A[/]", "b": "[blue]B[/]", "tie": "tie", None: "-"}
    table = Table(
        title=f"A = {report_a}   B = {report_b}   (tasks both passed)",
        caption=f"a tie: within {tie:g} point(s) of DPS (Beyond x100 where there is no DPS)",
    )
    for col in ("Task", "Diff", "DPS A", "DPS B", "Δ", "Beyond A", "Beyond B", "Better"):
        table.add_column(col, justify="left" if col in ("Task", "Diff") else "right")
    for t in result.common:
        table.add_row(
            t.task,
            (t.difficulty or "?")[:1],
            _fmt_num(t.dps_a),
            _fmt_num(t.dps_b),
            _fmt_num(t.delta, "{:+.1f}"),
            _fmt_num(t.beyond_a, "{:.3f}"),
            _fmt_num(t.beyond_b, "{:.3f}"),
            winner_text[t.winner],
        )
    console = Console()
    console.print(table)
    lines = [f"common tasks: {len(result.common)}"]
    for metric, fmt in (("dps", "{:.1f}"), ("dps_norm", "{:.1f}"), ("beyond", "{:.3f}")):
        m = result.means[metric]
        if m.n:
            lines.append(
                f"{metric}: A {_fmt_num(m.a, fmt)}   B {_fmt_num(m.b, fmt)}   (over {m.n} tasks)"
            )
    tl = result.tally
    lines.append(f"A better: {tl.wins_a}   ties: {tl.ties}   B better: {tl.wins_b}")
    sig = result.significance
    if sig is not None and sig.n:
        ci = interval_text(sig.delta_interval, "{:+.1f}")
        p = "-" if sig.p_value is None else f"{sig.p_value:.3g}"
        lines.append(
            f"A - B over {sig.n} task(s): mean {sig.mean_delta:+.1f} points{ci}; "
            f"paired Wilcoxon signed-rank p = {p}"
            + (f" ({sig.note})" if sig.note else "")
            + ("" if sig.p_value is None or sig.p_value < 0.05 else ": not significant at 5%")
        )
    for label, names in (
        ("passed by A only", result.only_a),
        ("passed by B only", result.only_b),
        ("in B's report only", result.not_in_a),
        ("in A's report only", result.not_in_b),
    ):
        if names:
            more = f" (+{len(names) - 20} more)" if len(names) > 20 else ""
            shown = ", ".join(names[:20]) + more
            lines.append(f"{label} ({len(names)}): {shown}")
    lines += [f"[yellow]warning:[/] {w}" for w in result.warnings]
    console.print(Panel("\n".join(lines), title="quicksilver compare"))
    if json_out is not None:
        _write_output(json_out, json.dumps(result.to_dict(), indent=1), "comparison")


@app.command()
def publish(
    dataset: Annotated[
        Path, typer.Option(help="folder written by the build's publish stage (README.md, hf/)")
    ],
    repo_id: Annotated[str, typer.Option("--repo-id", help="dataset repo on the Hub: ORG/NAME")],
    revision: Annotated[
        str | None, typer.Option(help="tag the release with this name (e.g. v1.0)")
    ] = None,
    private: Annotated[bool, typer.Option(help="create the repo private")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    verbose: bool = False,
) -> None:
    """Release a built dataset to the Hugging Face Hub (token from $HF_TOKEN).

    The dataset is validated before anything is sent. Exit codes: 2 for a missing token or an
    invalid dataset, 1 for a failure on the Hub.
    """
    _logging(verbose)
    from quicksilver.publishing.hub import (
        DatasetDirError,
        HubError,
        MissingTokenError,
        PublishError,
        publish_to_hub,
    )
    from quicksilver.publishing.schema import SchemaError

    try:
        report = publish_to_hub(dataset, repo_id, revision=revision, private=private)
    except MissingTokenError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    except (DatasetDirError, SchemaError) as exc:
        err.print(f"[red]error:[/] {dataset}: invalid dataset, nothing was pushed: {exc}")
        raise typer.Exit(2) from exc
    except HubError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from exc
    except PublishError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2) from exc
    if as_json:
        sys.stdout.write(json.dumps(report.to_dict()) + "\n")
        return
    lines = [
        f"repo: {report.repo_url} ({'private' if report.private else 'public'}"
        + (", created)" if report.created else ")"),
        "splits: " + ", ".join(f"{name} {n}" for name, n in report.splits.items()),
        f"data commit: {report.data_commit_url}",
        f"card commit: {report.card_commit_url}",
    ]
    if report.views:
        lines.insert(2, "views: " + ", ".join(f"{n} {k}" for n, k in report.views.items()))
    if report.tag:
        lines.append(f"tag: {report.tag} -> {report.card_commit}")
    Console().print(Panel("\n".join(lines), title=f"published {report.repo_id}"))


@app.command()
def doctor(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Report which isolation and which meters this machine has (by trying them)."""
    _logging(False)
    from quicksilver.doctor import run_doctor

    report = run_doctor()
    if as_json:
        sys.stdout.write(json.dumps(report) + "\n")
        return
    table = Table(title="quicksilver doctor")
    table.add_column("check")
    table.add_column("")
    table.add_column("detail", overflow="fold")
    for c in report["checks"]:
        table.add_row(c["name"], "[green]yes[/]" if c["ok"] else "[red]no[/]", c["detail"])
    console = Console()
    console.print(table)
    m = report["machine"]
    console.print(
        f"machine {m['machine_id']}: {m['cpu']}, {m['cores']} cores, {m['arch']}, "
        f"Linux {m['kernel']}, Python {m['python']}"
    )


def main() -> None:
    app()


if __name__ == "__main__":
    main()
