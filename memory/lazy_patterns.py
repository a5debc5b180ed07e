"""Regular expressions compiled when first used, not when their module is imported.

memchat reads text with about nine hundred module-level patterns. Compiling them all took
most of a second at every start, so `memchat memory list` or `stats`, which use a handful,
waited for all of them, and so did the chat's first paint. A pattern made here keeps its
source and compiles on the first call of any method; from then on its methods are the
compiled pattern's own, looked up in the instance, so a hot loop pays nothing more.

A match's `re` is the compiled pattern, not the one made here: which pattern matched is
told by `match.re.pattern == RULE.pattern`, never by `match.re is RULE`.

`compile_every_pattern` compiles what is left: the app does it on a worker thread after
its first paint so that the first message does not wait for it, and a test does it to
prove that every pattern's source is valid.
"""

from __future__ import annotations

import re
import threading
from typing import Any, cast

_CALLED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_MADE: list[_LazyPattern] = []
_MADE_LOCK = threading.Lock()


class _LazyPattern:
    """A pattern's source and flags, and after the first use its compiled methods."""

    def __init__(self, source: str, flags: int) -> None:
        self.pattern = source
        self._flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (re's own cache makes a second compile a lookup)."""
        done = re.compile(self.pattern, self._flags)
        for name in _CALLED:
            self.__dict__[name] = getattr(done, name)
        return done

    def __getattr__(self, name: str) -> Any:
        # Only reached for what the instance does not hold yet: the first call of a
        # method, or an attribute such as `flags` or `groupindex`, read from the compiled
        # and kept, so that a rule asking it of each match asks the compiler once.
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value
        return value

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags})"


def lazy_compile(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """A pattern that compiles `source` with `flags` on first use."""
    lazy = _LazyPattern(source, int(flags))
    with _MADE_LOCK:
        _MADE.append(lazy)
    # It answers every method and attribute of a compiled pattern that memchat uses.
    return cast("re.Pattern[str]", lazy)


def compile_every_pattern() -> int:
    """Compile every pattern made so far that is still waiting; return how many."""
    with _MADE_LOCK:
        waiting = [lazy for lazy in _MADE if "search" not in lazy.__dict__]
    for lazy in waiting:
        lazy.compiled()
    return len(waiting)
