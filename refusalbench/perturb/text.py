"""Sentence splitting, answer matching and the small punctuation/casing helpers the levers share.

The splitter keeps abbreviations ("Dr.", "U.S.", "e.g."), initials ("J. R. R. Tolkien"), decimals
("3.5") and "No. 5" inside their sentence. Answer matching is case-insensitive, whole-word and
whitespace-tolerant, so it finds at least everything the check stage's stricter matcher finds.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Iterable, Sequence

ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof st sr jr mt ft gen col lt sgt capt cmdr adm gov sen rep rev hon pres vs etc
    inc ltd co corp bros dept univ assn approx est no nos vol vols fig pp ed eds al ca cf viz incl esp pt messrs mme
    mlle fr rt
    jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thurs fri sat sun""".split()
)
# A period may end a sentence only if it is followed by space and an opening capital/digit/quote.
_BOUNDARY = re.compile(r"([.!?])([\"'”’)\]]*)(\s+)(?=[\"'“‘(\[]?[A-Z0-9])")
_TOKEN_BEFORE = re.compile(r"(\S+)$")
_SPACES = re.compile(r"[ \t\u00a0\u2009\u202f]+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?)\]])")
_SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")
_REPEATED_COMMA = re.compile(r",\s*,+")
_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")
# words a sentence flows on with once a date and the comma that closed it are gone or restated ("released on May 3,
# 1983, by RCA" → "released by RCA", "released in the 1980s by RCA"): there the comma went with the date
FLOWS_ON = r"(?:that|and|or|as|in|on|at|by|for|from|to|with|through|after|before|during|under|via)\b"
# past forms that do not end in -ed, for gates that look for a verb ("first lit on", "first broadcast and")
IRREGULAR_PARTICIPLES = (
    "born|begun|began|built|rebuilt|done|held|made|won|sold|shown|seen|written|given|taken|lit|sunk|broadcast|laid|run"
)
FINAL = (".", "!", "?", '."', ".'", '!"', '?"', ".”", "?”", ".)")

LOWERABLE = frozenset(
    """the a an in on at it he she they we this that these those its his her their there after before
    during by when while as from with for since although though however following according some
    many most several both each one two three four five six seven eight nine ten within without
    despite unlike like upon under over among between throughout until because if whereas once
    originally initially currently today later then now also first here such all every other another
    only either neither no not what which who how why where unless through into onto about around
    near along across beyond behind beside besides against toward towards instead prior due later
    following subsequently eventually finally thus therefore meanwhile additionally""".split()
)


def is_abbreviation(token: str) -> bool:
    """True for a token ending in '.' that does not end a sentence (abbreviation, initial, decimal)."""
    word = token.rstrip(".").lstrip("(\"'“‘[")
    if not word:
        return False
    if len(word) == 1 and word.isalpha():  # an initial: "J."
        return True
    if re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", word):  # U.S, e.g, i.e, U.K
        return True
    if re.fullmatch(r"[IVX]{2,4}", word):  # regnal numbers: "Georg II. August"
        return True
    return word.lower() in ABBREVIATIONS


def strip_stop(answer: str) -> str:
    """The answer without trailing commas/semicolons and without a final full stop that is not an abbreviation's."""
    text = answer.rstrip(" ,;:")
    if text.count("(") != text.count(")"):  # "(Bill Pullman": a bracket cut off with the answer
        text = text.strip("() ")
    if text.endswith(".") and not is_abbreviation(text.rsplit(" ", 1)[-1]):
        text = text.rstrip(".").rstrip()
    return text or answer


def split_sentences(text: str) -> list[str]:
    """Sentences of `text` (whitespace inside each collapsed), in order; '' gives []."""
    text = normalise_space(text)
    if not text:
        return []
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group(1) == ".":
            before = _TOKEN_BEFORE.search(text, 0, m.start(1) + 1)
            token = before.group(1) if before else ""
            if is_abbreviation(token):
                continue
            if text[m.end(3) : m.end(3) + 1].isdigit() and re.fullmatch(r"[A-Z][A-Za-z]{0,2}\.", token):
                continue  # "KV. 550", "Op. 27": a catalogue label before its number
        end = m.end(2)
        piece = text[start:end].strip()
        if piece:
            out.append(piece)
        start = m.end(3)
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def join_sentences(sentences: Iterable[str]) -> str:
    return " ".join(s.strip() for s in sentences if s and s.strip())


def normalise_space(text: str) -> str:
    """Single spaces (no tabs/no-break spaces/newlines), stripped."""
    return _SPACES.sub(" ", " ".join(str(text).split())).strip()


def tidy(text: str) -> str:
    """Collapse spaces, drop spaces before punctuation and repeated commas, empty brackets."""
    text = normalise_space(text)
    text = _REPEATED_COMMA.sub(",", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN.sub(r"\1", text)
    text = re.sub(r"\(\s*\)|\[\s*\]", "", text)
    text = re.sub(r",\s*([.;:!?])", r"\1", text)
    text = _DOUBLE_STOP.sub(".", text)  # "Jr." closing a sentence: "Jr..", not an ellipsis
    return normalise_space(text)


def tidy_paragraphs(text: str) -> str:
    """`tidy` within each paragraph; the blank lines between paragraphs stay."""
    return "\n\n".join(tidy(p) for p in text.split("\n\n"))


def capitalise(text: str) -> str:
    """Upper-case the first letter (after any opening quote/bracket)."""
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
        if ch.isdigit():
            return text
    return text


def embed(sentence: str, vocabulary: frozenset[str] | set[str] = frozenset(), names: Sequence[str] = ()) -> str:
    """A sentence ready to follow 'that': final punctuation removed, a common first word lower-cased.

    The first word is lowered when it is a common sentence opener, an -ing/-ed/-ly form, or a word
    that `vocabulary` (words seen in lower case in the source passage) knows; names stay as written,
    and so does a sentence that opens with one of `names` ("It Happened at the World's Fair is ...").
    """
    s = sentence.strip().rstrip(".!?;:").rstrip()
    if any(n and s.lstrip("\"'“‘").startswith(n) for n in names):
        return s
    first, _, after = s.partition(" ")
    word = first.strip(",;:")
    if word in ("A", "An") and after[:1].islower():  # "A total of 49 ..." → "a total of 49 ..."
        return word.lower() + s[len(word) :]
    name_goes_on = after[:1].isupper() or after[:1].isdigit()
    if word[:1].isupper() and word[1:].islower() and word.isalpha() and (not name_goes_on or word.lower() in LOWERABLE):
        low = word.lower()
        if low in LOWERABLE or low in vocabulary or re.search(r"(?:ing|ed|ly)$", low):
            s = first[0].lower() + s[1:]
    return s


def lower_vocabulary(text: str) -> frozenset[str]:
    """Words that occur in lower case in `text` (evidence that a capitalised one is not a name)."""
    return frozenset(re.findall(r"\b[a-z][a-z']+\b", text))


def ends_sentence(text: str) -> bool:
    """True when `text` ends with terminal punctuation (before any closing quote or bracket)."""
    return text.rstrip().rstrip("\"'”’)]").endswith((".", "!", "?"))


def starts_sentence(text: str) -> bool:
    """True when `text` starts like a sentence: a capital or a digit, after any opening quote/bracket."""
    s = text.lstrip("\"'“‘([")
    return bool(s) and (s[0].isupper() or s[0].isdigit())


def end_sentence(text: str, mark: str = ".") -> str:
    """`text` with final punctuation (adds `mark` when it has none) and a capital first letter."""
    text = tidy(text).rstrip(",;: ")
    if not text.endswith(FINAL):
        text = text.rstrip(".!?") + mark
    return capitalise(text)


def question_body(query: str) -> str:
    """The query without final '?' and spaces, first letter kept as is."""
    return normalise_space(query).rstrip(" ?.!").strip()


def as_question(text: str) -> str:
    """A clean question sentence: capitalised, single spaces, ending in '?'."""
    body = tidy(text).rstrip(" ?.!,;:")
    return capitalise(body) + "?"


def lower_first(text: str) -> str:
    """Lower-case the first word unless it looks like a name or acronym (second letter upper, or 'I')."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[1:].islower() and first.lower() in LOWERABLE | _WH:
        return first.lower() + text[len(first) :]
    return text


_WH = frozenset("who whom whose what which when where why how is are was were do does did can could will would".split())


@functools.lru_cache(maxsize=16384)
def answer_pattern(answer: str) -> re.Pattern[str] | None:
    """Case-insensitive whole-word pattern for `answer` tolerating any whitespace run; None if empty."""
    tokens = str(answer).split()
    if not tokens:
        return None
    body = r"\s+".join(re.escape(t) for t in tokens)
    return re.compile(r"(?<!\w)" + body + r"(?!\w)", re.I)


def contains(text: str, answer: str) -> bool:
    pat = answer_pattern(answer)
    return bool(pat and pat.search(text))


def contains_any(text: str, answers: Sequence[str]) -> bool:
    return any(contains(text, a) for a in answers)


def raw_contains_any(text: str, answers: Sequence[str]) -> bool:
    """The check stage's matcher: the stripped answer verbatim, case-insensitive, whole word."""
    for a in answers:
        a = str(a).strip()
        if a and re.search(r"(?<!\w)" + re.escape(a) + r"(?!\w)", text, re.I):
            return True
    return False


def balanced(text: str) -> bool:
    """Brackets paired and double quotes even, so no cut-off parenthesis or quotation."""
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0 and text.count('"') % 2 == 0 and text.count("“") == text.count("”")


def inside_quotes(text: str, pos: int) -> bool:
    """True when position `pos` of `text` lies inside a quotation ("I Wanna Dance with Somebody (Who Loves Me)")."""
    before = text[:pos]
    return before.count('"') % 2 == 1 or before.count("\u201c") > before.count("\u201d")


def is_clean(text: str) -> bool:
    """Our output rules: no double spaces, no space before punctuation, final punctuation present."""
    if not text or text != text.strip() or "  " in text:
        return False
    if re.search(r"\s[,.;:!?]", text) or ",," in text or ".." in text.replace("...", ""):
        return False
    return text.rstrip("\"'”’)]").endswith((".", "!", "?"))


def folded(text: str) -> str:
    """Lower case without diacritics ("Pokémon" -> "pokemon")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
