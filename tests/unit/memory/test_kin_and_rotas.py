"""Family said any way, and a rota's day, are found (migration 0048).

Found by new users. A Brazilian student: "when is mom's birthday?" found nothing of "Mãe's
birthday is 23 de abril". A baker: "who's on Saturday 30th?" found her café orders "every
Sat" and not "Saturday shift: Jo and Priya 6am-2pm".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memory import kin_words
from memory.event_days import cancels_it, days_named
from memory.kin_words import kin_wordings
from memory.postgres.schema import KIN_AND_ROTAS_READ
from memory.protocol import Memory
from memory.read_anew import kin_and_rotas_read
from memory.text import analyze, entry_terms, query_terms
from memory.weekly_days import weekly_terms
from tests.helpers.older_index import postgres_as_before, sqlite_as_before
from tests.helpers.postgres import postgres_url

__all__ = ["postgres_url"]

BIRTHDAY = "Mãe's birthday is 23 de abril"
ROTA = "Saturday shift: Jo and Priya 6am-2pm"


@pytest.mark.parametrize(
    ("text", "kin"),
    [
        (BIRTHDAY, "mother"),
        ("my mom's new number is 087 123 4567", "mother"),
        ("Mein Vater wohnt in Köln", "father"),
        ("la abuela viene el domingo", "grandmother"),
        ("Minha irmã Júlia vai casar em outubro!", "sister"),
        ("mi hijo Pablo tiene 9 años", "son"),
    ],
)
def test_one_of_the_family_is_indexed_by_the_english_word(text: str, kin: str) -> None:
    assert kin_wordings(text) == kin and kin_and_rotas_read(text)
    assert analyze(kin)[0] in entry_terms("k", text)


@pytest.mark.parametrize(
    "text", ["Mae is my friend from work", "a mere 5 minutes", "my mother lives in Porto"]
)
def test_a_name_a_word_or_the_english_word_itself_is_read_as_written(text: str) -> None:
    assert kin_wordings(text) == ""


def test_a_question_asks_for_the_english_word_alone() -> None:
    """Asked for as well, "mom" would count as a word a memory saying "Mãe" lacks."""
    assert query_terms("when is mom's birthday?") == ["mother", "birthday"]
    assert "mother" in query_terms("quando é o aniversário da minha mãe?")
    assert query_terms("when did Mae call?") == ["mae", "call"]


def test_a_rotas_day_is_a_day_of_every_week() -> None:
    assert weekly_terms(ROTA) == ["dtwd6"] and kin_and_rotas_read(ROTA)
    assert weekly_terms("the Monday rota is Jo and Beth") == ["dtwd1"]
    assert weekly_terms("Saturday: dentist at 3") == []


async def _storing(memory: Memory) -> None:
    await memory.store("birthday", BIRTHDAY, "core")
    await memory.store("rota", ROTA, "core")
    await memory.store("order", "Café Nero on Deansgate is 45 croissants every Sat", "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def _found(store: Memory) -> bool:
    birthday = await store.recall("when is mom's birthday?")
    rota = await store.recall("who's on Saturday?")
    scores = {entry.key: entry.score or 0.0 for entry in rota.entries}
    return (
        [entry.key for entry in birthday.entries][:1] == ["birthday"]
        and "rota" in scores
        and scores["rota"] >= max(scores.values())
    )


def _older(terms: list[str]) -> list[str]:
    """The terms an older memchat gave the rows: no English kin word, no weekday."""
    return [term for term in terms if term != "mother" and not term.startswith("dtwd")]


@pytest.mark.parametrize("key", ["birthday", "rota"])
async def test_a_sqlite_store_indexed_before_finds_them(tmp_path: Path, key: str) -> None:
    async with sqlite_as_before(
        tmp_path, _storing, key, _older, "0048_kin_and_rotas_read"
    ) as again:
        assert await _found(again)


async def test_a_postgres_store_indexed_before_finds_them(
    postgres_url: str, tmp_path: Path
) -> None:
    async with postgres_as_before(
        postgres_url, tmp_path, _storing, "birthday", _older, KIN_AND_ROTAS_READ
    ) as again:
        assert await _found(again)


def test_portuguese_function_words_are_no_terms() -> None:
    """The same student: "o que o Dr. Okafor disse sobre o GLMM?" found a question sharing
    only "o" and "que", and not the meeting's notes."""
    assert analyze("o que o Dr. Okafor disse sobre o GLMM?") == ["dr", "okafor", "diss", "glmm"]
    # Alone, they are English words and names: "Do you know Ao Nang?", "O'Brien".
    assert "ao" in analyze("Do you know Ao Nang?")


ORDER = "Ancoats Coffee Co standing order: 24 sourdough loaves every Tues and Fri"


def test_each_day_of_a_weekly_list_is_a_weekly_day() -> None:
    """The baker: the Friday of "every Tues and Fri" was no day, so the order was no event a
    call-off could mean."""
    assert days_named(ORDER) == {"dtwd2", "dtwd5"} and kin_and_rotas_read(ORDER)
    assert weekly_terms("every Monday, Wednesday and Friday") == ["dtwd1", "dtwd3", "dtwd5"]
    assert weekly_terms("every Monday and then some") == ["dtwd1"]


def test_a_firm_named_in_words_calls_off_its_standing_order() -> None:
    """The baker: "Ancoats Coffee Co have cancelled their standing order …" left the order
    recalled unmarked (a name of three words was not read as who cancelled)."""
    cancelled = "Ancoats Coffee Co have cancelled their standing order, last delivery Fri 26/02"
    assert cancels_it(cancelled, ORDER)
    assert not cancels_it("Pollen Bakery cancelled the order", ORDER)


async def _storing_order(memory: Memory) -> None:
    await memory.store("order", ORDER, "core")
    await memory.store("cat", "My cat is called Tom", "core")


async def test_a_store_indexed_before_finds_the_friday_of_a_list(tmp_path: Path) -> None:
    def older(terms: list[str]) -> list[str]:
        return [term for term in terms if term != "dtwd5"]

    async with sqlite_as_before(
        tmp_path, _storing_order, "order", older, "0048_kin_and_rotas_read"
    ) as again:
        found = await again.recall("what do I have on 5 March 2027?")  # a Friday
        assert "order" in [entry.key for entry in found.entries]


@pytest.mark.parametrize(
    ("text", "kin"),
    [
        ("Papa John's closes at 11pm", ""),
        ("Pai is my colleague from Thailand", ""),
        ("bro that match was insane", ""),
        ("My bro Dave lives in Leeds", "brother"),
        ("o meu pai mora em Braga", "father"),
        ("Opa Jan loves fishing", "grandfather"),
    ],
)
def test_a_word_also_a_name_or_slang_is_family_only_as_someones(text: str, kin: str) -> None:
    """A second adversary: "what do you know about dad?" listed Papa John's first, and a
    colleague named Pai."""
    assert kin_wordings(text) == kin


_KIN_SAID = ["mom", "MÃE", "Vater", "bro", "sis", "papa", "momma", "SŒUR", "grandma", "hija"]


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_KIN_SAID),
            st.sampled_from(["my ", "the ", "'s", "s", "-", " ", ".", "2", "ß", "in-law"]),
            st.text(alphabet="aeiouãmsß'- ", max_size=4),
        ),
        max_size=8,
    ).map("".join)
)
@example("my moms car")
@example("Schwesters Hund")
def test_the_quick_word_check_misses_none_the_pattern_finds(text: str) -> None:
    # `kin_words` looks up the text's words before it tries its pattern: the look-up may
    # let through what the pattern then rejects, never the reverse.
    found = kin_words._KIN_WORD.search(text) is not None
    assert kin_words.names_kin(text) == found
    if found:
        assert kin_words._may_name_kin(text)
