
class Solution:
    def topKFrequent(self, nums: List[int], k: int) -> List[int]:
        counts = {}
        for x in nums:
            counts[x] = counts.get(x, 0) + 1
        return [v for v, _ in sorted(counts.items(), key=lambda p: -p[1])[:k]]
