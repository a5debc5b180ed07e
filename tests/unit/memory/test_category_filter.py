"""A category filter is spelled as writes spell categories: `CORE` finds `core` entries."""

from __future__ import annotations

import pytest

from memory.errors import InvalidEntryError
from memory.retrieval import RecallFilters
from memory.testing import CountingEmbedder
from tests.unit.memory.conftest import DIMS, OpenStore


@pytest.mark.parametrize("spelling", ["CORE", " Core ", "core"])
async def test_list_count_and_recall_normalise_the_category(
    open_store: OpenStore, spelling: str
) -> None:
    store = await open_store(CountingEmbedder(DIMS))
    await store.store("fact", "the user likes sailing boats", "Core")
    await store.store("note", "sailing boats on tuesday", "daily")
    assert [e.key for e in await store.list(category=spelling)] == ["fact"]
    assert await store.count(category=spelling) == 1
    assert [e.key for e in (await store.recall("sailing boats", category=spelling)).entries] == [
        "fact"
    ]


def test_a_blank_category_filter_means_every_category() -> None:
    assert RecallFilters(category="  ").category is None


def test_an_oversized_category_filter_is_an_error_naming_it() -> None:
    with pytest.raises(InvalidEntryError, match="category filter"):
        RecallFilters(category="x" * 100)
