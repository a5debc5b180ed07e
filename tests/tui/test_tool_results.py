"""Memory tool results as the chat shows them (`tui.widgets.tool_results`)."""

from __future__ import annotations

import json

from tui.widgets.tool_results import readable, summary


def test_a_store_that_replaced_other_keys_says_so() -> None:
    result = json.dumps(
        {
            "stored": {"key": "home_now", "content": "I moved to Lisbon", "category": "core"},
            "replaced_under_other_keys": [{"key": "home", "content": "I live in Porto"}],
        }
    )
    assert summary(result) == "stored as home_now, replacing 1 memory"
    shown = readable(result)
    assert shown is not None
    assert shown.plain.splitlines() == [
        "stored • I moved to Lisbon  home_now · core",
        "replaced, kept as history: • I live in Porto  home",
    ]


def test_a_forget_and_a_list_read_as_sentences() -> None:
    assert summary('{"removed": true, "key": "tea"}') == "forgot tea"
    forgot = readable('{"removed": true, "key": "tea"}')
    assert forgot is not None and forgot.plain == "forgot tea"
    back = json.dumps(
        {
            "removed": True,
            "key": "home_now",
            "earlier_versions": 2,
            "in_effect_again": [{"key": "home", "content": "I live in Porto", "category": "core"}],
        }
    )
    assert summary(back) == "forgot home_now and 2 earlier versions, bringing back 1 memory"
    shown = readable(back)
    assert shown is not None
    assert shown.plain.splitlines() == [
        "forgot home_now and 2 earlier versions",
        "what it had replaced, in effect again: • I live in Porto  home · core",
    ]
    changed = json.dumps({"stored": {"key": "email", "content": "b@y"}, "replaced": "a@x"})
    assert summary(changed) == "stored as email, replacing its earlier text"
    dropped = json.dumps(
        {
            "stored": {"key": "fiona", "content": "Fiona & Raj balance now fully paid"},
            "replaced": "Fiona & Raj wedding 14 Aug 2027 at Prestonfield, deposit £500 paid",
            "no_longer_said": ["14 Aug 2027", "Prestonfield", "£500"],
        }
    )
    assert summary(dropped) == (
        "stored as fiona, replacing its earlier text (no longer says 14 Aug 2027, "
        "Prestonfield, £500)"
    )
    beside = json.dumps(
        {
            "stored": {"key": "flat_rent_2", "content": "Flat 3 rent is €1,550"},
            "kept_beside": {"key": "flat_rent", "content": "Flat 2 rent is €1,700"},
        }
    )
    assert summary(beside) == "stored as flat_rent_2 beside flat_rent (another one)"
    plots = {"key": "declan", "content": "Declan Murphy has plot 12 now, …"}
    merged = json.dumps({"stored": plots, "merged_into": "declan", "replaced": "Declan … 14"})
    assert summary(merged) == "merged into declan (said alike), replacing its earlier text"
    held = json.dumps({"stored": plots, "merged_into": "declan", "already_said_by": "declan"})
    assert summary(held) == "already said by declan, kept as it was"
    listed = json.dumps({"entries": [{"key": "a", "content": "x"}, {"key": "b", "content": "y"}]})
    assert summary(listed) == "2 memories"


def test_a_result_of_another_shape_is_shown_as_it_came() -> None:
    for odd in ("not json", "[1, 2]", '{"results": [1]}', '{"stored": "yes"}', "{}"):
        assert readable(odd) is None
        assert summary(odd) == ""
