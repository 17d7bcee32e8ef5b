
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        order = sorted(range(len(nums)), key=lambda k: nums[k])
        lo, hi = 0, len(order) - 1
        while lo < hi:
            s = nums[order[lo]] + nums[order[hi]]
            if s == target:
                return sorted([order[lo], order[hi]])
            if s < target:
                lo += 1
            else:
                hi -= 1
        return []
