"""Guarantees about the input that a statement states only in its description.

LeetCode often writes a guarantee in the prose and not among the Constraints (``It is
guaranteed that there are no consecutive repeating characters``, ``The order of the alphabet is
some permutation of lowercase letters``). A generator that ignores one draws inputs the
statement rules out, on which accepted solutions disagree or raise, and are then called wrong.
So each such sentence is either read, as a Constraints item would be, or reported (the question
then needs an LLM generator). Four families:

- a guarantee sentence (``It is guaranteed that ...``, ``The test cases are generated so that
  ...``, ``... in such a way that ...``, ``Test data are generated such that ...``): read when
  the sentence, or the clause after its marker, is a form the Constraints reader reads (``It is
  guaranteed that nums is sorted in non-decreasing order``, any Constraints form; ``The test
  cases are generated so that the answer fits in a 32-bit integer`` is kept as the spec's
  ``answer``, unless the Constraints state one); reported otherwise, except where it says it
  follows from the constraints (``for the given constraints we can always ...``);
- a string that is a permutation of the lowercase letters (``The order of the alphabet is some
  permutation of lowercase letters``, the subject naming one string parameter): its 26
  characters distinct, read as ``order consists of distinct lowercase English letters`` and
  ``order.length == 26``;
- a list whose values (or strings) are distinct (``an array of unique strings words``, ``nums
  with no duplicates``, ``an integer array nums containing distinct numbers``);
- how many times values occur (one value duplicated and another lost or missing, every value
  twice except one): reported.

A sentence the Constraints list also holds is left to it (read or reported there).
"""

from __future__ import annotations

import re

from quicksilver.synth.offline.facts import Facts
from quicksilver.synth.offline.numstrings import this_answer
from quicksilver.synth.offline.occurs import described_occurs
from quicksilver.synth.offline.sentences import LineReader

# the sentence's marker, and the clause it guarantees (group ``clause``)
_GUARANTEE = re.compile(
    r"(?:note:\s*)?(?:-\s*)?(?:it(?: is|'s|’s) (?:also )?guaranteed(?: that)?|"
    r"(?:the )?(?:test ?cases?|tests|test data|inputs?)(?: will be| are| is)? "
    r"(?:generated|guaranteed)(?: in (?:such )?a way| such| so)+ that)\s+(?P<clause>.+)",
    flags=re.I,
)
# ``The answer is guaranteed to be unique``, ``s is guaranteed to be a valid expression``: the
# same guarantee with the subject first
_SUBJECT_GUARANTEED = re.compile(
    r"(?:note:\s*)?(?!there\b)(?P<subject>(?:(?!\b(?:that|which|who)\b)[^,;:])+?) "
    r"(?P<verb>is|are|will be) (?:always )?guaranteed to\s+(?P<pred>.+)",
    flags=re.I,
)
# ``You may assume that each input would have exactly one solution``: a guarantee in other words
# when the clause rules inputs out (``_ASSUMED_INPUT``); ``You may assume all four edges of the
# grid are surrounded by water`` or ``that you have an infinite number of each kind of coin`` set
# the rules of the problem, which no input can break
_ASSUME = re.compile(
    r"(?:note:\s*)?(?:furthermore,\s*|also,\s*)?you (?:may|can) (?:safely )?(?:also )?"
    r"assume(?: that)?\s+(?P<clause>.+)",
    flags=re.I,
)
_ASSUMED_INPUT = re.compile(
    r"\b(?:exactly one|only one|unique|always|valid|exists?|contradictions?|will not|won't|"
    r"does not|do not|doesn't|don't|never|at least|at most|no (?:two|duplicates?|leading)|"
    r"distinct|guaranteed)\b",
    flags=re.I,
)
# ``It is guaranteed that under the given constraints, there is always a solution``: a guarantee
# the statement says follows from the Constraints, so it rules out no input they allow
_IMPLIED = re.compile(r"\b(?:under|for|with) the (?:given )?constraints\b", flags=re.I)
_LETTERS_PERMUTATION = re.compile(
    r"(?P<subject>.+?) (?:is|are|will be) (?:some |a |any )?permutations? of (?:the |all )?"
    r"(?:(?:26 )?(?:English )?lowercase (?:English )?letters|(?:26 )?letters of the "
    r"(?:lowercase )?English alphabet|lowercase English alphabet)",
    flags=re.I,
)
_N = r"[A-Za-z_]\w*"
# strings of one length said in the description (neighbours.py reads the Constraints' wordings)
_SAME_LENGTH = re.compile(r"\b(?:the )?same length\b|\bequal lengths?\b", flags=re.I)
_ALL_OF_SAME_LENGTH = re.compile(
    rf"\b(?:array|list) of (?:\w+ )?strings,? (?P<param>{_N}),? (?:all )?(?:of|with|having) "
    rf"(?:the )?same length\b",
    flags=re.I,
)
# ``an array of unique strings words``, ``nums with no duplicates``, ``an integer array nums
# containing distinct numbers``: the list's values (or strings) are distinct
_DISTINCT_LIST = (
    re.compile(
        rf"\b(?:array|list|set) of (?:unique|distinct) (?:positive |non-negative )?"
        rf"(?:integers|numbers|strings|words),? (?P<param>{_N})\b"
    ),
    re.compile(rf"\b(?P<param>{_N}),? \(?(?:with no|without) duplicates\b"),
    re.compile(
        rf"\b(?:array|list) (?P<param>{_N})(?: of length {_N})? containing (?:unique|distinct) "
        rf"(?:positive )?(?:integers|numbers|values|elements)\b"
    ),
)
# how many times values occur: one value duplicated and another lost, or every value twice
# except one (``every element appears exactly twice, except for one element which appears
# exactly once``): multisets no spec key draws
_MULTIPLICITY = re.compile(
    r"\bduplicated?\b.*\b(?:loss|lost|missing)\b|\b(?:loss|lost|missing)\b.*\bduplicated?\b|"
    r"\b(?:appears?|occurs?) (?:exactly |only )?(?:once|twice|thrice|\w+ times)\b.*\bexcept\b|"
    r"\bexcept\b.*\b(?:appears?|occurs?) (?:exactly |only )?(?:once|twice)\b|"
    r"\bexactly one \w+ .*\b(?:appears?|occurs?) more than\b",
    flags=re.I,
)


def description_sentences(prose: str) -> list[str]:
    """The description's sentences: the text before the first example and the Constraints, split
    at a sentence's end or a line break, without the final period."""
    text = re.split(r"\n\s*Example\b|Constraints:", prose)[0]
    out = []
    for part in re.split(r"(?<=[.!?])\s+|\n+", text):
        sentence = re.sub(r"\s+", " ", part).strip().rstrip(".").strip()
        if sentence:
            out.append(sentence)
    return out


class DescribedGuarantees:
    """Reads the description's guarantees into ``facts`` (through the Constraints reader), and
    appends to ``problems`` the ones it cannot read, quoted."""

    def __init__(self, facts: Facts, problems: list[str], notes: list[str]) -> None:
        self.facts = facts
        self.problems = problems
        self.notes = notes

    def run(self, prose: str, lines: list[str]) -> None:
        stated = {re.sub(r"\s+", " ", line).strip().rstrip(".").lower() for line in lines}
        before = ""
        for sentence in description_sentences(prose):
            before, last = sentence, before
            if sentence.lower() in stated:
                continue
            self._distinct_lists(sentence)
            if _IMPLIED.search(sentence):
                continue
            if m := _GUARANTEE.fullmatch(sentence):
                self._guarantee(sentence, this_answer(last, m["clause"]))  # numstrings.py
            elif m := _SUBJECT_GUARANTEED.fullmatch(sentence):
                verb = "is" if m["verb"].lower() == "will be" else m["verb"]
                pred = re.sub(r"^be\s+", "", m["pred"])  # is guaranteed to be unique: is unique
                self._guarantee(sentence, f"{m['subject']} {verb} {pred}")
            elif m := _ASSUME.fullmatch(sentence):
                self._assumed(sentence, m["clause"])
            elif m := _LETTERS_PERMUTATION.fullmatch(sentence):
                self._letters_permutation(sentence, m["subject"])
            elif _SAME_LENGTH.search(sentence):
                self._same_length(sentence)
            elif _MULTIPLICITY.search(sentence) and not described_occurs(
                self.facts, sentence, self.notes
            ):
                self.problems.append(
                    f'"{sentence}": how many times values occur, in the description (not read)'
                )

    def _distinct_lists(self, sentence: str) -> None:
        """``an array of unique strings words``, ``nums with no duplicates``: read as ``All the
        values of nums are unique`` (``All the strings of words are unique``)."""
        for form in _DISTINCT_LIST:
            for m in form.finditer(sentence):
                p = self.facts.by_name.get(m["param"])
                if p is None or p.tree or p.node:
                    continue
                if p.depth == 1 and p.leaf == "int" and not p.join:
                    line = f"All the values of {p.name} are unique"
                elif p.depth == 2 and p.join:
                    line = f"All the strings of {p.name} are unique"
                else:
                    continue
                if self._reads(line):
                    self.notes.append(f'{p.name}: distinct, as the description says ("{m[0]}")')
                else:
                    self.problems.append(f'"{sentence}": distinct values, not read')

    def _reads(self, line: str) -> bool:
        """Whether the Constraints reader reads ``line`` whole (its facts are then applied; a
        line it does not read changes nothing)."""
        found: list[str] = []
        LineReader(self.facts, found).read(line)
        return not found

    def _guarantee(self, sentence: str, clause: str) -> None:
        answer = self.facts.answer  # a range the Constraints state for the answer stays theirs
        for line in (sentence, clause):
            if self._reads(line):
                if answer is None and self.facts.answer is not None:
                    lo, hi, _ = self.facts.answer
                    self.facts.answer = (lo, hi, sentence)  # quoted whole, marker included
                self.facts.answer = answer or self.facts.answer
                self.notes.append(f'"{sentence}": read from the description')
                return
        self.problems.append(f'"{sentence}": a guarantee in the description, not read')

    def _assumed(self, sentence: str, clause: str) -> None:
        """``You may assume ...``: a Constraints form is read; a clause that rules inputs out is a
        guarantee (read or refused); any other sets the problem's rules and is passed over."""
        if _ASSUMED_INPUT.search(clause):
            self._guarantee(sentence, clause)
        elif self._reads(clause):
            self.notes.append(f'"{sentence}": read from the description')

    def _same_length(self, sentence: str) -> None:
        """``All the strings of words are of the same length`` in the description: read as the
        Constraints item (neighbours.py), and ``an array of n strings strs, all of the same
        length`` as ``All the strings of strs are of the same length`` (the strings' lengths
        were drawn apart, which the statement rules out). Any other sentence with "same length"
        is left as before: most define something else (``a string a is lexicographically
        smaller than a string b (of the same length) if ...``), and two strings of one length
        are stated among the Constraints (``s.length == t.length``)."""
        m = _ALL_OF_SAME_LENGTH.search(sentence)
        line = f"All the strings of {m['param']} are of the same length" if m else sentence
        if self._reads(line):
            self.notes.append(f'"{sentence}": read from the description')

    def _letters_permutation(self, sentence: str, subject: str) -> None:
        words = set(re.findall(r"[A-Za-z_]\w*", subject))
        named = [p for p in self.facts.params if p.name in words]
        strings = [p for p in named if p.join and p.depth == 1 and not p.tree]
        if len(named) != 1 or len(strings) != 1:
            self.problems.append(
                f'"{sentence}": a permutation of the letters, but not of one string parameter'
            )
            return
        name = strings[0].name
        distinct = f"{name} consists of distinct lowercase English letters"
        if self._reads(distinct) and self._reads(f"{name}.length == 26"):
            self.notes.append(f'{name}: the 26 lowercase letters, each once ("{sentence}")')
        else:
            self.problems.append(f'"{sentence}": a permutation of the letters, not read')
