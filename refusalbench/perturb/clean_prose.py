"""Whether a pool passage reads as clean prose, for the unrelated passage that replaces an answer passage.

Source quirks a strict reader notices ("German atrocities in Germany Shocked American public opinion", "on the
Border of two states", "Shah pur Kandi Township", a space before a comma) are found with the pool's own word
counts, not a hand list.
"""

from __future__ import annotations

import re
from collections import Counter

from refusalbench.perturb import answer_types as at
from refusalbench.perturb.distractors import STOPWORDS
from refusalbench.perturb.text import LOWERABLE, lower_vocabulary

# a capitalised word inside a sentence: after a lower-case word ("on the Border of") or a verb form after any word
# ("German atrocities in Germany Shocked American"), followed by a lower-case word (not the start of a longer name)
_MID_CAPITAL = re.compile(
    r"(?<=[a-z,] )(?<!\bof )(?<!\band )([A-Z][a-z]{2,})(?=(?: (?:of|the|and|for|de|in))* [a-z])"
    r"|(?<=[A-Za-z] )([A-Z][a-z]{2,}(?:ed|ing))\b"
)


# broken spacing: a doubled space inside a sentence, a space before a comma or stop, none after a full stop,
# a dash glued to one word only ("Scene Four- It is")
_BAD_SPACING = re.compile(r"[^.!?\"'”’)\s]\s{2,}\S|\w\s+[,;:.!?](?!\w)|[a-z]{2}[.,;][A-Z][a-z]|[A-Za-z]-\s+[A-Z]")
# a name broken by a lower-case piece ("Shah pur Kandi Township"), the piece not a particle or function word
_SPLIT_NAME = re.compile(r"\b[A-Z][a-z]+ ([a-z]{2,5}) [A-Z][a-z]+")


def clean(passage: str, common: frozenset[str] = frozenset(), counts: Counter | None = None) -> bool:
    """True when a replacement passage reads as clean prose: no capitalised common word inside a sentence
    (a verb form, or a word `common` (the pool's common words) or the passage writes in lower case), no
    broken spacing, no "sitcom's I Love Lucy" (a possessive before a capitalised name), and no name split by
    a lower-case piece that `counts` (the pool's word counts) shows is rare ("Shah pur Kandi")."""
    if _BAD_SPACING.search(passage) or re.search(r"\b[a-z]+'s\s+I\s+[A-Z]", passage):
        return False
    for m in _SPLIT_NAME.finditer(passage):
        piece = m.group(1)
        if piece not in STOPWORDS and piece not in at.PARTICLES and (counts is None or counts[piece] < 5):
            return False
    lower = common | lower_vocabulary(passage)
    for m in _MID_CAPITAL.finditer(passage):
        word = (m.group(1) or m.group(2)).lower()
        verb_form = word.endswith(("ed", "ing")) and word not in _NAME_ING
        if word in lower or word in STOPWORDS or word in LOWERABLE or verb_form:
            return False
    return True


def pool_words(pool) -> tuple[frozenset[str], Counter]:
    """Words the distractor pool writes in lower case at least twice as often as capitalised, and the pool's
    word counts (computed once)."""
    if not hasattr(pool, "_lower_words"):
        counts = Counter(re.findall(r"\b[A-Za-z][a-z']+\b", " ".join(text for _, text in pool.passages)))
        pool._lower_words = frozenset(w for w, n in counts.items() if w.islower() and n >= 2 * counts[w.capitalize()])
        pool._word_counts = counts
    return pool._lower_words, pool._word_counts


_NAME_ING = frozenset("united beijing reading wedding sterling darling king red ring".split())
