"""LoCoMo helpers: evidence ids, first-person questions, the user-side layout."""

from __future__ import annotations

from bench.locomo_modes import first_person, half_of, normalise_evidence, user_layout


def test_malformed_evidence_ids_are_normalised() -> None:
    assert normalise_evidence(["D1:3", "D10:", "D:5", "D2:4 D2:5", "D 3:1"]) == {
        "D1:3",
        "D2:4",
        "D2:5",
        "D3:1",
    }


def test_questions_turn_into_the_first_person() -> None:
    assert first_person("When did Caroline go to the LGBTQ group?", "Caroline") == (
        "When did I go to the LGBTQ group?"
    )
    assert first_person("What is Caroline's identity?", "Caroline") == "What is my identity?"
    assert first_person("What symbols are important to Caroline?", "Caroline") == (
        "What symbols are important to me?"
    )
    assert first_person("What does Caroline paint?", "Caroline") == "What do I paint?"
    assert first_person("What does Melanie paint?", "Caroline") == "What does Melanie paint?"


def test_halves() -> None:
    assert [half_of(n) for n in range(5)] == ["tuning"] * 3 + ["check"] * 2


def test_the_user_side_keeps_one_speaker_and_scores_their_evidence() -> None:
    sample: dict[str, object] = {
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a kitten called Miso."},
                {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely! What colour is Miso?"},
                {"speaker": "Ann", "dia_id": "D1:3", "text": "Grey."},
                {"speaker": "Ann", "dia_id": "D1:4", "text": "She is grey with white paws."},
            ],
        },
        "qa": [
            {"question": "What is Ann's kitten called?", "category": 4, "evidence": ["D1:1"]},
            {"question": "What colour is Miso?", "category": 4, "evidence": ["D1:2", "D1:4"]},
            {"question": "What did Bo ask?", "category": 4, "evidence": ["D1:2"]},
        ],
    }
    ann, bo = user_layout([sample]).namespaces()
    # "Grey." says something: saved, as the app saves it (only small talk is not).
    assert [item.dia for item in ann.items] == ["D1:1", "D1:3", "D1:4"]
    assert all(item.key.startswith("conversation/20230508-135600-") for item in ann.items)
    assert [(q.text, sorted(q.evidence), q.entire) for q in ann.questions] == [
        ("What is my kitten called?", ["D1:1"], True),
        ("What colour is Miso?", ["D1:4"], False),
    ]
    assert [q.text for q in bo.questions] == ["What colour is Miso?", "What did I ask?"]
