"""Prefect flow: scrape LeetCode into a raw snapshot folder.

A thin flow over quicksilver.sources.leetcode: one task lists the questions and writes
OUT/_plan.jsonl, then one task per shard of that plan (rows start:stop) fetches and writes the
questions; with ``dates="contests"`` a last task dates the folder's questions by the contests
they appeared in. Tasks pass row numbers and counts, never question data. Shards run one after
another on purpose: parallel shards would multiply the request rate against the site. Resuming is
the core's (complete files and stored contest pages are skipped without a request), so Prefect
caching is off.

Credentials are read from the environment inside the core; they are never flow or task
parameters (Prefect stores parameters).

    python flows/scrape_leetcode.py --out data/snapshot/leetcode --limit 50
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.logging import get_run_logger
from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings
from pydantic import ValidationError

from quicksilver.sources.leetcode import (
    DEFAULT_BASE_URL,
    AuthError,
    ScrapeConfig,
    ScrapeStopped,
    date_questions,
    plan_run,
    scrape_plan_slice,
)


def make_config(
    *, out: str, slugs: list[str] | None, difficulty: str | None, **options: Any
) -> ScrapeConfig:
    """The core's validated configuration from flow parameters."""
    return ScrapeConfig.model_validate(
        {
            "out_dir": Path(out),
            "slugs": None if slugs is None else tuple(slugs),
            "difficulty": None if difficulty is None else difficulty.upper(),
            **options,
        }
    )


@task(name="leetcode-plan", cache_policy=NO_CACHE)
def plan_task(config: ScrapeConfig) -> int:
    """List the questions (or take the slugs) into OUT/_plan.jsonl; returns how many."""
    planned = plan_run(config)
    get_run_logger().info("%d question(s) planned in %s", len(planned), config.out_dir)
    return len(planned)


@task(name="leetcode-shard", cache_policy=NO_CACHE, task_run_name="leetcode-shard-{start}-{stop}")
def shard_task(config: ScrapeConfig, start: int, stop: int) -> dict[str, int]:
    """Fetch and write plan rows start:stop; returns the counts."""
    summary = scrape_plan_slice(config, start, stop)
    counts = summary.counts()
    get_run_logger().info("rows %d-%d: %s", start, stop, counts)
    return counts


@task(name="leetcode-dates", cache_policy=NO_CACHE)
def dates_task(config: ScrapeConfig) -> dict[str, int]:
    """Date the folder's questions from LeetCode's contests; returns the counts."""
    counts = date_questions(config).counts()
    get_run_logger().info("dates: %s", counts)
    return counts


@flow(name="scrape-leetcode")
def scrape_leetcode(
    out: str,
    base_url: str = DEFAULT_BASE_URL,
    limit: int | None = None,
    slugs: list[str] | None = None,
    difficulty: str | None = None,
    solutions_per_bin: int = 3,
    max_bins: int | None = None,
    community_posts: int = 10,
    delay: float = 0.5,
    backoff: float = 1.0,
    shard_size: int = 50,
    dates: str = "none",
) -> dict[str, Any]:
    """Scrape LeetCode questions and Python 3 solutions into ``out`` (see docs/scraping.md)."""
    config = make_config(
        out=out,
        base_url=base_url,
        limit=limit,
        slugs=slugs,
        difficulty=difficulty,
        solutions_per_bin=solutions_per_bin,
        max_bins=max_bins,
        community_posts=community_posts,
        delay=delay,
        backoff=backoff,
        dates=dates,
    )
    if shard_size < 1:
        raise ValueError("shard_size must be at least 1")
    total = plan_task(config)
    counts: Counter[str] = Counter()
    for start in range(0, total, shard_size):
        counts.update(shard_task(config, start, min(total, start + shard_size)))
    counts["planned"] = total
    result: dict[str, Any] = {"out": str(config.out_dir), **dict(counts)}
    if config.dates == "contests":
        result["dates"] = dates_task(config)
    return result


def run(**parameters: Any) -> dict[str, Any]:
    """Call the flow with Prefect's heartbeat thread off (it adds about 1 s per flow call)."""
    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        return scrape_leetcode(**parameters)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Scrape LeetCode into a raw snapshot folder.")
    parser.add_argument("--out", required=True, help="snapshot folder")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--slugs", default=None, help="comma-separated titleSlugs")
    parser.add_argument("--difficulty", choices=["EASY", "MEDIUM", "HARD"], type=str.upper)
    parser.add_argument("--solutions-per-bin", type=int, default=3)
    parser.add_argument("--max-bins", type=int, default=None)
    parser.add_argument("--community-posts", type=int, default=10)
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--backoff", type=float, default=1.0)
    parser.add_argument("--shard-size", type=int, default=50)
    parser.add_argument(
        "--dates",
        choices=["none", "contests"],
        default="none",
        help="contests: date questions by the first contest they appeared in",
    )
    args = parser.parse_args(argv)
    if args.shard_size < 1:
        parser.error("--shard-size must be at least 1")
    # the core logs under "quicksilver"; Prefect's console handler prints them at INFO
    logging.getLogger("quicksilver").setLevel(logging.INFO)
    parameters: dict[str, Any] = {
        "out": args.out,
        "base_url": args.base_url,
        "limit": args.limit,
        "slugs": None if args.slugs is None else [s for s in args.slugs.split(",") if s.strip()],
        "difficulty": args.difficulty,
        "solutions_per_bin": args.solutions_per_bin,
        "max_bins": args.max_bins,
        "community_posts": args.community_posts,
        "delay": args.delay,
        "backoff": args.backoff,
        "dates": args.dates,
    }
    try:
        make_config(**parameters)  # bad options fail here, before Prefect starts
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in exc.errors()
        )
        parser.error(problems)
    try:
        result = run(**parameters, shard_size=args.shard_size)
    except AuthError as exc:
        logging.getLogger("quicksilver").error("stopped: %s", exc)
        return 3
    except ScrapeStopped as exc:
        logging.getLogger("quicksilver").error("stopped: %s", exc)
        return 1
    logging.getLogger("quicksilver").info("done: %s", result)
    return 1 if result.get("failed") or result.get("dates", {}).get("contests_failed") else 0


if __name__ == "__main__":
    sys.exit(main())
