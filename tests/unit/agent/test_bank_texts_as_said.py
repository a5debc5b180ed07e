"""Bank texts, account numbers, ID numbers and keypad codes as people write them, found kept
in clear by an adversary and a new user; and what is no secret beside them, kept.
"""

from __future__ import annotations

import pytest

from agent.redact import redact


@pytest.mark.parametrize(
    ("text", "secret", "kept"),
    [
        # One-time codes: an aside between commas, a code told of, other languages.
        ("Your HDFC Bank OTP, valid for 5 mins, is 482910", "482910", "valid for 5 mins"),
        ("OTP for txn at AMAZON, INR 5,000.00, is 482910", "482910", "INR 5,000.00"),
        ("use 7731 as your code", "7731", "as your code"),
        ("Use code 918273 to sign in to your Microsoft account", "918273", "Microsoft"),
        ("您的验证码是482910，5分钟内有效", "482910", "5分钟内有效"),
        ("your otp is four eight two nine one zero", "four eight two", "your otp"),
        ("the code they texted me was 482910", "482910", "texted"),
        ("bank just texted 482910 whats that for", "482910", "whats that for"),
        ("Doğrulama kodunuz: 482910", "482910", "Doğrulama"),
        # A new user, a pharmacist in Cairo: his bank's activation code, in Arabic.
        ("كود التفعيل الخاص بك هو 482913 لا تشاركه مع أي شخص. بنك مصر", "482913", "بنك مصر"),
        ("رمز التحقق: ٤٨٢٩١٣", "٤٨٢٩١٣", "رمز التحقق"),
        # Bank accounts with no account's word, or another word for it.
        ("mi CLABE interbancaria: 0021 8070 0123 4567 89", "0123 4567", "interbancaria"),
        ("Sort code 20-32-06, 73019264", "73019264", "20-32-06"),
        ("Bank details: Barclays 20-32-06 73019264", "73019264", "Barclays 20-32-06"),
        ("pay rent to J Smith 20-32-06 73019264", "73019264", "J Smith"),
        ("Chase checking 483920175 routing 021000021", "483920175", "021000021"),
        ("wire it to 021000021 483920175 (Chase)", "483920175", "021000021"),
        ("Kto.-Nr. 0532013000 bei der Sparkasse", "0532013000", "Sparkasse"),
        ("my account at Barclays is 73019264", "73019264", "Barclays"),
        ("my customer account number 73019264 with HSBC", "73019264", "HSBC"),
        ("GTBank 0123456789 Adaeze Okafor", "0123456789", "Adaeze Okafor"),
        ("send money to 0123456789 Access Bank", "0123456789", "Access Bank"),
        ("my UBA number is 2012345678", "2012345678", "UBA"),
        ("Opay 8123456789 Tunde", "8123456789", "Tunde"),
        # ID numbers as typed, and Egypt's national number.
        ("mi RFC es GODE-561231-GR8", "561231", "mi RFC"),
        ("mi curp: gode561231hdfrrn09", "gode561231", "mi curp"),
        ("رقمي القومي 28203150101234 عشان استمارة الترخيص", "28203150101234", "عشان"),
        ("my national ID number is 28203150101234", "28203150101234", "national ID"),
        ("رقم البطاقة ٢٨٢٠٣١٥٠١٠١٢٣٤", "٢٨٢٠٣١٥٠١٠١٢٣٤", "رقم البطاقة"),
        # A keypad's code, then the key that ends it.
        ("punch in 4821 and hit #", "4821", "hit #"),
        ("press *, then 4821, then #", "4821", "then #"),
        # A new user writing Persian: her SIN in Persian digits, her bank's code in Persian.
        ("my sin is ۰۴۶ ۴۵۴ ۲۸۶", "۰۴۶", "my sin is"),
        ("شماره سین من ۰۴۶ ۴۵۴ ۲۸۶ است", "۲۸۶", "شماره سین من"),
        ("کد تایید بانک ملت: ۴۸۳۹۲۰ این کد را به کسی ندهید", "۴۸۳۹۲۰", "بانک ملت"),
        ("کد تایید شما 483920 است", "483920", "کد تایید شما"),
        # A secret told of as given (a second adversary: each kept as typed).
        ("the door code they gave me was 4821", "4821", "door code they gave me"),
        ("the password they gave me was tulip77", "tulip77", "they gave me"),
        ("the wifi password they gave us was tulip77", "tulip77", "wifi password"),
        ("the password the landlord texted me was tulip77", "tulip77", "landlord"),
        ("the code the plumber gave me was 4821", "4821", "plumber"),
        ("the PIN they gave me was 4821", "4821", "the PIN they"),
        # A later adversary: who gave it in more words, what it is for, how it came.
        ("the gate code the neighbour gave me ended up being 7392", "7392", "neighbour"),
        ("the code for the parking they gave me was 4821", "4821", "parking"),
        ("the code they gave me for the parking was ۴۸۲۱", "۴۸۲۱", "parking"),
        ("the PIN the bank posted me was 4821", "4821", "posted"),
        ("the combination my brother sent me is 12-34-56", "12-34-56", "brother"),
        # PINs, passwords and an ID number said in Persian or Arabic.
        ("رمز کارتم ۱۳۸۵ است", "۱۳۸۵", "رمز کارتم"),
        ("الرقم السري لبطاقتي ٤٤٢١", "٤٤٢١", "لبطاقتي"),
        ("كلمة السر هي ٩٨٧٦٥٤", "٩٨٧٦٥٤", "كلمة السر"),
        ("رمز عبور: گل‌سرخ۱۲۳", "گل‌سرخ", "رمز عبور"),
        ("کد ملی من ۰۰۱۲۳۴۵۶۷۸ است", "۰۰۱۲۳۴۵۶۷۸", "کد ملی"),
        ("شماره کارت من ۴۱۱۱ ۱۱۱۱ ۱۱۱۱ ۱۱۱۱", "۴۱۱۱", "شماره کارت"),
    ],
)
def test_the_secret_goes_and_what_is_beside_it_stays(text: str, secret: str, kept: str) -> None:
    redacted = redact(text)[0]
    assert secret not in redacted
    assert kept in redacted


@pytest.mark.parametrize(
    "text",
    [
        # A service's own account, said as one's own: the bill needs it.
        "my Airtel account is 0123456789",
        "my BESCOM account is 1234567890",
        "my Comcast account 8155400012345678",
        "my Netflix account is 4829103456",
        "my account is 0123456789 with Airtel",
        "my Jio account number is 9876543210 and I bank with SBI",
        # A balance, a count, a phone number, a year, a date.
        "Savings account: 150000 naira so far",
        "the checking account has 500000 dollars",
        "checking 123456 times",
        "GTBank 08031234567 Adaeze",
        "Access Bank branch 01 2712005 opens 8am",
        "call HSBC on 03457404404",
        "meeting on 12-03-27 12345678 attendees",
        "type 2024 and press enter to continue",
        "issue #4821 is fixed",
        "the verification code took 2 days, my flat is 1204",
        "they sent 5000 rupees",
        "the password they gave me was wrong",
        "the code they gave me was 4 digits",
        "the room they gave me was 1204",
        "the area code they gave me was 0161",
        "the promo code they sent me was 4821",
        "كلمة السر صعبة",
        "رمز موفقیت من ۳ چیز است",
        "my sin is a big one, 3 times",
        "کد تایید را فراموش کردم، ساعت 1400 تماس بگیر",
        "my OTP app, which I installed in 2024, is fine",
        # India's postcode, called a PIN code, with no card, lock or login named.
        "PIN code 560034",
        "Our PIN code is 560034",
        "Koramangala, Bengaluru PIN 560034",
    ],
)
def test_what_holds_no_such_secret_is_kept(text: str) -> None:
    assert redact(text) == (text, [])


@pytest.mark.parametrize(
    "text", ["my PIN code is 560034 for the app", "door PIN code 482913", "pin 560034"]
)
def test_a_pin_of_a_lock_an_app_or_alone_is_still_redacted(text: str) -> None:
    assert "REDACTED" in redact(text)[0]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # An adversary: the bracket before the code went with it, the closing one stayed.
        ("인증번호 [482913]", "인증번호 [[REDACTED:secret]]"),
        # Found beside it: a password in brackets was kept as typed.
        ("password: [hunter22]", "password: [[REDACTED:secret]]"),
        ("password: (hunter22)", "password: ([REDACTED:secret])"),
        (
            "see [docs](https://example.org/pin) for the pin",
            "see [docs](https://example.org/pin) for the pin",
        ),
    ],
)
def test_a_secret_in_brackets_goes_and_its_brackets_stay(text: str, shown: str) -> None:
    assert redact(text)[0] == shown
