"""Words in messages people read: "1 memory", "2 memories", and notes said in several places."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from memory.entry import MemoryCategory, valid_category
from memory.lazy_patterns import lazy_compile


def counted(count: int, singular: str, plural: str) -> str:
    """The count and the noun that agrees with it, digits grouped with commas."""
    return f"{count:,} {singular if count == 1 else plural}"


def memories(count: int) -> str:
    """The count of memories in words: 1 memory, 2,500 memories."""
    return counted(count, "memory", "memories")


def model_with_size(model: str, dimensions: int) -> str:
    """An embedding model as notes name it: the size tells two stores of one model apart."""
    return f"{model} ({dimensions} dimensions)"


def without_vectors(
    count: int, model: str, *, imported: bool = False, reindexable: bool = True
) -> str:
    """The note for memories that recall can find by keyword only, with what fixes it.

    `imported`: the count is what an import just added, not the whole store.
    `reindexable`: the backend has `memchat memory reindex`; the others embed again what
    an import brings in.
    """
    one = count == 1
    them, has = ("it", "has") if one else ("them", "have")
    if imported:
        subject = f"{counted(count, 'imported memory', 'imported memories')} {has}"
        why = ""
    else:
        subject = f"{memories(count)} {has}"
        why = (
            " (the embedding model or its settings changed, it was not answering, or "
            f"{'it was' if one else 'they were'} imported without one)"
        )
    fix = (
        f"Run `memchat memory reindex` to embed {them}."
        if reindexable
        else f"`memchat memory export FILE` then `memchat memory import FILE` embeds {them}."
    )
    return f"{subject} no vector from {model}{why}: recall finds {them} by keyword only. {fix}"


def older_than_replaced(count: int) -> str:
    """The note for records that put an older text back in effect over a newer one."""
    return (
        f"{counted(count, 'record was', 'records were')} older than the version it replaced: "
        "the older text is in effect again and the newer one is kept as history "
        "(`memchat memory list --all` shows both)"
    )


_PASSWORD_IN_ADDRESS = lazy_compile(r"((?:^|//)[^/@\s:]*:)[^/@\s]*@")


def without_password(address: str) -> str:
    """A server address as shown to the user: a password in it written as ***.

    Found by an adversary: "embedding … at http://user:s3cretpw@… failed" printed it.
    Read as text, not parsed, so a malformed address is masked too.
    """
    return _PASSWORD_IN_ADDRESS.sub(r"\1***@", address)


def new_category_note(category: str, held: Iterable[str]) -> str | None:
    """The note for a custom category no memory of the store has yet, with the one meant.

    Found by a new user: a hand-edited import's "cor" (for core) made a category of its own,
    unsaid, and its memory escaped core's budget and retention.
    """
    try:
        # As it is stored: "CORE", "core " are core; a name refused is said so elsewhere
        # (an adversary saw "is new, did you mean 'core'?" said of each).
        category = valid_category(category)
    except ValueError:
        return None
    built_in = [kind.value for kind in MemoryCategory]
    known = [*built_in, *(name for name in held if name not in built_in)]
    if category in known:
        return None
    close = difflib.get_close_matches(category.casefold(), known, n=1, cutoff=0.6)
    meant = f"; did you mean {close[0]!r}?" if close else ""
    return (
        f"category {category!r} is new, a custom one: the rules of {', '.join(built_in[:3])} "
        f"(budgets, retention) do not apply to it{meant}"
    )
