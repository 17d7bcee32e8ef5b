
class Solution:
    def climbStairs(self, n: int) -> int:
        @lru_cache(maxsize=None)
        def ways(k: int) -> int:
            return 1 if k < 2 else ways(k - 1) + ways(k - 2)
        return ways(n)
