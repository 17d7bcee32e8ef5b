"""Valid brackets: a boolean answer, so every wrong sample that errs on an input errs the same way;
a string that starts with a closing bracket splits the samples with no majority."""

from __future__ import annotations

import random

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
    Plurality,
    Sol,
    Spec,
    code,
)


def balanced(rng: random.Random, pairs: int) -> str:
    """A random valid string of ``pairs`` bracket pairs."""
    out: list[str] = []
    stack: list[str] = []
    opened = 0
    while opened < pairs or stack:
        if opened < pairs and (not stack or rng.random() < 0.5):
            o, c = rng.choice(["()", "[]", "{}"])
            out.append(o)
            stack.append(c)
            opened += 1
        else:
            out.append(stack.pop())
    return "".join(out)


def small(rng: random.Random) -> Input:
    """Half valid strings, half valid strings with one or two characters changed, plus short
    random strings; at most 14 characters, so the exponential sample finishes."""
    kind = rng.random()
    if kind < 0.3:
        n = rng.randint(1, 14)
        return ["".join(rng.choice("()[]{}") for _ in range(n))]
    s = list(balanced(rng, rng.randint(1, 7)))
    if kind < 0.65:
        for _ in range(rng.randint(1, 2)):
            s[rng.randrange(len(s))] = rng.choice("()[]{}")
    return ["".join(s)]


SPEC = Spec(
    slug="balanced-brackets",
    qid=9503,
    title="Balanced Brackets",
    difficulty="Easy",
    tags=[("String", "string"), ("Stack", "stack")],
    method="isValid",
    params=[("s", "string")],
    returns="boolean",
    description="""
<p>The string <code>s</code> is made of the six characters <code>'('</code>, <code>')'</code>, <code>'['</code>, <code>']'</code>, <code>'{'</code> and <code>'}'</code>.</p>

<p>Call <code>s</code> <strong>balanced</strong> when every opening bracket is closed by a closing bracket of the same kind, brackets are closed in the reverse order of their opening, and no closing bracket appears without an open bracket of its kind to close.</p>

<p>Return <code>true</code> <em>if</em> <code>s</code> <em>is balanced</em>, and <code>false</code> otherwise.</p>
""",
    examples=[
        Example(["([]){}"], True),
        Example(
            ["([)]"], False, "The <code>')'</code> arrives while <code>'['</code> is still open."
        ),
        Example(["(("], False),
    ],
    constraints=[
        "<code>1 &lt;= s.length &lt;= 10<sup>4</sup></code>",
        "<code>s</code> consists of parentheses only <code>'()[]{}'</code>.",
    ],
    hints=["Keep the brackets that are still open on a stack."],
    reference=code("""
        class Solution:
            def isValid(self, s: str) -> bool:
                want = {")": "(", "]": "[", "}": "{"}
                stack = []
                for ch in s:
                    if ch in want:
                        if not stack or stack[-1] != want[ch]:
                            return False
                        stack.pop()
                    else:
                        stack.append(ch)
                return not stack
    """),
    small=small,
    big={
        "nested": ("5000 '(' then 5000 ')' (length 10^4)", lambda rng: ["(" * 5000 + ")" * 5000]),
        "open": ("10^4 '(' (length 10^4, not balanced)", lambda rng: ["(" * 10**4]),
    },
    plurality=Plurality(
        [")("],
        "7/2/2/1/1/1",
        "6/2/1/1",
        "false (right) 7: #0 #2 #3 #8 #9 #12 #14; true 2: #7 #10; IndexError (pop) 2: #1 #4; "
        "null, IndexError (index), timeout 1 each. Among the samples that pass the examples "
        "(#3, #6, #7, #10 fail them) the right answer has a majority.",
    ),
    solutions=[
        Sol(
            CORRECT,
            "c",
            "stack of open brackets, a dict from closer to opener",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    match = {")": "(", "]": "[", "}": "{"}
                    stack = []
                    for ch in s:
                        if ch in match:
                            if not stack or stack[-1] != match[ch]:
                                return False
                            stack.pop()
                        else:
                            stack.append(ch)
                    return len(stack) == 0
        """),
            key="stack",
        ),
        Sol(
            RAISES,
            "d",
            "stack of the closers still expected",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    expect = []
                    for ch in s:
                        if ch == "(":
                            expect.append(")")
                        elif ch == "[":
                            expect.append("]")
                        elif ch == "{":
                            expect.append("}")
                        elif expect.pop() != ch:
                            return False
                    return not expect
        """),
            witness=[")("],
            error="IndexError",
            why="pops from an empty stack when a closing bracket comes first",
        ),
        Sol(
            EXPONENTIAL,
            "e",
            "recursive grammar check trying every split point",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    pairs = {"(": ")", "[": "]", "{": "}"}

                    def valid(t):
                        if not t:
                            return True
                        if len(t) % 2:
                            return False
                        # either t = (A) with A valid, or t = AB with A and B valid
                        if t[0] in pairs and pairs[t[0]] == t[-1] and valid(t[1:-1]):
                            return True
                        for k in range(2, len(t) - 1, 2):
                            if valid(t[:k]) and valid(t[k:]):
                                return True
                        return False

                    return valid(s)
        """),
            complexity="O(2^(n/2)) on strings that are not balanced",
            slow_input="open",
            why="tries every split of every prefix when nothing matches",
        ),
        Sol(
            WRONG,
            "f",
            "stack check that forgets to look at what is left open",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    stack = []
                    for ch in s:
                        if ch in "([{":
                            stack.append(ch)
                        else:
                            if not stack:
                                return False
                            top = stack.pop()
                            if (top, ch) not in {("(", ")"), ("[", "]"), ("{", "}")}:
                                return False
                    return True
        """),
            witness=["(("],
            expected=False,
            got=True,
            fails_examples=True,
            why="returns true although brackets are still open",
        ),
        Sol(
            RAISES,
            "g",
            "stack, pops without checking that it is non-empty",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    stack = []
                    match = {")": "(", "]": "[", "}": "{"}
                    for ch in s:
                        if ch in match:
                            if stack.pop() != match[ch]:
                                return False
                        else:
                            stack.append(ch)
                    return not stack
        """),
            witness=[")("],
            error="IndexError",
            why="pop from an empty list when a closing bracket comes first",
        ),
        Sol(
            RAISES,
            "a",
            "stack, peeks at the top without checking that it is non-empty",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    pairs = {")": "(", "]": "[", "}": "{"}
                    stack = []
                    for ch in s:
                        if ch in "([{":
                            stack.append(ch)
                        elif stack[-1] == pairs[ch]:
                            stack.pop()
                        else:
                            return False
                    return not stack
        """),
            witness=[")("],
            error="IndexError",
            why="stack[-1] on an empty list when a closing bracket comes first",
        ),
        Sol(
            HANGING,
            "b",
            "index loop over the string with a stack",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    opening = {")": "(", "]": "[", "}": "{"}
                    stack = []
                    i = 0
                    while i < len(s):
                        c = s[i]
                        if c in "([{":
                            stack.append(c)
                            i += 1
                        elif stack and stack[-1] == opening[c]:
                            stack.pop()
                            i += 1
                    return not stack
        """),
            witness=["(]"],
            why="a closing bracket that does not match leaves i where it is: the loop never ends",
        ),
        Sol(
            WRONG,
            "c",
            "one depth counter for all bracket kinds",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    depth = 0
                    for ch in s:
                        if ch in "([{":
                            depth += 1
                        else:
                            depth -= 1
                    return depth == 0
        """),
            witness=["([)]"],
            expected=False,
            got=True,
            fails_examples=True,
            why="ignores the kinds and the order of the brackets",
        ),
        Sol(
            RAMBLING,
            "d",
            "stack with commentary, debug output and unused imports",
            code("""
            import collections
            import string
            from typing import List


            class Solution:
                def isValid(self, s: str) -> bool:
                    # Classic stack problem!
                    # Idea: scan left to right. Push every opening bracket. When we see a
                    # closing bracket, the most recent unmatched opening bracket must be of the
                    # same type, otherwise the string is invalid.
                    # At the end, nothing may remain open.
                    #
                    # Complexity: O(n) time, O(n) space.
                    #
                    # Note: an odd length can never be valid, which is a nice early exit.
                    if len(s) % 2 == 1:
                        print("odd length, invalid")
                        return False
                    closing_to_opening = {")": "(", "]": "[", "}": "{"}
                    stack = []
                    for position, character in enumerate(s):
                        if character in closing_to_opening.values():
                            stack.append(character)
                        else:
                            if len(stack) == 0:
                                print(f"nothing to close at {position}")
                                return False
                            if stack[-1] != closing_to_opening[character]:
                                print(f"mismatch at {position}: {stack[-1]} vs {character}")
                                return False
                            stack.pop()
                    print("remaining stack:", stack)
                    return len(stack) == 0

                def isValidRecursive(self, s: str) -> bool:
                    # alternative idea, not used
                    while "()" in s or "[]" in s or "{}" in s:
                        s = s.replace("()", "").replace("[]", "").replace("{}", "")
                    return s == ""
        """),
        ),
        Sol(
            WRONG,
            "e",
            "stack that skips closing brackets when nothing is open",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    pairs = {")": "(", "]": "[", "}": "{"}
                    stack = []
                    for ch in s:
                        if ch in pairs.values():
                            stack.append(ch)
                        elif ch in pairs:
                            if not stack:
                                continue
                            if stack.pop() != pairs[ch]:
                                return False
                    return not stack
        """),
            witness=["]()"],
            expected=False,
            got=True,
            fails_examples=False,
            why="a closing bracket with nothing open is skipped instead of rejected",
        ),
        Sol(
            WRONG,
            "f",
            "even length and equal counts of each kind",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    if len(s) % 2:
                        return False
                    return (
                        s.count("(") == s.count(")")
                        and s.count("[") == s.count("]")
                        and s.count("{") == s.count("}")
                    )
        """),
            witness=["([)]"],
            expected=False,
            got=True,
            fails_examples=True,
            why="counts cannot see the order of the brackets",
        ),
        Sol(
            WRONG,
            "g",
            "stack with an early exit that forgets its value",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    stack = []
                    pairs = {")": "(", "]": "[", "}": "{"}
                    for ch in s:
                        if ch not in pairs:
                            stack.append(ch)
                            continue
                        if not stack:
                            return
                        if stack.pop() != pairs[ch]:
                            return False
                    return not stack
        """),
            witness=[")("],
            expected=False,
            got=None,
            fails_examples=False,
            why="a bare `return` answers null when a closing bracket comes first",
        ),
        Sol(
            NEAR_DUP,
            "a",
            "stack of open brackets (variables renamed)",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    opener_of = {")": "(", "]": "[", "}": "{"}
                    pending = []
                    for c in s:
                        if c in opener_of:
                            if not pending or pending[-1] != opener_of[c]:
                                return False
                            pending.pop()
                        else:
                            pending.append(c)
                    return len(pending) == 0
        """),
            dup_of="stack",
            diff="variables renamed",
            jaccard=1.0,
        ),
        Sol(
            NO_COMPILE,
            "b",
            "stack, Python 2 print statement left in",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    stack = []
                    for ch in s:
                        if ch in "([{":
                            stack.append(ch)
                        elif not stack or "([{"[")]}".index(ch)] != stack.pop():
                            print "invalid at", ch
                            return False
                    return not stack
        """),
            error="SyntaxError",
            why="a Python 2 print statement",
        ),
        Sol(
            SLOW,
            "c",
            "removes one adjacent matching pair per pass until none is left",
            code("""
            class Solution:
                def isValid(self, s: str) -> bool:
                    while True:
                        out = []
                        removed = False
                        i = 0
                        while i < len(s):
                            if not removed and i + 1 < len(s) and s[i] + s[i + 1] in ("()", "[]", "{}"):
                                i += 2
                                removed = True
                                continue
                            out.append(s[i])
                            i += 1
                        s = "".join(out)
                        if not removed:
                            break
                    return s == ""
        """),
            complexity="O(n^2)",
            slow_input="nested",
            why="5000 passes over a string of up to 10^4 characters",
        ),
    ],
)
