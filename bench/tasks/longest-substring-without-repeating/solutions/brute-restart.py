
class Solution:
    def lengthOfLongestSubstring(self, s: str) -> int:
        best = 0
        for i in range(len(s)):
            seen = set()
            for ch in s[i:]:
                if ch in seen:
                    break
                seen.add(ch)
            best = max(best, len(seen))
        return best
