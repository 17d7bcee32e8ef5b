
class Solution:
    def maxSubArray(self, nums: List[int]) -> int:
        def solve(lo: int, hi: int) -> int:
            if lo == hi:
                return nums[lo]
            mid = (lo + hi) // 2
            left_best, s = -math.inf, 0
            for k in range(mid, lo - 1, -1):
                s += nums[k]
                left_best = max(left_best, s)
            right_best, s = -math.inf, 0
            for k in range(mid + 1, hi + 1):
                s += nums[k]
                right_best = max(right_best, s)
            return max(solve(lo, mid), solve(mid + 1, hi), left_best + right_best)
        return solve(0, len(nums) - 1)
