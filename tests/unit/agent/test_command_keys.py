"""Keys made from what a person wrote keep its words readable (found by a new user)."""

from __future__ import annotations

import re

from agent.commands import key_for, key_words


def test_a_remembered_note_keeps_its_words_without_their_marks() -> None:
    key = key_for("call the plumber Jürgen at 14:30 on Thursday")
    assert re.fullmatch(r"call_the_plumber_jurgen_at_[0-9a-f]{6}", key)


def test_words_of_any_script_stay_in_the_key() -> None:
    assert key_words("Привет, мир! 咖啡", 5) == ["привет", "мир", "咖啡"]
    # Vowel signs are marks, not letters: "मेरा वाईफाई" was keyed "म_र_व_ईफ_ई" (an adversary).
    assert key_words("मेरा वाईफाई पासवर्ड है। ठीक", 5) == ["मेरा", "वाईफाई", "पासवर्ड", "है", "ठीक"]
    assert key_words("ร้านกาแฟ ที่ชอบ", 5) == ["ร้านกาแฟ", "ที่ชอบ"]
    assert re.fullmatch(r"note_[0-9a-f]{6}", key_for("!!! ???"))


def test_a_very_long_word_is_cut_short_in_the_key() -> None:
    assert len(key_for("x" * 5_000)) < 40


def test_a_secret_never_becomes_part_of_a_key() -> None:
    """Found by a new user: `/remember my password is hunter2 …` was stored under
    my_password_is_hunter2_…, shown in every list, chat line and recall."""
    key = key_for("my password is hunter2 and api key sk-abc123def456ghi789jkl012mno345")
    assert key.startswith("my_password_is_and_api_") and "hunter2" not in key


def test_no_code_nor_the_mark_of_one_becomes_part_of_a_key() -> None:
    """Found by an adversary: a bike lock's code (kept in the text) and a code in words
    left parts of them in the key, shown to the model beside the redacted text."""
    assert key_for("bike lock combination is 3-9-1-7").startswith("bike_lock_combination_is_")
    assert "3" not in key_for("bike lock combination is 3-9-1-7")[:-7]
    assert key_for("Villa PIN four four seven one").startswith("villa_pin_")
    assert "four" not in key_for("Villa PIN four four seven one")
    assert "redacted" not in key_for("Boat padlock code 4B 719")


def test_a_code_or_a_word_of_letters_and_digits_is_no_part_of_a_key() -> None:
    """Found by an adversary: "Gate code 4471" was stored as gate_code_4471_…, shown in
    every list, though "My PIN is 4821" was redacted."""
    assert key_for("Gate code 4471").startswith("gate_code_")
    assert "4471" not in key_for("Gate code 4471")
    assert "8812" not in key_for("The wifi code is 8812-3345")
    assert "tr0ub4dor" not in key_for("pass Tr0ub4dor")
    assert key_for("Meeting at 10 AM").startswith("meeting_at_10_am_")


def test_a_number_that_names_an_invoice_or_an_order_stays_in_its_key() -> None:
    """Found by a new user: three invoices were keyed "invoice_paid_…" and
    "invoice_to_muller_gmbh_1_…", so /forget had no number to go by."""
    assert key_for("Invoice 2026-115 paid").startswith("invoice_2026_115_paid_")
    assert key_for("Order 4471 shipped").startswith("order_4471_shipped_")
    assert "4471" not in key_for("Gate code 4471 for order")
    assert "tr0ub4dor" not in key_for("ticket Tr0ub4dor")


def test_a_sum_in_groups_is_no_smaller_number_in_the_key() -> None:
    """Found by a new user, a student: "₹45,000" made "mess_fee_is_45_…", read as ₹45."""
    assert re.fullmatch(
        r"mess_fee_is_per_semester_[0-9a-f]{6}", key_for("mess fee is ₹45,000 per semester")
    )
    assert re.fullmatch(r"rent_monthly_[0-9a-f]{6}", key_for("rent 1.200 € monthly"))
