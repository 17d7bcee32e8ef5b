"""The sampling policies written at the top of every offline generator: what the runtime
(runtime.py) does, in words. A change of the runtime's behaviour changes these too
(docs/offline-synthesizer.md, "Extending it")."""

SAMPLING_POLICY = (
    "lengths/counts uniform in [lo, min(hi, size_cap)]; element values uniform in their range "
    "(or over their value set / alphabet); scalar integers log-uniform in magnitude when their "
    "range spans >= 3 orders of magnitude, else uniform; with probability ~10% a boundary size or "
    "value (min/max), extreme-leaning values, a one- or two-letter alphabet, or a path-shaped "
    "tree; with probability ~10% a list with no stated order sorted ascending or descending; "
    "distinct values by random.sample; sorted by sorting; sums of lengths shrunk to fit; "
    "quantities drawn in topological order of their relations (sizes first); where stated: a "
    "binary search tree's values placed by an in-order walk, a remainder (n is even) met by "
    "moving the value down to the next allowed one, values excluded by != drawn again, rows "
    "with named fields drawn field by field (ordered pairs swapped into order, repeated rows "
    "drawn again), a tree's edges as a random tree (~10% a path), a string with no leading "
    "zeros given another first digit, a space where a stated rule forbids it (at either end, "
    "after another) given another character, a value equal to its neighbour or its index "
    "(nums[i] != nums[i + 1], edges[i] != i) drawn again, a value at a stated position "
    "(stones[0] == 0) placed there, a field with distinct values (All id_i are distinct) drawn "
    "distinct, a bound by a product or power of quantities (edges.length <= n * (n - 1) / 2) "
    "applied once they are drawn, values whose stated sum is exceeded (sum(nums[i]) <= 1000) "
    "scaled down toward the low end of their range, values moved toward an end of their range "
    "until a stated least, fixed or odd/even sum holds, lengths grown to a stated least sum, a "
    "scalar at most a sum (k <= sum(piles[i].length)) drawn again below it; "
    "generate_edge_cases() gives the inputs a "
    "judge always tries: every length, count and scalar at its smallest allowed value, then "
    "lengths and counts one above it, then every element value at the low and at the high end of "
    "its range"
)

PERF_POLICY = (
    "perf_input_gen(scale) gives every length and count the value min(stated max, scale) (at "
    "least its stated min), so the input grows monotonically with scale up to what the "
    "constraints allow; the stated maxima are not capped by a size cap; scalar integers whose "
    "range spans >= 3 orders of magnitude (lower bound >= 0) take min(stated max, max(stated "
    "min, scale)) too; other scalars and element values stay random (uniform over their range, "
    "value set or alphabet; log-uniform in magnitude for wide ranges reaching below 0); no "
    "random edge cases (boundary sizes, extreme-leaning values, path-shaped trees, pre-sorted "
    "lists), which would break monotonicity; distinct values by random.sample; sorted by "
    "sorting; sums of lengths shrunk to fit (and to at most scale). generate_test_case() keeps "
    "the random test-input policy, sizes at most SIZE_CAP"
)
