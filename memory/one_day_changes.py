"""A change of what comes again for one day only, said in a message.

"tomorrow Reza pickup 8:00 not 7:30" after "Reza's pickup is every weekday at 7:30": the
fact holds again after that day. Read where a fact is marked changed (`agent.since_changed`)
and where retention keeps a message as the last word on a fact (`memory.last_word`).
"""

from __future__ import annotations

from datetime import date

from memory.changes_to_come import a_change_to_come
from memory.days_to_keep import last_day_said
from memory.entry import MemoryEntry
from memory.health_values import names_a_dose, stops_a_medicine
from memory.lazy_patterns import lazy_compile
from memory.relative_dates import named_days
from memory.short_words import written_out

_AGAIN_AND_AGAIN = lazy_compile(
    r"(?i)\b(?:every|each|daily|weekdays?|weekly|usually|always|normally|regular(?:ly)?|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b"
)
_ONE_DAY = lazy_compile(
    r"(?i)\b(?:tomorrow(?:['\u2019]s)?|today(?:['\u2019]s)?|tonight|tmrw|tmr|yesterday"
    r"|(?:on|this|next)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|just\s+for\s+\w+"
    r"|only\s+(?:on|for)\b|\w+\s+only\b"
    # A date: "on 14/12 standup is at 10 not 9:30", "standup on the 14th is at 10" (an
    # adversary saw each marked for good, and after the 14th too).
    r"|on\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th|[/.]\d{1,2}(?:[/.]\d{2,4})?)(?![\d/.]))"
)
_FOR_GOOD = lazy_compile(
    r"(?i)\b(?:from|starting|as\s+of|effective|beginning|after|since)\s+(?:now|today|tomorrow|"
    r"then|(?:this|next|coming)\s+\w+|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
    r"|\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\bpermanently\b|\bfor\s+good\b|\bfrom\s+then\s+on\b"
    r"|\bno\s+longer\b|\banymore\b|\bnow\s+on\b|\bonwards?\b|\buntil\s+further\s+notice\b"
    r"|\bindefinitely\b|\bfrom\s+here\s+on\b|\bforever\b|\bstays?\s+there\b|"
    r"\bfor\s+the\s+foreseeable\s+future\b|\band\s+after\b|\bfrom\s+then\b"
    # Vietnamese "từ ngày mai" and Welsh "o yfory ymlaen" (from tomorrow, on), their day
    # written in English first (an adversary).
    r"|(?:\bt[ừu]|\bo)\s+(?:tomorrow|today|next\s+week)\b|\bymlaen\b"
    # "from tomorrow" in other languages, their day written in English first: "az farda".
    r"|(?:\baz|از|\bdesde|\bab|\bod|من|\bpartir\s+de|\bdès)\s+(?:tomorrow|today|next\s+week)\b"
)
"""A change that lasts, whatever other day it names: "from tomorrow my lisinopril is 20mg,
the GP said so on Friday" (an adversary saw it noted "for Fri … only", then not at all)."""


def one_day_of_change(fact: str, message: MemoryEntry) -> date | None:
    """The one day `message` changes `fact` (what comes again) on; None when it is no such.

    Found by a new user, a taxi dispatcher: "tomorrow Reza pickup 8:00 not 7:30" marked
    "Reza's pickup is every weekday at 7:30" since changed, for good; the model was told
    months later that the pickup had moved to 8:00. The day is the one its word of one day
    names ("tomorrow", "farda", "فردا", "on Friday"), never another number in it ("back to
    2.5" had been read as 2 May).
    """
    if not _AGAIN_AND_AGAIN.search(fact):
        return None  # most facts: no message read
    # Short words written out: "as of tmrw" is "as of tomorrow" (an adversary).
    said = written_out(message.content)
    if not _ONE_DAY.search(said):
        return None
    if _AGAIN_AND_AGAIN.search(said) or _FOR_GOOD.search(said) or a_change_to_come(said):
        return None  # "from tomorrow every weekday at 8", "starting Thursday …": for good
    if not _JUST_THEN.search(said) and (names_a_dose(said) or stops_a_medicine(said)):
        # A dose changes for good unless said not to: "my lisinopril goes up to 20mg
        # tomorrow" was noted for one day, then the 10mg was in effect again (an adversary).
        return None
    said_on = message.timestamp.date()
    days = [
        first
        for named in named_days(message.content, message.timestamp)
        for first, last in named.spans[:1]
        if first == last
    ]
    if not days and (dated := last_day_said(message.content, said_on, kept=False)):
        days = [date.fromisoformat(dated)]  # "on 14/12"
    if not days:
        return None
    if days[0] < said_on and _SAID_AS_NOW.search(said):
        # "standup is at 10 now not 9:30, I told Tom yesterday": the day is when it was
        # told, and the change lasts (an adversary saw it noted for yesterday, then not at
        # all).
        return None
    return days[0]


_JUST_THEN = lazy_compile(r"(?i)\bjust\s+for\b|\bonly\b|\bfor\s+(?:one|a|that)\s+day\b")
_SAID_AS_NOW = lazy_compile(
    r"(?i)\b(?:is|are|['\u2019]s)\b[^.;!?]{0,40}?\bnow\b|\bnow\s+(?:is|at)\b"
    # Moved, or told, on the day gone by: "yesterday they moved standup to 10 not 9:30",
    # "yesterday Tom told me standup is at 10" (an adversary: noted for that day, then not).
    r"|\b(?:moved|changed|switched|told\s+(?:me|us))\b"
)
