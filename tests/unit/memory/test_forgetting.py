"""The plan a forget follows on every backend (`memory.forgetting`)."""

from __future__ import annotations

from memory.forgetting import Link, plan_rehoming, revived_ids, split_history


def _link(
    entry_id: str, key: str, successor: str | None, when: str, category: str = "core"
) -> Link:
    return Link(entry_id, "default", key, category, successor, when)


def test_the_versions_and_the_messages_they_replaced_go_the_facts_stay() -> None:
    history = [
        _link("k1", "lang", "k2", "1"),
        _link("k2", "lang", None, "2"),
        _link("m1", "conversation/s/1", "k2", "1", "conversation"),
        _link("m0", "conversation/s/0", "m1", "0", "conversation"),  # an edited message
        _link("p1", "pref", "k1", "0"),
        _link("p0", "pref_old", "p1", "0"),  # history of a kept fact: left alone
    ]
    gone, kept = split_history(history, "default", "lang")
    assert sorted(link.id for link in gone) == ["k1", "k2", "m0", "m1"]
    assert [link.id for link in kept] == ["p1"]


def test_a_version_another_keys_fact_replaced_stays_as_that_facts_history() -> None:
    """Found by a new user: "I live in Porto" (key `home`), replaced by "I moved to
    Lisbon", went when a wrong "I live in Paris" stored under `home` again was forgotten."""
    history = [
        _link("porto", "home", "lisbon", "1"),
        _link("porto0", "home", "porto", "0"),  # Porto's own earlier wording stays with it
        _link("lisbon", "moved", "paris", "2"),
        _link("paris", "home", None, "3"),
    ]
    gone, kept = split_history(history, "default", "home")
    assert [link.id for link in gone] == ["paris"]
    assert [link.id for link in kept] == ["lisbon"]
    plan = plan_rehoming({"paris"}, kept, {})
    assert revived_ids(plan) == ["lisbon"]


def test_the_newest_replaced_version_comes_back_when_its_key_is_free() -> None:
    replaced = [_link("a1", "home", "x", "1"), _link("a2", "home", "x", "2")]
    plan = plan_rehoming({"x"}, replaced, {})
    assert revived_ids(plan) == ["a2"]
    assert [(step.link.id, step.successor) for step in plan] == [("a2", None), ("a1", "a2")]


def test_a_replaced_version_whose_key_is_held_becomes_the_holders_history() -> None:
    plan = plan_rehoming({"x"}, [_link("a1", "home", "x", "1")], {("default", "home"): "h"})
    assert revived_ids(plan) == []
    assert [(step.link.id, step.successor) for step in plan] == [("a1", "h")]
