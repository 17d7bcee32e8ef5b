"""Stage 6, uniqueness of output: do the solutions agree on what each input's answer is?

Per task, on the answers the test-case stage collected:

- **all agree** (on every input): keep; the shared answer is the expected output;
- **equal up to order**: the answers differ only in the order of list elements (at any depth) —
  or the statement says the answer may be returned in any order — keep the task with an
  order-insensitive ``evaluate_offline``;
- **a minority wrong**: on every disputed input one answer is given by a strict majority of the
  solutions (or is the answer the statement's own example states): the solutions that disagree
  are dropped (``wrong-answer``) with their first failing input, their answer and the expected
  one;
- **genuinely different valid answers**: the statement says any of several answers is accepted,
  or a disputed input has no majority answer: the task is dropped (``multiple-valid-answers`` /
  ``ambiguous-output``), since one expected output would fail correct solutions.

Answers of type ``double`` agree within a relative tolerance. A crash counts as an answer that
disagrees with every other. Afterwards the minimum-solutions filter is applied again.
"""

from __future__ import annotations

import json
import math
from typing import Any

from quicksilver.sources.convert import parse_signature
from quicksilver.sources.text import says_any_order, says_many_answers
from quicksilver.stages.base import StageCounts, group_by_slug, json_digest, reject
from quicksilver.stages.filters import min_solutions


def order_free(x: Any) -> Any:
    """The value with every list sorted (by repr), at every depth."""
    if isinstance(x, list):
        return sorted((order_free(v) for v in x), key=repr)
    return x


def answers_equal(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    if isinstance(a, int | float) and isinstance(b, int | float):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        if not (math.isfinite(a) and math.isfinite(b)):
            return a == b
        return abs(a - b) <= tol * max(1.0, abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(answers_equal(x, y, tol) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _answer(a: dict[str, Any], any_order: bool) -> tuple[bool, Any]:
    """(ok, comparable value); failures compare by their error text (never equal to a value)."""
    if a["status"] != "ok":
        return False, f"{a['status']}: {a.get('error')}"
    return True, order_free(a["value"]) if any_order else a["value"]


def group_answers(
    answers: dict[str, dict[str, Any]], any_order: bool, tol: float
) -> list[tuple[Any, list[str]]]:
    """Partition solutions by their answer: [(answer, [solution hash...])], largest first."""
    groups: list[tuple[tuple[bool, Any], list[str]]] = []
    for h, a in answers.items():
        ok, value = _answer(a, any_order)
        for (g_ok, g_value), members in groups:
            if ok and g_ok and answers_equal(value, g_value, tol):
                members.append(h)
                break
            if not ok and not g_ok and value == g_value:
                members.append(h)
                break
        else:
            groups.append(((ok, value), [h]))
    groups.sort(key=lambda g: -len(g[1]))
    return [((ok, v), m) for (ok, v), m in groups]


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def uniqueness_for_task(
    task: dict[str, Any],
    record: dict[str, Any],
    solutions: list[dict[str, Any]],
    tol: float,
    counts: StageCounts,
    rejects: list[dict[str, Any]],
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    slug = task["slug"]
    sig = parse_signature(task["meta"])
    tol = tol if "double" in (sig.returns if sig.output_param is None else "") else 0.0
    statement = task.get("statement", "")
    by_hash = {str(s["hash"]): s for s in solutions}
    hashes = [str(h) for h in record["solutions"] if str(h) in by_hash]
    cases = record["cases"]
    known = {json_digest(t["input"]): t["expected"] for t in task.get("known_tests", [])}

    def per_input(i: int) -> dict[str, dict[str, Any]]:
        return {h: record["answers"][h][i] for h in hashes}

    def drop_task(reason: str, detail: str) -> None:
        counts.drops[reason] += 1
        rejects.append(reject({"slug": slug}, reason, detail))
        rejects.extend(reject(by_hash[h], reason, detail) for h in hashes)

    stated_order_free = says_any_order(statement)
    any_order = stated_order_free
    classification = "all-agree"
    disputed = [
        i for i in range(len(cases)) if len(group_answers(per_input(i), any_order, tol)) > 1
    ]
    if (
        disputed
        and not any_order
        and all(len(group_answers(per_input(i), True, tol)) == 1 for i in disputed)
    ):
        any_order = True
        classification = "equal-up-to-order"
        disputed = []
    if stated_order_free and classification == "all-agree":
        classification = "all-agree (statement: any order)"

    wrong: dict[str, str] = {}
    if disputed:
        if says_many_answers(statement):
            i = disputed[0]
            drop_task(
                "multiple-valid-answers",
                f"{slug}: the statement accepts any of several answers and the solutions give "
                f"different ones (first on input {_short(cases[i]['input'])})",
            )
            return None, []
        for i in disputed:
            groups = group_answers(per_input(i), any_order, tol)
            digest = json_digest(cases[i]["input"])
            chosen = None
            if digest in known:
                want = order_free(known[digest]) if any_order else known[digest]
                chosen = next(
                    (g for g in groups if g[0][0] and answers_equal(g[0][1], want, tol)), None
                )
                source = "the statement's example"
            else:
                top = groups[0]
                if len(top[1]) * 2 > len(hashes) and top[0][0]:
                    chosen = top
                source = "the majority"
            if chosen is None:
                sizes = "/".join(str(len(m)) for _, m in groups)
                drop_task(
                    "ambiguous-output",
                    f"{slug}: on input {_short(cases[i]['input'])} the solutions split {sizes} "
                    "with no answer given by a majority: cannot tell the right answer",
                )
                return None, []
            for (ok, value), members in groups:
                if members is chosen[1]:
                    continue
                for h in members:
                    if h not in wrong:
                        wrong[h] = (
                            f"{slug} solution #{by_hash[h]['position']}: on input "
                            f"{_short(cases[i]['input'])} answered "
                            f"{_short(value) if ok else value}, expected "
                            f"{_short(chosen[0][1])} ({source})"
                        )
        classification = "minority-wrong"
    for h, detail in wrong.items():
        counts.drops["wrong-answer"] += 1
        rejects.append(reject(by_hash[h], "wrong-answer", detail))
    kept = [h for h in hashes if h not in wrong]
    if not kept:
        drop_task("ambiguous-output", f"{slug}: no solution agrees with the expected answers")
        return None, []
    test_cases = []
    for i, case in enumerate(cases):
        # the kept solutions agree on every input (up to order / tolerance where that applies)
        test_cases.append(
            {"input": case["input"], "expected": record["answers"][kept[0]][i]["value"]}
        )
    out = {
        "slug": slug,
        "any_order": any_order,
        "classification": classification,
        "test_cases": test_cases,
        "case_kinds": [c["kind"] for c in cases],
        "case_seeds": [c["seed"] for c in cases],
        "seed": record["seed"],
        "base_seed": record["base_seed"],
        "n_generated": record["n_generated"],
        "n_examples": record["n_examples"],
        "solutions": [int(h) for h in kept],
    }
    return out, [by_hash[h] for h in kept]


def uniqueness_shard(
    tasks: list[dict[str, Any]],
    solutions: list[dict[str, Any]],
    records: list[dict[str, Any]],
    *,
    tol: float,
    min_solutions_: int,
) -> dict[str, Any]:
    counts = StageCounts("uniqueness", tasks_in=len(records))
    rejects: list[dict[str, Any]] = []
    tasks_by_slug = {t["slug"]: t for t in tasks}
    by_slug = group_by_slug(solutions)
    out_records, out_tasks, out_solutions = [], [], []
    for rec in records:
        task = tasks_by_slug[rec["slug"]]
        sols = [s for s in by_slug.get(rec["slug"], []) if s["hash"] in set(rec["solutions"])]
        counts.solutions_in += len(sols)
        result, kept = uniqueness_for_task(task, rec, sols, tol, counts, rejects)
        if result is None:
            continue
        out_records.append(result)
        out_tasks.append(task)
        out_solutions.extend(kept)
    final_tasks, final_solutions = min_solutions(
        out_tasks, out_solutions, min_solutions_, counts, rejects, when="after the uniqueness stage"
    )
    slugs = {t["slug"] for t in final_tasks}
    out_records = [r for r in out_records if r["slug"] in slugs]
    counts.tasks_out, counts.solutions_out = len(final_tasks), len(final_solutions)
    return {
        "records": out_records,
        "solutions": final_solutions,
        "rejects": rejects,
        "counts": counts,
    }
