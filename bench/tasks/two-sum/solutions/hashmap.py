
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        seen = {}
        for j, x in enumerate(nums):
            k = seen.get(target - x)
            if k is not None:
                return [k, j]
            seen[x] = j
        return []
