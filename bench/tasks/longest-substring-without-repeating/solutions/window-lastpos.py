
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        last = {}
        start = best = 0
        for i, ch in enumerate(s):
            p = last.get(ch, -1)
            if p >= start:
                start = p + 1
            last[ch] = i
            if i - start + 1 > best:
                best = i - start + 1
        return best
