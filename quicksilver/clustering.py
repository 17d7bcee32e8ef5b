"""Adaptive clustering of reference costs (DPE / EvalPerf), and the cluster scores.

The rule (EvalPerf paper, ANCHORS section 3): sort the solutions' mean costs slowest first,
``t_0 >= t_1 >= ...``; between neighbours the relative gap is ``gap_i = (t_i - t_{i+1}) / t_i``;
a new cluster starts after ``i`` when ``gap_i > bias + sqrt(w / t_i)``. ``bias`` (0.2) asks for a
20% step at least; ``w`` raises the bar for cheap solutions, whose relative differences are
mostly noise. One setting is used everywhere (EvalPerf's export re-clustered with bias 0.1; we
do not).

``w`` is in the meter's unit. The paper's 10,000 instructions is used as is for the instruction
meters; for CPU time it becomes the time those instructions take: ``10,000 / rate`` seconds,
``rate`` being the instructions per CPU second of the machine, measured on it against the
``icount`` meter (quicksilver.calibration), never assumed. On the 2-vCPU EPYC build VM the rate is
about 1e10, so ``w`` is about 1 microsecond of CPU time.

Each cluster's reference is its slowest member; cluster ``i``'s score is the cumulative share of
all solutions in clusters ``0..i`` counted from the slowest, so the fastest cluster scores 100.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from quicksilver.metrics import cumulative_scores

DEFAULT_BIAS = 0.2
W_INSTRUCTIONS = 10_000.0


def w_for_unit(unit: str, *, instruction_rate: float | None = None) -> float:
    """The paper's w (10,000 instructions) in a meter's unit: instructions, s, ms, us or ns
    (a time unit needs the machine's measured ``instruction_rate``, instructions per second)."""
    if unit == "instructions":
        return W_INSTRUCTIONS
    if instruction_rate is None:
        raise ValueError(f"w in {unit!r} needs the machine's measured instruction rate")
    seconds = W_INSTRUCTIONS / instruction_rate
    scale = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}
    if unit not in scale:
        raise ValueError(f"w_for_unit: unknown unit {unit!r}")
    return seconds * scale[unit]


@dataclass(frozen=True)
class Cluster:
    members: tuple[int, ...]  # indices into the costs given, slowest first
    costs: tuple[float, ...]

    @property
    def reference(self) -> int:
        """The slowest member (EvalPerf: the reference that represents the cluster)."""
        return self.members[0]

    @property
    def reference_cost(self) -> float:
        return self.costs[0]


@dataclass(frozen=True)
class Clustering:
    clusters: tuple[Cluster, ...]  # slowest cluster first
    scores: tuple[float, ...]  # cumulative %, slowest first; the fastest is 100
    bias: float
    w: float

    @property
    def references(self) -> list[int]:
        """Reference solution per cluster, slow to fast (EvalPerf's ``reference`` order)."""
        return [c.reference for c in self.clusters]


def adaptive_clusters(
    costs: Sequence[float], *, w: float, bias: float = DEFAULT_BIAS
) -> Clustering:
    """Cluster mean costs (any order; indices refer to ``costs``) by the adaptive gap rule."""
    if not costs:
        raise ValueError("adaptive_clusters: no costs")
    for i, c in enumerate(costs):
        if not (isinstance(c, int | float) and math.isfinite(c) and c > 0):
            raise ValueError(f"adaptive_clusters: cost #{i} is {c!r}; costs must be finite and > 0")
    if w < 0 or bias < 0:
        raise ValueError("adaptive_clusters: w and bias must be >= 0")
    order = sorted(range(len(costs)), key=lambda i: (-costs[i], i))
    groups: list[list[int]] = [[order[0]]]
    for prev, nxt in itertools.pairwise(order):
        t, u = costs[prev], costs[nxt]
        gap = (t - u) / t
        if gap > bias + math.sqrt(w / t):
            groups.append([nxt])
        else:
            groups[-1].append(nxt)
    clusters = tuple(Cluster(tuple(g), tuple(float(costs[i]) for i in g)) for g in groups)
    scores = tuple(cumulative_scores([len(g) for g in groups]))
    return Clustering(clusters, scores, bias, w)
