
class Solution:
    def sortArray(self, nums: List[int]) -> List[int]:
        return sorted(nums)
