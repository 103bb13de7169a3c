"""Running an ordered list of rewrite passes: one scan for the triggers of all of them, then only the passes
whose triggers occur.

Each :class:`~onestep.frontend.en.rules.Rule` names trigger substrings (``needs``) of which the text must hold
one for the pass to change anything. Checking every pass's triggers one by one costs a regex search per pass
(~75 per English sentence). :class:`PassList` instead finds every trigger present in one scan (a regex trie
of all the triggers), runs the passes whose triggers were found, in their order, and scans again whenever a
pass changed the text: a pass may write a trigger of a later pass (or remove one), so the later passes are
chosen on the text they will actually see. Outputs are those of running each pass with its own pre-check.

Patterns are compiled on first use, the trigger scanner included; :meth:`PassList.compile` compiles them all
(``Frontend.preload`` does, so that no request after a load pays for a compile).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from onestep.frontend.en.rules import Rule

__all__ = ["PassList", "TriggerScan"]


class TriggerScan:
    """Which of a set of literal triggers occur in a text, found by one regex scan.

    The scan's regex is a trie of the triggers; at each position it takes the longest trigger there and goes
    on after it (a plain ``findall``, no per-position look-ahead). A trigger it does not report itself still
    counts when it is a substring of one reported (it occurs, inside it), or when it starts inside one
    reported and runs past its end (checked with ``in`` for the few such pairs): any occurrence of a trigger
    starts either where the scan tried a match, or inside a match it found.

    Args:
        masks: ``{trigger: bit mask}``; :meth:`scan` returns the OR of the masks of the triggers present.
    """

    def __init__(self, masks: Mapping[str, int]) -> None:
        if any(not t for t in masks):
            raise ValueError("a trigger must not be empty")
        self._masks = dict(masks)
        self._pattern: re.Pattern[str] | None = None
        self._implied: dict[str, int] = {}  # trigger -> OR of the masks of the triggers it contains (itself too)
        self._overlaps: dict[str, tuple[str, ...]] = {}  # trigger -> triggers that may start inside it, end after

    @property
    def compiled(self) -> bool:
        """Whether the scan's regex and tables are built."""
        return self._pattern is not None

    def compile(self) -> None:
        """Build the regex and the tables now (else on the first :meth:`scan`)."""
        if self._pattern is not None:
            return
        triggers = sorted(self._masks)
        masks = self._masks
        self._implied = {t: _or(masks.get(s, 0) for s in _substrings(t)) for t in triggers}
        by_prefix: dict[str, list[str]] = {}  # a proper prefix -> the triggers that start with it
        for t in triggers:
            for end in range(1, len(t)):
                by_prefix.setdefault(t[:end], []).append(t)
        self._overlaps = {t: found for t in triggers if (found := _overlapping(t, by_prefix))}
        self._pattern = re.compile(_trie_pattern(triggers) or "(?!)")  # no triggers: a regex that never matches

    def scan(self, text: str) -> int:
        """The OR of the masks of the triggers that occur in ``text`` (0: none)."""
        if self._pattern is None:
            self.compile()
        assert self._pattern is not None
        found = 0
        implied, overlaps = self._implied, self._overlaps
        for trigger in set(self._pattern.findall(text)):
            found |= implied[trigger]
            for other in overlaps.get(trigger, ()):
                if other in text:
                    found |= implied[other]
        return found


class PassList:
    """An ordered list of rewrite passes, run as one.

    ``apply(text)`` gives what applying each pass in turn gives (``Rule.apply``: its pre-check, then its
    substitution), while looking for the triggers of all passes in one scan: a pass runs when it has no
    triggers or when one of them occurs in the text it gets.

    Args:
        rules: the passes, in order.
    """

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        cased: dict[str, int] = {}
        lowered: dict[str, int] = {}
        self._always = 0  # bit i: pass i runs on any text
        for i, rule in enumerate(self.rules):
            if not rule.needs:
                self._always |= 1 << i
            for trigger in rule.needs:
                table = lowered if rule.lower else cased
                table[trigger] = table.get(trigger, 0) | 1 << i
        self._cased = TriggerScan(cased)
        self._lowered = TriggerScan(lowered) if lowered else None  # looked for in the lower-cased text

    def __len__(self) -> int:
        return len(self.rules)

    def compile(self) -> None:
        """Compile every pass's pattern and the trigger scan now (else each on its first use)."""
        self._cased.compile()
        if self._lowered is not None:
            self._lowered.compile()
        for rule in self.rules:
            rule.compile()

    def triggered(self, text: str) -> int:
        """Bit mask of the passes that would run on ``text`` (bit i: ``rules[i]``)."""
        found = self._always | self._cased.scan(text)
        if self._lowered is not None:
            found |= self._lowered.scan(text.lower())
        return found

    def apply(self, text: str) -> str:
        """Run the passes in order on ``text``; each runs only if triggered by the text it gets."""
        rules = self.rules
        todo = self.triggered(text)
        while todo:
            bit = todo & -todo  # the first pass left to run
            changed = rules[bit.bit_length() - 1].run(text)
            if changed != text:  # triggers may have come or gone: choose the passes after this one anew
                text = changed
                todo = self.triggered(text) & ~((bit << 1) - 1)
            else:
                todo ^= bit
        return text


def _or(masks: Iterable[int]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def _substrings(text: str) -> set[str]:
    return {text[start:end] for start in range(len(text)) for end in range(start + 1, len(text) + 1)}


def _overlapping(trigger: str, by_prefix: Mapping[str, list[str]]) -> tuple[str, ...]:
    """The triggers that can start inside ``trigger`` (not at its start) and end after it: a proper suffix of
    ``trigger`` is a proper prefix of theirs (``by_prefix``: proper prefix -> triggers). Those inside
    ``trigger`` are left out (they are implied by it)."""
    found = {other for k in range(1, len(trigger)) for other in by_prefix.get(trigger[k:], ()) if other not in trigger}
    return tuple(sorted(found))


def _trie_pattern(triggers: Iterable[str]) -> str:
    """A regex that matches, at a position, the longest of ``triggers`` that starts there (they are literals:
    one branch per next character, an optional tail where a trigger ends and a longer one goes on)."""
    trie: dict[str, dict] = {}
    for trigger in triggers:
        node = trie
        for char in trigger:
            node = node.setdefault(char, {})
        node[""] = {}  # a trigger ends here

    def emit(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if "" in node:  # a trigger ends here: the longer ones are optional (greedy: longest first)
            return "(?:" + "|".join(branches) + ")?"
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(trie)
