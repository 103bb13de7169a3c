"""A small rule-based Penn Treebank tagger for the English G2P.

misaki's lexicon reads a word's part-of-speech tag in a few places only: punctuation tags (which phoneme a
mark becomes), ``DT`` for "a"/"that", ``PRP`` for "I", ``IN``/``TO`` for "in"/"to", ``NNP`` for capitalized
and all-caps words, ``CD`` for numbers, ``ADD`` for web addresses, and the verb/noun/adjective split of about
800 heteronyms ("record", "live", "read", "use"). misaki was built around spaCy's ``en_core_web_sm`` tagger,
which cannot be installed here; these rules cover the tags misaki reads, from the words around each token.

Open-class words whose part of speech the context does not settle get ``XX`` ("unknown"), which makes
misaki use a heteronym's ``DEFAULT`` reading instead of a guessed one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

UNKNOWN_TAG = "XX"

_SENTENCE_END = frozenset({".", "!", "?", "…", "...", "?!", "!!", "!?"})

_CLOSED_CLASS: dict[str, str] = {
    **dict.fromkeys(
        "the a an this that these those every each another either neither some any no all both".split(), "DT"
    ),
    **dict.fromkeys("i me you he him she it we us they them one".split(), "PRP"),
    **dict.fromkeys(
        "myself yourself himself herself itself ourselves yourselves themselves".split(), "PRP"
    ),
    **dict.fromkeys("my your his its our their".split(), "PRP$"),
    "her": "PRP$",
    **dict.fromkeys(
        (
            "of in on at by for with from about into onto over under after before between through during "
            "without within against among around across along behind below above beside besides beyond "
            "despite except inside outside near since until till upon toward towards via per than as "
            "because if while although though whether unless like whereas amid throughout"
        ).split(),
        "IN",
    ),
    "to": "TO",
    **dict.fromkeys("can could will would shall should may might must ca wo 'll".split(), "MD"),
    **dict.fromkeys("and or but nor &".split(), "CC"),
    **dict.fromkeys(
        (
            "not n't never also very too just only even still already always often sometimes soon now then "
            "here quite rather almost ever again once yet so away back perhaps maybe instead together"
        ).split(),
        "RB",
    ),
    **dict.fromkeys("which whatever whichever".split(), "WDT"),
    **dict.fromkeys("what who whom whoever".split(), "WP"),
    "whose": "WP$",
    **dict.fromkeys("where when why how".split(), "WRB"),
    **dict.fromkeys("oh yes yeah hello hi hey wow ah ooh alas please okay ok".split(), "UH"),
    "be": "VB",
    "am": "VBP",
    "'m": "VBP",
    "are": "VBP",
    "'re": "VBP",
    "is": "VBZ",
    "was": "VBD",
    "were": "VBD",
    "been": "VBN",
    "being": "VBG",
    "have": "VBP",
    "'ve": "VBP",
    "has": "VBZ",
    "had": "VBD",
    "do": "VBP",
    "does": "VBZ",
    "did": "VBD",
    "done": "VBN",
    "na": "TO",
    "'s": "POS",
    "'d": "MD",
    "gon": "VBG",
}

_MODALS = frozenset({"MD"})
# Words that cannot follow the article "a": a capital "A" before them is the letter ("A and B").
_NOT_AFTER_ARTICLE = frozenset(
    "and or but nor is was are were to of in on at for with as from by plus minus times equals versus".split()
)
_SUBJECTS_PLURAL = frozenset({"i", "you", "we", "they"})
_SUBJECTS_SINGULAR = frozenset({"he", "she", "it"})
_BE = frozenset({"be", "am", "'m", "is", "are", "'re", "was", "were", "been", "being"})
_HAVE = frozenset({"have", "'ve", "has", "had", "having"})
_DO = frozenset({"do", "does", "did", "n't", "not", "never", "please", "let", "let's"})
_AUXILIARIES = _BE | _HAVE | frozenset("can could will would should may might must".split())
_IS_BEFORE_S = _SUBJECTS_SINGULAR | frozenset({"that", "there", "here", "what", "who", "where"})
_NOUN_BEFORE = frozenset({"DT", "PRP$", "IN", "CD", "JJ", "POS", "WP$"})
_OBJECT_STARTS = frozenset(
    "the a an this that these those my your his her its our their it them me us him you some any every".split()
)
_NUMBER = re.compile(r"^[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:st|nd|rd|th|s|'s)?$")
_URL = re.compile(
    r"^(?:https?://|www\.)\S+$|^[\w.+-]+@[\w-]+\.[\w.-]+$|^[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}\.(?:com|org|net|io|edu|gov)$"
)
_OPEN_BRACKETS = {"(": "-LRB-", "[": "-LRB-", "{": "-LRB-", ")": "-RRB-", "]": "-RRB-", "}": "-RRB-"}
_DASHES = frozenset({"-", "–", "—", "--", "―", "...", "…", ";", ":"})
_CURRENCY = frozenset("$£€¥₹₩₽¢")
_SYMBOL_WORDS = {"&": "CC", "+": "SYM", "=": "SYM", "%": "NN", "@": "IN", "/": "SYM", "<": "SYM", ">": "SYM"}
_QUOTES_OPEN = frozenset("“‘«")
_QUOTES_CLOSE = frozenset("”’»")
_QUOTES_STRAIGHT = frozenset("\"'`")
_DASH_CHARS = frozenset("-–—")
_STOP_CHARS = frozenset(".!?")
_FIXED_PUNCT: dict[str, str] = {
    **_OPEN_BRACKETS,
    ",": ",",
    ".": ".",
    "!": ".",
    "?": ".",
    "#": "#",
    **_SYMBOL_WORDS,
    **dict.fromkeys(_CURRENCY, "$"),
}


def _punct_tag(words: Sequence[str], spaces: Sequence[bool], i: int) -> str | None:
    """Tag of a punctuation or symbol token, or None when ``words[i]`` is not one."""
    w = words[i]
    first = w[0]
    if first.isalnum() or (first == "'" and len(w) > 1 and w[1].isalpha()):
        return None
    fixed = _FIXED_PUNCT.get(w)
    if fixed is not None:
        return fixed
    if w == "-" and 0 < i < len(words) - 1 and not spaces[i - 1] and not spaces[i]:
        return "HYPH"  # an infix hyphen ("well-known"), read as part of the word
    chars = frozenset(w)
    if w in _DASHES or chars <= _DASH_CHARS:
        return ":"
    if chars <= _STOP_CHARS:
        return "."
    if first in _QUOTES_OPEN:
        return "``"
    if first in _QUOTES_CLOSE:
        if w == "’" and i > 0 and not spaces[i - 1] and words[i - 1][-1:] in ("s", "S"):
            return "POS"
        return "''"
    if chars <= _QUOTES_STRAIGHT:
        attached_left = i > 0 and not spaces[i - 1]
        if w == "'" and attached_left and words[i - 1][-1:] in ("s", "S"):
            return "POS"
        opening = not attached_left or words[i - 1] in _OPEN_BRACKETS or words[i - 1][0] in _QUOTES_OPEN
        return "``" if opening else "''"
    if all(not c.isalnum() for c in w):
        cats = {unicodedata.category(c)[0] for c in w}
        return "NFP" if cats <= {"S", "P", "C", "Z", "M"} else None
    return None


def _open_class_tag(lower: str, prev: str, prev_tag: str, next_lower: str, sentence_start: bool) -> str:
    """Tag of a lowercase open-class word from its neighbours (see the module docstring)."""
    if lower.endswith("ly") and len(lower) > 4:
        return "RB"
    if prev_tag == "TO" and not lower.endswith(("s", "ed", "ing")):
        return "VB"
    if prev_tag in _MODALS or prev in _DO:
        return "VB"
    if prev in _HAVE:
        return "VBN"
    if prev in _BE:
        if lower.endswith("ed"):
            return "VBN"
        if lower.endswith("ing"):
            return "VBG"
        return "JJ" if next_lower in ("", ".", ",", "and", "or", "to", "of", "for", "than") else UNKNOWN_TAG
    if prev in _SUBJECTS_PLURAL:
        return "VBD" if lower.endswith("ed") else "VBP"
    if prev in _SUBJECTS_SINGULAR:
        if lower.endswith("ed"):
            return "VBD"
        return "VBZ" if lower.endswith("s") else UNKNOWN_TAG
    if prev_tag in _NOUN_BEFORE:
        return "NNS" if lower.endswith("s") and not lower.endswith("ss") else "NN"
    if sentence_start and next_lower in _OBJECT_STARTS:
        return "VB"
    if lower.endswith("ed"):
        return "VBD"
    if lower.endswith("ing"):
        return "VBG"
    return UNKNOWN_TAG


def tag(words: Sequence[str], spaces: Sequence[bool]) -> list[str]:
    """Penn Treebank tags for spaCy-tokenized words.

    Args:
        words: token texts as spaCy's English tokenizer splits them (``["I", "ca", "n't", "go", "."]``).
        spaces: for each token, whether whitespace follows it.
    Returns:
        one tag per token (``"DT"``, ``"NNP"``, ``"."``, ``"XX"`` for undecided open-class words, ...).
    """
    n = len(words)
    tags: list[str] = []
    sentence_start = True
    for i, w in enumerate(words):
        prev = words[i - 1].lower() if i else ""
        prev_tag = tags[i - 1] if i else ""
        next_word = words[i + 1] if i + 1 < n else ""
        t = _tag_one(words, spaces, i, w, prev, prev_tag, next_word, sentence_start)
        tags.append(t)
        if t in ("_SP", "``", "-LRB-"):
            continue
        sentence_start = w in _SENTENCE_END or (t == "." and _STOP_CHARS.issuperset(w))
    return tags


def _is_letter(word: str) -> bool:
    return len(word) == 1 and "A" <= word <= "Z"


def _tag_one(
    words: Sequence[str],
    spaces: Sequence[bool],
    i: int,
    w: str,
    prev: str,
    prev_tag: str,
    next_word: str,
    sentence_start: bool,
) -> str:
    if not w.isalpha():  # plain words skip the checks for spaces, punctuation, numbers and addresses
        if not w.strip():
            return "_SP"
        punct = _punct_tag(words, spaces, i)
        if punct is not None:
            return punct
        if _NUMBER.match(w):
            return "CD"
        if _URL.match(w):
            return "ADD"
    if w == "A":
        starts_phrase = i == 0 or prev_tag in (".", ",", ":", "``", "-LRB-") or prev.islower()
        article = next_word[:1].islower() and next_word not in _NOT_AFTER_ARTICLE
        return "DT" if starts_phrase and article else "NNP"
    if w == "I":
        return "NNP" if (i > 0 and _is_letter(words[i - 1])) or _is_letter(next_word) else "PRP"
    lower = w.lower()
    if w.isupper() and (len(w) > 1 or not w.isalpha()) and any(c.isalpha() for c in w):
        return "NNP"
    if _is_letter(w):
        return "NNP"
    closed = _CLOSED_CLASS.get(lower)
    capitalized_mid = w[:1].isupper() and not sentence_start
    if closed is not None and not capitalized_mid:
        if lower == "that":
            return _tag_that(prev, next_word.lower())
        if lower in ("in", "by") and (not next_word or _punct_tag(words, spaces, i + 1) in (".", ",", ":")):
            return "RP" if lower == "in" else "RB"
        if lower == "'s" and prev in _IS_BEFORE_S:
            return "VBZ"
        return closed
    if lower == "used":
        if prev in _BE:
            return "VBN"
        return "VBD"
    if capitalized_mid:
        return "NNP"
    if not any(c.isalpha() for c in w):
        return UNKNOWN_TAG
    next_lower = next_word.lower()
    if next_word and _punct_tag(words, spaces, i + 1) is not None:
        next_lower = next_word if next_word in (".", ",") else ""
    return _open_class_tag(lower, prev, prev_tag, next_lower, sentence_start)


def _tag_that(prev: str, next_lower: str) -> str:
    """``IN`` for the complementizer ("said that he"), ``WDT`` for the relative, else ``DT``."""
    if next_lower in _OBJECT_STARTS or next_lower in _SUBJECTS_PLURAL or next_lower in _SUBJECTS_SINGULAR:
        return "IN"
    if prev and prev.isalpha() and prev not in _CLOSED_CLASS and next_lower in _AUXILIARIES:
        return "WDT"
    return "DT"
