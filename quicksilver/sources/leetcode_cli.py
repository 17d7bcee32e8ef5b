"""``quicksilver scrape leetcode``: the scraper for a person at a terminal (rich progress bar).

``scrape_app`` is a typer group; quicksilver/cli.py mounts it with
``app.add_typer(scrape_app, name="scrape")``. Exit codes: 0 all done, 1 finished with failed
questions (see OUT/_errors.jsonl) or stopped by the site, 2 bad usage, 3 credentials missing or
expired, 130 interrupted (rerun the same command to resume).
"""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from quicksilver.sources.leetcode import (
    CONTESTS_DIR,
    DEFAULT_BASE_URL,
    ERRORS_FILE,
    NOTES_FILE,
    SKIPPED_FILE,
    AuthError,
    Credentials,
    DatesSummary,
    QuestionOutcome,
    ScrapeConfig,
    ScrapeStopped,
    ScrapeSummary,
    date_questions,
    scrape,
)
from quicksilver.sources.leetcode.queries import CONTEST_ERRORS_FILE

scrape_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Fetch questions and solutions from a source into a raw snapshot folder.",
)
err = Console(stderr=True)


class DatesOpt(StrEnum):
    NONE = "none"
    CONTESTS = "contests"


class DifficultyOpt(StrEnum):
    EASY = "EASY"
    MEDIUM = "MEDIUM"
    HARD = "HARD"


@scrape_app.callback()
def _scrape() -> None:
    """Fetch questions and solutions from a source into a raw snapshot folder."""


def _setup_logging(verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(message)s",
        handlers=[RichHandler(console=err, show_path=False, show_time=False)],
        force=True,
    )
    if not verbose:
        logging.getLogger("urllib3").setLevel(logging.WARNING)


def _report_dates(dates: DatesSummary | None, out: Path) -> None:
    if dates is None:
        return
    c = dates.counts()
    err.print(
        f"dates: {c['dated']} dated, {c['unchanged']} unchanged, {c['undated']} undated (in no "
        f"contest), {c['kept']} kept (another provenance); {c['contests']} contests "
        f"({c['contests_fetched']} fetched, {c['contests_cached']} stored before, "
        f"{c['contests_failed']} failed; {c['requests']} requests)",
        soft_wrap=True,  # one line, whatever the terminal's width: grep it
    )
    if dates.failed:
        ledger = out / CONTESTS_DIR / CONTEST_ERRORS_FILE
        err.print(f"  failed contests (rerun to retry them): {ledger}")


def _report(summary: ScrapeSummary | None, out: Path) -> None:
    if summary is None:
        return
    c = summary.counts()
    err.print(
        f"{c['written']} written, {c['complete']} already complete, {c['skipped']} skipped, "
        f"{c['failed']} failed ({c['requests']} requests) in {out}"
    )
    if summary.skipped:
        err.print(f"  skipped questions: {out / SKIPPED_FILE}")
    if summary.failed:
        err.print(f"  failed questions (rerun to retry them): {out / ERRORS_FILE}")
    if (out / NOTES_FILE).exists():
        err.print(f"  questions written without solutions: {out / NOTES_FILE}")
    _report_dates(summary.dates, out)


LEETCODE_HELP = (
    "Scrape LeetCode questions and Python 3 solutions (K per runtime bin) into OUT, one JSON "
    "file per question. Credentials come from LEETCODE_SESSION and LEETCODE_CSRF_TOKEN; without "
    "them only community solutions are fetched. Complete files are skipped without any request: "
    "rerun the same command to resume. See docs/scraping.md."
)


@scrape_app.command("leetcode", help=LEETCODE_HELP)
def leetcode(
    out: Annotated[Path, typer.Option("--out", help="snapshot folder (one JSON per question)")],
    limit: Annotated[
        int | None, typer.Option(min=1, help="first N questions of the list (paid-only included)")
    ] = None,
    slugs: Annotated[
        str | None, typer.Option(help="comma-separated titleSlugs instead of the list")
    ] = None,
    difficulty: Annotated[
        DifficultyOpt | None, typer.Option(case_sensitive=False, help="list filter")
    ] = None,
    solutions_per_bin: Annotated[
        int, typer.Option(min=1, help="code samples per runtime bin (K)")
    ] = 3,
    max_bins: Annotated[
        int | None,
        typer.Option(min=1, help="runtime bins per question, evenly spread (default: all)"),
    ] = None,
    community_posts: Annotated[
        int, typer.Option(min=0, help="community posts read when no distribution is visible")
    ] = 10,
    base_url: Annotated[str, typer.Option(help="site root; requests go to /graphql/")] = (
        DEFAULT_BASE_URL
    ),
    delay: Annotated[float, typer.Option(min=0, help="seconds between requests")] = 0.5,
    backoff: Annotated[
        float, typer.Option(min=0, help="first retry wait in seconds (doubles each retry)")
    ] = 1.0,
    dates: Annotated[
        DatesOpt,
        typer.Option(
            case_sensitive=False,
            help="'contests': date each question by the start of the first contest it was in "
            "(others stay undated)",
        ),
    ] = DatesOpt.NONE,
    verbose: bool = False,
) -> None:
    """Scrape LeetCode into a snapshot folder (the help text is LEETCODE_HELP)."""
    _setup_logging(verbose)
    try:
        config = ScrapeConfig(
            out_dir=out,
            base_url=base_url,
            limit=limit,
            slugs=None if slugs is None else tuple(slugs.split(",")),
            difficulty=None if difficulty is None else difficulty.value,
            solutions_per_bin=solutions_per_bin,
            max_bins=max_bins,
            community_posts=community_posts,
            delay=delay,
            backoff=backoff,
            dates=dates.value,
        )
    except ValidationError as exc:
        _bad_options(exc)

    progress = Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[last]}"),
        console=err,
    )
    task: TaskID = progress.add_task("listing questions", total=None, last="")

    def on_plan(total: int) -> None:
        progress.update(task, description="leetcode", total=total)

    def on_question(outcome: QuestionOutcome) -> None:
        mark = {"written": "ok", "complete": "had it", "skipped": "skipped", "failed": "FAILED"}
        progress.update(task, advance=1, last=f"{outcome.slug}: {mark[outcome.status]}")

    summary: ScrapeSummary | None = None
    try:
        with progress:
            summary = scrape(
                config,
                credentials=Credentials.from_env(),
                on_plan=on_plan,
                on_question=on_question,
            )
    except AuthError as exc:
        err.print(f"[red]stopped:[/] {escape(str(exc))}")
        err.print("files written before the stop are kept; rerun to resume")
        _report(exc.summary, out)
        raise typer.Exit(3) from exc
    except ScrapeStopped as exc:
        err.print(f"[red]stopped:[/] {escape(str(exc))}")
        _report(exc.summary, out)
        raise typer.Exit(1) from exc
    except KeyboardInterrupt as exc:
        err.print("[yellow]interrupted:[/] complete files are kept; rerun the command to resume")
        raise typer.Exit(130) from exc
    _report(summary, out)
    failed_dates = summary.dates is not None and summary.dates.failed
    raise typer.Exit(1 if summary.failed or failed_dates else 0)


def _bad_options(exc: ValidationError) -> NoReturn:
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}" for e in exc.errors()
    )
    err.print(f"[red]error:[/] {escape(problems)}")
    raise typer.Exit(2) from exc


DATES_HELP = (
    "Date the questions already scraped into OUT by the start of the first LeetCode contest each "
    "appeared in (release provenance 'contest'); questions in no contest stay undated. No "
    "question page is fetched; contest pages are stored in OUT/_contests and never fetched "
    "twice: rerun to resume. See docs/scraping.md, 'Release dates'."
)


@scrape_app.command("leetcode-dates", help=DATES_HELP)
def leetcode_dates(
    out: Annotated[Path, typer.Option("--out", help="snapshot folder written by the scraper")],
    base_url: Annotated[str, typer.Option(help="site root")] = DEFAULT_BASE_URL,
    delay: Annotated[float, typer.Option(min=0, help="seconds between requests")] = 0.5,
    backoff: Annotated[
        float, typer.Option(min=0, help="first retry wait in seconds (doubles each retry)")
    ] = 1.0,
    verbose: bool = False,
) -> None:
    """Date an existing LeetCode snapshot folder (the help text is DATES_HELP)."""
    _setup_logging(verbose)
    if not out.is_dir():
        err.print(f"[red]error:[/] {escape(str(out))}: no such snapshot folder")
        raise typer.Exit(2)
    try:
        config = ScrapeConfig(
            out_dir=out, base_url=base_url, delay=delay, backoff=backoff, dates="contests"
        )
    except ValidationError as exc:
        _bad_options(exc)
    try:
        with err.status("reading LeetCode's contests"):
            dates = date_questions(config, credentials=Credentials.from_env())
    except AuthError as exc:
        err.print(f"[red]stopped:[/] {escape(str(exc))}")
        _report_dates(exc.dates, out)
        raise typer.Exit(3) from exc
    except ScrapeStopped as exc:
        err.print(f"[red]stopped:[/] {escape(str(exc))}")
        _report_dates(exc.dates, out)
        raise typer.Exit(1) from exc
    except KeyboardInterrupt as exc:
        err.print("[yellow]interrupted:[/] stored contest pages are kept; rerun to resume")
        raise typer.Exit(130) from exc
    _report_dates(dates, out)
    raise typer.Exit(1 if dates.failed else 0)
