"""The refusal-code vocabulary and the one normaliser of code-like text.

Shared by the layer-1 rule (a raw model output), the LLM judge's verdict parser (its
``classification`` field) and file import (a label cell), so the three read a code the same way.

A *token* is normalised by dropping markdown escapes, turning hyphens, spaces and underscores into
single underscores and upper-casing. It names a code when, so normalised, it is one of the seven
codes or one of the short names the paper's text uses (``REFUSE_MISSING`` …). Anything else that looks
like a code (``REFUSE_NONE``, ``REFUSE_CONTRADICTORY_QUERY``) names none: it is not guessed.
"""

from __future__ import annotations

import re
from typing import Optional

from refusalbench.taxonomy import ANSWER_ATTEMPT, REFUSAL_CODES, SHORT_CODES

#: normalised spelling → canonical code (the seven codes and the paper's short names).
CODE_NAMES: dict[str, str] = {**{code: code for code in REFUSAL_CODES}, **SHORT_CODES}
ANSWER_NAMES = frozenset({"ANSWER_ATTEMPT", "ANSWER", "ANSWERED"})

# A code-like token: letters/digits joined by "_", "\_", "-" or single spaces inside REFUSE…
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:(?:\\?_|-)[A-Za-z0-9]+)*")
_SEPARATORS = re.compile(r"(?:\\_|[-\s_])+")
# Markup and punctuation that may wrap a bare label: whitespace, emphasis, quotes, brackets, stops.
_WRAP = " \t\r\n*`'\"[](){}<>.,;:!?_#|"
# An echoed prompt cue before the label ("ANSWER:", "**Answer:**", "Classification -").
_CUE = re.compile(r"^[\s*`#>_]*(?:answer|classification|label|response)[\s*`_]*[:=\-][\s*`_]*", re.IGNORECASE)
_FENCE = re.compile(r"^```[A-Za-z]*\s*|\s*```$")


def normalise_token(text: str) -> str:
    """Upper-case `text` with markdown escapes removed and every separator run as one ``_``."""
    return _SEPARATORS.sub("_", str(text).replace("\\_", "_").strip()).strip("_").upper()


def code_name(token: str) -> Optional[str]:
    """The canonical code `token` names (a code or short name, any case/separators), else None."""
    return CODE_NAMES.get(normalise_token(token))


def strip_wrapping(text: str) -> str:
    """`text` without code fences, an echoed cue such as ``ANSWER:``, and wrapping markup/punctuation."""
    text = _FENCE.sub("", str(text).strip())
    text = _CUE.sub("", text, count=1)
    return text.strip(_WRAP)


def bare_label(text: str) -> Optional[str]:
    """What a cell or output that consists of one label alone names: a canonical code, ``answer_attempt``
    or None (anything else, including several words, unknown codes and empty text)."""
    core = strip_wrapping(text)
    if not core or not _TOKEN.fullmatch(core.replace(" ", "_")):
        return None
    key = normalise_token(core)
    if key in ANSWER_NAMES:
        return ANSWER_ATTEMPT
    return CODE_NAMES.get(key)


def leading_token(text: str) -> tuple[Optional[str], str]:
    """The code-like token `text` begins with (after a cue and opening markup) and the text after it."""
    core = _CUE.sub("", _FENCE.sub("", str(text).strip()), count=1).lstrip(_WRAP)
    m = _TOKEN.match(core)
    if not m:
        return None, core
    return m.group(0), core[m.end() :]


def code_tokens(text: str) -> list[str]:
    """Every code mentioned in `text`, in order: known codes in any case (canonical), and unlisted
    code-like tokens written in capitals as the prompt's codes are (normalised, e.g. ``REFUSE_NONE``)."""
    out = []
    for token in _TOKEN.findall(str(text)):
        key = normalise_token(token)
        if key in CODE_NAMES:
            out.append(CODE_NAMES[key])
        elif key.startswith("REFUSE_") and token.startswith("REFUSE"):
            out.append(key)
    return out
