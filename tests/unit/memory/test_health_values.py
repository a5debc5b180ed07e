"""Allergies and doses the user states, by topic (memory.health_values)."""

from __future__ import annotations

import pytest

from memory.health_values import health_changed, health_values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("I'm allergic to penicillin", {"allergic to penicillin": {"yes"}}),
        ("Turns out I'm not allergic to penicillin after all", {"allergic to penicillin": {"no"}}),
        (
            "I am allergic to peanuts, shellfish and latex.",
            {
                "allergic to peanut": {"yes"},
                "allergic to shellfish": {"yes"},
                "allergic to latex": {"yes"},
            },
        ),
        ("The user is no longer allergic to cats", {"allergic to cat": {"no"}}),
        ("I have a peanut allergy", {"allergic to peanut": {"yes"}}),
        ("I don't have a peanut allergy anymore", {"allergic to peanut": {"no"}}),
        ("I take 10mg of lisinopril daily", {"dose of lisinopril": {"10mg"}}),
        ("I'm on 20 mg lisinopril", {"dose of lisinopril": {"20mg"}}),
        ("I take lisinopril, 10 mg", {"dose of lisinopril": {"10mg"}}),
        ("My lisinopril dose went up to 20mg", {"dose of lisinopril": {"20mg"}}),
        ("my dose of levothyroxine is now 50 mcg", {"dose of levothyroxin": {"50mcg"}}),
        ("The user's insulin dose is 12 units", {"dose of insulin": {"12unit"}}),
        ("my medication is sertraline 10mg daily", {"dose of sertralin": {"10mg"}}),
        ("my meds are now 20mg of sertraline", {"dose of sertralin": {"20mg"}}),
        # Of a parent, by whichever word: one dose (a new user, a parent in Nairobi).
        ("My mother takes Amlodipine 5mg once daily", {"mum's dose of amlodipin": {"5mg"}}),
        ("mum's amlodipine dose went up to 10mg daily", {"mum's dose of amlodipin": {"10mg"}}),
        ("my father takes metformin 500mg", {"dad's dose of metformin": {"500mg"}}),
        ("mom's amlodipine was reduced to 2.5mg", {"mum's dose of amlodipin": {"2.5mg"}}),
        ("mum's amlodipine changed to 10mg", {"mum's dose of amlodipin": {"10mg"}}),
        ("Mother Teresa takes 5mg of it", {}),
        # A name or a parent in letters beyond ASCII (a new user, a nurse in Melbourne).
        ("Mẹ takes metformin 500mg twice a day", {"mum's dose of metformin": {"500mg"}}),
        ("Jürgen takes ramipril 5mg", {"jurgen's dose of ramipril": {"5mg"}}),
        ("Łukasz's metformin is now 1000mg", {"lukasz's dose of metformin": {"1000mg"}}),
        ("Mẹ is allergic to penicillin", {"mum's allergy to penicillin": {"yes"}}),
        ("Ángela has a penicillin allergy", {"angela's allergy to penicillin": {"yes"}}),
        # Not the user's, no dose, not a statement of one.
        ("My mother is allergic to cats", {}),
        ("Is he allergic to penicillin?", {}),
        ("I take 2 pills a day", {}),
        ("I take the 10 mg bus", {}),
    ],
)
def test_what_each_wording_states(text: str, values: dict[str, set[str]]) -> None:
    assert {topic: set(value) for topic, value in health_values(text).items()} == values


def test_only_another_value_of_all_the_old_one_says_is_a_change() -> None:
    assert health_changed("I'm not allergic to penicillin", "I'm allergic to penicillin")
    assert health_changed("My lisinopril dose is 20mg", "I take 10mg of lisinopril")
    assert not health_changed("I take 10mg of lisinopril", "I take 10 mg lisinopril")
    assert not health_changed("I take 500mg of metformin", "I take 10mg of lisinopril")
    assert health_changed("mum's amlodipine dose went up to 10mg", "My mother takes Amlodipine 5mg")
    # Replacing it would lose the shellfish.
    assert not health_changed(
        "I'm not allergic to peanuts", "I'm allergic to peanuts and shellfish"
    )
    assert not health_changed("I'm allergic to penicillin", "the weather is fine")


def test_a_parent_named_in_vietnamese_is_not_the_user() -> None:
    """Found by an adversary: "I'm not allergic to penicillin after all" replaced "Mẹ is
    allergic to penicillin" ("Mẹ" read as "me"), and the reverse."""
    from memory.fact_values import new_value

    mum = "Mẹ is allergic to penicillin"
    assert not new_value("I'm not allergic to penicillin after all", mum)
    assert not new_value("Mẹ is not allergic to penicillin after all", "I'm allergic to penicillin")
    assert new_value("Mẹ is not allergic to penicillin after all", mum)
