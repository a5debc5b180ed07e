"""`memchat memory import`: encodings, errors that name the line and field, --namespace."""

from __future__ import annotations

import codecs
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from agent.cli.file_commands import _import_message
from memory.protocol import ImportSummary
from tests.unit.agent.cli_harness import record, run_cli, write_config, write_jsonl

RECORDS = [record("editor", "uses Helix"), record("pet", "a cat called Miso — 猫")]
TEXT = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS)

ENCODINGS = {
    "utf-8": TEXT.encode("utf-8"),
    "utf-8 with BOM": codecs.BOM_UTF8 + TEXT.encode("utf-8"),
    "utf-8 with BOM, CRLF": codecs.BOM_UTF8 + TEXT.replace("\n", "\r\n").encode("utf-8"),
    "utf-16 (BOM, little-endian)": TEXT.encode("utf-16"),
    "utf-16-be with BOM": codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
    "utf-32 (BOM)": TEXT.encode("utf-32"),
    "utf-32-be with BOM": codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"),
}


@pytest.fixture
def home(isolated_dirs: Path) -> Path:
    write_config()
    return isolated_dirs


def _keys() -> list[str]:
    ran = run_cli("memory", "list", "--namespace", "default", "--json").clean(0, 2)
    if ran.code == 2:
        assert "no memory store at" in ran.err, ran.err  # nothing was ever written
        return []
    listed = ran.out
    return sorted(json.loads(line)["key"] for line in listed.splitlines())


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_bom_encodings_are_read(home: Path, encoding: str) -> None:
    path = home / "in.jsonl"
    path.write_bytes(ENCODINGS[encoding])
    assert run_cli("memory", "import", str(path)).clean().out.startswith("imported 2 records")
    fetched = json.loads(run_cli("memory", "get", "pet").clean().out)
    assert fetched["content"] == "a cat called Miso — 猫"


BAD_BYTES = [
    # (file bytes, what the error must say)
    (
        TEXT.encode() + b'{"key": "caf\xe9"}\n',
        "import line 3: byte 0xe9 at offset",
    ),
    (TEXT.encode("utf-16-le"), "import line 1: byte 0x00 at offset 1 of the file"),
    (codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le")[:-1], "is not valid UTF-16 (truncated data)"),
    (codecs.BOM_UTF8 + b"\xff\xfe", "import line 1: byte 0xff at offset 3 of the file"),
]


@pytest.mark.parametrize(("data", "message"), BAD_BYTES)
def test_undecodable_files_name_line_and_byte(home: Path, data: bytes, message: str) -> None:
    path = home / "bad.jsonl"
    path.write_bytes(data)
    ran = run_cli("memory", "import", str(path)).clean(2)
    assert message in ran.err and "memchat reads UTF-8" in ran.err
    assert ran.err.count("\n") == 1
    assert _keys() == []


def _line(**changes: object) -> str:
    data = record("k", "v")
    data.update(changes)
    return json.dumps({k: v for k, v in data.items() if v is not None})


FIELD_ERRORS = [
    (
        _line(timestamp="last tuesday"),
        "import line 4, field 'timestamp': expected an ISO 8601 date-time "
        "(like 2026-01-31T09:30:00Z), got 'last tuesday'",
    ),
    (_line(key=None), "import line 4, field 'key': missing; every record needs it"),
    (_line(colour="red"), "import line 4, field 'colour': is not a field of a memchat export"),
    (_line(importance=5), "import line 4, field 'importance': expected less than or equal to 1"),
    (_line(pinned="maybe"), "import line 4, field 'pinned': expected true or false, got 'maybe'"),
    # Found by an adversary: lax parsing took these for a pin, and no text for a memory.
    (_line(pinned="yes"), "import line 4, field 'pinned': expected true or false, got 'yes'"),
    (_line(pinned=0), "import line 4, field 'pinned': expected true or false, got 0"),
    (_line(content=" \n "), "import line 4, field 'content': empty; a memory needs some text"),
    (_line(content="\u200b\ufeff"), "import line 4, field 'content': empty; a memory needs"),
    (_line(content="\u0000"), "import line 4, field 'content': empty; a memory needs some"),
    (_line(content="\u3164\u2800\u0300"), "import line 4, field 'content': empty; a memory"),
    (_line(importance=True), "import line 4, field 'importance': expected a number from 0 to 1"),
    (_line(importance="0.5"), "import line 4, field 'importance': expected a number from 0"),
    (
        _line()[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "import line 4: not valid JSON",
    ),
    (
        _line()[:-1] + ', "content": "second"}',
        "import line 4, field 'content': given twice in one record; which value is meant",
    ),
    (
        _line(embedding={"model": "m", "dims": 1, "dims ": 2}).replace('"dims ": 2', '"dims": 2'),
        "import line 4, field 'dims': given twice in one record",
    ),
    (_line(category=""), "import line 4, field 'category': category must not be empty, got ''"),
    (
        _line(embedding={"model": "m", "dims": "x", "data": ""}),
        "import line 4, field 'embedding.dims': expected a valid integer",
    ),
    ("[1, 2]", "import line 4: expected a JSON object (one memory per line), got [1, 2]"),
    # Found by an adversary: a record dated 9999 led every list and never expired.
    (
        _line(timestamp="9999-12-31T23:59:59Z"),
        "timestamp 9999-12-31T23:59:59+00:00 is in the future",
    ),
    ('{"key": "unclosed', "import line 4: not valid JSON (EOF while parsing a string"),
    # Found by an adversary: the JSON reader called half an emoji "end of hex escape".
    (
        _line(content="smile \ud83d please"),
        "import line 4: \\ud83d is half of a character (a lone UTF-16 surrogate)",
    ),
    (
        _line(key="k\udc00"),
        "import line 4: \\udc00 is half of a character",
    ),
]


@pytest.mark.parametrize(("line", "message"), FIELD_ERRORS)
def test_record_errors_name_line_field_and_expectation(home: Path, line: str, message: str) -> None:
    path = home / "bad.jsonl"
    # Two good records, a blank line, then the bad one on line 4, then more good ones.
    path.write_text(TEXT + "\n" + line + "\n" + TEXT, encoding="utf-8")
    ran = run_cli("memory", "import", str(path)).clean(2)
    assert message in ran.err, ran.err
    assert ran.err.count("\n") == 1
    assert _keys() == [], "nothing is written unless the whole file parses"


def test_several_problems_on_a_line_are_named_then_counted(home: Path) -> None:
    path = home / "bad.jsonl"
    path.write_text('{"id": 1}\n', encoding="utf-8")
    err = run_cli("memory", "import", str(path)).clean(2).err
    assert err == (
        "memchat: error: import line 1, field 'id': expected a valid string, got 1; "
        "field 'key': missing; every record needs it; field 'content': missing; every "
        "record needs it; and 2 more on line 1\n"
    )


def test_every_bad_line_is_named_and_nothing_is_written(home: Path) -> None:
    # Found by a new user: only the first bad line was named, so fixing a file took a run
    # per mistake.
    path = home / "bad.jsonl"
    bad = [TEXT.splitlines()[0], "not json", '{"id": 1}', *[f'"line {n}"' for n in range(8)]]
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    err = run_cli("memory", "import", str(path)).clean(2).err
    assert err.startswith("memchat: error: import line 2: not valid JSON")
    assert "; also line 3, field 'id': expected a valid string, got 1;" in err
    assert "line 4: expected a JSON object (one memory per line), got 'line 0'" in err
    assert err.endswith("; and 5 more bad lines\n") and err.count("\n") == 1
    assert _keys() == []


def test_a_memory_too_long_to_be_one_is_named_and_nothing_is_written(home: Path) -> None:
    """Found by an adversary: one record of 200 MB took a minute and 4 GB to import, and
    the app then took a minute for each message."""
    path = home / "huge.jsonl"
    huge = "lorem ipsum " * 90_000  # 1,080,000 characters
    path.write_text(
        _line(content=huge) + "\n" + '{"key": "x", "content": "' + "a" * 12_100_001 + '"}\n',
        encoding="utf-8",
    )
    err = run_cli("memory", "import", str(path)).clean(2).err
    assert "import line 1, field 'content': 1,080,000 characters; a memory holds at most" in err
    assert "also line 2, field 'content': the record is 12,100,028 characters long;" in err
    assert _keys() == []
    # Within the limit, however the file escapes it (a second adversary: 999,999 emoji
    # written by json.dumps were refused), and quickly: a run of 999,999 letters with no
    # space took about an hour (each letter was a start for the umlaut rule).
    path.write_text(
        "\n".join(
            _line(key=f"k{n}", id=f"big-{n}", content=text)
            for n, text in enumerate(["\U0001f600" * 999_999, "é" * 999_999, "lorem " * 150_000])
        )
        + "\n",
        encoding="utf-8",
    )
    run_cli("memory", "import", str(path)).clean()
    assert len(_keys()) == 3


@pytest.mark.parametrize("field", ["key", "namespace", "id"])
def test_a_key_namespace_or_id_of_only_invisible_characters_is_refused(
    home: Path, field: str
) -> None:
    """Found by an adversary: `store --key` refuses such a key, import took it."""
    path = home / "bad.jsonl"
    path.write_text(_line(**{field: "\u200b\u200b"}) + "\n", encoding="utf-8")
    err = run_cli("memory", "import", str(path)).clean(2).err
    assert f"import line 1, field '{field}': no visible character in it" in err
    assert _keys() == []


def test_hostile_values_in_errors_are_escaped(home: Path) -> None:
    path = home / "bad.jsonl"
    path.write_text(_line(timestamp="\x1b[2J\u202e") + "\n", encoding="utf-8")
    err = run_cli("memory", "import", str(path)).clean(2).err
    assert "got '\\x1b[2J\\u202e'" in err


def test_import_into_a_namespace(home: Path) -> None:
    path = write_jsonl(home / "in.jsonl", [*RECORDS, record("elsewhere", "x", namespace="work")])
    run_cli("memory", "import", "--namespace", "project", str(path)).clean()
    listed = run_cli("memory", "list", "--namespace", "project", "--json").clean().out
    assert sorted(json.loads(line)["key"] for line in listed.splitlines()) == [
        "editor",
        "elsewhere",
        "pet",
    ]
    assert _keys() == []
    assert run_cli("memory", "list", "--namespace", "work").clean().out == (
        "no memories (namespace 'work' holds none; the store has 'project' (3))\n"
    )


def test_a_record_replaced_by_nothing_is_pointed_out(home: Path) -> None:
    """Found by an adversary: a line deleted from an export left the version before it
    superseded by nothing, imported without a word and never recalled."""
    path = write_jsonl(
        home / "in.jsonl",
        [
            record("dentist", "Dentist on Thursday", superseded_by="id-gone"),
            record("pet", "The cat is Miso", id="a", superseded_by="b"),
            record("pet", "The cat is Tofu", id="b"),
        ],
    )
    out = run_cli("memory", "import", str(path)).clean().out
    assert "note: 1 record is marked as replaced (superseded_by) by an entry this store" in out


def test_import_without_namespace_keeps_each_records_own(home: Path) -> None:
    path = write_jsonl(home / "in.jsonl", [*RECORDS, record("elsewhere", "x", namespace="work")])
    ran = run_cli("memory", "import", str(path)).clean()
    summary, note = ran.out.splitlines()
    assert summary == "imported 3 records: 3 new"
    # Records without vectors are found by keyword only until reindexed: said, not silent.
    assert note == (
        "note: 3 imported memories have no vector from the hashing embedder (64 dimensions): "
        "recall finds them by keyword only. Run `memchat memory reindex` to embed them."
    )
    # Importing the same records again adds nothing without a vector: no note.
    again = run_cli("memory", "import", str(path)).clean().out
    assert "note:" not in again
    assert _keys() == ["editor", "pet"]
    assert "elsewhere" in run_cli("memory", "list", "--namespace", "work").clean().out


def test_a_device_is_not_read(home: Path) -> None:
    ran = run_cli("memory", "import", "/dev/zero").clean(2)
    assert ran.err == "memchat: error: cannot read /dev/zero: it is a device, not an export file\n"


def test_the_same_file_into_two_namespaces_keeps_both(home: Path) -> None:
    path = write_jsonl(home / "in.jsonl", RECORDS)
    run_cli("memory", "import", "--namespace", "one", str(path)).clean()
    second = run_cli("memory", "import", "--namespace", "two", str(path)).clean().out
    assert "2 new" in second and "2 given a new id" in second
    for namespace in ("one", "two"):
        listed = run_cli("memory", "list", "--namespace", namespace, "--json").clean().out
        assert _keys_of(listed) == ["editor", "pet"]


def _keys_of(listed: str) -> list[str]:
    return sorted(json.loads(line)["key"] for line in listed.splitlines())


def test_the_import_summary_names_only_what_happened_with_grouped_counts() -> None:
    summary = ImportSummary(added=3_000, replaced=2, kept_as_history=2)
    assert _import_message(summary) == (
        "imported 3,002 records: 3,000 new; 2 replacing a stored entry (same id or key); "
        "2 earlier versions kept as history (restorable)"
    )
    assert _import_message(ImportSummary()) == "imported 0 records"


def test_an_import_says_which_memories_the_next_hygiene_removes_for_their_age(
    home: Path,
) -> None:
    now = datetime.now(UTC)
    old = (now - timedelta(days=60)).isoformat()
    recent = (now - timedelta(days=2)).isoformat()
    records = [
        record("chat-1", "we talked about tea", category="conversation", updated_at=old),
        record("chat-2", "and about Lisbon", category="conversation", updated_at=old),
        record("chat-3", "pinned, so kept", category="conversation", updated_at=old, pinned=True),
        record("chat-4", "recent enough", category="conversation", updated_at=recent),
        record("fact", "core facts are kept forever by default", updated_at=old),
        # Kept until its day (a translator: the note counted it, hygiene kept it).
        record("chat-5", "Tula has the vet on 15/1/2049", category="conversation", updated_at=old),
    ]
    out = run_cli("memory", "import", str(write_jsonl(home / "in.jsonl", records))).clean().out
    note = out.splitlines()[-1]
    assert note.startswith("note: 2 memories in this import are older than")
    assert "(conversation: 30 days)" in note
    assert "memory.retention_days.conversation = 0" in note
    # What it says is what hygiene does.
    listed = run_cli("memory", "hygiene", "--dry-run").clean().out
    assert "chat-1" in listed and "chat-2" in listed
    assert not any(key in listed for key in ("chat-3", "chat-4", "chat-5", "fact"))
    # Imported again into another namespace, the note counts that import's own (an
    # adversary saw the first import's two counted with them).
    again = run_cli("memory", "import", "--namespace", "work", str(home / "in.jsonl")).clean().out
    assert again.splitlines()[-1].startswith("note: 2 memories in this import are older than")


def test_an_import_within_retention_says_nothing_about_it(home: Path) -> None:
    out = run_cli("memory", "import", str(write_jsonl(home / "in.jsonl", RECORDS))).clean().out
    assert "retention" not in out


def test_the_retention_note_names_every_setting_that_keeps_them(home: Path) -> None:
    write_config("[memory.retention_days]\ncore = 1\ndaily = 2\n")
    old = (datetime.now(UTC) - timedelta(days=60)).isoformat()
    records = [record("fact", "a fact", updated_at=old)]
    one = run_cli("memory", "import", str(write_jsonl(home / "one.jsonl", records))).clean()
    note = one.out.splitlines()[-1]
    assert "1 memory in this import is older than" in note and "(core: 1 day)" in note
    records.append(record("day", "a day", category="daily", updated_at=old))
    two = run_cli("memory", "import", str(write_jsonl(home / "two.jsonl", records))).clean()
    assert "set memory.retention_days.core = 0 and memory.retention_days.daily = 0" in two.out


def test_an_import_says_which_forgotten_memories_it_brings_back(home: Path) -> None:
    """Found by a new user: an older export brought back what had been forgotten, silently."""
    backup = home / "backup.jsonl"
    run_cli("memory", "store", "--key", "pet", "My cat is called Miso").clean()
    run_cli("memory", "store", "--key", "tea", "I like green tea").clean()
    run_cli("memory", "export", str(backup)).clean()
    run_cli("memory", "forget", "pet", "--yes").clean()
    ran = run_cli("memory", "import", str(backup)).clean()
    assert (
        "note: 1 memory you had forgotten is back from the file ('pet'); "
        "`memchat memory forget KEY` forgets it again"
    ) in ran.out
    again = run_cli("memory", "import", str(backup)).clean()
    assert "forgotten" not in again.out  # in the store now: nothing comes back


def test_store_refuses_text_of_invisible_characters_only(home: Path) -> None:
    """Found by an adversary: a zero-width space was stored as a memory nobody can see."""
    ran = run_cli("memory", "store", "\u200b\u200b").clean(2)
    assert "must not be empty (or only invisible characters)" in ran.err


def test_a_refused_import_leaves_no_store_behind(home: Path) -> None:
    """Found by a new user: a file refused for a future time left an empty brain.db."""
    path = home / "future.jsonl"
    path.write_text(_line(timestamp="9999-12-31T23:59:59Z") + "\n", encoding="utf-8")
    ran = run_cli("memory", "import", str(path)).clean(2)
    assert "is in the future" in ran.err
    assert not [p.name for p in home.rglob("brain.db*")]


def test_an_import_into_a_new_namespace_says_so(home: Path) -> None:
    """Found by an adversary: `import --namespace defualt` made a namespace unsaid."""
    path = write_jsonl(home / "in.jsonl", RECORDS)
    run_cli("memory", "import", str(path)).clean()
    said = run_cli("memory", "import", "--namespace", "defualt", str(path)).clean().out
    assert "note: namespace 'defualt' is new: this store's others are default" in said
    again = run_cli("memory", "import", "--namespace", "defualt", str(path)).clean().out
    assert "is new" not in again


def test_a_saved_messages_secrets_are_redacted_on_import(home: Path) -> None:
    """Found by an adversary: a saved message holding a password and a PPS number was
    imported as it was, and shown to the model beside later questions. A fact keeps what it
    was asked to keep."""
    message = "my password is hunter2Secret and PPS 1234567TA"
    path = write_jsonl(
        home / "in.jsonl",
        [
            record("conversation/s1/1", message, category="conversation", session_id="s1"),
            record("wifi", "The wifi password is Kiwi-Banana-42"),
        ],
    )
    out = run_cli("memory", "import", str(path)).clean().out
    assert "1 saved message held a secret" in out
    listed = run_cli("memory", "list", "--all", "--json").clean().out
    contents = [json.loads(line)["content"] for line in listed.splitlines()]
    assert "hunter2Secret" not in listed and "1234567TA" not in listed
    assert any(text.startswith("my password is [REDACTED:") for text in contents)
    assert "The wifi password is Kiwi-Banana-42" in contents


def test_a_value_sent_after_its_label_is_redacted_on_import(home: Path) -> None:
    """Found by a second adversary: "Il PIN della carta è", then "4821", imported as two
    saved messages of one chat, kept the PIN, where the chat had redacted it."""
    said = [
        ("Il PIN della carta è", "2026-01-01T10:00:00Z"),
        ("4821", "2026-01-01T10:00:10Z"),
        ("the shop opens at 9", "2026-01-01T10:00:20Z"),
    ]
    path = write_jsonl(
        home / "in.jsonl",
        [
            record(
                f"conversation/s1/{n}",
                text,
                category="conversation",
                session_id="s1",
                timestamp=at,
                updated_at=at,
            )
            for n, (text, at) in enumerate(said)
        ],
    )
    out = run_cli("memory", "import", str(path)).clean().out
    assert "1 saved message held a secret" in out
    listed = run_cli("memory", "list", "--all", "--json").clean().out
    contents = {json.loads(line)["content"] for line in listed.splitlines()}
    assert contents == {"Il PIN della carta è", "[REDACTED:code]", "the shop opens at 9"}


def test_a_new_category_is_said_with_the_one_meant(home: Path) -> None:
    """Found by a new user: a hand-edited import's "cor" (for core) made a category of its
    own, unsaid, and its memory escaped core's budget and retention."""
    path = write_jsonl(home / "in.jsonl", [*RECORDS, record("standup", "at 9:30", category="cor")])
    said = run_cli("memory", "import", str(path)).clean().out
    assert "note: category 'cor' is new, a custom one" in said
    assert "did you mean 'core'?" in said
    assert "'core' is new" not in said
    again = run_cli("memory", "import", str(path)).clean().out
    assert "is new" not in again
    stored = run_cli("memory", "store", "oat milk", "--category", "shoping").clean()
    assert "category 'shoping' is new" in stored.err
    assert "category" not in run_cli("memory", "store", "rye bread", "--category", "cor").err
    # As it is stored, a built-in one in any case is no new one (a later adversary).
    for written in ("CORE", "core "):
        assert "is new" not in run_cli("memory", "store", "spelt", "--category", written).err
