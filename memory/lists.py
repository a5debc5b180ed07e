"""Lists said as one memory: "todo: passport, car service, haircut".

A list speaks of its items one by one: a fact about one item is not the list (found by a
new user: a booking and a todo list replaced each other), and the list said again with
items taken off is its new version, not "already remembered" (an adversary: the done item
stayed on the list).
"""

from __future__ import annotations

from memory.lazy_patterns import lazy_compile
from memory.text import analyze

_LIST_HEADING = lazy_compile(r"^[^:\n]{0,60}:")
_LIST_ITEMS = lazy_compile(r"\s*(?:[,;\n]|\s-\s|\s\u2022\s)\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_FEWEST_ITEMS = 3


def list_items(text: str, fewest: int = _FEWEST_ITEMS) -> list[set[str]] | None:
    """The words of each item of a list ("todo: passport, car service, haircut"), or None.

    None for fewer than `fewest` items.
    """
    items = [set(analyze(item)) for item in _pieces(text)]
    return items if len(items) >= fewest else None


def one_item_of_a_list(new: str, old: str) -> bool:
    """Whether one text is a list and the other shares words with one of its items alone.

    Found by a new user: "days off todo: renew passport, book car service, haircut, call
    mum" replaced "Car service booked 19/12 at Marrickville Toyota 8am" (three words
    shared), and the next booking replaced the list back. A list speaks of its items
    one by one; a fact about one item is not the list.
    """
    for listed, other in ((new, old), (old, new)):
        items = list_items(listed)
        if items is None:
            continue
        # Not the heading's words: "todo: haircut now at 3pm" speaks of one item of "todo:
        # passport, haircut, dentist" (an adversary saw it replace the list).
        shared = set(analyze(_body(listed))) & set(analyze(_body(other)))
        holding = [item for item in items if item & shared]
        if len(holding) == 1 and shared <= holding[0]:
            return True
    return False


def of_what_a_record_is_about(new: str, old: str) -> bool:
    """Whether `old` is a record of things under a heading and `new` names none of them.

    Found by an adversary: "The beach house is 200m from the sea" replaced "Beach house:
    alarm code 1234, gate code 5678, wifi password surfsup99" (the heading's two words
    shared), and the codes were gone from what recall could find. Another record under
    that heading is a version of it, as before.
    """
    heading = _heading(old)
    if not heading or _heading(new) or list_items(old, fewest=2) is None:
        return False
    said = set(analyze(new))
    return bool(heading & said) and not (set(analyze(_body(old))) - heading) & said


_A_NUMBER = lazy_compile(r"\d+(?:[.,]\d+)?")


def one_value_of_several(new: str, old: str) -> bool:
    """Whether `old` gives several values and `new` fewer of them anew, no more.

    Found by a new user, a dog groomer: "/remember medium dogs now 50" replaced "Large dogs
    are 60, medium 45, small 35", and the small and large prices were gone from what the
    model was shown; an adversary's "Kennel rates: medium 50 now, small 35 dropped" lost
    the large. Such a change leaves the list as it is, the new values beside it.
    """
    valued_old = [item for item in _pieces(old) if _A_NUMBER.search(item)]
    if len(valued_old) < 2:
        return False
    valued_new = [item for item in _pieces(new) if _A_NUMBER.search(item)]
    if not valued_new or len(valued_new) >= len(valued_old):
        return False
    old_words = [set(analyze(item)) for item in valued_old]
    return all(any(set(analyze(item)) & words for words in old_words) for item in valued_new)


def _pieces(text: str) -> list[str]:
    return [piece for piece in _LIST_ITEMS.split(_body(text)) if piece.strip()]


def _body(text: str) -> str:
    heading = _LIST_HEADING.match(text)
    return text[heading.end() :] if heading else text


def fewer_items(new: str, old: str) -> bool:
    """Whether `new` is the list `old` with items taken off, and nothing else changed.

    "todo: passport, haircut" after "todo: passport, car service, haircut". Each of the
    old list's items is in the new one whole, or not at all.
    """
    heading_ours, heading_theirs = _heading(new), _heading(old)
    if heading_ours != heading_theirs:
        return False
    # A list under a heading may have two items ("todo: passport, haircut"); without one,
    # "I like tea and coffee" is no list ("I like tea" adds nothing to it).
    ours = list_items(new, fewest=1)
    theirs = list_items(old, fewest=2 if heading_theirs else _FEWEST_ITEMS)
    if ours is None or theirs is None or len(ours) >= len(theirs):
        return False
    kept = set().union(*ours)
    if any(item and not item <= kept and item & kept for item in theirs):
        return False
    return all(any(item == other for other in theirs) for item in ours)


def _heading(text: str) -> frozenset[str]:
    heading = _LIST_HEADING.match(text)
    return frozenset(analyze(heading.group())) if heading else frozenset()
