"""A recalled message a later memory gave a value of otherwise says so (agent.since_changed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agent.events import MemoryRecalled
from agent.since_changed import since_changed
from memory.entry import MemoryEntry
from memory.event_days import several_events
from memory.fact_endings import ends_the_fact, pays_what_was_unpaid, undoes_the_end
from memory.instead_of import not_them_any_more
from memory.last_word import changes_its_value
from memory.long_texts import LONG, the_part_about
from memory.stated_values import (
    changed_topics,
    debt_changed,
    debt_owed,
    pays_off,
    stated_values,
    two_debts,
)
from memory.write_rules import NewMemory
from tests.helpers.entries import written_entry
from tests.unit.agent.conftest import Harness


def test_a_message_states_each_of_its_values_by_topic() -> None:
    said = stated_values(
        "Hi! My name is Sam and I live in Porto. I work at Acme Corp as a data analyst."
    )
    assert said["home"] == frozenset({"porto"})
    assert "sam" in said["name"] and "acm" in said["employ"]
    assert stated_values("Please remember my new phone number is 0151 2223333") == {
        "phone": frozenset({"0151", "2223333"})
    }
    assert stated_values("What if I lived in Porto?") == {}
    assert stated_values("write me a haiku about autumn") == {}
    # Found by the second adversary: someone else's words, a value beside the other, an
    # attribute that is not the user's.
    assert stated_values('"I live in Madrid," said Maria.') == {}
    assert stated_values("I also live in Lisbon") == {}
    assert stated_values("I live in Lisbon part-time") == {}
    assert stated_values("Email: help@acme.com for support") == {}


def test_only_another_value_is_a_change() -> None:
    porto = stated_values("I live in Porto and I work at Acme")
    assert changed_topics(porto, stated_values("I live in Lisbon")) == ["home"]
    assert changed_topics(porto, stated_values("I live in Porto, Portugal")) == []
    assert changed_topics(porto, stated_values("My email is sam@example.com")) == []
    assert changed_topics(porto, stated_values("I work at Initech")) == ["employ"]


def test_a_rate_or_a_deadline_of_someone_named_is_a_value_that_changes() -> None:
    """Found by a new user: after "Müller GmbH now pays 0,14 € per word", the first message
    saying 0,12 was recalled at 1.00 beside it, and the Friday deadline beside the moved
    one, with no "since changed"."""
    first = stated_values("Hallo! Ich bin Übersetzerin. Müller GmbH pays 0,12 € per word")
    assert changed_topics(first, stated_values("Müller GmbH now pays 0,14 € per word")) == [
        "pays gmbh muller"
    ]
    assert changed_topics(first, stated_values("Huber Verlag pays 0,14 € per word")) == []
    friday = stated_values("Please remember: deadline for the Schmidt job is Friday")
    moved = stated_values("The Schmidt deadline moved to Tuesday 15.12.2026")
    assert changed_topics(friday, moved) == ["deadlin schmidt"]
    assert stated_values("Bob pays attention in class") == {}
    # Said after a heading, with the deadline (the second adversary of the round).
    both = stated_values("New client Schmidt: Schmidt pays 80 euros an hour and the deadline")
    assert changed_topics(both, stated_values("Schmidt pays 95 euros an hour now")) == [
        "pays schmidt"
    ]
    # A translator: a decimal point, and words before the name.
    bodegas = stated_values("client Bodegas Alcañiz pays 0.11 eur per word, contact is Pilar")
    later = stated_values("Bodegas Alcañiz now pays 0.12 eur per word")
    assert changed_topics(bodegas, later) == ["pays alcaniz bodega"]
    assert changed_topics(bodegas, stated_values("Lingotek pays 0.12 eur per word")) == []


def test_a_price_said_again_otherwise_is_a_value_that_changes() -> None:
    """Found by a new user, a landlord: "GAS DEBIT WENT UP TO $112" said in chat left "gas
    direct debit is $85 a month" recalled unmarked beside it."""
    gas = stated_values("gas direct debit is $85 a month")
    assert changed_topics(gas, stated_values("GAS DEBIT WENT UP TO $112")) == [
        "costs debit direct gas"
    ]
    assert changed_topics(gas, stated_values("the gas debit is $85")) == []
    assert changed_topics(gas, stated_values("electricity debit is $60")) == []
    rent = stated_values("My rent is 900")
    assert changed_topics(rent, stated_values("rent went up to 950")) == ["costs rent"]
    # Another flat's rent, a change still to come, a question: no change of this one.
    assert changed_topics(rent, stated_values("Flat 2 rent is 1450")) == []
    assert changed_topics(rent, stated_values("rent is going up to 950 from March")) == []
    assert changed_topics(rent, stated_values("is the rent 950 now?")) == []
    assert stated_values("Aoife is 9") == {}
    # A fifth adversary: in other words, "dd" for direct debit, and "bill" no verb there.
    euro = stated_values("The gas direct debit is €85 a month")
    for later in ("gas dd is now 112 euro", "Gas bill direct debit increased to €112"):
        assert changed_topics(euro, stated_values(later)) == ["costs debit direct gas"]


def test_a_new_number_said_in_passing_is_a_value_that_changes() -> None:
    """Found by a new user, a nurse: "breda has a new number 086 555 2211" said in chat left
    "Breda the childminder number is 087 123 4567" recalled unmarked, first."""
    old = stated_values("Breda the childminder number is 087 123 4567")
    assert changed_topics(old, stated_values("breda has a new number 086 555 2211")) == [
        "breda phone"
    ]
    assert changed_topics(old, stated_values("Bredas new number is 086 555 2211")) == [
        "breda phone"
    ]
    assert changed_topics(old, stated_values("Colm has a new number 086 555 2211")) == []
    assert changed_topics(old, stated_values("she has a new number 086 555 2211")) == []


async def test_the_block_says_a_recalled_message_was_changed_since(harness: Harness) -> None:
    """Found by a new user: the Porto message came back beside "I live in Lisbon" for
    almost every personal question, as if it still held."""
    old = await harness.memory.store_with_metadata(
        "conversation/s0/a",
        "Hi! My name is Sam and I live in Porto. I work at Acme Corp.",
        "conversation",
        "s0",
    )
    await harness.memory.store("home", "I live in Lisbon", "core")
    harness.model.add("You live in Lisbon.")
    events = await harness.turn("Where do I live? Porto or Lisbon?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {e.id for e in recalled.injected} >= {old.id}
    assert recalled.since_changed == {old.id: "since changed: 'home' says 'I live in Lisbon'"}
    block = harness.model.requests[0].messages[-1].content
    [line] = [line for line in block.splitlines() if "Sam" in line]
    assert "since changed: 'home' says 'I live in Lisbon'" in line
    # What holds comes first, in the block and on the recall line (a new user saw the old
    # value above the fact that changed it).
    assert [e.id for e in recalled.injected][-1] == old.id
    assert block.index("I live in Lisbon") < block.index("Sam")


async def test_a_message_later_than_the_fact_is_not_changed_by_it(harness: Harness) -> None:
    fact = await harness.memory.store("home", "I live in Lisbon", "core")
    message = await harness.memory.store_with_metadata(
        "conversation/s0/a", "Big news: I live in Porto and I love it", "conversation", "s0"
    )
    harness.model.add("Porto, then.")
    events = await harness.turn("Where do I live? Porto or Lisbon?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert message.id not in recalled.since_changed
    # The fact, older, is what changed since (kept when the message was not read as a change).
    assert recalled.since_changed == {
        fact.id: "since changed: a later message says 'Big news: I live in Porto and I love it'"
    }


def test_the_recall_detail_shows_what_changed_a_message() -> None:
    from memory.entry import MemoryEntry, utc_now
    from tui.widgets.recalled_entry import describe

    now = utc_now()
    message = MemoryEntry(
        id="m1",
        key="conversation/s/1",
        content="I live in Porto",
        category="conversation",
        timestamp=now,
        updated_at=now,
    )
    shown = describe(
        MemoryRecalled([message], [], "keyword", since_changed={"m1": "since changed: [x]"})
    )
    assert "since changed: [x]" in shown.plain
    assert "since changed" not in describe(MemoryRecalled([message], [], "keyword")).plain


async def test_a_pinned_older_fact_does_not_count_as_later(harness: Harness) -> None:
    """Found by the second adversary: pinning the old home moved its update time, and the
    newer message that changed it was marked as changed since by it."""
    old = await harness.memory.store("home", "I live in Porto", "core")
    message = await harness.memory.store_with_metadata(
        "conversation/s0/a", "My name is Sam and I live in Lisbon now", "conversation", "s0"
    )
    await harness.memory.store_with_metadata(old.key, old.content, "core", pinned=True)
    harness.model.add("Lisbon.")
    events = await harness.turn("What is my name, Sam? Do I live in Lisbon now?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert message.id in {e.id for e in recalled.injected}
    assert recalled.since_changed == {}


def test_a_comma_before_the_next_statement_parts_them() -> None:
    """Found by a new user: in "My name is Sam Rivera, I live in Porto and I work as a nurse
    at …" the home was read as part of the name, and no later home marked it changed."""
    said = stated_values(
        "Hi! My name is Sam Rivera, I live in Porto and I work as a nurse at Hospital São João."
    )
    assert said["home"] == frozenset({"porto"}) and said["name"] == frozenset({"sam", "rivera"})
    assert "hospit" in said["employ"]
    assert changed_topics(said, stated_values("I work at Google")) == ["employ"]


def test_a_move_told_before_its_place_marks_the_older_home() -> None:
    """Found by the tenth round's second new user: the fact "We finally moved! We're in
    Lisbon now" had replaced the home, but the older message "I live in Porto …" was
    recalled at 1.00 with no "since changed" line."""
    porto = stated_values("Hi! I live in Porto with my wife Ana and our cat Mimi.")
    lisbon = stated_values("We finally moved! We're in Lisbon now, the flat is near Alfama.")
    assert "lisbon" in lisbon["home"]
    assert changed_topics(porto, lisbon) == ["home"]


def test_an_allergy_taken_back_a_new_dose_and_a_new_doctor_are_changes() -> None:
    """Found by the seventh new user: each older message was recalled as if it held."""
    allergic = stated_values("Hi, I'm allergic to penicillin and peanuts.")
    later = stated_values("Turns out I'm not allergic to penicillin after all")
    assert changed_topics(allergic, later) == ["allergic to penicillin"]
    dose = stated_values("I take 10mg of lisinopril every morning")
    assert changed_topics(dose, stated_values("My lisinopril dose went up to 20mg")) == [
        "dose of lisinopril"
    ]
    assert changed_topics(dose, stated_values("I take 500mg of metformin")) == []
    doctor = stated_values("My doctor is Dr. Lee. She is great.")
    assert changed_topics(doctor, stated_values("My new doctor is Dr. Park")) == ["doctor"]
    # Found by the eighth new user: without "my", and a move dated "last weekend".
    assert changed_topics(doctor, stated_values("New doctor is Dr Costa, very nice")) == ["doctor"]
    lisbon = stated_values("Big news: we moved to Lisbon last weekend!")
    assert changed_topics(lisbon, stated_values("We moved to Setúbal")) == ["home"]
    # Another person's allergy is not the user's.
    assert stated_values("My mother is allergic to cats") == {}


async def test_the_block_marks_an_allergy_message_a_later_one_took_back(
    harness: Harness,
) -> None:
    old = await harness.memory.store_with_metadata(
        "conversation/s0/a",
        "I'm allergic to penicillin, so careful with antibiotics.",
        "conversation",
        "s0",
    )
    await harness.memory.store("allergy", "I'm not allergic to penicillin after all", "core")
    harness.model.add("Noted.")
    events = await harness.turn("Am I allergic to penicillin?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.since_changed.get(old.id) == (
        "since changed: 'allergy' says \"I'm not allergic to penicillin after all\""
    )


async def test_a_message_changed_since_comes_after_what_changed_it(harness: Harness) -> None:
    """Found by a new user: "Müller pays 0,10 €" (a message, every word asked) was recalled
    at 1.0 above the fact that changed it, and the model read the old value first."""
    old = await harness.memory.store_with_metadata(
        "conversation/s0/a", "Hi! My name is Sam and I live in Porto.", "conversation", "s0"
    )
    fact = await harness.memory.store("home", "I moved to Lisbon", "core")
    harness.model.add("Lisbon.")
    events = await harness.turn("Do I live in Porto?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert old.id in recalled.since_changed
    assert [e.id for e in recalled.injected] == [fact.id, old.id]


def test_a_debt_and_its_payment_are_one_topic() -> None:
    owed = stated_values("owe Priya $42 for power")
    assert changed_topics(owed, stated_values("paid Priya the $42 for power")) == ["owes priya"]
    assert changed_topics(owed, stated_values("paid Tom back")) == []
    assert changed_topics(stated_values("Tom owes me 20"), stated_values("Tom paid me back")) == [
        "owed by tom"
    ]
    assert stated_values("I paid the bill") == {} and stated_values("I owe you one") == {}
    # A later adversary: sending something else pays nothing.
    assert changed_topics(owed, stated_values("I sent Priya the photos from the trip")) == []
    assert changed_topics(owed, stated_values("paid Priya a visit")) == []
    assert changed_topics(owed, stated_values("sent Priya $42")) == ["owes priya"]
    # A third adversary: a number is no money, a question pays nothing.
    assert changed_topics(owed, stated_values("sent Priya 42 photos from the trip")) == []
    assert changed_topics(owed, stated_values("sent Priya $42?")) == []


def test_a_fee_someone_has_not_paid_and_their_payment_are_one_topic() -> None:
    """Found by a new user, an allotment's secretary: "Siobhan paid at the mtg last night,
    €40" left "Siobhan hasn't paid yet, she said she'd pay at the mtg" unmarked."""
    unpaid = stated_values("Siobhan hasn't paid yet, she said she'd pay at the mtg")
    assert unpaid == {"owed by siobhan": frozenset({"unpaid"})}
    paid = stated_values("Siobhan paid at the mtg last night, €40")
    assert changed_topics(unpaid, paid) == ["owed by siobhan"]
    assert changed_topics(unpaid, stated_values("Declan paid his €40 today")) == []
    assert changed_topics(
        stated_values("Declan Murphy still hasn't paid"), stated_values("Declan Murphy has paid")
    ) == ["owed by declan murphy"]
    assert stated_values("I haven't paid yet") == {}
    assert stated_values("Siobhan paid a visit to her mum") == {}


async def test_a_later_fact_giving_a_secret_anew_marks_the_one_holding_the_old(
    harness: Harness,
) -> None:
    """Found by a new user, a plumber: "remember my plumbcenter trade counter pin is 5096
    now" was kept beside the fact holding the old PIN (it says more), both in effect and
    unmarked."""
    old = await harness.memory.store(
        "trade",
        "my plumbcenter trade account is PC-4471 and the pin for the trade counter is 7731",
        "core",
    )
    new = await harness.memory.store("pin", "my plumbcenter trade counter pin is 5096 now")
    recalled = await _recalled(harness, "whats the plumbcenter pin")
    assert {e.id for e in recalled.injected} == {old.id, new.id}
    assert recalled.since_changed == {
        old.id: "since changed: 'pin' says 'my plumbcenter trade counter pin is [REDACTED:pin] now'"
    }
    # A key made before keys were made without secrets says the note without it.
    await harness.memory.forget("pin")
    await harness.memory.store("counter_pin_5096", "my plumbcenter trade counter pin is 5096 now")
    recalled = await _recalled(harness, "whats the plumbcenter pin")
    assert "5096" not in recalled.since_changed[old.id]
    assert "'counter_pin_redacted' says" in recalled.since_changed[old.id]


async def test_a_later_fact_giving_one_value_of_a_list_anew_marks_the_list(
    harness: Harness,
) -> None:
    """Found by an adversary: "/remember medium dogs now 50" is kept beside the list (its
    other prices stay), and the list's "medium 45" was shown unmarked."""
    prices = "Grooming prices: large dogs are 60, medium 45, small 35"
    listed = await harness.memory.store("prices", prices, "core")
    await harness.memory.store("medium", "medium dogs now 50", "core")
    recalled = await _recalled(harness, "how much for a medium dog?")
    assert recalled.since_changed == {
        listed.id: "since changed: 'medium' says 'medium dogs now 50'"
    }


async def test_a_later_fact_marks_no_fact_about_something_else_of_its_subject(
    harness: Harness,
) -> None:
    """Found by a second adversary: a later fact of the beach house with a new number
    marked every fact about the beach house as changed since."""
    await harness.memory.store("gutters", "Beach house gutters need cleaning before winter")
    await harness.memory.store("rented", "Beach house is rented out 1-14 July")
    await harness.memory.store("rent", "Beach house weekly rent is now 900")
    recalled = await _recalled(harness, "tell me about the beach house")
    assert len(recalled.injected) == 3 and recalled.since_changed == {}


def test_a_quote_revised_is_one_topic() -> None:
    """Found by a new user, a plumber: the revised quote left the first recalled above it,
    at 1.00, unmarked."""
    first = stated_values("quoted mrs patel 2450 + vat for the combi swap on elm rd")
    revised = stated_values("revised quote for mrs patel combi swap, now 2300 + vat")
    assert changed_topics(first, revised) == ["quote for patel"]
    assert changed_topics(first, stated_values("quoted henderson 1800 for a new rad")) == []
    assert stated_values('she said "quote for me 300"') == {}


def test_an_invoice_said_unpaid_then_paid_is_one_topic() -> None:
    """Found by a new user, a plumber: "okafor paid 1058 in full today" left "… invoice
    1058 £1,850 not paid yet" recalled first and unmarked for "did the okafor invoice get
    paid"."""
    unpaid = stated_values("okafor job finished, invoice 1058 £1,850 not paid yet")
    assert unpaid == {"invoice 1058": frozenset({"unpaid"})}
    assert changed_topics(unpaid, stated_values("okafor paid 1058 in full today")) == [
        "invoice 1058"
    ]
    assert changed_topics(unpaid, stated_values("henderson paid invoice 1043 today")) == []
    assert changed_topics(unpaid, stated_values("invoice 1058 still not paid")) == []
    assert stated_values("paid 1058 euros for the car") == {}
    # An adversary: the number after "for", and "unpaid".
    worded = stated_values("Okafor invoice for 1058 is unpaid")
    assert changed_topics(worded, stated_values("okafor paid 1058")) == ["invoice 1058"]


async def test_a_client_said_to_owe_an_amount_is_marked_paid_by_its_payment(
    harness: Harness,
) -> None:
    """Found by a new user, a photographer: "Okafor owes 1058 for the March invoice" was read
    as no debt, and "okafor paid 1058" said later left it recalled unmarked."""
    assert debt_owed("Okafor owes 1058 for the March invoice") == "okafor"
    assert debt_owed("Tom owes Sarah 50") is None
    await harness.memory.store("okafor", "Okafor owes 1058 for the March invoice", "core")
    await harness.memory.store("smith", "Smith owes 300 for the April shoot", "core")
    await harness.memory.store_with_metadata(
        "conversation/s0/a", "okafor paid 1058", "conversation", "s0"
    )
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default")
    marked = {entry.key: notes.get(entry.id) for entry in recalled if entry.category == "core"}
    assert marked == {
        "okafor": "since changed: a later message says 'okafor paid 1058'",
        "smith": None,
    }
    assert not debt_changed("okafor paid 999", "Okafor owes 1058 for the March invoice")
    # With more said after it (a second adversary): the amount owed is the first.
    longer = "Okafor owes 1058 for the March invoice, due 31/3, send a reminder"
    assert debt_changed("okafor paid 1058", longer)
    assert not debt_changed("okafor paid 31", longer)
    assert not debt_changed("smith paid 1058", "Okafor owes 1058 for the March invoice")


async def _facts_marked_after(
    harness: Harness, facts: dict[str, str], said: str
) -> dict[str, str | None]:
    """Each fact's key → its since-changed note, once `said` is saved after them."""
    for key, fact in facts.items():
        await harness.memory.store(key, fact, "core")
    await harness.memory.store_with_metadata("conversation/s0/a", said, "conversation", "s0")
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default")
    return {entry.key: notes.get(entry.id) for entry in recalled if entry.category == "core"}


async def test_a_client_by_title_is_marked_paid_by_the_invoice_said_paid(
    harness: Harness,
) -> None:
    """Found by a new user, a translator: "Mr O'Donovan (direct client, Cork) still owes me
    640 for invoice 2026-031" was no debt, and "good news, o'donovan finally paid invoice
    2026-031 today" left it recalled as owed; "/remember O'Donovan paid the 640 for invoice
    2026-031" replaced nothing (the invoice's number was read as the amount paid)."""
    owed = "Mr O'Donovan (direct client, Cork) still owes me 640 for invoice 2026-031"
    assert debt_owed(owed) == "o'donovan"
    assert pays_off("O'Donovan paid the 640 for invoice 2026-031", owed)
    assert pays_off("good news, o'donovan finally paid invoice 2026-031 today", owed)
    assert not pays_off("o'donovan paid invoice 2026-032", owed)
    assert not pays_off("Klein paid invoice 2026-031", owed)
    assert not pays_off("o'donovan paid 200", owed)
    # A second adversary: the apostrophe typed curly, a title, and other invoices.
    assert pays_off("o'donovan paid invoice 2026-031", owed.replace("'", "\u2019"))
    assert pays_off("Mr Walsh paid 640", "Mr Walsh owes me 640 for invoice 2026-050")
    assert not pays_off("Mrs Walsh paid 640", "Mr Walsh owes me 640 for invoice 2026-050")
    # A third adversary: a first name and a surname.
    assert pays_off("Siobhan O'Donovan paid 120", "Siobhan O'Donovan owes me 120")
    assert not pays_off("Siobhan Murphy paid 120", "Siobhan Kelly owes me 120")
    # Two payments of other amounts by one person are two.
    assert two_debts("Priya paid 50", "Priya paid 70")
    assert two_debts("Mr Walsh paid 6.40", "Mr Walsh paid 64")
    fifty = "Priya owes me 50 for invoice 2026-010"
    assert two_debts("Priya owes me 70 for invoice 2026-011", fifty)
    assert two_debts("Priya paid invoice 2026-011", "Priya paid invoice 2026-010")
    assert not two_debts("o'donovan paid invoice 2026-031", owed)
    marked = await _facts_marked_after(
        harness,
        {"odonovan": owed, "klein": "Klein agency still owes me 210 for invoice 2026-029"},
        "good news, o'donovan finally paid invoice 2026-031 today",
    )
    assert marked["klein"] is None
    assert marked["odonovan"] == (
        "since changed: a later message says \"good news, o'donovan finally paid invoice "
        '2026-031 today"'
    )


async def test_a_business_owing_is_marked_paid_by_its_invoice_or_amount(
    harness: Harness,
) -> None:
    """Found by a new user, a baker: "The Corrib Café owes me 412.50 euro for invoice 1187"
    was no debt (a name of three words), so "The Corrib Café paid invoice 1187 today" left it
    recalled as owed, and "Corrib Café paid me the 60 euro" paid nothing."""
    owed = "The Corrib Café owes me 412.50 euro for invoice 1187 (November deliveries)"
    assert pays_off("The Corrib Café paid invoice 1187 today, all 412.50", owed)
    assert pays_off("Corrib Cafe paid me the 412.50", owed)
    assert not pays_off("The Galway Bay Hotel paid invoice 1187", owed)
    # A later adversary: denied, only claimed, or in part, it pays nothing.
    assert not debt_changed("The Corrib Café never paid invoice 1187", owed)
    assert not debt_changed("Corrib Café said they paid invoice 1187 but nothing arrived", owed)
    assert not pays_off("The Corrib Café paid 200 of invoice 1187", owed)
    assert pays_off("Seán at Bia Deli paid me the 80", "Seán at Bia Deli owes me 80 euro")
    # Two invoices of one business are two; a payment of one pays that one.
    sixty = "The Corrib Café owes me 60 euro for invoice 1210"
    assert two_debts(sixty, "The Corrib Café owes me 95 euro for invoice 1203")
    assert two_debts("Corrib Cafe paid me the 60 euro", "The Corrib Café owes me 95 euro")
    assert not two_debts("Corrib Cafe paid me the 60 euro", sixty)
    marked = await _facts_marked_after(
        harness,
        {"corrib": owed, "hotel": "The Galway Bay Hotel owes me 220 euro"},
        "The Corrib Café paid invoice 1187 today, all 412.50",
    )
    assert marked["hotel"] is None
    assert marked["corrib"] == (
        "since changed: a later message says 'The Corrib Café paid invoice 1187 today, all 412.50'"
    )


async def test_a_fact_of_someone_says_another_does_it_since(harness: Harness) -> None:
    """Found by a new user, a baker: "who works Saturdays?" gave "Ciarán works the Saturday
    shift" first, unmarked, after "Aoife now does Saturdays instead of Ciarán"."""
    shift = await harness.memory.store(
        "ciaran", "Ciarán works the Saturday shift, 6am to 2pm", "core"
    )
    phone = await harness.memory.store("ciaran_phone", "Ciarán's phone is 087 555", "core")
    await harness.memory.store_with_metadata(
        "conversation/s0/a", "Aoife now does Saturdays instead of Ciarán", "conversation", "s0"
    )
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default")
    assert notes.get(shift.id) == (
        "since changed: a later message says 'Aoife now does Saturdays instead of Ciarán'"
    )
    assert phone.id not in notes


async def test_a_message_of_other_days_marks_the_days_said_before(harness: Harness) -> None:
    """Found by an adversary: "Sam now works Mondays" said in chat left "Sam works
    Saturdays" recalled unmarked, first."""
    said = await harness.memory.store_with_metadata(
        "conversation/s0/a", "Sam works Saturdays", "conversation", "s0"
    )
    await harness.memory.store_with_metadata(
        "conversation/s0/b", "Sam now works Mondays", "conversation", "s0"
    )
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default")
    assert notes.get(said.id) == "since changed: a later message says 'Sam now works Mondays'"


async def test_a_time_moved_twice_marks_the_fact_and_the_first_move(harness: Harness) -> None:
    """Found by a new user, an engineer: "when is standup?" gave "Standup moved to 10:00"
    first, then "… 9:45", then "Standup is at 9:30 every day", none marked."""
    fact = await harness.memory.store("standup", "Standup is at 9:30 every day", "core")
    first = await harness.memory.store_with_metadata(
        "conversation/s0/a", "Standup moved to 10:00", "conversation", "s0"
    )
    await harness.memory.store_with_metadata(
        "conversation/s0/b", "Standup moved to 9:45", "conversation", "s0"
    )
    await harness.memory.store_with_metadata(
        "conversation/s0/c", "Dinner with Sam moved to 8pm", "conversation", "s0"
    )
    lunch = await harness.memory.store_with_metadata(
        "conversation/s0/d", "Lunch with Sam moved to 1pm", "conversation", "s0"
    )
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default")
    moved = "since changed: a later message says 'Standup moved to 9:45'"
    assert notes.get(fact.id) == moved and notes.get(first.id) == moved
    dinner = next(e for e in recalled if e.content.startswith("Dinner"))
    assert dinner.id not in notes and lunch.id not in notes


async def test_a_message_naming_the_plumber_is_marked_by_a_new_one(harness: Harness) -> None:
    """Found by a new user, a retired nurse: "who's the plumber" gave "the plumber is Tommy
    Hayes 087 1234567" unmarked after "our plumber is now Declan Ryan" replaced the fact."""
    said = await harness.memory.store_with_metadata(
        "conversation/s0/a", "the plumber is Tommy Hayes 087 1234567", "conversation", "s0"
    )
    await harness.memory.store("plumber", "our plumber is now Declan Ryan 086 5551212", "core")
    await harness.memory.store_with_metadata(
        "conversation/s0/b", "the weather is grand today", "conversation", "s0"
    )
    recalled = await harness.memory.list(limit=10)
    notes = await since_changed(harness.memory, recalled, "default")
    assert notes.get(said.id, "").startswith("since changed: 'plumber' says 'our plumber is now")
    assert len(notes) == 1


async def test_a_debt_paid_in_part_says_so(harness: Harness) -> None:
    """Found by a new user, a retired nurse: "how much does Ciarán still owe me" showed the
    model "Ciarán owes me 2000 euro for the car" alone, after "Ciarán paid me back 500"."""
    owed = "Ciarán owes me 2000 euro for the car"
    assert debt_changed("Ciarán paid me back 500 today", owed)
    assert debt_changed("Ciarán paid me back 500", "I lent Ciarán 2000 euro for the car")
    assert not debt_changed("Ciarán never paid the 500", owed)
    assert not debt_changed("Tom paid me back 500", owed)
    # A later adversary: paid to another, or half of an invoice, pays no debt of the user's.
    assert not pays_off("Costa paid 200 to Silva", "Costa owes me 200 for the flyers")
    assert not pays_off("Costa paid 200 to his landlord", "Costa owes me 200 for the flyers")
    assert pays_off("Costa paid me 200 today", "Costa owes me 200 for the flyers")
    assert not pays_off("Dunnes paid half of invoice 77", "Dunnes owes me 300 for invoice 77")
    assert pays_off("Dunnes paid invoice 77", "Dunnes owes me 300 for invoice 77")
    assert not pays_off("Ciarán paid me back 500 today", owed)  # a part: still owed
    fact = await harness.memory.store("ciaran", owed, "core")
    await harness.memory.store_with_metadata(
        "conversation/s1/a", "Ciarán paid me back 500 today", "conversation", "s1"
    )
    harness.model.add("He owes you 1500.")
    events = await harness.turn("how much does Ciarán still owe me")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert recalled.since_changed.get(fact.id) == (
        "since changed: a later message says 'Ciarán paid me back 500 today'"
    )


async def test_a_recalled_debt_says_it_was_paid_since(harness: Harness) -> None:
    """Found by a new user: "paid Priya the $42 for power" shares no word with "do I owe
    anyone money?", so "owe Priya $42 for power" was recalled alone, as if still owed."""
    owed = await harness.memory.store_with_metadata(
        "conversation/s0/a", "owe Priya $42 for power", "conversation", "s0"
    )
    await harness.memory.store_with_metadata(
        "conversation/s0/b", "I have asthma, my inhaler is blue", "conversation", "s0"
    )
    await harness.memory.store_with_metadata(
        "conversation/s1/a", "paid Priya the $42 for power", "conversation", "s1"
    )
    harness.model.add("You paid Priya.")
    events = await harness.turn("do I owe anyone money?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert owed.id in {e.id for e in recalled.injected}
    assert recalled.since_changed == {
        owed.id: "since changed: a later message says 'paid Priya the $42 for power'"
    }


async def test_a_debt_kept_as_a_fact_says_it_was_paid_since(harness: Harness) -> None:
    """Found by a new user: "I owe Joana 23€ for internet", kept as a fact, was recalled
    as still owed after "paid Joana back the 23€ today" was said in chat."""
    owed = await harness.memory.store("joana", "I owe Joana 23€ for internet", "core")
    await harness.memory.store_with_metadata(
        "conversation/s1/a", "paid Joana back the 23€ today", "conversation", "s1"
    )
    harness.model.add("You paid Joana.")
    events = await harness.turn("who do i owe money")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert owed.id in {e.id for e in recalled.injected}
    assert recalled.since_changed == {
        owed.id: "since changed: a later message says 'paid Joana back the 23€ today'"
    }


@pytest.mark.parametrize(
    ("fact", "said", "question"),
    [
        ("My partner is Sam", "Sam and I broke up", "who is my partner?"),
        ("My girlfriend is Ana", "Ana and I split up in November", "who is my girlfriend?"),
        (
            "Sarah is my manager",
            "Sarah left the company last week, Tom is my manager now",
            "who is my manager?",
        ),
        ("I owe Priya $42 for concert tickets", "Just paid Priya back", "do I owe Priya?"),
        # A later adversary: a job left, a doctor changed.
        ("I work at Hooli as a designer", "I no longer work at Hooli", "where do I work?"),
        ("I work for Vandelay Industries", "I quit my job at Vandelay", "where do I work?"),
        ("I work at Soylent", "I got laid off from Soylent yesterday", "where do I work?"),
        ("My GP is Dr Harris", "I changed GP, it's Dr Bell now", "who is my GP?"),
        ("My dentist is Dr Lee", "I switched dentists, I go to Dr Park now", "who is my dentist?"),
    ],
)
async def test_a_fact_ended_in_chat_says_so_when_recalled(
    harness: Harness, fact: str, said: str, question: str
) -> None:
    """Found by an adversary: each fact was given as current after the message ending it,
    with no word that it had changed (they hold no number: `memory.fact_endings`)."""
    kept = await harness.memory.store("the_fact", fact, "core")
    await harness.memory.store_with_metadata("conversation/s1/a", said, "conversation", "s1")
    harness.model.add("Noted.")
    events = await harness.turn(question)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert kept.id in {e.id for e in recalled.injected}
    assert recalled.since_changed.get(kept.id) == f"since changed: a later message says {said!r}"


@pytest.mark.parametrize(
    ("fact", "ended", "undone", "question"),
    [
        ("My partner is Sam", "Sam and I broke up last week", "Sam and I got back together!",
         "who is my partner?"),
        ("Sarah is my manager", "Sarah left the company, my new manager is Tom",
         "Sarah came back to the company, she's my manager again", "who is my manager?"),
    ],
)  # fmt: skip
async def test_an_ending_taken_back_later_leaves_the_fact_unmarked(
    harness: Harness, fact: str, ended: str, undone: str, question: str
) -> None:
    """Found by an adversary: after the ending was taken back, the model was still told the
    fact had changed, and nothing else."""
    kept = await harness.memory.store("the_fact", fact, "core")
    await _said(harness, ended, "ended")
    assert kept.id in (await _recalled(harness, question)).since_changed
    await _said(harness, undone, "undone")
    assert kept.id not in (await _recalled(harness, question)).since_changed
    assert not undoes_the_end("what if Sam and I got back together?", "My partner is Sam")
    assert not undoes_the_end("Sarah is back from holiday", "Sarah is my manager")


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("I work at Initech", "I left Initech early today"),
        ("My GP is Dr Harris", "I changed GP, it's Dr Harris now"),
        ("My partner is Sam", "I left my keys at Sam's"),
        ("My partner is Sam", "Sam quit smoking"),
        ("My partner is Sam", "Leo and Mia broke up"),
        ("Sarah is my manager", "Sarah left early today"),
        ("Sarah is my manager", "Tom is my manager too"),
        ("Sarah is my manager", "Tom is my brother"),
        # A second adversary saw each mark its fact "since changed".
        ("My partner is Sam", "We split up the bill at dinner, easy."),
        ("I play tennis with Alex on Sundays", "We split up the bill at dinner, easy."),
        ("Sarah is my manager", "Sarah left the team meeting early to pick up her kid"),
        ("Dr Lee is my dentist", "Dr Lee left the clinic at 6pm so I called the front desk"),
        ("My partner is Sam", "We are done with the kitchen renovation"),
        ("My partner is Sam", "We separated the recycling"),
        ("My partner is Sam", "I left Sam at the airport"),
        ("My partner is Sam", "Sam and I got separated in the crowd"),
        ("Sarah is my manager", "Sarah is gone for the weekend"),
        ("Sarah is my manager", "Sarah moved on to the next slide"),
        ("Sarah is my manager", "Sarah left the company party early"),
        ("Sarah is my coach", "Sarah retired from tennis"),
        # A third adversary: an ending supposed, asked, or taken back.
        ("My partner is Sam", "Sam moved out of his old flat and in with me"),
        ("My partner is Sam", "Sam moved out for the summer to work in Spain"),
        ("My partner is Sam", "Sam and I broke up in 2019 but got back together in 2021"),
        ("My manager is Sarah", "If Sarah left the company, Tom would be my manager"),
        ("My manager is Sarah", "Sarah left the company for good? No, she's just on leave"),
        ("Sarah is my coach", "That's my new coach's car"),
        ("Sarah is my manager", "Sarah quit smoking"),
        ("My partner is Sam", "Sam and I are done with the kitchen"),
    ],
)
def test_a_message_of_something_else_ends_no_fact(fact: str, said: str) -> None:
    assert not ends_the_fact(said, fact)


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("My partner is Sam", "Sam dumped me"),
        ("My partner is Sam", "Sam and I are no longer together"),
        ("My partner is Sam", "Sam moved out"),
        ("Sarah is my manager", "Sarah is no longer my manager"),
        ("Sarah is my manager", "my manager is Tom now"),
        ("My landlord is Mr. Kim", "Kim retired"),
        ("My dentist is Dr Patel", "my new dentist is Dr Ruiz"),
        # A third adversary's.
        ("My partner is Sam", "Me and Sam broke up"),
        ("My partner is Sam", "Sam & I broke up"),
        ("My partner is Sam", "Sam and I are done"),
        ("Sarah is my manager", "Sarah quit last week"),
    ],
)
def test_a_fact_ended_in_other_words_is_ended(fact: str, said: str) -> None:
    """Found by a second adversary: each left its fact unmarked."""
    assert ends_the_fact(said, fact)


async def test_a_fact_saying_more_than_its_home_says_the_home_changed(harness: Harness) -> None:
    """Found by a new user: the fact holds the flatmates and the rent too, so the move said
    in chat could not replace it, and it was recalled unmarked beside the new home."""
    fact = "Flatmates are Joana and Rui, rent is 900€ split 3 ways, we live in Arroios"
    kept = await harness.memory.store("flat", fact, "core")
    await harness.memory.store_with_metadata(
        "conversation/s1/a", "big news we moved flat, we live in Alvalade now", "conversation", "s1"
    )
    harness.model.add("In Alvalade.")
    events = await harness.turn("where do i live")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert kept.id in {e.id for e in recalled.injected}
    assert kept.id in recalled.since_changed
    assert "Alvalade" in recalled.since_changed[kept.id]


def test_the_same_home_said_with_other_words_is_no_change() -> None:
    """Found by an adversary: "I live in Porto near the river" marked "I live in Porto,
    Portugal" as changed."""
    porto = stated_values("I live in Porto, Portugal, by the way")
    assert changed_topics(porto, stated_values("I live in Porto near the river")) == []
    assert changed_topics(porto, stated_values("I live in Lisbon now")) == ["home"]
    york = stated_values("I live in New York")
    assert changed_topics(york, stated_values("I live in New Jersey")) == ["home"]


async def test_a_fact_holding_a_secret_says_a_later_message_changed_it(harness: Harness) -> None:
    """Found by a new user, a carer: "The key safe code changed to 8153 today …" was saved
    redacted, and the old code was recalled as current beside it, unmarked."""
    code = await harness.memory.store("key_safe", "The key safe code at Dad's is 4471", "core")
    pin = await harness.memory.store("bank_pin", "My bank PIN is 9034", "core")
    await harness.memory.store_with_metadata(
        "conversation/s1/a",
        "The key safe code changed to [REDACTED:code] today after the agency asked",
        "conversation",
        "s1",
    )
    harness.model.add("It changed.")
    events = await harness.turn("what's the key safe code, and my bank pin")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {code.id, pin.id} <= {e.id for e in recalled.injected}
    assert recalled.since_changed == {
        code.id: "since changed: a later message says 'The key safe code changed to "
        "[REDACTED:code] today after the agency asked'"
    }


async def test_a_payment_marks_the_debt_it_pays_alone(harness: Harness) -> None:
    """Found by an adversary: after "paid Priya the $42", the unpaid "I owe Priya $15 for
    lunch" was marked as changed since."""
    tickets = await harness.memory.store("tickets", "I owe Priya $42 for tickets", "core")
    lunch = await harness.memory.store("lunch", "I owe Priya $15 for lunch", "core")
    await harness.memory.store_with_metadata(
        "conversation/s1/a", "paid Priya the $42 today", "conversation", "s1"
    )
    harness.model.add("You owe her $15.")
    events = await harness.turn("what do I owe Priya")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {tickets.id, lunch.id} <= {e.id for e in recalled.injected}
    assert set(recalled.since_changed) == {tickets.id}


async def test_an_event_moved_or_called_off_later_says_so(harness: Harness) -> None:
    """Found by an adversary: "Dentist moved to 21/1" said in chat, "what's on 14
    January?" was shown the dentist on the 14th unmarked (the move names not the 14th, so
    it was not recalled with it)."""
    dentist = await harness.memory.store_with_metadata(
        "conversation/s1/a", "Dentist on 14/1 at 3pm", "conversation", "s1"
    )
    haircut = await harness.memory.store("haircut", "Haircut on 14/1 at 9am", "core")
    await harness.memory.store_with_metadata(
        "conversation/s2/a", "Dentist moved to 21/1", "conversation", "s2"
    )
    harness.model.add("The dentist moved.")
    events = await harness.turn("what's on 14 January?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert {dentist.id, haircut.id} <= {e.id for e in recalled.injected}
    assert recalled.since_changed == {
        dentist.id: "since changed: a later message says 'Dentist moved to 21/1'"
    }


async def test_a_move_naming_not_which_of_two_events_marks_neither(harness: Harness) -> None:
    """Found by an adversary: "Dentist moved to 21/1" marked the dentist on 14/1 and 28/1."""
    for key, text in (("a", "Dentist on 14/1 at 3pm"), ("b", "Dentist on 28/1 at 10am")):
        await harness.memory.store_with_metadata(
            f"conversation/s1/{key}", text, "conversation", "s1"
        )
    await harness.memory.store_with_metadata(
        "conversation/s2/a", "Dentist moved to 21/1", "conversation", "s2"
    )
    harness.model.add("Which one?")
    events = await harness.turn("when is the dentist")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert len(recalled.injected) == 3
    assert recalled.since_changed == {}


async def test_a_move_to_a_day_near_one_event_and_weeks_from_the_other_marks_that_one(
    harness: Harness,
) -> None:
    """Found by a new user: "the reading group moved to Friday 17/9" marked the October
    meeting changed, for months, and not the one of Thursday 16/9."""
    rows = (
        ("sept", "Reading group next meets Thursday 16/9 at 7pm at Ama's place on Spadina"),
        ("oct", "Reading group October meeting: Thursday 21/10 at 7pm, hosted by Daniel"),
    )
    stored = {
        key: await harness.memory.store_with_metadata(
            f"conversation/s1/{key}", text, "conversation", "s1"
        )
        for key, text in rows
    }
    await harness.memory.store_with_metadata(
        "conversation/s2/a",
        "Change of plan: the reading group moved to Friday 17/9, same time, at Daniel's place",
        "conversation",
        "s2",
    )
    harness.model.add("Friday it is.")
    events = await harness.turn("when is the reading group?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert set(recalled.since_changed) == {stored["sept"].id}


async def test_a_change_to_come_marks_nothing_before_its_day(harness: Harness) -> None:
    """Found by an adversary: "From Monday I take 20mg of citalopram", said on a Saturday,
    marked the 10mg dose "since changed" under "the later one holds"."""
    from datetime import UTC, datetime

    from agent.since_changed import since_changed
    from memory.write_rules import NewMemory

    saturday = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    dose = await harness.memory.write(
        NewMemory(key="dose", content="I take 10mg of citalopram", created_at=saturday)
    )
    later = await harness.memory.write(
        NewMemory(
            key="dose_up",
            content="From Monday I take 20mg of citalopram",
            created_at=saturday.replace(hour=13),
        )
    )
    both = [dose, later]
    sunday, wednesday = saturday.replace(day=6), saturday.replace(day=9)
    assert dose.id not in await since_changed(harness.memory, both, "default", sunday)
    assert dose.id in await since_changed(harness.memory, both, "default", wednesday)


async def test_a_change_from_tomorrow_marks_the_dose_once_tomorrow_has_come(
    harness: Harness,
) -> None:
    """Found by a new user, a baker: "she lowered my amlodipine to 7.5mg from tomorrow" had
    no day of its own, so it was never in effect, and the 10mg dose was recalled unmarked
    for months."""
    from datetime import UTC, datetime

    from agent.since_changed import since_changed
    from memory.write_rules import NewMemory

    said = datetime(2027, 2, 3, 12, 0, tzinfo=UTC)
    dose = await harness.memory.write(
        NewMemory(
            key="dose",
            content="I take amlodipine 10mg every morning for blood pressure",
            created_at=said.replace(month=1),
        )
    )
    lowered = await harness.memory.write(
        NewMemory(
            key="kontrola",
            content="Kontrola: BP 128/82, she lowered my amlodipine to 7.5mg from tomorrow",
            category="conversation",
            created_at=said,
        )
    )
    both = [dose, lowered]
    assert dose.id not in await since_changed(harness.memory, both, "default", said)
    notes = await since_changed(harness.memory, both, "default", said.replace(day=5))
    assert "7.5mg from tomorrow" in notes[dose.id]


async def _marks(
    harness: Harness,
    earlier: tuple[str, datetime],
    later: tuple[str, datetime],
    now: datetime,
    session: str | None = None,
) -> bool:
    """Whether a saved message said later marks the one said earlier, both recalled."""
    from memory.write_rules import NewMemory

    written = [
        await harness.memory.write(
            NewMemory(
                key=key, content=text, category="conversation", session_id=session, created_at=at
            )
        )
        for key, (text, at) in (("earlier", earlier), ("later", later))
    ]
    return written[0].id in await since_changed(harness.memory, written, "default", now)


@pytest.mark.parametrize(
    ("earlier", "later", "marked"),
    [
        # A new user, a baker in Kraków: each earlier message was recalled first, unmarked.
        (
            "Pan Kowalczyk sent letter: rent is going up to 7 900 zł netto from 1 lutego "
            "(February). That is +16%! I will dispute.",
            "Good news!! Kowalczyk agreed after my pismo: rent from 1 February will be 7 150 zł "
            "netto, not 7 900. Aneks to sign on 20.01",
            True,
        ),
        (
            "Flour price from Młyn Jasiński: typ 650 is 2,85 zł/kg, żytnia typ 720 is 3,10 "
            "zł/kg. Delivery every Wednesday at 6:00.",
            "Młyn Jasiński new cennik from 1.01: typ 650 now 3,05 zł/kg, żytnia 720 now 3,30 "
            "zł/kg. Ugh.",
            True,
        ),
        ("Flour typ 650 is 2.85 per kg", "Flour typ 650 is now 3.05 per kg", True),
        ("The gym is 40 a month", "The gym is 45 instead of 40 from now on", True),
        # Another thing's number.
        ("The 4 of us go to Zakopane on 20.02", "We need 3 eggs, not 4", False),
        ("My son is 12", "My daughter is 9, not 12 as the form says", False),
        ("Flour typ 650 is 2,85 zł/kg", "Flour typ 720 is 3,10 zł/kg", False),
    ],
)
async def test_a_later_message_with_another_price_or_number_marks_the_earlier(
    harness: Harness, earlier: str, later: str, marked: bool
) -> None:
    said = datetime(2026, 12, 11, 9, 0, tzinfo=UTC)
    later_at, now = said.replace(day=28), said.replace(year=2027)
    assert await _marks(harness, (earlier, said), (later, later_at), now) is marked


async def test_a_later_message_giving_a_fact_another_number_marks_it(harness: Harness) -> None:
    """Found by a new user, a carer: "Nora's evening levodopa is now at 7 instead of 6"
    updated no fact (no rule reads it), and a week later "what time is Nora's evening
    tablet" gave the 6 pm dose first, unmarked."""
    levodopa = "Nora takes levodopa 3 times a day, at 8 in the morning, 1 o'clock and 6 pm"
    physio = "Nora has physio with Gráinne every Thursday at 11"
    await harness.memory.store("levodopa", levodopa, "core")
    await harness.memory.store("physio", physio, "core")
    harness.model.add("Noted.", "Noted.", "At 7.")
    await harness.turn("Nora's evening levodopa is now at 7 instead of 6, the neurologist said")
    await harness.turn("Nora got a new walking frame, the physio gave it to her")
    events = await harness.turn("what time is Nora's evening levodopa?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    ids = {e.key: e.id for e in recalled.injected}
    assert "levodopa" in ids
    assert "now at 7 instead of 6" in recalled.since_changed[ids["levodopa"]]
    assert ids.get("physio") not in recalled.since_changed


async def test_a_later_message_putting_one_of_a_facts_values_right_marks_it(
    harness: Harness,
) -> None:
    """Found by a new user, an allotment's secretary: the correction shares its digits with
    the fact's other days ("3/8" beside "14/3" and "2/8"), and "wrong" said no change."""
    birthdays = "My grandchildren: Aoife's birthday is 14/3, Cian's is 2/8 and Saoirse's is 19/12"
    fact = await harness.memory.store("grandchildren", birthdays, "core")
    await _said(harness, "sorry i had Cian's birthday wrong, it's 3/8 not 2/8")
    recalled = await _recalled(harness, "when is Cian's birthday?")
    assert "it's 3/8 not 2/8" in recalled.since_changed[fact.id]


async def test_a_new_value_naming_not_whose_of_two_marks_neither(harness: Harness) -> None:
    """Found by a new user: "I got Noreen's new number" marked both Noreens' numbers changed
    since; with one Noreen, hers is marked."""
    kelly = await harness.memory.store("kelly", "Noreen Kelly's number is 087 111 2222", "core")
    walsh = await harness.memory.store("walsh", "Noreen Walsh's number is 086 333 4444", "core")
    await _said(harness, "I got Noreen's new number, 085 999 8888")
    recalled = await _recalled(harness, "what is Noreen Kelly's number?")
    assert {kelly.id, walsh.id} <= {entry.id for entry in recalled.injected}
    assert not {kelly.id, walsh.id} & set(recalled.since_changed)
    await harness.memory.forget("walsh")
    recalled = await _recalled(harness, "what is Noreen Kelly's number?")
    assert "085 999 8888" in recalled.since_changed[kelly.id]


async def test_news_of_others_named_marks_not_a_booking_of_someone_else(harness: Harness) -> None:
    """Found by a new user, a wedding photographer: a cancelled wedding's refunded deposit
    marked another couple's booking changed since (another number, the same words)."""
    mhairi = await harness.memory.store(
        "mhairi", "Mhairi & Tom wedding 28 Aug 2027 at Cromlix, deposit £450 paid", "core"
    )
    await harness.memory.store(
        "lauren", "Lauren & Priya wedding 12 Jun 2027 at Dalhousie Castle, deposit £300 paid"
    )
    await _said(harness, "gutted, Lauren & Priya cancelled the wedding, refunded the £300 deposit")
    recalled = await _recalled(harness, "which weddings are in August?")
    assert mhairi.id in {entry.id for entry in recalled.injected}
    assert mhairi.id not in recalled.since_changed
    await _said(harness, "Mhairi & Tom upped the deposit to £600 today")
    recalled = await _recalled(harness, "which weddings are in August?")
    assert "£600" in recalled.since_changed[mhairi.id]


async def test_a_relations_new_address_marks_theirs_not_the_named_ones(harness: Harness) -> None:
    """Found by a new user: "Tom's wife has a new email, mary@new.ie" marked Tom's own email
    changed, and left his wife's unmarked (an address is a value too)."""
    wife = await harness.memory.store("wife", "Tom's wife's email is mary@old.com", "core")
    tom = await harness.memory.store("tom", "Tom's email is tom@x.com", "core")
    await _said(harness, "Tom's wife has a new email, mary@new.ie")
    recalled = await _recalled(harness, "what is Tom's wife's email?")
    assert "mary@new.ie" in recalled.since_changed[wife.id]
    assert tom.id not in recalled.since_changed


async def test_a_change_of_something_else_marks_no_fact(harness: Harness) -> None:
    """Found by a new user, a parent: a pasted email marked "Arjun has a peanut allergy"
    changed (its "now" and its numbers were of a school trip), and a checkup moved to
    another day marked Arjun's dose; both were told to the model as overridden."""
    allergy = await harness.memory.store(
        "allergy", "Arjun has a peanut allergy and carries an EpiPen", "core"
    )
    dose = await harness.memory.store(
        "dose", "Arjun's cetirizine dose went up to 15 mg, Dr. Sharma changed it", "core"
    )
    checkup = await harness.memory.store(
        "checkup", "Arjun's checkup with Dr. Sharma is on December 15 at 3:30pm", "core"
    )
    await _said(
        harness,
        "From: Lisa Chen\nSent: Monday, December 7, 2026 8:02 AM\nSubject: Carpool\n\n"
        "Hi all, the ROM trip is now on Thursday December 10, bus leaves at 8:15. Arjun "
        "needs a peanut-free lunch, the school changed the rules. Cost is $12, due Dec 8.",
        "email",
    )
    await _said(harness, "Arjun's checkup with Dr. Sharma got rescheduled to December 18 at 4pm")
    recalled = await _recalled(harness, "does Arjun have any allergies? what's his dose?")
    assert allergy.id not in recalled.since_changed
    assert dose.id not in recalled.since_changed
    moved = await _recalled(harness, "when is Arjun's checkup with Dr. Sharma?")
    assert "December 18 at 4pm" in moved.since_changed[checkup.id]


async def test_a_list_whose_one_no_longer_does_it_is_marked_not_replaced(
    harness: Harness,
) -> None:
    """Found by a new user, a parent: after "the Nguyens drive the carpool on Thursdays now,
    not the Okafors", the list naming the Okafors for Thursday came first, unmarked. It
    is marked, and stays in effect: its other days still hold."""
    rota = await harness.memory.store(
        "carpool", "carpool: Monday the Chens drive, Tuesday I drive, Thursday the Okafors drive"
    )
    await harness.memory.store(
        "nguyens", "the Nguyens drive the carpool on Thursdays now, not the Okafors"
    )
    kept = await harness.memory.get("carpool")
    assert kept is not None and kept.superseded_by is None
    recalled = await _recalled(harness, "who drives the carpool on Thursday?")
    assert "not the Okafors" in recalled.since_changed[rota.id]
    assert not not_them_any_more("the Okafors can't make it to dinner", rota.content)
    # A third adversary: another thing on that day, or another day.
    assert not not_them_any_more(
        "the Okafors can't do Thursday dinner parties anymore", rota.content
    )
    assert not not_them_any_more("the Nguyens drive on Mondays now, not the Okafors", rota.content)


async def test_a_long_message_is_quoted_where_it_says_the_change(harness: Harness) -> None:
    """Found by a new user, a parent: a pasted email's note quoted its header ("From: Lisa
    Chen Sent: Monday, …"), not the line that moved the checkup."""
    checkup = await harness.memory.store(
        "checkup", "Arjun's checkup with Dr. Sharma is on December 15 at 3:30pm", "core"
    )
    await _said(
        harness,
        "From: Lisa Chen\nSent: Monday, December 7, 2026 8:02 AM\nSubject: RE: Carpool\n\n"
        "Hi all, lots of news. The school bus times are unchanged and the uniform shop is open "
        "on Saturdays. Also the gym is closed for repairs until further notice. Arjun's "
        "checkup with Dr. Sharma got rescheduled to December 18 at 4pm, the clinic called "
        "me. Thanks, Lisa",
        "email",
    )
    recalled = await _recalled(harness, "when is Arjun's checkup?")
    note = recalled.since_changed[checkup.id]
    assert "…Arjun's checkup with Dr. Sharma got rescheduled to December 18 at 4pm" in note
    assert "From: Lisa Chen" not in note


@pytest.mark.parametrize(
    ("fact", "said", "changed"),
    [
        # A third adversary: a value of another kind than the fact holds changes nothing.
        ("Arjun's checkup with Dr. Sharma is on December 15 at 3:30pm",
         "Dr. Sharma changed Arjun's dose to 20 mg", False),
        ("Arjun has a peanut allergy", "Arjun's allergy test is now on Friday at 10am", False),
        ("Arjun has a peanut allergy and carries an EpiPen",
         "Arjun's EpiPen expires now on March 3", False),
        # A change said in one sentence of a few.
        ("Standup is at 9:30 every day", "Standup moved to 10:00. The printer is fixed.", True),
        ("Standup is at 9:30 every day", "The printer is fixed. Standup moved to 10:00.", True),
        ("Standup is at 9:30 every day", "The printer is fixed. Lunch moved to 12:30.", False),
        ("Nora takes levodopa 100mg at 8am and 6 in the evening",
         "Nora's evening levodopa is now at 7 instead of 6", True),
        # A new user, a nurse in Madrid: "mi" was the second word shared with her mother's
        # name, age and town, marked changed by a new dose.
        ("mi madre se llama Carmen, tiene 72 años y vive en Alcorcon",
         "el medico le ha subido el enalapril a mi madre, ahora toma 20mg", False),
    ],
)  # fmt: skip
def test_a_value_changes_only_by_one_of_its_kind(fact: str, said: str, changed: bool) -> None:
    start = datetime(2026, 12, 1, tzinfo=UTC)
    held = written_entry("fact", fact, "core", start)
    later = written_entry("said", said, "conversation", start + timedelta(days=1))
    assert changes_its_value(held, later) is changed


async def _said(harness: Harness, text: str, at: str = "") -> MemoryEntry:
    """`text` saved as a message of an earlier chat (`at`: its key's end, unique)."""
    key = f"conversation/s0/{at or len(text)}"
    return await harness.memory.store_with_metadata(key, text, "conversation", "s0")


async def _recalled(harness: Harness, asked: str) -> MemoryRecalled:
    """What the turn answering `asked` recalled (the model's reply says nothing)."""
    harness.model.add("Here.")
    events = await harness.turn(asked)
    return next(e for e in events if isinstance(e, MemoryRecalled))


async def test_a_saved_question_marks_nothing_changed(harness: Harness) -> None:
    """Found by a new user, a translator: "do i need to tell the gestoria my new address is
    calle sueca 12 if we move in feb?" marked the address changed since; an adversary's
    "Is the dentist moved to 21/12?" the appointment."""
    await harness.memory.store("address", "My address is Calle Cuba 8, 46006 Valencia", "core")
    await harness.memory.store("dentist", "Dentist on 14/12 at 9am", "core")
    for said in (
        "do i need to tell the gestoria my new address is calle sueca 12 if we move in feb?",
        "Is the dentist moved to 21/12?",
    ):
        await _said(harness, said)
    for asked in ("what's my address? need it for an invoice", "when is the dentist?"):
        recalled = await _recalled(harness, asked)
        assert {e.key for e in recalled.injected} & {"address", "dentist"}
        assert recalled.since_changed == {}


async def test_another_ones_news_a_supposed_change_and_one_to_come_mark_nothing(
    harness: Harness,
) -> None:
    """Found by an adversary: "Tom's gym membership is now 45 instead of 30" marked "My gym
    membership costs 30 a month" changed since, so did "would my parking permit be 40
    instead of 25 if I had a second car?" the permit, and "Starting next week my swimming
    lesson costs 15 euros instead of 12" the 12 euros beside "not yet in effect"."""
    facts = {
        "gym": "My gym membership costs 30 a month",
        "park": "My parking permit costs 25 a month",
        "swim": "My swimming lesson costs 12 euros",
        "strom": "Mein Stromabschlag beträgt 80 Euro im Monat",
    }
    for key, fact in facts.items():
        await harness.memory.store(key, fact, "core")
    for said in (
        "Tom's gym membership is now 45 instead of 30",
        "would my parking permit be 40 instead of 25 if I had a second car?",
        "Starting next week my swimming lesson costs 15 euros instead of 12",
        "Mein Stromabschlag ist jetzt 95 statt 80 Euro",
    ):
        await _said(harness, said)
    marked: dict[str, str] = {}
    for asked in (
        "what does my gym membership cost?",
        "how much is my parking permit?",
        "how much is my swimming lesson?",
        "Stromabschlag?",
    ):
        recalled = await _recalled(harness, asked)
        marked |= {e.key: recalled.since_changed.get(e.id, "") for e in recalled.injected}
    assert {key: marked[key] for key in facts} == {
        "gym": "",
        "park": "",
        "swim": "",
        "strom": (
            "since changed: a later message says 'Mein Stromabschlag ist jetzt 95 statt 80 Euro'"
        ),
    }


async def test_a_since_changed_note_quotes_no_secret(harness: Harness) -> None:
    """Found by an adversary: the note on "My bike lock code is 3319" quoted the later
    message "… the bike lock code is 7702 …" whole, and the model got the code unasked."""
    await harness.memory.store("bike", "My bike lock code is 3319", "core")
    harness.model.add("Noted.", "It's at the station.")
    await harness.turn(
        "Locked my new bike at the station, the bike lock code is 7702 and my locker PIN is 5566"
    )
    events = await harness.turn("tell me about my bike")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    notes = " ".join(recalled.since_changed.values())
    assert "since changed" in notes and "7702" not in notes and "5566" not in notes
    block = harness.model.requests[-1].messages[-1].content
    assert "7702" not in block and "3319" not in block


async def test_a_relatives_news_in_spanish_and_a_condition_mark_nothing(harness: Harness) -> None:
    """Found by an adversary: "Ahora mi hermano toma 40 mg de omeprazol" marked "I take 20 mg
    of omeprazole every morning" changed since, and "if my gym membership is now 45 instead
    of 30 I'm quitting" the gym membership."""
    await harness.memory.store("ome", "I take 20 mg of omeprazole every morning", "core")
    await harness.memory.store("gym", "My gym membership is 30 euros a month", "core")
    for said in (
        "Ahora mi hermano toma 40 mg de omeprazol",
        "if my gym membership is now 45 instead of 30 I'm quitting",
    ):
        await _said(harness, said)
    for asked, key in (
        ("how much omeprazole do I take?", "ome"),
        ("how much is my gym membership?", "gym"),
    ):
        recalled = await _recalled(harness, asked)
        assert key in {e.key for e in recalled.injected}
        assert recalled.since_changed == {}, asked


async def test_a_move_said_after_who_rang_marks_the_event(harness: Harness) -> None:
    """Found by a new user, a dog groomer: "Murphys rang, Bailey moved to sat 12/12 11am"
    left "Murphys' cockapoo Bailey fri 11/12 10am" unmarked ("rang" named no word of it)."""
    booking = await _said(harness, "Murphys' cockapoo Bailey fri 11/12 10am", at="1")
    await _said(harness, "Murphys rang, Bailey moved to sat 12/12 11am", at="2")
    recalled = await _recalled(harness, "when is Bailey's groom on 11/12?")
    assert booking.id in {e.id for e in recalled.injected}
    assert "Bailey moved to sat" in recalled.since_changed.get(booking.id, "")


async def test_the_year_a_change_was_is_no_new_value(harness: Harness) -> None:
    """Found by an adversary: "the door code changed in 2023 but I still know it" marked
    both flats' door codes changed since: 2023 is when, not a new code."""
    await harness.memory.store("vienna", "The Vienna flat door code is 9182", "core")
    await _said(harness, "the door code changed in 2023 but I still know it")
    recalled = await _recalled(harness, "what's the door code for the Vienna flat?")
    assert "vienna" in {e.key for e in recalled.injected}
    assert recalled.since_changed == {}


async def test_who_someone_is_in_brackets_is_not_whose(harness: Harness) -> None:
    """Found by a new user, a pharmacist: "Françoise (Julien's mum) has a new phone number"
    marked Julien's number changed since, and a model would have given hers as his."""
    await harness.memory.store("julien", "Julien has a new phone number: 07 55 44 33 22", "core")
    await _said(harness, "Françoise (Julien's mum) has a new phone number: 04 78 99 99 99")
    recalled = await _recalled(harness, "Julien phone number?")
    assert "julien" in {e.key for e in recalled.injected}
    assert recalled.since_changed == {}


async def test_a_move_that_may_mean_an_event_not_recalled_marks_none(harness: Harness) -> None:
    """Found by an adversary: "O'Briens rang, Daisy moved to mon 14/12 10am", with Daisy's
    grooming on Thursday and her vet check on Friday, marked whichever was recalled."""
    said = (
        "Daisy grooming booked Thu 10/12 9am",
        "Daisy vet check booked Fri 11/12 9am",
        "O'Briens rang, Daisy moved to mon 14/12 10am",
    )
    for at, text in enumerate(said):
        await _said(harness, text, at=str(at))
    recalled = await _recalled(harness, "is the Daisy vet check still on?")
    assert any("vet check" in e.content for e in recalled.injected)
    assert recalled.since_changed == {}


async def test_a_move_they_made_after_who_rang_marks_the_event(harness: Harness) -> None:
    """Found by an adversary: "Kellys rang, they moved Bella to sat 12/12 noon" left "Bella
    grooming booked Thu 10/12 1pm" unmarked."""
    booking = await _said(harness, "Bella grooming booked Thu 10/12 1pm", at="1")
    await _said(harness, "Kellys rang, they moved Bella to sat 12/12 noon", at="2")
    recalled = await _recalled(harness, "when is Bella's grooming on 10/12?")
    assert booking.id in {e.id for e in recalled.injected}
    assert "they moved Bella" in recalled.since_changed.get(booking.id, "")


async def test_a_change_of_someone_marks_neither_their_relations_fact_nor_a_namesakes(
    harness: Harness,
) -> None:
    """Found by an adversary: "tom moved to 9 Rua Nova, Porto" marked "tom's wife Sara lives
    at 5 Rua do Ouro"; "Anna has a new email: …", said of neither Anna, marked Anna Silva's
    once Anna Costa's fact was written anew after it."""
    memory = harness.memory
    sara = await memory.store("sara", "tom's wife Sara lives at 5 Rua do Ouro", "core")
    silva = await memory.store("silva", "Anna Silva's email is anna.silva@work.com", "core")
    await memory.store("costa", "Anna Costa's email is anna.costa@gmail.com", "core")
    for at, said in enumerate(("tom moved to 9 Rua Nova, Porto", "Anna has a new email: a@b.pt")):
        await memory.store_with_metadata(f"conversation/s0/{at}", said, "conversation", "s0")
    await memory.store("costa", "Anna Costa's new email is costa.anna@proton.me", "core")
    notes = await since_changed(memory, await memory.list(limit=20), "default")
    assert sara.id not in notes and silva.id not in notes


async def test_a_note_shows_enough_of_a_long_message_to_hold_its_new_value(
    harness: Harness,
) -> None:
    """Found by a new user: the note cut "… i'm at Rua Morais Soares 88, 1…", the new
    address off, and the message holding it whole was not recalled."""
    memory = harness.memory
    home = await memory.store("home", "I live at Rua da Graça 42, Lisboa", "core")
    moved = (
        "big news, mudei-me! we moved flats last weekend, i'm at Rua Morais Soares 88, 1º dto, "
        "1900-345 Lisboa now. new landlady is D. Rosa Almeida and the rent is 820€ and the "
        "view is even better than the old one, honestly"
    )
    await memory.store_with_metadata("conversation/s0/1", moved, "conversation", "s0")
    notes = await since_changed(memory, await memory.list(limit=20), "default")
    # The sentence of it about the home: where it says the new address.
    assert "i'm at Rua Morais Soares 88, 1º dto, 1900-345 Lisboa now." in notes[home.id]


async def test_a_fact_whose_code_a_message_not_recalled_says_changed_is_marked(
    harness: Harness,
) -> None:
    """Found by an adversary: "the key safe code changed to 6677", said after "The key safe
    code at the cottage is 4455", was not recalled for "is the cottage key safe by the
    door?", and the fact, shown with its code redacted, went unmarked."""
    from agent.asked_secrets import shown_to_the_model

    fact = await harness.memory.store("cottage", "The key safe code at the cottage is 4455", "core")
    await harness.memory.store_with_metadata(
        "conversation/s0/a", "the key safe code changed to [REDACTED:code]", "conversation", "s0"
    )
    shown = shown_to_the_model([fact], "is the cottage key safe by the door?")
    assert "4455" not in shown[0].content
    notes = await since_changed(harness.memory, shown, "default")
    assert notes == {
        fact.id: "since changed: a later message says 'the key safe code changed to "
        "[REDACTED:code]'"
    }


_NEWSLETTER = " ".join(
    f"Item {n}: the {topic} is now open on weekdays from {n % 9 + 8} am, see the website."
    for n, topic in enumerate(["library", "pool", "uniform shop", "canteen", "car park"] * 8)
)


async def test_a_long_paste_marks_what_one_of_its_sentences_changes(harness: Harness) -> None:
    """A pasted page is read by its part about each fact (`memory.long_texts`): three
    pastes of 50 to 300 KB made every question take seconds (an adversary). Its change
    is still found, and quoted, however deep in the page it is."""
    checkup = await harness.memory.store(
        "checkup", "Arjun's checkup with Dr. Sharma is on December 15 at 3:30pm", "core"
    )
    dentist = await harness.memory.store("dentist", "Dentist on 14 January at 3pm", "core")
    page = (
        f"School newsletter. {_NEWSLETTER} Arjun's checkup with Dr. Sharma got rescheduled "
        f"to December 18 at 4pm, the clinic called. {_NEWSLETTER}"
    )
    assert len(page) > 2 * LONG
    await _said(harness, page, "newsletter")
    await _said(harness, f"Clinic news. {_NEWSLETTER} Dentist moved to 21 January.", "clinic")
    moved = await _recalled(harness, "when is Arjun's checkup?")
    assert "rescheduled to December 18 at 4pm" in moved.since_changed[checkup.id]
    assert "Item" not in moved.since_changed[checkup.id]
    off = await _recalled(harness, "when is the dentist?")
    assert "Dentist moved to 21 January" in off.since_changed[dentist.id]


async def test_a_long_paste_naming_a_fact_beside_a_change_of_another_marks_nothing(
    harness: Harness,
) -> None:
    """Read by its part about the fact, a page whose "now" is of other things changes the
    fact no more than when it was read whole."""
    rent = await harness.memory.store("rent", "My rent is 950 euro a month", "core")
    page = f"Tenants' news. My rent is paid on the first. {_NEWSLETTER} The rent office moved."
    assert len(page) > LONG
    await _said(harness, page, "tenants")
    recalled = await _recalled(harness, "how much is my rent?")
    assert rent.id not in recalled.since_changed


def test_the_part_of_a_long_text_about_another_is_its_sentences_naming_it() -> None:
    assert the_part_about("The pool is open. Rent is due.", "rent") == (
        "The pool is open. Rent is due."
    )
    page = f"{_NEWSLETTER} My rent went up to 990 euro. {_NEWSLETTER} Bye."
    part = the_part_about(page, "my rent is 950 euro")
    assert "My rent went up to 990 euro." in part and len(part) < 300
    assert the_part_about(page, "the zebra") == ""


async def test_a_change_someone_else_wrote_quoted_marks_nothing(harness: Harness) -> None:
    """Found by an adversary: "don't answer the scam saying 'your email is now …'" and a
    phishing text quoted marked the email and the phone changed; a value alone in quotes is
    the user's own."""
    email = await harness.memory.store("email", "My email is ana@old.example", "core")
    phone = await harness.memory.store("phone", "My phone number is 0176 1234567", "core")
    await _said(
        harness,
        "Note to self: don't answer the scam saying 'your email is now ana@scam.example'",
        "scam",
    )
    await _said(
        harness, 'Got a phishing SMS: "Your phone number is now 0176 5550000, confirm here"', "sms"
    )
    recalled = await _recalled(harness, "what is my email and my phone number?")
    assert email.id not in recalled.since_changed and phone.id not in recalled.since_changed
    await _said(harness, "my new email is 'ana@new.example'", "new")
    again = await _recalled(harness, "what is my email?")
    assert "ana@new.example" in again.since_changed[email.id]


async def test_a_dose_put_back_marks_the_fact_and_the_messages_it_changes(
    harness: Harness,
) -> None:
    """Found by a new user, a retired nurse: after "Dr Fitzgerald has me back on the 5mg
    ramipril", "what dose of ramipril am I on now" showed the 10mg fact and two messages
    saying 10mg, none marked (the doctor's "has me" read as the doctor's own news)."""
    fact = await harness.memory.store("ramipril", "My ramipril dose went up to 10mg", "core")
    up = await _said(harness, "Dr Fitzgerald put the ramipril up to 10mg today, BP was 158/92")
    await _said(
        harness, "Dr Fitzgerald has me back on the 5mg ramipril since the potassium was high"
    )
    recalled = await _recalled(harness, "what dose of ramipril am i on now")
    assert "back on the 5mg" in recalled.since_changed[fact.id]
    assert "back on the 5mg" in recalled.since_changed[up.id]
    # Cut back, too.
    cut = written_entry("m", "GP cut the ramipril back to 5mg", "conversation", fact.timestamp)
    later = cut.model_copy(update={"timestamp": fact.timestamp + timedelta(days=1)})
    assert changes_its_value(fact, later)
    # A date put right (a new user, a retired nurse: the birthday stood unmarked).
    birthday = written_entry("b", "Aoife's birthday is the 23rd of March", "core", fact.timestamp)
    put_right = "oh I'm an eejit, Aoife's birthday is the 25th of March not the 23rd"
    assert changes_its_value(birthday, later.model_copy(update={"content": put_right}))


_CLAUSE = (
    "Pasting the Bitlab contract clause so we have it:\n7.2 Payment Terms. The Client shall "
    "pay each invoice within forty-five (45) days of receipt. Late payments shall accrue "
    "interest at 1.5% per month.\n7.3 Rate Review. The hourly rate of sixty euros (EUR 60) "
    "shall be reviewed on 1 April 2027 and may be increased by no more than 10%."
)
_EMAIL = (
    "FYI email thread from Acme:\nFrom: Jordi Mas <jordi@acmelogistics.es>\nDate: 2 Feb "
    "2027\nSubject: Re: rate for 2027\n\nHi Inés,\nWe've discussed internally and we're happy "
    "to move your rate to 62 EUR/hour starting 1 March 2027. Invoices stay net 30.\nBest, Jordi"
)


async def test_what_may_change_on_a_day_is_no_change(harness: Harness) -> None:
    """Found by a new user, a contractor: a contract clause saying her rate "shall be
    reviewed on 1 April 2027 and may be increased by no more than 10%" marked "rate is
    60/h" changed since, quoting the same 60."""
    fact = await harness.memory.store(
        "ferran_from_bitlab", "Ferran from Bitlab is my main contact there, rate is 60/h", "core"
    )
    harness.model.add("Kept.", "60/h.")
    await harness.turn(_CLAUSE)
    events = await harness.turn("what's Ferran's rate at Bitlab?")
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert fact.id in {e.id for e in recalled.injected}
    assert fact.id not in recalled.since_changed


def test_a_note_quotes_the_sentence_that_says_the_change() -> None:
    """Found by the same user: the note on "55 EUR/hour, net 30 invoices" quoted "Invoices
    stay net 30", not the sentence moving her rate to 62."""
    from agent.change_notes import saying

    written = datetime(2027, 2, 3, tzinfo=UTC)
    email = written_entry("conversation/s/1", _EMAIL, "conversation", written)
    note = saying(email, "my client Acme Logistics pays me 55 EUR/hour, net 30 invoices")
    assert "move your rate to 62 EUR/hour starting 1 March 2027" in note
    assert "Invoices stay" not in note


@pytest.mark.parametrize(
    "correction",
    [
        "scratch that, IVA is due April 30 not April 20",
        "the IVA deadline is April 30, not April 20",
        "IVA is actually due April 30",
    ],
)
def test_a_value_put_right_changes_the_fact(correction: str) -> None:
    """Found by a new user, a contractor: "scratch that, IVA is due April 30 not April 20"
    left her accountant's fact saying April 20, unmarked."""
    written = datetime(2027, 4, 5, tzinfo=UTC)
    fact = written_entry(
        "my_accountant_is",
        "my accountant is Rosa Llopis, gestoría on Carrer Cádiz, quarterly IVA due April 20",
        "core",
        written,
    )
    later = written_entry("conversation/s/2", correction, "conversation", written + timedelta(1))
    assert changes_its_value(fact, later)


def test_a_day_put_right_moves_the_event_it_names() -> None:
    """Found by the same user: "scratch that about the dentist, it's actually on 22/01, same
    time" left "dentist (Dra. Puig) on 21/01 at 17:30" unmarked."""
    from memory.event_days import moves_it

    dentist = "dentist (Dra. Puig) on 21/01 at 17:30"
    assert moves_it("scratch that about the dentist, it's actually on 22/01, same time", dentist)
    assert not moves_it("scratch that about the vet, it's actually on 22/01", dentist)


def test_a_rate_change_fact_changes_the_fact_it_speaks_of_once_its_day_has_come() -> None:
    """Found by a new user, a contractor: in March, "how much does Acme pay me?" gave "…
    pays me 55 EUR/hour" unmarked beside "Acme rate goes up to 62 EUR/hour from 1 March
    2027" ("rate" is a word of what "pays" speaks of)."""
    written = datetime(2027, 1, 11, tzinfo=UTC)
    fact = written_entry(
        "my_client_acme",
        "my client Acme Logistics pays me 55 EUR/hour, net 30 invoices",
        "core",
        written,
    )
    rise = written_entry(
        "acme_rate_goes",
        "Acme rate goes up to 62 EUR/hour from 1 March 2027",
        "core",
        written + timedelta(days=20),
    )
    assert changes_its_value(fact, rise)
    gutters = written_entry(
        "acme_office", "Acme office wifi password is now Gutter99", "core", written + timedelta(1)
    )
    assert not changes_its_value(fact, gutters)


async def test_an_invoice_paid_marks_the_message_saying_it_was_not(harness: Harness) -> None:
    """Found by the same user: "Bitlab finally paid B-12, 3.000€ in the account" left
    "Bitlab still hasn't paid invoice B-12 (3.000€)" recalled unmarked."""
    harness.model.add("Noted.", "Noted.", "Paid.")
    await harness.turn("Bitlab still hasn't paid invoice B-12 (3.000€), it was due March 6")
    await harness.turn("Bitlab finally paid B-12, 3.000€ in the account")
    other = harness.sessions.new()
    events = await harness.turn("has Bitlab paid invoice B-12?", other)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    unpaid = next(e for e in recalled.injected if "hasn't paid" in e.content)
    assert recalled.since_changed[unpaid.id].startswith("since changed: a later message says")
    assert "finally paid B-12" in recalled.since_changed[unpaid.id]


def test_two_homes_on_streets_of_one_word_are_two_homes() -> None:
    """Found by a new user in Valencia: "We moved house, we're in Benimaclet now (Carrer de
    Sant Josep 5)" left "Big news: we moved! We're in Russafa now, the flat on Carrer de
    Sueca" unmarked ("carrer" and "de" were read as the place they shared)."""
    russafa = stated_values("Big news: we moved! We're in Russafa now, the flat on Carrer de Sueca")
    benimaclet = stated_values("We moved house, we're in Benimaclet now (Carrer de Sant Josep 5)")
    assert changed_topics(russafa, benimaclet) == ["home"]
    same = stated_values("I live on Calle Mayor 5, Madrid")
    assert changed_topics(same, stated_values("I live on Calle Mayor, Madrid")) == []


async def test_a_correction_naming_nothing_moves_the_message_before_it(harness: Harness) -> None:
    """Found by a new user, a contractor: "actually no, scratch that, Carla said it's
    thursday at 9:30", right after "Nube Verde wants a call wednesday at 9:30 …", named
    nothing of it, and both days were shown as if each held."""
    harness.model.add("Noted.", "Noted.", "Noted.", "Thursday.")
    await harness.turn("Nube Verde wants a call wednesday at 9:30 to scope phase 2")
    await harness.turn("actually no, scratch that, Carla said it's thursday at 9:30")
    other = harness.sessions.new()
    events = await harness.turn("when's the Nube Verde call?", other)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    wednesday = next(e for e in recalled.injected if "wednesday" in e.content)
    assert "scratch that" in recalled.since_changed[wednesday.id]
    # Not a message of its own chat before it that names no day, nor one of another chat.
    assert all(
        "thursday" not in e.content or e.id not in recalled.since_changed for e in recalled.injected
    )


def test_only_a_correction_naming_nothing_points_back() -> None:
    from memory.corrections import corrects_the_last

    assert corrects_the_last("actually no, scratch that, Carla said it's thursday at 9:30")
    assert corrects_the_last("Correction: it's the 14th")
    assert not corrects_the_last("scratch that about the dentist, it's actually on 22/01")
    assert not corrects_the_last("I need to scratch that lottery ticket")


async def test_a_day_said_not_to_be_the_one_marks_the_event(harness: Harness) -> None:
    """Found by an adversary: "Dentist is not the 23rd, it's the 25th" left "Dentist on
    23/12 at 9am" recalled unmarked."""
    dentist = await harness.memory.store("dentist", "Dentist on 23/12 at 9am", "core")
    harness.model.add("Noted.", "The 25th.")
    await harness.turn("Dentist is not the 23rd, it's the 25th")
    other = harness.sessions.new()
    events = await harness.turn("when is the dentist?", other)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert "it's the 25th" in recalled.since_changed[dentist.id]


async def test_a_message_saying_its_day_is_not_the_one_said_marks_that_message(
    harness: Harness,
) -> None:
    """Found by a short adversary: "the Acme deadline is not the 23rd, it's the 25th" left
    "the Acme deadline is the 23rd" recalled unmarked ("the 23rd" alone names no day)."""
    harness.model.add("Noted.", "Noted.", "The 25th.")
    await harness.turn("the Acme deadline is the 23rd")
    await harness.turn("the Acme deadline is not the 23rd, it's the 25th")
    other = harness.sessions.new()
    events = await harness.turn("when is the Acme deadline?", other)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    first = next(e for e in recalled.injected if e.content == "the Acme deadline is the 23rd")
    assert "it's the 25th" in recalled.since_changed[first.id]


@pytest.mark.parametrize(
    ("earlier", "correction", "marked"),
    [
        # An adversary: each correction left the day before it unmarked.
        ("Dentist appointment on Tuesday at 10", "scratch that, it's Thursday", True),
        ("The Acme deadline is the 23rd", "no, not the 23rd, it's the 25th", True),
        ("Piano lesson for Mia on the 23rd", "no wait, the 25th", True),
        ("cena con Marta el martes 15", "perdona, la cena con Marta es el jueves 17", True),
        (
            "la riunione con Paolo è il 12 aprile",
            "la riunione con Paolo è stata spostata al 14 aprile",
            True,
        ),
        (
            "consulta com a Dra. Sousa no dia 20 de maio",
            "a consulta com a Dra. Sousa mudou para 22 de maio",
            True,
        ),
        # A second adversary: Portuguese read as English in one text and not the other.
        ("o jantar com o João é dia 18 de maio", "o jantar com o João mudou para 22 de maio", True),
        ("a consulta da Ana é 18 de maio", "a consulta da Ana mudou para 22 de maio", True),
        # A new user, a translator: a deadline pushed back, in French.
        (
            "Deadline traduction roman Boréal: 5 février",
            "la deadline Boréal est repoussée au 12 février",
            True,
        ),
        # A new user, a nurse in Madrid: "la he cambiado", and "cita" naming any event.
        (
            "la ITV del Seat Ibiza hay q pasarla el 15 de mayo",
            "la cita de la ITV la he cambiado al 22 de mayo a las 10:30",
            True,
        ),
        # A new user: a deadline moved again by someone named.
        (
            "Thesis chapter 2 draft deadline is 1 November 2027",
            "Okafor pushed my chapter 2 deadline again, to 15 November",
            True,
        ),
        # Not a correction of a day.
        ("Dentist appointment on Tuesday at 10", "no, I don't think so", False),
        ("Dentist appointment on Tuesday at 10", "sorry, the wifi is down today", False),
        ("Piano lesson for Mia on the 23rd", "perdona, la cena con Marta es el jueves 17", False),
    ],
)
async def test_a_day_put_right_in_the_next_message_marks_the_one_before(
    harness: Harness, earlier: str, correction: str, marked: bool
) -> None:
    said = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    minute, hour = said + timedelta(minutes=1), said + timedelta(hours=1)
    assert await _marks(harness, (earlier, said), (correction, minute), hour, "s1") is marked


async def test_a_correction_after_a_message_made_a_fact_marks_the_fact(harness: Harness) -> None:
    """Found by an adversary: "remember the team meeting is on Tuesday at 10" (made a fact,
    its message the fact's history), then "no wait, Wednesday", marked the message before
    them ("rent for the garage is 150 now"), and the fact was recalled unmarked."""
    from agent.testing import Reply, call

    harness.model.add(
        "Noted.",
        Reply(
            tool_calls=[
                call(
                    "memory_store",
                    key="team_meeting",
                    content="The team meeting is on Tuesday at 10",
                )
            ]
        ),
        "Stored.",
        "Got it.",
    )
    await harness.turn("rent for the garage is 150 now")
    await harness.turn("remember the team meeting is on Tuesday at 10")
    await harness.turn("no wait, Wednesday")
    other = harness.sessions.new()
    events = await harness.turn("when is the team meeting? and the garage rent?", other)
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    fact = next(e for e in recalled.injected if e.key == "team_meeting")
    assert "no wait, Wednesday" in recalled.since_changed[fact.id]
    rent = next(e for e in recalled.injected if "garage" in e.content)
    assert rent.id not in recalled.since_changed


@pytest.mark.parametrize(
    "correction",
    ["sorry, 19th not 18th", "it's the 19th not the 18th", "no wait, the 19th"],
)
async def test_a_correction_after_a_remembered_fact_marks_the_fact(
    harness: Harness, correction: str
) -> None:
    """Found by an adversary: "/remember Jack's party is on the 18th", then "sorry, 19th not
    18th", left the fact recalled unmarked (the command is no saved message: the fact kept
    between the two is what it puts right)."""
    harness.model.add("Got it.", "Sure.")
    await harness.turn("/remember Jack's party is on the 18th")
    # A second adversary: a fact naming no day between is not what it puts right.
    await harness.turn("/remember my car is a blue Golf")
    await harness.turn(correction)
    events = await harness.turn("when is Jack's party?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    fact = next(e for e in recalled.injected if e.key.startswith("jack"))
    assert correction in recalled.since_changed[fact.id]


async def test_someone_gone_from_a_place_a_fact_lists_them_at_marks_it(
    harness: Harness,
) -> None:
    """Found by a new user, a carer: after "Tomasz has left bluebell, the new carer on
    tuesdays and thursdays is Precious …", the fact listing Tomasz among the agency's carers
    was shown as current."""
    carers = (
        "The carers from bluebell are Joy (mon/wed/fri) 07700 900123 and Tomasz on tuesdays "
        "and thursdays 07700 900456"
    )
    fact = await harness.memory.store("carers", carers, "core")
    harness.model.add("Noted.", "Precious.")
    await harness.turn(
        "Tomasz has left bluebell, the new carer on tuesdays and thursdays is Precious 07700 900789"
    )
    events = await harness.turn("who are the carers from bluebell?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert "Tomasz has left bluebell" in recalled.since_changed[fact.id]


@pytest.mark.parametrize(
    ("fact", "left", "ends"),
    [
        # An adversary: a place of more than one word; both facts stood unmarked.
        ("Sven is on the choir committee", "Sven left the choir committee", True),
        ("Book club members: Marta, Sven, Lucy", "Marta left the book club", True),
        ("Marta is in the book club", "Marta left the party early", False),
    ],
)
def test_someone_gone_from_a_place_of_several_words_ends_the_fact(
    fact: str, left: str, ends: bool
) -> None:
    assert ends_the_fact(left, fact) is ends


async def test_an_invoice_paid_by_its_number_replaces_the_fact_saying_it_was_not(
    harness: Harness,
) -> None:
    """Found by a new user, a freelancer: "Northwind paid invoice #101 today" left "invoice
    #101 … not paid yet" in effect and unmarked ("#101" was read as no reference), and
    "which invoices are still unpaid?" named it."""
    unpaid = "invoice #101 to Northwind Analytics for $2,400 is due 30/9, not paid yet"
    await harness.memory.store("northwind", unpaid, "core")
    await harness.memory.store("paid", "Northwind paid invoice #101 in full on 21/9", "core")
    in_effect = [entry.content for entry in await harness.memory.list(category="core")]
    assert in_effect == ["Northwind paid invoice #101 in full on 21/9"]
    assert pays_what_was_unpaid("Lakeshore paid invoice 102 today", "Invoice #102: unpaid")
    assert not pays_what_was_unpaid("Northwind paid invoice #102", unpaid)


async def test_a_pinned_messages_new_value_marks_it_and_is_kept_while_the_last_word(
    harness: Harness,
) -> None:
    """Found by a second adversary: a pinned "My gym locker is number 14 …" was recalled
    unmarked over "… my gym locker is now number 22", and hygiene deleted the correction at
    30 days, leaving the old number alone."""
    rows = [
        ("conversation/s1/a", "My gym locker is number 14 at the Holmes Place gym", 3),
        ("conversation/s2/a", "They moved me, my gym locker is now number 22", 10),
    ]
    old, new = [
        await harness.memory.write(
            NewMemory(
                key=key,
                content=text,
                category="conversation",
                session_id=key.split("/")[1],
                pinned=day == 3,
                created_at=datetime(2027, 5, day, tzinfo=UTC),
            )
        )
        for key, text, day in rows
    ]
    harness.model.add("22.")
    events = await harness.turn("what's my gym locker number?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert set(recalled.since_changed) == {old.id}
    report = await harness.memory.hygiene(now=datetime(2027, 8, 10, tzinfo=UTC))
    assert new.id not in {entry.id for entry, _ in report.removed}
    assert await harness.memory.get_by_id(new.id) is not None


async def test_a_pinned_message_is_still_marked_by_a_later_change(harness: Harness) -> None:
    """Found by a new user, a nurse in Madrid: her old home, brought back after hygiene had
    removed it (which pins it), was recalled unmarked over the move said after it."""
    from datetime import UTC, datetime

    from memory.write_rules import NewMemory

    march, april = datetime(2027, 3, 10, tzinfo=UTC), datetime(2027, 4, 20, tzinfo=UTC)
    old = await harness.memory.write(
        NewMemory(
            key="conversation/s1/a",
            content="I live at 12 Oak Street, Leeds",
            category="conversation",
            session_id="s1",
            pinned=True,
            created_at=march,
        )
    )
    await harness.memory.write(
        NewMemory(
            key="conversation/s2/a",
            content="We moved! Our new address is 4 Elm Road, York",
            category="conversation",
            session_id="s2",
            created_at=april,
        )
    )
    harness.model.add("York.")
    events = await harness.turn("where do I live?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert old.id in {e.id for e in recalled.injected}
    assert "4 Elm Road" in recalled.since_changed[old.id]


async def test_a_relatives_move_marks_where_the_fact_says_they_live(harness: Harness) -> None:
    """Found by an adversary: "My sister moved to Berlin" left "My sister lives in Lyon"
    given as current, and once the message was deleted, alone."""
    fact = await harness.memory.store("sister", "My sister lives in Lyon", "core")
    harness.model.add("Noted.", "Berlin.")
    await harness.turn("My sister moved to Berlin")
    assert (await harness.memory.get("sister")) == fact  # someone else's: marked, not replaced
    events = await harness.turn("where does my sister live?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert "moved to Berlin" in recalled.since_changed[fact.id]


async def test_a_diet_said_in_chat_updates_the_diet_fact(harness: Harness) -> None:
    """Found by a new user demoing memchat: "I eat fish now" left "I'm vegetarian" in
    effect and unmarked, and both were shown to the model."""
    await harness.memory.store("diet", "I'm vegetarian", "core")
    harness.model.add("Noted.")
    await harness.turn("I eat fish now")
    diet = await harness.memory.get("diet")
    assert diet is not None and diet.content == "I eat fish now"


async def _written_on(
    harness: Harness, year: int, month: int, rows: list[tuple[str, str, str, str | None, int]]
) -> list[MemoryEntry]:
    """Each (key, text, category, session, day) written on that day of `month`."""
    from memory.write_rules import NewMemory

    return [
        await harness.memory.write(
            NewMemory(
                key=key,
                content=text,
                category=category,
                session_id=session,
                created_at=datetime(year, month, day, tzinfo=UTC),
            )
        )
        for key, text, category, session, day in rows
    ]


async def test_a_deadline_pushed_twice_marks_the_deadline_and_the_first_move(
    harness: Harness,
) -> None:
    """Found by an adversary: "Mark pushed my deadline to 20/9", then "… again, to 30/9",
    left the 10/9 deadline unmarked: the first move was read as a second event, and a move
    naming not which of two events it moves marks neither."""
    rows = [
        ("deadline", "Report deadline for Acme: due on 10/9", "core", None, 1),
        ("conversation/s1/a", "Mark pushed my deadline to 20/9", "conversation", "s1", 2),
        ("conversation/s2/a", "Mark pushed my deadline again, to 30/9", "conversation", "s2", 3),
    ]
    written = await _written_on(harness, 2027, 9, rows)
    harness.model.add("The 30th.")
    events = await harness.turn("when is my deadline?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert set(recalled.since_changed) == {written[0].id, written[1].id}


async def test_a_move_of_one_of_two_events_of_one_weekday_marks_neither(
    harness: Harness,
) -> None:
    """Found by an adversary: "the dentist moved to Fri 21/1" marked both "Dentist on Fri
    14/1" and "Dentist on Fri 28/1": a change of value read "dentist" and "fri" as their
    subject, and a move names not which."""
    assert several_events(["Dentist on Fri 14/1 at 9am", "Dentist on Fri 28/1 at 9am"])
    rows = [
        ("a", "Dentist on Fri 14/1 at 9am", "core", None, 3),
        ("b", "Dentist on Fri 28/1 at 9am", "core", None, 3),
        ("conversation/s2/a", "the dentist moved to Fri 21/1", "conversation", "s2", 4),
    ]
    await _written_on(harness, 2028, 1, rows)
    harness.model.add("Which one?")
    events = await harness.turn("when is the dentist?", harness.sessions.new())
    recalled = next(e for e in events if isinstance(e, MemoryRecalled))
    assert len(recalled.injected) == 3 and recalled.since_changed == {}


def test_a_home_said_with_its_address_in_another_language_is_changed_by_the_next() -> None:
    """Found by a second adversary: "Vivo en calle Mayor 12, Madrid", then "Moro na Rua
    Augusta 100, Lisboa" and later homes: "where do I live?" showed each unmarked."""
    mayor = stated_values("Vivo en calle Mayor 12, Madrid")
    assert changed_topics(mayor, stated_values("Moro na Rua Augusta 100, Lisboa")) == ["home"]
    assert changed_topics(mayor, stated_values("Vivo en calle Mayor 12, Madrid")) == []
