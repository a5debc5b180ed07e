"""Whether a fact says someone now does what another did: "Aoife does Saturdays instead of Ciarán".

Found by a new user, a baker: after "Ciarán works the Saturday shift, 6am to 2pm", both
"Aoife now does Saturdays instead of Ciarán" said in chat and "Aoife now works the Saturday
shift instead of Ciarán", kept as a fact, left Ciarán's fact in effect and unmarked: "who
works Saturdays?" gave Ciarán first. The one replaced is named by the new fact, and the old
fact is about them (it opens with their name) and shares a word with the new one beyond
the names ("Saturday"), so "Aoife covers the till instead of Ciarán" changes none of
Ciarán's other facts.
"""

from __future__ import annotations

from functools import cache, lru_cache

from memory.lazy_patterns import lazy_compile
from memory.text import analyze, fold

_NAME = r"(?-i:[A-Z])[\w'\u2019-]*(?:[ \t]+(?-i:[A-Z])[\w'\u2019-]*){0,2}"
_IN_PLACE_OF = lazy_compile(
    r"(?i)\b(?:instead\s+of|in\s+place\s+of|replacing|replaces|replaced|"
    r"taking\s+over\s+from|takes\s+over\s+from|took\s+over\s+from|no\s+longer)\s+"
    rf"(?P<name>{_NAME})"
)
_OPENS_WITH = lazy_compile(rf"^\W*(?P<name>{_NAME})")


def _folded_words(text: str) -> list[str]:
    return fold(text).replace("\u2019", "'").split()


@lru_cache(maxsize=2048)
def _who_is_replaced(text: str) -> tuple[tuple[str, ...], ...]:
    # Read once per text: each recalled memory is compared with the others every turn.
    return tuple(tuple(_folded_words(found["name"])) for found in _IN_PLACE_OF.finditer(text))


_INSTEAD_OF_A_THING = lazy_compile(
    r"(?i)\binstead\s+of\s+(?:the\s+|a\s+|an\s+)?(?P<what>[\w'\u2019-]+(?:\s+[\w'\u2019-]+){0,2}?)"
    r"(?=\s*(?:[,.;!?]|$))"
)


def takes_the_place_of(new: str, old: str) -> bool:
    """Whether `new` says someone else now holds what `old` says its first-named one holds.

    Or that its first-named one now does another thing than `old` says: "Ciarán now works
    Mondays instead of Saturdays" replaces "Ciarán works Saturdays" (an adversary saw both
    kept in effect).
    """
    if _another_thing_instead(new, old) or _on_other_days_now(new, old):
        return True
    replaced = _who_is_replaced(new)
    if not replaced:
        return False
    opening = _OPENS_WITH.match(old)
    if opening is None:
        return False
    whose = tuple(_folded_words(opening["name"]))
    if not any(name == whose[: len(name)] for name in replaced):
        return False
    names = {word for name in replaced for word in analyze(" ".join(name))}
    names |= set(analyze(" ".join(whose)))
    # What `old` says is done no more is not what it holds: "Aoife now does Saturdays
    # instead of Ciarán" is not about "Ciarán now works Mondays instead of Saturdays".
    held = _INSTEAD_OF_A_THING.sub(" ", old)
    shared = (set(analyze(new)) & set(analyze(held))) - names - _naming_no_task()
    return bool(shared)


_NOT_THEM = lazy_compile(
    rf"(?i)\bnow,?\s+not\s+(?:the\s+)?(?P<name>{_NAME})"
    rf"|(?:the\s+)?(?P<gone>{_NAME})\s+(?:can'?t|cannot|can\s+no\s+longer|won'?t|no\s+longer)\s+"
    r"(?:do|does|drive|drives|work|works|take|takes|cover|covers|make|makes)\b"
)
"""Who does it no more: "the Nguyens drive on Thursdays now, not the Okafors", "the
Okafors can't do Thursdays anymore"."""
_CLAUSE = lazy_compile(r"[^,;.\n]+")


def not_them_any_more(new: str, old: str) -> bool:
    """Whether `new` says the one `old` names in a clause no longer does what that says.

    A clause of a list, not its opening: after "carpool: Monday the Chens drive, Thursday
    the Okafors drive", "the Nguyens drive the carpool on Thursdays now, not the Okafors"
    left the list in effect and unmarked (a new user, a parent). It marks the list, and
    replaces it in no write: its other clauses still hold.
    """
    told = set(analyze(new))
    told_days = told & _weekday_terms()
    for found in _NOT_THEM.finditer(new):
        name = analyze(found["name"] or found["gone"])
        if not name:
            continue
        for clause in _CLAUSE.findall(old):
            words = set(analyze(clause))
            shared = (words - set(name) - _naming_no_task()) & told
            # What is done, not only its day, and on a day the clause names if one is
            # said: "the Okafors can't do Thursday dinner parties anymore" and "the
            # Nguyens drive on Mondays now, not the Okafors" marked the Thursday rota.
            if not set(name) <= words or not shared - _weekday_terms():
                continue
            if told_days and not told_days & words:
                continue
            return True
    return False


@cache
def _weekday_terms() -> frozenset[str]:
    return frozenset(
        analyze("monday tuesday wednesday thursday friday saturday sunday mondays tuesdays")
        + analyze("wednesdays thursdays fridays saturdays sundays")
    )


@lru_cache(maxsize=2048)
def _done_no_more(text: str) -> str | None:
    """What `text` says is done no more ("… instead of Saturdays"), read once per text."""
    found = _INSTEAD_OF_A_THING.search(text)
    return None if found is None else found["what"]


def _another_thing_instead(new: str, old: str) -> bool:
    """Both open with one name, and `old` says what `new` says is done no more."""
    done = _done_no_more(new)
    if done is None:
        return False
    ours, theirs = _OPENS_WITH.match(new), _OPENS_WITH.match(old)
    if ours is None or theirs is None:
        return False
    if _folded_words(ours["name"]) != _folded_words(theirs["name"]):
        return False
    what = set(analyze(done)) - set(analyze(ours["name"]))
    return bool(what) and what <= set(analyze(old))


_NOW_DOES = lazy_compile(
    r"(?i)^\W*(?P<who>(?:[\w'\u2019-]+\s+){0,3}?[\w'\u2019-]+)\s+"
    r"(?:(?:is|are)\s+now|(?:now\s+|has\s+)?(?:moves?|moved|changes?|changed|switch(?:es)?|"
    r"switched|(?:is|was|has\s+been)\s+(?:moved|changed|switched))\s+to\b|now\s+(?P<verb>[a-z]+)\b)"
)
_WEEKDAY = lazy_compile(
    r"(?i)\b(?P<day>mon|tue|wed|thu|fri|sat|sun)(?:s|days?|nesdays?|rsdays?|urdays?|sdays?)?\b"
)
_WEEKLY = lazy_compile(
    r"(?i)\b(?P<day>mon|tue|wed|thu|fri|sat|sun)(?:days|s|nesdays|rsdays|urdays|sdays)\b"
    r"|\bevery\s+(?P<every>mon|tue|wed|thu|fri|sat|sun)"
)
_AS_WELL = lazy_compile(
    r"(?i)\b(?:also|too|as\s+well|additionally|extra|another|more|both|plus|still)\b|"
    r"\b(?:and|&)\s+(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)"
)


def _on_other_days_now(new: str, old: str) -> bool:
    """`new` says its subject now does on other weekdays what `old` says it does.

    "Sam now works Mondays" after "Sam works Saturdays", "The nanny now comes on Tuesdays"
    after "The nanny comes on Mondays and Thursdays", "My class is now on Thursdays" (an
    adversary saw Saturday kept in effect and recalled first), "Portuguese class moved to
    Wednesdays at 19:00" (a new user: the Monday class recalled unmarked). "Sam now also
    works Mondays", "… Mondays too" add a day.
    """
    said = _NOW_DOES.match(new)
    if said is None or _AS_WELL.search(new[said.end() :]):
        return False
    days_now = {day["day"].casefold() for day in _WEEKDAY.finditer(new, said.end())}
    if not days_now:
        return False
    who, opening = _unowned(_folded_words(said["who"])), _unowned(_folded_words(old))
    if opening[: len(who)] != who:
        return False
    if said["verb"] is not None:
        verb, held = set(analyze(said["verb"])), " ".join(opening[len(who) :])
        if not verb <= set(analyze(old)):
            return False  # "Sam now plays on Mondays" is not when "Sam works Saturdays"
        doing = _words_beside_days(new[said.end() :]) - verb
        # "Sam now goes to the gym on Mondays" is not when "Sam goes swimming on Saturdays".
        if doing and doing.isdisjoint(_words_beside_days(held)):
            return False
    elif not _only_when(" ".join(opening[len(who) :]), new):
        # "Sam is now on holiday till Monday" says nothing of "Sam works Saturdays".
        return False
    # Days of every week before: "Night shift Mon 7/12 21:00" is one night, moved only as
    # `memory.event_days` reads a move (an adversary's two shifts were both replaced).
    days_then = {(day["day"] or day["every"]).casefold() for day in _WEEKLY.finditer(old)}
    return bool(days_then) and days_now.isdisjoint(days_then)


def _unowned(words: list[str]) -> list[str]:
    # "Portuguese class moved to Wednesdays" is of "My Portuguese class is on Mondays".
    return words[1:] if words[:1] in (["my"], ["our"], ["the"]) else words


def _words_beside_days(text: str) -> set[str]:
    """The words of `text` less its weekdays and numbers: what is done on them."""
    return {word for word in analyze(_WEEKDAY.sub(" ", text)) if not word[:1].isdigit()}


def _only_when(held: str, new: str) -> bool:
    """`held` says nothing beyond its days and times that `new` does not say."""
    return _words_beside_days(held) <= _words_beside_days(new)


@cache
def _naming_no_task() -> frozenset[str]:
    """Verbs of doing, and "now", "still", "also": words that name no task.

    "Aoife now works Saturdays instead of Ciarán" took "Ciarán works at the bakery" on
    "works" alone (an adversary).
    """
    return frozenset(
        analyze("works worked does did goes went has had takes took makes made now still also")
    )
