def reference(nums: list[int], target: int) -> list[int]:
    seen: dict[int, int] = {}
    for j, x in enumerate(nums):
        if target - x in seen:
            return [seen[target - x], j]
        seen[x] = j
    raise ValueError("no pair")
