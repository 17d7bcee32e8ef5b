from collections import Counter


def reference(nums: list[int], k: int) -> list[int]:
    counts = Counter(nums).most_common()
    if k < len(counts) and counts[k - 1][1] == counts[k][1]:
        raise ValueError("top-k is not unique")
    return sorted(v for v, _ in counts[:k])
