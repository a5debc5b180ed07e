"""A number written in groups is found typed without them, on every backend."""

from __future__ import annotations

from memory.protocol import Memory
from tests.contract.conftest import needs


async def test_a_phone_number_is_found_typed_without_its_spaces(memory: Memory) -> None:
    """Found by a new user: "01768888888" found nothing, "0176 8888888" the memory."""
    needs(memory, "persistent", "supports_keyword_search")
    await memory.store("phone", "My phone number is 0176 8888888")
    await memory.store("office", "Office line: (030) 1234-5678")
    await memory.store("tea", "I like green tea")
    for typed, key in (("01768888888", "phone"), ("03012345678", "office")):
        found = await memory.recall(typed)
        assert [e.key for e in found.entries][:1] == [key], typed
    spaced = await memory.recall("0176 8888888")
    assert [e.key for e in spaced.entries][:1] == ["phone"]
