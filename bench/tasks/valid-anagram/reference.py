from collections import Counter


def reference(s: str, t: str) -> bool:
    return Counter(s) == Counter(t)
