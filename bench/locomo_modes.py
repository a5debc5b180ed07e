"""What the LoCoMo benches store and ask, in two modes, split into two halves.

- both: every turn of both speakers, "Speaker: text" (plus a shared photo's caption), one
  store holding each conversation in its own namespace (the original bench's layout).
- user: what memchat's auto-save would hold for one speaker used as the app's user: only
  that speaker's messages, as typed (no name, no caption), messages under
  `agent.min_autosave_chars` skipped and secrets redacted as the app does, category
  conversation, one chat session per LoCoMo session, one store per user (both speakers of
  every conversation). The questions asked are those whose evidence lies in that speaker's
  turns, entirely or at least partly (scored against the evidence in that speaker's
  turns), phrased in the first person ("When did I ...", the speaker's name turned into
  "I"/"my"; `asked_as="third"` keeps the dataset's wording).

Conversations 0-2 are the tuning half, 3-4 the check half.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from agent.autosave import should_autosave
from agent.config import AgentSettings
from agent.redact import redact

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE = re.compile(r"D\d+:\d+")
Mode = Literal["both", "user"]
MODES: tuple[Mode, ...] = ("both", "user")
HALVES = ("tuning", "check")
TUNING_CONVERSATIONS = 3
"""Conversations 0..2 are the tuning half; the rest (3, 4) the check half."""


def normalise_evidence(raw: list[str]) -> set[str]:
    """Fix the dataset's malformed ids ("D10:", "D:5", several ids in one string)."""
    found: set[str] = set()
    for item in raw:
        found.update(_EVIDENCE.findall(item.replace(" ", "")))
    return found


def half_of(conversation: int) -> str:
    """The dev half a conversation belongs to."""
    return "tuning" if conversation < TUNING_CONVERSATIONS else "check"


@dataclass(frozen=True)
class Item:
    """One stored memory: its key, the dialogue turn it came from, and what is stored."""

    key: str
    dia: str
    content: str
    session_id: str
    created: datetime


@dataclass(frozen=True)
class Question:
    """One question asked of a namespace and the evidence turns (dia ids) it is scored on."""

    text: str
    category: int
    evidence: frozenset[str]
    entire: bool
    """All of the question's evidence is in this namespace's speaker's turns."""


@dataclass
class Namespace:
    """One user's memories (or one whole conversation's) and the questions asked of it."""

    name: str
    conversation: int
    speaker: str | None
    items: list[Item] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)

    @property
    def half(self) -> str:
        """The dev half of this namespace's conversation."""
        return half_of(self.conversation)

    def dia_of(self) -> dict[str, str]:
        """Key -> dia id."""
        return {item.key: item.dia for item in self.items}


@dataclass
class Layout:
    """The stores of one mode; each store (one SQLite file) holds one or more namespaces."""

    mode: Mode
    stores: list[list[Namespace]]

    def namespaces(self) -> list[Namespace]:
        """Every namespace, store by store."""
        return [ns for store in self.stores for ns in store]


@dataclass(frozen=True)
class Turn:
    """One dialogue turn as the dataset has it."""

    dia: str
    speaker: str
    text: str
    caption: str
    when: datetime
    session: str


def _chosen(
    samples: list[dict[str, object]], conversations: Sequence[int] | None
) -> list[tuple[int, dict[str, object]]]:
    """(number, sample) of the chosen conversations, numbered as in the whole file."""
    chosen = range(len(samples)) if conversations is None else sorted(set(conversations))
    return [(number, samples[number]) for number in chosen]


def dialogue(sample: dict[str, object]) -> list[Turn]:
    """Every turn of one conversation, in order."""
    conversation = sample["conversation"]
    assert isinstance(conversation, dict)
    out = []
    for name, session in conversation.items():
        if not (name.startswith("session_") and isinstance(session, list)):
            continue
        when = datetime.strptime(conversation[f"{name}_date_time"], "%I:%M %p on %d %B, %Y")
        for turn in session:
            caption = str(turn.get("blip_caption") or "")
            out.append(Turn(turn["dia_id"], turn["speaker"], turn["text"], caption, when, name))
    return out


def _qa(sample: dict[str, object]) -> list[tuple[int, str, set[str]]]:
    qa = sample["qa"]
    assert isinstance(qa, list)
    out = []
    for item in qa:
        evidence = normalise_evidence(item.get("evidence", []))
        if item["category"] in CATEGORIES and evidence:
            out.append((item["category"], item["question"], evidence))
    return out


def both_layout(
    samples: list[dict[str, object]], conversations: Sequence[int] | None = None
) -> Layout:
    """One store, one namespace per conversation, both speakers' turns (the original bench)."""
    store = []
    for number, sample in _chosen(samples, conversations):
        ns = Namespace(f"conv{number}", number, None)
        for turn in dialogue(sample):
            text = f"{turn.speaker}: {turn.text}"
            if turn.caption:
                text += f" [shares a photo: {turn.caption}]"
            ns.items.append(Item(turn.dia, turn.dia, text, turn.session, turn.when))
        ns.questions = [
            Question(text, category, frozenset(evidence), True)
            for category, text, evidence in _qa(sample)
        ]
        store.append(ns)
    return Layout("both", [store])


_OBJECT_WORDS = (
    "to for with about at from by of than like help helped tell told give gave make made "
    "inspire inspired motivate motivated surprise surprised encourage encouraged support "
    "supported remind reminded mean means meant"
)
_OBJECT = rf"\b({'|'.join(_OBJECT_WORDS.split())}) "
_AGREEMENT = {
    "does I": "do I",
    "has I": "have I",
    "is I": "am I",
    "Does I": "Do I",
    "Has I": "Have I",
    "Is I": "Am I",
}


def first_person(question: str, name: str) -> str:
    """The question as its speaker would ask it: "Caroline's" -> "my", "Caroline" -> "I".

    After a preposition or an object-taking verb the name becomes "me", and the verb
    before "I" agrees ("does I" -> "do I"): enough for LoCoMo's questions.
    """
    escaped = re.escape(name)
    text = re.sub(rf"\b{escaped}['’]s\b", "my", question)
    text = re.sub(rf"{_OBJECT}{escaped}\b", r"\1 me", text)
    text = re.sub(rf"\b{escaped}\b", "I", text)
    for wrong, right in _AGREEMENT.items():
        text = re.sub(rf"\b{wrong}\b", right, text)
    return text


def _hex(text: str, size: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:size]


def user_layout(
    samples: list[dict[str, object]],
    asked_as: Literal["first", "third"] = "first",
    conversations: Sequence[int] | None = None,
) -> Layout:
    """One store per speaker of every conversation, holding what auto-save would save."""
    min_chars = AgentSettings().min_autosave_chars
    stores = []
    for number, sample in _chosen(samples, conversations):
        turns = dialogue(sample)
        speaker_of = {turn.dia: turn.speaker for turn in turns}
        conversation = sample["conversation"]
        assert isinstance(conversation, dict)
        for speaker in (conversation["speaker_a"], conversation["speaker_b"]):
            ns = Namespace(f"conv{number}-{speaker.lower()}", number, speaker)
            for turn in turns:
                if turn.speaker != speaker or not should_autosave(turn.text, min_chars):
                    continue
                # memchat's session id and auto-save key formats, made deterministic.
                session_id = f"{turn.when:%Y%m%d-%H%M%S}-{_hex(ns.name + turn.session, 6)}"
                key = f"conversation/{session_id}/{_hex(ns.name + turn.dia, 12)}"
                content, _ = redact(turn.text)
                ns.items.append(Item(key, turn.dia, content, session_id, turn.when))
            for category, text, evidence in _qa(sample):
                mine = {dia for dia in evidence if speaker_of.get(dia) == speaker}
                if not mine:
                    continue
                asked = first_person(text, speaker) if asked_as == "first" else text
                ns.questions.append(
                    Question(asked, category, frozenset(mine), len(mine) == len(evidence))
                )
            stores.append([ns])
    return Layout("user", stores)


def layout(
    mode: Mode,
    samples: list[dict[str, object]],
    asked_as: Literal["first", "third"] = "first",
    conversations: Sequence[int] | None = None,
) -> Layout:
    """The layout of one mode, over the chosen conversations (default: all)."""
    if mode == "both":
        return both_layout(samples, conversations)
    return user_layout(samples, asked_as, conversations)


def parse_conversations(text: str | None) -> list[int] | None:
    """ "0,3" -> [0, 3]; None or "" -> None (all)."""
    return [int(part) for part in text.split(",")] if text else None
