"""The short form of a restated answer sentence: the subject and the predicate that carries the rival value.

A contradiction lever restates the answer sentence with another value. Copied whole, the sentence repeats what is
not in dispute, and the sixty-second blind review read seven such restatements as clumsy ("claims that The Stone
Gardener is a novel by English writer Philippa Hawes, published in 1989 by Marlowe & Finch"). `shortened` keeps
what the rival source disputes:

- a lead that defines its subject and dates it in a participle or relative clause: "The Stone Gardener was published
  in 1989 by Marlowe & Finch", "Lowmarsh first aired in 1999 on Northway Television";
- a lead that gives a figure after "with": "Tessaro Logistica S.p.A. has 3,200 employees";
- an aside after the subject: "the trophy stands 38 centimetres tall";
- a first predicate before the one with the value: "the lake contains 1,412 islands" of "the lake is known for its
  indented shoreline and contains 1,412 islands";
- a second predicate after the value: "the hospital has 412 beds";
- a participle phrase after the value's noun: "the hall houses 312 stalls" of "... 312 stalls selling fish, meat ...";
- a clause of its own after the value: "the compact has 19 member states and four cooperating non-members" of "...,
  and its secretariat is based in Victoria";
- an aside after the value: "the production won eight Tony Awards" of "..., including Best Musical ...".

A sentence that matches none of these stays whole. `up_to_value_noun` is the plainer cut some levers take first: the
value and its noun, before a clause set off by a comma.
"""

from __future__ import annotations

import re

# no clause break; a thousands separator and the comma of a written-out date ("January 8, 2014") are fine
_TEXT = r"(?:[^,;]|(?<=\d),(?=\d)|(?<=\d),(?=\s\d{4}\b))+"
_DEFINES = r"(?P<subject>[^,;:()]{2,80}?)\s(?P<be>is|was|are|were)\s(?:a|an|the)\s"
_PARTICIPLE = (
    r"(?:first\s+|originally\s+|later\s+)?(?:published|released|founded|built|completed|opened|launched|"
    r"premiered|broadcast|formed|established|issued|recorded|written|painted|composed|designed|discovered|"
    r"introduced|inaugurated|consecrated|commissioned|described|shown|aired|screened|performed|staged|unveiled)"
)
# not the verb of a relative clause ("that premiered"), a participle split from its adverb ("first aired") or from its
# auxiliary ("has been broadcast ... since 1963")
_NOT_AFTER = "".join(
    rf"(?<!\b{w})"
    for w in ("that", "which", "who", "first", "originally", "later", "been", "be", "being", "has", "have")
)
# the participle after a comma or right after the noun ("a British drama serial first shown on 3 January 1979")
_LEAD_PARTICIPLE = re.compile(rf"^{_DEFINES}[^.;]*?(?:,\s|{_NOT_AFTER}\s)(?P<verb>{_PARTICIPLE})\s(?P<rest>{_TEXT})$")
_LEAD_RELATIVE = re.compile(
    rf"^{_DEFINES}[^.;,]*?\s(?:that|which)\s(?P<pred>(?:first\s+|originally\s+)?[a-z]+ed\s{_TEXT})$"
)
_LEAD_WITH = re.compile(rf"^{_DEFINES}[^.;,]*?\swith\s(?P<rest>{_TEXT})$")
_ASIDE = re.compile(
    r"^(?P<subject>(?:The|the|A|a|An|an|Its|its|His|his|Her|her|Their|their)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+),"
    rf"\s[^,;]+,\s(?P<rest>[a-z]{_TEXT})$"
)
# a first predicate before the one that carries the value: "the lake is known for ... and contains 1,412 islands"
_VALUE_VERB = (
    r"(?:is|was|are|were|has|had|contains|holds|includes|covers|comprises|spans|seats|employs|serves|measures|"
    r"carries|features|houses|numbers|attracts|receives|hosts|reaches|operates|owns|runs|manages|produces|sells|"
    r"(?!hundred\b)[a-z]{3,}ed)"
)
# _TEXT, and the commas of a list of names ("17 stores in Germany, Austria and Switzerland")
_LISTED_TEXT = r"(?:[^,;]|(?<=\d),(?=\d)|(?<=\d),(?=\s\d{4}\b)|,\s(?=[A-Z][\w'’-]*(?:\s[A-Z][\w'’-]*)?(?:,|\sand\s)))+"
_FIRST_PREDICATE = re.compile(
    r"^(?P<subject>(?:(?!\b(?:that|which|who|whose|where)\b)[^,;:()]){2,60}?)\s"
    r"(?P<first>is|was|are|were|has|had|received|won|drew|earned|got)\s"
    rf"[^,;]*?\s(?:and|but)\s(?P<pred>{_VALUE_VERB}\s{_LISTED_TEXT})$"
)
_PASSIVE = re.compile(r"^[a-z]{3,}ed\s(?:in|on|at|by|as|to|for|from|under|with|during|between)\b")
# where a restatement stops after its value: a clause with a subject of its own ("..., and its secretariat is based
# in ..."), a second predicate after a list ("seven restaurants in Santiago, Lima and Buenos Aires, and is credited
# with"; "34 factories in Japan, Thailand and Mexico and supplies components"), or an aside after a comma ("eight Tony
# Awards, including Best Musical", "seven medals, five of them gold", "1,214 works ..., with a smaller group of ...")
_STOP_AFTER_VALUE = re.compile(
    r"(?:,\s+and|;)\s+(?:(?:its|his|her|their|it|they|this|these)\b"
    r"|(?:the|a|an)\s+(?:[\w'’-]+\s+){0,3}?(?:is|was|are|were|has|had|[a-z]{3,}ed)\b"
    r"|(?:is|was|are|were|has|had|have|(?!hundred\b)[a-z]{3,}ed)\b)"
    r"|\s+and\s+(?:is|was|are|were|has|had|have|provides|supplies|operates|serves|offers|runs|employs|owns|hosts|"
    r"produces|makes|sells|exports|manages|remains|became|won|holds|can|could|will|would|may)\b"
    r"|,\s+(?:including|with|while|whereas|which|who|whose|where)\b"
    r"|,\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|many|most|some|several|all|each|both|none|half)\s+of\s+"
    r"(?:them|which|whom|these)\b"
)
# a participle phrase after the value's noun: "310 stalls selling fish, meat, fruit and vegetables"
_NOUN_PARTICIPLE = re.compile(
    r"^(?P<noun>(?:\s+[a-z][\w'’-]*){0,3}?)\s+(?:selling|serving|offering|housing|holding|containing|including|"
    r"covering|featuring|carrying|employing|linking|connecting|producing|making)\b"
)
# a second predicate of the subject after the value and its noun: "412 beds and provides ..."
_SECOND_PREDICATE = re.compile(
    r"^(?P<noun>(?:\s+(?!(?:and|or)\b)[a-z][\w'’-]*){0,4}?)\s+and\s+"
    r"(?:[a-z]+s|[a-z]+ed|is|was|are|were|has|had)\b[^;]*$"
)


# the value and at most four words of its noun ("12,000 students", "twelve platforms on two levels", "640 rooms and
# suites") before a clause set off by a comma; not a list's first item ("350 beds and provides surgical, maternity and
# ...")
_VALUE_CLAUSE = re.compile(
    r"(?P<words>(?:\s+(?!(?:and|or|but|nor)\b)[a-z][\w'’-]*){0,4}?(?:\s+(?:and|or)\s+[a-z][\w'’-]*)?)\s*,"
)

# the comma a list goes on from ("12 clubs from Estonia, Latvia and Lithuania", "54 floors of offices, apartments and a
# hotel"), which the restatement must not stop at
_LIST_AFTER = re.compile(
    r",\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+(?:,\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+)*,?\s+(?:and|or)\s+"
    r"(?:(?:a|an|the)\s+)?[\w'’-]+\s*[.,;]"
)


def up_to_value_noun(sentence: str, value: str) -> str:
    """`sentence` cut after `value` and at most four words of its noun where a clause set off by a comma follows
    (not where the comma goes on with a list); else `sentence` unchanged."""
    end = sentence.find(value) + len(value)
    clause = _VALUE_CLAUSE.match(sentence[end:])
    if clause and not _LIST_AFTER.match(sentence, end + clause.end() - 1):
        return sentence[:end] + clause.group("words") + "."
    return sentence


def shortened(sentence: str, value: str) -> str:
    """`sentence` (a restatement holding `value`, ending in a full stop) cut to its subject and the predicate with
    the value where one of the module's forms matches; else `sentence` unchanged."""
    body = sentence.rstrip()
    if not body.endswith(".") or value not in body:
        return sentence
    body = body[:-1]
    m = _LEAD_PARTICIPLE.match(body)
    if m and value in m.group("rest") and value not in m.group("subject"):
        be = "was" if m.group("be") in ("is", "was") else "were"
        body = f"{m.group('subject')} {be} {m.group('verb')} {m.group('rest')}"
    elif (m := _LEAD_RELATIVE.match(body)) and value in m.group("pred") and value not in m.group("subject"):
        body = f"{m.group('subject')} {m.group('pred')}"
    elif (m := _LEAD_WITH.match(body)) and m.group("rest").startswith(value) and value not in m.group("subject"):
        have = "has" if m.group("be") == "is" else "have" if m.group("be") == "are" else "had"
        body = f"{m.group('subject')} {have} {m.group('rest')}"
    elif (m := _ASIDE.match(body)) and value in m.group("rest"):
        body = f"{m.group('subject')} {m.group('rest')}"
    # then a first predicate before the one with the value, of the sentence or of its short form ("SS Maren Vale was
    # built by a shipyard in Sunderland and launched in 1927")
    if (m := _FIRST_PREDICATE.match(body)) and value in m.group("pred") and value not in body[: m.start("pred")]:
        body = _second_predicate_alone(body, m)
    end = body.find(value) + len(value)
    stop = _STOP_AFTER_VALUE.search(body, end)
    if stop:
        body = body[: stop.start()]
    participle = _NOUN_PARTICIPLE.match(body[end:])
    if participle and (participle.group("noun") or value[-1:].isalpha()):  # the noun in the value: "310 stalls"
        body = body[:end] + participle.group("noun")
    second = _SECOND_PREDICATE.match(body[end:])
    if second:
        body = body[:end] + second.group("noun")
    return body + "."


def _second_predicate_alone(body: str, m: re.Match) -> str:
    """The subject with the predicate after "and" (or "but"); a participle after "is"/"was" keeps its auxiliary only
    where a preposition shows it passive ("was recorded in London and released in 1985"), else the sentence stays
    whole ("was formed in 1990 and released 12 albums" is active)."""
    pred = m.group("pred")
    if m.group("first") in ("is", "was", "are", "were") and re.match(r"[a-z]{3,}ed\b", pred):
        if not _PASSIVE.match(pred):
            return body
        return f"{m.group('subject')} {m.group('first')} {pred}"
    return f"{m.group('subject')} {pred}"
