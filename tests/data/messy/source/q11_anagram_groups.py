"""Group anagrams, groups in any order: a permutation search (factorial in the word's length), keys
that ignore letter counts or add letter codes, a sample that drops repeated words, an inner loop
whose increment slipped into the if."""

from __future__ import annotations

import random
import string

from messy_spec import (
    CORRECT,
    EXPONENTIAL,
    HANGING,
    NEAR_DUP,
    NO_COMPILE,
    RAISES,
    RAMBLING,
    SLOW,
    WRONG,
    Example,
    Input,
    Sol,
    Spec,
    code,
)


def small(rng: random.Random) -> Input:
    """Up to 12 words of up to 6 letters from small alphabets (so anagrams are common)."""
    alphabet = rng.choice(["ab", "abc", "abcd", "abcd", string.ascii_lowercase])
    words: list[str] = []
    for _ in range(rng.randint(1, 12)):
        if words and rng.random() < 0.3:
            w = list(rng.choice(words))
            rng.shuffle(w)
            words.append("".join(w))
        else:
            words.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))))
    return [words]


def distinct_words(rng: random.Random) -> Input:
    """10^4 words of 8 distinct letters each, no two anagrams of each other."""
    seen: set[str] = set()
    words = []
    while len(words) < 10**4:
        w = "".join(rng.sample(string.ascii_lowercase, 8))
        key = "".join(sorted(w))
        if key not in seen:
            seen.add(key)
            words.append(w)
    return [words]


SORTED_KEY = """
class Solution:
    def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
        groups = defaultdict(list)
        for word in strs:
            groups["".join(sorted(word))].append(word)
        return list(groups.values())
"""

SPEC = Spec(
    slug="anagram-groups",
    qid=9511,
    title="Anagram Groups",
    difficulty="Medium",
    tags=[
        ("Array", "array"),
        ("Hash Table", "hash-table"),
        ("String", "string"),
        ("Sorting", "sorting"),
    ],
    method="groupAnagrams",
    params=[("strs", "string[]")],
    returns="list<list<string>>",
    description="""
<p>Two words are <strong>anagrams</strong> when one is a rearrangement of the letters of the other, using every letter exactly as often.</p>

<p>Given an array of words <code>strs</code>, split it into groups so that two words share a group exactly when they are anagrams, and return <em>the groups</em>. Every word of <code>strs</code> belongs to exactly one group (a word that occurs twice appears twice in its group). You may return the answer in any order.</p>
""",
    examples=[
        Example(
            [["listen", "silent", "enlist", "google", "gogole", "cat"]],
            [["listen", "silent", "enlist"], ["google", "gogole"], ["cat"]],
        ),
        Example([[""]], [[""]]),
        Example([["ab", "ba", "abc"]], [["ab", "ba"], ["abc"]]),
    ],
    constraints=[
        "<code>1 &lt;= strs.length &lt;= 10<sup>4</sup></code>",
        "<code>0 &lt;= strs[i].length &lt;= 100</code>",
        "<code>strs[i]</code> consists of lowercase English letters.",
    ],
    any_order=True,
    reference=code("""
        class Solution:
            def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                out = {}
                for s in strs:
                    key = [0] * 26
                    for ch in s:
                        key[ord(ch) - 97] += 1
                    out.setdefault(tuple(key), []).append(s)
                return [sorted(g) for g in out.values()]
    """),
    small=small,
    big={
        "distinct": ("10^4 words of 8 letters, no two of them anagrams", distinct_words),
        "long": (
            "three words of 12 distinct letters, no two of them anagrams",
            lambda rng: [["abcdefghijkl", "mnopqrstuvwx", "bcdefghijklm"]],
        ),
    },
    solutions=[
        Sol(CORRECT, "e", "dict keyed by the sorted letters", code(SORTED_KEY), key="sorted"),
        Sol(
            CORRECT,
            "f",
            "dict keyed by the 26 letter counts",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    table = {}
                    for s in strs:
                        counts = [0] * 26
                        for ch in s:
                            counts[ord(ch) - ord("a")] += 1
                        table.setdefault(tuple(counts), []).append(s)
                    return list(table.values())
        """),
        ),
        Sol(
            CORRECT,
            "g",
            "sort the words by their key, then itertools.groupby",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    key = lambda w: "".join(sorted(w))
                    ordered = sorted(strs, key=key)
                    return [list(g) for _, g in itertools.groupby(ordered, key=key)]
        """),
        ),
        Sol(
            EXPONENTIAL,
            "a",
            "looks for any permutation of the word among the groups found so far",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    groups = {}
                    for word in strs:
                        found = None
                        for perm in itertools.permutations(word):
                            candidate = "".join(perm)
                            if candidate in groups:
                                found = candidate
                                break
                        if found is None:
                            groups[word] = [word]
                        else:
                            groups[found].append(word)
                    return list(groups.values())
        """),
            complexity="O(L!) per word of length L",
            slow_input="long",
            why="12! = 479,001,600 permutations for a 12-letter word with no anagram yet",
        ),
        Sol(
            WRONG,
            "b",
            "dict keyed by the set of letters",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    groups = {}
                    for s in strs:
                        groups.setdefault(frozenset(s), []).append(s)
                    return list(groups.values())
        """),
            witness=[["aab", "abb"]],
            expected=[["aab"], ["abb"]],
            got=[["aab", "abb"]],
            fails_examples=False,
            why="a set forgets how often each letter occurs",
        ),
        Sol(
            WRONG,
            "c",
            "dict keyed by the sum of the letter codes",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    buckets = defaultdict(list)
                    for s in strs:
                        buckets[sum(ord(c) for c in s)].append(s)
                    return list(buckets.values())
        """),
            witness=[["ad", "bc"]],
            expected=[["ad"], ["bc"]],
            got=[["ad", "bc"]],
            fails_examples=False,
            why="different words can have the same sum of letter codes",
        ),
        Sol(
            RAISES,
            "d",
            "buckets by first letter, then sorted keys inside each bucket",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    by_letter = defaultdict(list)
                    for s in strs:
                        by_letter[min(s)].append(s)
                    result = {}
                    for words in by_letter.values():
                        for w in words:
                            result.setdefault("".join(sorted(w)), []).append(w)
                    return list(result.values())
        """),
            witness=[[""]],
            error="ValueError",
            why="min() of the empty word",
        ),
        Sol(
            SLOW,
            "e",
            "compares each word with the first word of every group so far",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    groups = []
                    for word in strs:
                        for group in groups:
                            if sorted(group[0]) == sorted(word):
                                group.append(word)
                                break
                        else:
                            groups.append([word])
                    return groups
        """),
            complexity="O(n * g * L log L)",
            slow_input="distinct",
            why="5 * 10^7 comparisons, each sorting two words, when nothing groups",
        ),
        Sol(
            RAMBLING,
            "f",
            "sorted keys with an explanation, debug prints and an unused helper",
            code('''
            import re
            import json
            from typing import List, Dict
            from collections import defaultdict


            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    """
                    Two strings are anagrams if and only if their sorted characters are equal.
                    So we use the sorted string as a dictionary key and collect the words.

                    Example: "eat" -> "aet", "tea" -> "aet", "tan" -> "ant"

                    Complexity: O(n * k log k) for n words of length at most k.
                    """
                    anagram_map: Dict[str, List[str]] = defaultdict(list)
                    for index, word in enumerate(strs):
                        signature = "".join(sorted(word))
                        anagram_map[signature].append(word)
                        if index < 3:
                            print(f"{word!r} -> {signature!r}")
                    print("number of groups:", len(anagram_map))
                    return [group for group in anagram_map.values()]

                def is_anagram(self, a: str, b: str) -> bool:
                    # helper (not used above)
                    return sorted(a) == sorted(b)
        '''),
        ),
        Sol(
            NEAR_DUP,
            "g",
            "dict keyed by the sorted letters (variables renamed)",
            code(SORTED_KEY.replace("groups", "buckets").replace("word", "s")),
            dup_of="sorted",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            WRONG,
            "a",
            "sorted keys over the distinct words",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    groups = defaultdict(list)
                    for word in set(strs):
                        groups[tuple(sorted(word))].append(word)
                    return list(groups.values())
        """),
            witness=[["a", "a"]],
            expected=[["a", "a"]],
            got=[["a"]],
            fails_examples=False,
            why="iterates over set(strs), so a repeated word is kept once",
        ),
        Sol(
            HANGING,
            "b",
            "marks used words and scans the rest for anagrams of each word",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    used = [False] * len(strs)
                    groups = []
                    for i in range(len(strs)):
                        if used[i]:
                            continue
                        used[i] = True
                        group = [strs[i]]
                        key = sorted(strs[i])
                        j = i + 1
                        while j < len(strs):
                            if not used[j] and sorted(strs[j]) == key:
                                group.append(strs[j])
                                used[j] = True
                                j += 1
                        groups.append(group)
                    return groups
        """),
            witness=[["ab", "cd"]],
            why="`j += 1` sits inside the if: the first word that does not match stops j forever",
        ),
        Sol(
            CORRECT,
            "c",
            "defaultdict keyed by the tuple of sorted letters",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    d = defaultdict(list)
                    for s in strs:
                        d[tuple(sorted(s))].append(s)
                    return [v for v in d.values()]
        """),
        ),
        Sol(
            NO_COMPILE,
            "d",
            "letter-count keys, with a walrus in a comprehension condition that does not parse",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    groups = {}
                    for s in strs:
                        key = tuple(s.count(c) for c in string.ascii_lowercase)
                        groups[key] = groups.get(key, []) + [s]
                    return [g for key in groups if g := groups[key]]
        """),
            error="SyntaxError",
            why="an unparenthesised assignment expression in a comprehension's condition",
        ),
        Sol(
            WRONG,
            "e",
            "dict keyed by the length and the first and last letters",
            code("""
            class Solution:
                def groupAnagrams(self, strs: List[str]) -> List[List[str]]:
                    groups = {}
                    for s in strs:
                        key = (len(s), s[:1], s[-1:])
                        groups.setdefault(key, []).append(s)
                    return list(groups.values())
        """),
            witness=[["ab", "ba"]],
            expected=[["ab", "ba"]],
            got=[["ab"], ["ba"]],
            fails_examples=True,
            why="a cheap signature that neither keeps anagrams together nor keeps others apart",
        ),
    ],
)
