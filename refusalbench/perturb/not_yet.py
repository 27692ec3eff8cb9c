"""A dated event denied in its own year: "It opened on 2 April 1964." → "It had not yet opened by the end of 1964."

The denial keeps the sentence's subject, its verb as a past perfect and a short object, and drops every phrase saying
where, how or by whom: a negation that says less is stronger, so it still contradicts the dated sentence, and it
reads as a claim of its own, not as a copy of that sentence with another year.
"""

from __future__ import annotations

import re

from refusalbench.perturb.base import NotApplicable

# irregular past forms and their participles
_PARTICIPLE_OF = {
    "began": "begun", "became": "become", "won": "won", "held": "held", "made": "made", "built": "built",
    "ran": "run", "rose": "risen", "fell": "fallen", "sank": "sunk", "took": "taken", "came": "come",
    "went": "gone", "left": "left", "led": "led", "met": "met", "gave": "given", "wrote": "written",
    "sold": "sold", "set": "set", "broke": "broken", "flew": "flown", "drew": "drawn", "struck": "struck",
    "found": "found", "shut": "shut", "lost": "lost", "beat": "beaten", "bought": "bought", "brought": "brought",
    "sent": "sent", "stood": "stood", "threw": "thrown", "saw": "seen", "sang": "sung", "split": "split",
    "swore": "sworn", "laid": "laid", "lit": "lit", "spoke": "spoken", "chose": "chosen", "froze": "frozen",
}  # fmt: skip
_PASSIVE_PARTICIPLES = "|".join(sorted({*_PARTICIPLE_OF.values(), "born", "shown", "seen", "sunk"}))
_ADVERB = r"(?:(?:first|originally|officially|initially|formally|eventually|finally|later|also|then|subsequently)\s+)?"
_PASSIVE = re.compile(
    rf"^(?P<subject>.+?)\s+(?:was|were)\s+{_ADVERB}(?P<verb>[a-z]{{3,}}ed|{_PASSIVE_PARTICIPLES})\b(?P<rest>.*)$"
)
_ACTIVE = re.compile(rf"^(?P<subject>.+?)\s+{_ADVERB}(?P<verb>[a-z]{{3,}}ed|{'|'.join(_PARTICIPLE_OF)})\b(?P<rest>.*)$")
# a word before the verb that makes it an adjective of the subject ("the newly formed unit", "a moraine-dammed lake")
_MODIFIED = re.compile(r"(?:\b(?:the|a|an|its|his|her|their|newly|recently|once)|-)$", re.I)
# what ends the object: a phrase saying where, when, how or by whom, a comma or a second clause
_OBJECT_END = re.compile(
    r"\s(?:at|in|on|off|from|to|by|with|for|during|near|under|as|after|before|into|onto|aboard|across|through|via|"
    r"between|against|within|outside|inside|over|around|following|and|or|but|while|when)\b|,"
)
# verbs whose sense needs what follows them ("went on sale", "took place", "made his debut", "led to its closure": the
# eighty-third review's R077)
_NEEDS_OBJECT = frozenset(
    "went came got set ran broke fell stood rose took made gave put brought held turned led resulted contributed "
    "amounted belonged referred pointed".split()
)
# verbs that say what the subject was made or named "as", whose sense the "as" phrase carries
_NAMED_AS = re.compile(
    r"listed|designated|named|cited|recogni[sz]ed|classified|inscribed|declared|registered|chosen|elected|appointed|"
    r"crowned|ranked|described|regarded|considered|known|served|worked|joined|began|started|set|established|founded"
)
MAX_OBJECT_WORDS = 5
WORDINGS = ("{subject} had not yet {vp} by the end of {year}.", "{subject} had still not {vp} by the end of {year}.")


def not_yet(sentence: str, value: str, year: str, wording: str = WORDINGS[0]) -> str:
    """`sentence` (subject, verb, the date `value`) denied for the whole of `year`, in `wording`; NotApplicable
    where the verb, its subject or a short object cannot be told apart by rule."""
    at = sentence.find(value)
    if at < 0:
        raise NotApplicable("the date is not in the restated sentence")
    head = re.sub(r"\s+(?:on|in|of|during)(?:\s+the)?\s*$", "", sentence[:at]).strip()
    passive = _PASSIVE.match(head)
    if passive:
        subject, verb, rest = passive.group("subject"), passive.group("verb"), passive.group("rest")
        vp = f"been {verb}"  # "was awarded the Berthold Medal" keeps its object below
    else:
        active = _ACTIVE.match(head)
        if not active or _MODIFIED.search(active.group("subject")):
            raise NotApplicable("the restated sentence has no past verb that a rule can put in the past perfect")
        subject, verb, rest = active.group("subject"), active.group("verb"), active.group("rest")
        vp = _PARTICIPLE_OF.get(verb, verb)
    if "," in subject:
        # "Known for his heavy slapshot, he ...", "The silver trophy, made by ..., ...": an opening phrase or an aside
        raise NotApplicable("the subject carries a phrase set off by commas")
    if re.match(r"\s*as\b", rest) and _NAMED_AS.fullmatch(verb):
        # "released as a single" may go ("not released at all" still denies it); "listed as" may not
        raise NotApplicable("the verb takes 'as' ('was listed as a World Heritage Site'), which a denial would drop")
    obj = _OBJECT_END.split(" " + rest.strip(), maxsplit=1)[0].strip() if rest.strip() else ""
    if not obj and not passive and verb in _NEEDS_OBJECT:
        raise NotApplicable(f"'{verb}' needs the words after it ('went on sale'), which a denial would drop")
    if len(obj.split()) > MAX_OBJECT_WORDS:
        raise NotApplicable("the verb's object is too long for a short denial")
    if re.search(r"\d|[\"“”();:]", obj) or re.search(r"\b(?:was|were|is|are|has|have|had)\b", subject):
        raise NotApplicable("the object carries a figure or a quotation, or the subject a verb of its own")
    vp = f"{vp} {obj}".strip()
    return wording.format(subject=subject, vp=vp, year=year)
