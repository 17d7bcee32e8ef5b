"""A score report's summary as text (rich markup): the lines ``quicksilver score`` prints under
its table, rendered from the report's JSON form (:meth:`ScoreReport.to_dict`)."""

from __future__ import annotations

from typing import Any


def interval_text(ci: Any, fmt: str) -> str:
    """`` (95% CI low-high)`` for a report's interval over tasks; nothing without one."""
    if not isinstance(ci, list) or len(ci) != 2:
        return ""
    return f" (95% CI {fmt.format(ci[0])}-{fmt.format(ci[1])})"


def memory_line(data: dict[str, Any]) -> str:
    """The memory figures of a score report in one line (docs/metrics.md, "Memory")."""

    def fig(value: float | None, tasks: int) -> str:
        return "-" if value is None else f"{value:.3f} ({tasks} task{'s' if tasks != 1 else ''})"

    return (
        f"Beyond-memory@1: {fig(data.get('beyond_memory_at_1'), data.get('memory_tasks', 0))}"
        f"   NMU: {fig(data.get('nmu'), data.get('nmu_tasks', 0))}"
        f"   NTMU: {fig(data.get('ntmu'), data.get('ntmu_tasks', 0))}"
    )


def unconverged_line(data: dict[str, Any]) -> str:
    """How many samples and references were scored from a profile that did not converge or
    whose passes split into modes (:func:`~quicksilver.scoring.model.unconverged_summary`), by
    flag."""
    counts: dict[str, int] = {}
    for entry in data["unconverged"]:
        for flag in entry["flags"]:
            counts[flag] = counts.get(flag, 0) + 1
    by_flag = ", ".join(f"{flag} {n}" for flag, n in sorted(counts.items()))
    return (
        f"[yellow]scored from unconverged profiles:[/] {data['unconverged_samples']} sample(s), "
        f"{data['unconverged_references']} reference(s) ({by_flag}; listed under 'unconverged' "
        "in --json)"
    )


def shipped_line(shipped: dict[str, Any]) -> str:
    """What scoring did with the references' counts the dataset shipped, in one line."""
    line = (
        f"shipped counts: {shipped['used']} reference(s) taken as shipped, "
        f"{shipped['recounted']} re-counted here"
        + (f" ({len(shipped['mismatches'])} differed)" if shipped["mismatches"] else " and equal")
        + f" (fingerprint {shipped['fingerprint']}, seed {shipped['seed']})"
    )
    return line + (f"; [yellow]{shipped['reason']}[/]" if shipped.get("reason") else "")


def _window_line(w: dict[str, Any]) -> str:
    """``--released-after``'s window in one line."""
    return (
        f"released after {w['after']}: {w['tasks']} task(s) of the dataset; left out: "
        f"{w['earlier_left_out']} released on or before it, {w['undated_left_out']} undated"
        + (f", {w['samples_left_out']} sample(s) of them" if w["samples_left_out"] else "")
        + (
            f"; {w['in_training_views']} of the window's tasks are in the training views"
            if w.get("in_training_views")
            else ""
        )
    )


def _dps_lines(data: dict[str, Any]) -> list[str]:
    """DPS and DPS_norm over the DPE tasks, and why a DPE task has none."""
    dps_line = (
        "DPS: -   DPS_norm: -"
        if data["dps"] is None
        else f"DPS: {data['dps']:.1f}{interval_text(data.get('dps_ci'), '{:.1f}')}   "
        f"DPS_norm: {data['dps_norm']:.1f}"
    )
    lines = [
        f"{dps_line}   (over {data['dps_tasks']} of {data['dpe_tasks']} DPE tasks: those "
        "with a correct sample and a score"
        + (
            f"; a sample matches a reference up to {100 * data['dps_tolerance']:g}% above it"
            if data.get("dps_tolerance")
            else ""
        )
        + ")"
    ]
    for name, why in data["dps_unscorable"].items():
        lines.append(f"  no DPS for {name}: {why}")
    return lines


def summary_lines(data: dict[str, Any], k: int) -> list[str]:
    """The summary of a score report's JSON form ``data`` scored at pass@``k``."""
    key_pass = "pass_at_1" if k == 1 else f"pass_at_{k}"
    key_beyond = "beyond_at_1" if k == 1 else f"beyond_at_{k}"
    # DPE tasks have no Beyond distribution: they count as unscorable for Beyond; say so
    dpe_note = f", {data['dpe_tasks']} of them DPE tasks" if "dpe_tasks" in data else ""
    lines = []
    if "released_after" in data:
        lines.append(_window_line(data["released_after"]))
    lines += [
        f"tasks: {data['n_tasks']} (unscorable for Beyond: {data['n_unscorable']}{dpe_note})",
        f"Pass@{k}: {data[key_pass]:.3f}{interval_text(data.get(key_pass + '_ci'), '{:.3f}')}   "
        f"Beyond@{k}: "
        + (
            "-"
            if data[key_beyond] is None
            else f"{data[key_beyond]:.3f}{interval_text(data.get(key_beyond + '_ci'), '{:.3f}')}"
        )
        + ("" if data["gap"] is None else f"   Gap: {data['gap']:.3f}"),
    ]
    if "dps" in data:
        lines += _dps_lines(data)
    if data.get("memory_tasks") or data.get("nmu_tasks") or data.get("ntmu_tasks"):
        lines.append(memory_line(data))
    if data.get("unconverged"):
        lines.append(unconverged_line(data))
    if data.get("shipped_counts"):
        lines.append(shipped_line(data["shipped_counts"]))
    if data.get("row_call_limits"):
        limits = sorted(
            {
                t["cpu_limits"]["call_seconds"]
                for t in data["tasks"]
                if t.get("cpu_limits", {}).get("call_seconds")
            }
        )
        lines.append(
            f"limits per call from the rows (judge_limits): {data['row_call_limits']} task(s), "
            + ", ".join(f"{c:g} s" for c in limits)
            + " of CPU"
        )
    for name, g in data["by_difficulty"].items():
        lines.append(
            f"  {name}: Pass {g['pass_at_k']:.3f}  Beyond "
            + ("-" if g["beyond_at_k"] is None else f"{g['beyond_at_k']:.3f}")
        )
    return lines
