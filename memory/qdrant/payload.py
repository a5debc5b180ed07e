"""Entries as Qdrant points and back, and the recall/list filters as point filters."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from memory.entry import MemoryEntry
from memory.qdrant.points import TERMS_RULE, PointFilter
from memory.retrieval import RecallFilters, category_filter
from memory.text import entry_terms
from memory.write_policy import content_hash

_POINT_NAMESPACE = uuid.UUID("7f3b6a52-2d8e-4f4c-9a51-0c7d6e1f2b90")
ENTRY_FIELDS = set(MemoryEntry.model_fields) - {"score", "scores", "supersedes"}
TERMS_MADE = "22"
"""The analysis a point's terms come from. "2": numbers and clock times written alike
(`memory.numbers.written_alike`); "3": numbers in groups joined too and one-valued
predicates by every wording (`memory.text.entry_terms`); "4": numbers in groups with dots
or slashes ("555.123.4567") joined too; "5": claims of a home or employer read anew;
"6": a "since" clause after a claimed value, a health condition's adjective read as
the condition ("allergic"), and words with an umlaut spelt out too ("Juergen"); "7": a
dose by the words asking for it; "8": the day saved under terms of its own (every point);
"9": leaving one employer for another ("I left Fintrack, I've been hired by Revolut") and
days some days or weeks ahead ("due in two weeks", "the end of the month"); "10": "day
after tomorrow", "the deadline is Friday", a weekday dated beside it, a past tense in
another clause than "in two weeks", "every Monday" as Mondays; "11": words typed short
("tmrw", "thurs", "appt") as the words they stand for, "Friday the 18th" as the 18th alone,
no terms from a redaction marker ("[REDACTED:pin]"); "12": a day and month without the
year ("rego due 14/1", "Mon 7/12"), a weekday before a clock time ("dentist fri 9am"), a
medicine without its amount by "meds", a GP by "doctor", an amount of money by "price";
"13": the days between a range's ends ("Away 20/12 to 2/1"), no date in "12/12 tests", an
amount of money by "charge" and "rate", "weight" as "weigh"; "14": a home or employer
said in one sentence or clause of several, by every wording; a medicine stopped, by
"medication", a medicine by "tablets" and "pills" too; "Sat 16th" as the next 16th on a
Saturday; a range in other words ("20-23/1"); "15": a medicine stopped in other words
("discontinued"), no stop only asked about, a roster or a shift by "shift", "roster", "rota";
"16": a medicine stopped in German, Spanish, French or Portuguese; "17": in Italian, and a
medicine named in its Italian or Spanish form ("omeprazolo") by its English name too, a
day and month in another language ("20 de diciembre"), a weekday ("el jueves"); "18": the
year of a month a change to come names without one ("goes up from January"), "wk" and
"tomoz" as "week" and "tomorrow"; "19": a home or an employer in lower case beside the
capital "I" ("I moved to portobello"), no home of what one drinks ("moved to oat milk");
"20": a street named before its number ("I live at Rua do Ouro 10"); "21": "accountant",
"assistant" and "consultant" stemmed apart from "account", "assist", "consult"; "22": no
day in "8 may be too many", "loaves" as "loaf". Points made otherwise are indexed again
when the store opens."""


def point_id(entry_id: str) -> str:
    """Qdrant wants UUIDs or integers; ours are any string, so derive a stable UUID."""
    return str(uuid.uuid5(_POINT_NAMESPACE, entry_id))


def to_payload(entry: MemoryEntry, embedding_model: str | None) -> dict[str, Any]:
    """Every entry field, plus what filters and keyword recall need."""
    payload = entry.model_dump(mode="json", include=ENTRY_FIELDS)
    payload["ts"] = entry.timestamp.timestamp()
    payload["updated_ts"] = entry.updated_at.timestamp()
    payload["terms"] = sorted(set(entry_terms(entry.key, entry.content, entry.timestamp)))
    payload["embedding_model"] = embedding_model
    payload["content_hash"] = content_hash(entry.content)
    payload[TERMS_RULE] = TERMS_MADE
    return payload


def from_payload(payload: dict[str, Any]) -> MemoryEntry:
    """The entry a payload describes (Qdrant drops keys whose value was set to null)."""
    return MemoryEntry.model_validate({k: payload.get(k) for k in ENTRY_FIELDS if k in payload})


def entry_filter(
    *,
    namespace: str | None = None,
    category: str | None = None,
    session_id: str | None = None,
    include_superseded: bool = True,
    since: datetime | None = None,
    until: datetime | None = None,
    exclude_ids: frozenset[str] = frozenset(),
    key: str | None = None,
    any_terms: list[str] | None = None,
) -> PointFilter:
    """Every narrowing the protocol offers, in entry terms, as the engines' filter."""
    return PointFilter(
        namespace=namespace,
        category=category_filter(category),
        key=key,
        session_id=session_id,
        include_superseded=include_superseded,
        since=None if since is None else since.timestamp(),
        until=None if until is None else until.timestamp(),
        exclude=frozenset(point_id(i) for i in exclude_ids),
        any_terms=tuple(any_terms or ()),
    )


def recall_filter(filters: RecallFilters, any_terms: list[str] | None = None) -> PointFilter:
    """A recall's filters as one point filter."""
    return entry_filter(
        namespace=filters.namespace,
        category=filters.category,
        session_id=filters.session_id,
        include_superseded=filters.include_superseded,
        since=filters.since,
        until=filters.until,
        exclude_ids=filters.exclude_ids,
        any_terms=any_terms,
    )
