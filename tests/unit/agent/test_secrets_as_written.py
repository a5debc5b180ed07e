"""Secrets as people write them that were kept in clear (two adversaries and two new users,
a nurse in Sydney and a designer in Lisbon), and what is no secret beside them, kept.
"""

from __future__ import annotations

import pytest

from agent.redact import redact
from agent.unkept_secrets import _kinds_said


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        # The routing number first, then the account (the routing number alone went).
        ("rent goes to Chase 021000021 123456789012", "123456789012", "Chase 021000021"),
        ("Wells Fargo 121000248 9876543210", "9876543210", "121000248"),
        ("Chase: 021000021, 123456789012", "123456789012", "021000021"),
        # An Australian BSB and the account after it.
        ("Commonwealth Bank BSB 062-000 12345678", "12345678", "BSB 062-000"),
        ("CBA 062000 12345678", "12345678", "CBA 062000"),
        # Bank texts as banks word them.
        ("Vietcombank: Ma OTP cua Quy khach la 483920, hieu luc 5 phut.", "483920", "5 phut"),
        ("Mã xác thực của bạn là 551234", "551234", "Mã xác thực"),
        ("CommBank: Your NetCode is 771245. Never share this code.", "771245", "Never share"),
        ("MB Way code 483920 para pagar a renda", "483920", "para pagar a renda"),
        # Told of as given, in the user's words.
        ("the door code I was given is 4821", "4821", "I was given"),
        ("the door code I got is 4821", "4821", "I got"),
        ("the gate code we were given is 4821", "4821", "we were given"),
        ("the key safe code they sent over is 7734", "7734", "sent over"),
        ("door code from the host was 4821", "4821", "from the host"),
        # In quotes, as in brackets.
        ('the note on the door said "pin 4821"', "4821", 'said "pin '),
        ("'pin 4821'", "4821", "'pin "),
        ("`pin 4821`", "4821", "`pin "),
        # Persian and Arabic, as typed.
        ("شماره ملی من ۰۰۱۲۳۴۵۶۷۸", "۰۰۱۲۳۴۵۶۷۸", "شماره ملی من"),
        ("رمزم ۴۸۲۱ هست", "۴۸۲۱", "هست"),
        ("رمز ۴۸۲۱", "۴۸۲۱", "رمز"),
        ("رمز وای فای: Sara1990", "Sara1990", "وای فای"),
        ("بانک ملت: کد ۵۵۲۹۰۱ را به کسی ندهید", "۵۵۲۹۰۱", "را به کسی ندهید"),
        ("الرقم السرى ٤٨٢١", "٤٨٢١", "الرقم السرى"),
        ("باسوورد الواي فاي Sara1990", "Sara1990", "الواي فاي"),
        ("الرقم الوطني 2900101234567", "2900101234567", "الرقم الوطني"),
        ("بانک ملت ۱۲۳۴۵۶۷۸۹۰", "۱۲۳۴۵۶۷۸۹۰", "بانک ملت"),
        ("بنك مصر ١٢٣٤٥٦٧٨٩٠١٢", "١٢٣٤٥٦٧٨٩٠١٢", "بنك مصر"),
        ("کارت ملت ۶۱۰۴ ۳۳۷۸ ۱۲۳۴ ۵۶۷۸", "۳۳۷۸", "کارت ملت"),
        # A later adversary.
        ("شماره حساب من 1234567890", "1234567890", "شماره حساب من"),
        ("رقم الحساب 1234567890", "1234567890", "رقم الحساب"),
        ("رمز ورود من Tehran1400 است", "Tehran1400", "است"),
        ("کارت ملی من 0012345678", "0012345678", "کارت ملی"),
        ("the host gave me the code 4821", "4821", "gave me the code"),
        ("they gave me the code 4821 for the door", "4821", "for the door"),
    ],
)
def test_the_secret_goes_and_what_is_beside_it_stays(text: str, secret: str, kept: str) -> None:
    clean, kinds = redact(text)
    assert secret not in clean
    assert kept in clean
    assert kinds


@pytest.mark.parametrize(
    "text",
    [
        "the promo code I got is 4821",
        "the area code I got was 0161",
        "the tracking code I was given is 48213377",
        'the film "Apollo 13" is on at 8',
        "it's 4821 steps and Tom's 5000",
        "موجودی: ۱۲,۵۰۰,۰۰۰ ریال بانک ملت",
        "بانک ملت ۰۹۱۲۳۴۵۶۷۸۹",
        "کد پستی ۱۲۳۴۵۶۷۸۹۰",
        "کد تخفیف ۱۲۳۴ را به کسی ندهید",
        "the nab office is at 123 456 street",
        "they gave me the promo code 4821",
        "موجودی بانک ملت 2375421350 ریال",
        "رصيدي في بنك الراجحي 2375421350 ريال",
        "CBA 062000 12345678 is the Sydney branch phone",
    ],
)
def test_what_holds_no_such_secret_is_kept(text: str) -> None:
    assert redact(text) == (text, [])


def test_a_bank_account_is_named_as_one_where_the_chat_says_what_went() -> None:
    clean, _ = redact("rent goes to Chase 021000021 123456789012")
    assert _kinds_said(clean) == "a bank account's number"


@pytest.mark.parametrize(
    "text",
    ["they got 2000 likes on that post", "bank got 5000 complaints", "the code I got was wrong"],
)
def test_what_was_got_is_no_code_unless_a_code_is_named(text: str) -> None:
    assert redact(text) == (text, [])
