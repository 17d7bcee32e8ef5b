
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        seen = set()
        lo = best = 0
        for hi, ch in enumerate(s):
            while ch in seen:
                seen.remove(s[lo])
                lo += 1
            seen.add(ch)
            best = max(best, hi - lo + 1)
        return best
