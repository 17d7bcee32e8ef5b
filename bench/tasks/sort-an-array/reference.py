def reference(nums: list[int]) -> list[int]:
    return sorted(nums)
