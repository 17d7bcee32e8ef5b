
class Solution:
    def sortArray(self, nums: List[int]) -> List[int]:
        heap = list(nums)
        heapify(heap)
        return [heappop(heap) for _ in range(len(heap))]
