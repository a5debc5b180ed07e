"""Passwords given in everyday wordings that a label and its separator do not cover.

`agent.redact` reads "my password is X", "password: X" and "DB_PASSWORD=X". An adversary
had these stored as said: "I changed my bank password to Blue42horse", "I use hunter2 as
my password", "My password's hunter2", "my password, hunter2, is weak", "password
hunter2", "the password I use everywhere is hunter2", "password:" with the value on the
next line (as pasted from a password manager), "login: ana / hunter2", and a CVV or a
social security number after its label. Each rule takes a value only when it looks like
one: where a wording is also ordinary English ("reset my password to access email",
"password manager"), the value must hold a digit, a capital or a symbol.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from agent.code_wordings import ASKED_THEN_ANSWERED, code_spans
from memory.lazy_patterns import lazy_compile
from memory.letters import OTHER_DIGITS

_PASSWORD = (
    r"pass(?:word|wd|phrase|code)s?|p[a@4ä][s$5][s$5][- \t]?w[o0]r[dt]s?|pwd|pword|pw|p/w"
    r"|(?:wi-?fi|wlan|network)[ \t]+key|palavra-passe"
)
_VALUE = r"(?P<value>(?![\"\u201c])[^\s,;|]+)"
"""A value said plainly; one in quotes is read whole, spaces and all (`_QUOTED_AFTER`)."""
_TRAILING = ".,;:!?)]}>\"'`“”‘’"
_LEADING = "\"'`“‘(["
_CHANGED = (
    r"(?:[ \t]+(?:has|have|had|was|is|got|been|now|just|finally|changed|updated|reset|set)){0,4}"
)

_AFTER_TO = lazy_compile(rf"(?i)\b(?:{_PASSWORD})\b{_CHANGED}[ \t]+(?:to|into)[ \t]+{_VALUE}")
_NOW_IS = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})\b(?:[ \t]+(?:is|was)|['\u2019]s|[ \t]+will[ \t]+be)"
    rf"(?:[ \t]+(?:now|still|currently|just|going[ \t]+to[ \t]+be))?[ \t]+{_VALUE}"
)
_IT_IS = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})\b[^.;\n]{{0,60}}?[;,.:?!]\s*(?:it|the\s+new\s+one|that)"
    rf"(?:\s+is|['\u2019]s)(?:\s+now)?\s+{_VALUE}"
)
"""The password named first, then given: "I updated the password; it is now Rex2019", "my
password? it's Rex2019"."""
_NAME_OF = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})[ \t]+is[ \t]+(?:the[ \t]+|a[ \t]+)?(?:[\w-]+[ \t]+)?"
    r"(?:name|word|date|year|birthday)[ \t]+"
    rf"of[ \t]+(?:my|our)[ \t]+[\w-]+(?:[ \t]+[\w-]+)?[ \t]*(?:,|:|\(|[-–—])[ \t]*{_VALUE}"
)
"""Said by what it is, then given: "my password is the name of my dog, Rex2019"."""
_POSSESSIVE = lazy_compile(rf"(?i)\b(?:{_PASSWORD})['\u2019]s[ \t]+{_VALUE}")
_BETWEEN_COMMAS = lazy_compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*,[ \t]*{_VALUE}[ \t]*,")
_ARROW = lazy_compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*(?:→|->|⇒)[ \t]*{_VALUE}")
_TWO_CELLS = lazy_compile(
    rf"(?im)^[ \t]*\|?[ \t]*(?:{_PASSWORD})[ \t]*\|[ \t]*{_VALUE}(?=[ \t]*\|?[ \t]*$)"
)
"""A pipe only between the two cells of a line ("password | hunter22"): "Title|Username|
Password|URL", a table's heading, lost its own words (an adversary)."""
_NETWORK_ARROW = lazy_compile(rf"(?i)\b(?:wi-?fi|wlan)[ \t]*(?:→|-{{1,2}}>|=>|⇒)[ \t]*{_VALUE}")
""""wifi -> Daisy24" (an adversary: kept as typed); taken only when it looks like one."""
_ASKED_OF_A_VALUE = lazy_compile(
    r"(?i)^\W*(?:is|are|was|would)[ \t]+" + _VALUE + r"[ \t]+(?:a|an|my|the|your)[ \t]+"
    r"(?:(?:good|strong|safe|secure|decent|ok|okay|bad|weak|terrible|great|fine)[ \t]+)?"
    rf"(?:{_PASSWORD}|pin|passcode)\b"
)
""""is hunter2 a good password for netflix?" (an adversary: kept as typed, and shown)."""
_SAID_EQUAL = lazy_compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*==[ \t]*{_VALUE}")
""""netflix password == Tr0ub4dor&4" (an adversary); not a variable compared in code."""
_HINT_THEN_GIVEN = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})\b[^.\n]{{0,80}}?\b(?:name|year|birthday|date|number)\b"
    r"[^.\n:,(\u2013\u2014]{0,40}?(?:,|:|\(|[ \t][-\u2013\u2014])[ \t]*" + _VALUE
)
""""the wifi password is my dog's name plus the year he was born, Rex2018", "hint for the wifi
password: it's my dog's name and year - Rex2017" (an adversary: kept as typed); taken only
when it looks like one."""
_BARE = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD}|pass|contrase(?:ñ|n)a|senha|passwort|kennwort|has[lł]o|wachtwoord|"
    rf"l[öo]senord|passord|salasana|adgangskode|mot[ \t]+de[ \t]+passe)[ \t]+{_VALUE}"
)
_FOR_A_THING = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})[ \t]+(?:for|to|of|on)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?"
    rf"[\w.-]+(?:[ \t]+[\w.-]+)?[ \t]*[:=][ \t]*{_VALUE}"
)
""""pw for the nas: Tr0ub4dor&3" (an adversary: kept as typed)."""
_PASSWORD_THEN_NETWORK = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD}|passwort|contrase[ñn]a|senha)[ \t]+"
    r"(?:(?:del|della|de(?:[ \t]+la)?|do|da|du)[ \t]+)?(?:wi-?fi|wlan|rete|red)[ \t]*[:=]?[ \t]+"
    + _VALUE
)
""""password wifi spiaggia9", "contraseña del wifi mar2024" (a second adversary saw it shown to
the model unasked, beside the gate code asked for)."""
_WHOSE_NETWORK = (
    # From where a word begins: a chain "a-a-a-…" was read from each of its letters.
    r"(?:(?<![\w-])(?:my|our|the|[\w-]+['\u2019]s)[ \t]+(?:[\w-]+[ \t]+)?|(?:^|[,;:][ \t]*))"
)
"""Whose or which network opens a wifi's key: "mum's wifi …", "the guest wifi? …", "…, wifi"."""
_PASSWORD_ASKED_THEN_GIVEN = lazy_compile(rf"(?i)\b(?:{_PASSWORD})" + ASKED_THEN_ANSWERED + _VALUE)
""""the wifi password? Sunflower99", "wifi pw? Daisy22" (a second adversary: kept as typed,
and shown to the model for another flat's)."""
_NETWORK_ASKED_THEN_GIVEN = lazy_compile(
    r"(?i)" + _WHOSE_NETWORK + r"(?:wi-?fi|wlan)" + ASKED_THEN_ANSWERED + _VALUE
)
""""wifi? Daisy22", "the guest wifi? it's Daisy22": the network asked for, its key given
(an adversary: kept as typed); taken only when it looks like one ("wifi? not working")."""
_PASSWORD_SAID_OF_THEN_GIVEN = lazy_compile(
    rf"(?i)(?<![/\\])\b(?!(?:pw|pwd|passwd)\b)(?:{_PASSWORD})\b[^.\n:?!/\\]{{1,60}}:[ \t]+"
    r"(?![/\\~])" + _VALUE
)
""""the wifi password contains my dog's name and year: Rex2019" (an adversary: kept as
typed); taken only when it looks like one ("password rules: 8 characters")."""
_NETWORKS_KEY = lazy_compile(
    r"(?i)\b(?:wi-?fi|wlan|network|router|ssid)\b[^\n.;]{0,40}?,[ \t]*key[ \t]*[:=]?[ \t]+" + _VALUE
)
""""Wi-Fi: network Casa, key sunshine2024" (an adversary)."""
_QUOTED_AFTER = lazy_compile(
    rf"(?i)\b(?:(?:{_PASSWORD})\b[ \t]*[:=]?|(?:wi-?fi|wlan)\b[ \t]*(?:[:=]|is\b))[ \t]*"
    r"(?:\"(?P<value>[^\"\n]{1,100})\"|\u201c(?P<curly>[^\u201d\n]{1,100})\u201d"
    r"|'(?P<single>[^'\n]{1,100})'(?!\w))"
)
""""password "p@ss w0rd 99"", 'wifi: "Daisy 22 Sun"': quoted, with its spaces (adversaries
saw it kept, or its first word alone taken)."""
_NETWORKS_BARE = lazy_compile(
    r"(?i)(?:^|(?<=[,;:]))[ \t]*(?:(?:the|my|our)[ \t]+)?(?:guest[ \t]+)?"
    r"(?:wi-?fi|wlan|router|network)[ \t]+"
    r"(?:password|passwd|pwd|pw|pass|key|code)[ \t]+(?P<value>[^\s,;|]+)"
    r"(?:[ \t.!]*$|[ \t]*[,;]|[ \t]+(?:and|but)\b)"
)
""""wifi password sunflower" opening the message or an item of a list ("gate code 3333, wifi
password Sunflower": an adversary saw it kept): a plain word is the password too (found
with "password sunflower": kept as typed), and with more after it ("wifi password sunflower
and the router is in the hall": a second adversary saw it shown). "wifi password reset"
says something."""
_NOT_A_NETWORKS_PASSWORD = frozenset(
    "reset change changed expired help please pls again needed required wrong lost forgotten "
    "manager protected ok okay update updated broken works working sorted fixed too also here "
    "there same is was has had got for of in on at to the a an".split()
)
_SSID_KEY = lazy_compile(
    r"(?i)\bssid\b[^\n]{0,60}?\b(?:key|pass|psk|password|pw|pwd)[ \t]*[:=][ \t]*" + _VALUE
)
""""SSID: Home5G Key: sunflower": the network's key, whatever it looks like."""
_BARE_KEY = lazy_compile(
    r"(?i)\b(?:api[_ -]?key|apikey|access[_ -]?token|token|secret)[ \t]+" + _VALUE
)
_NEXT_LINE = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})[ \t]*[:=][ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*{_VALUE}[ \t]*(?:\r?\n|$)"
)
_RELATIVE = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})[ \t]+(?:that[ \t]+|which[ \t]+)?(?:i|we|you)[ \t]+"
    rf"(?:[\w'-]+[ \t]+){{0,3}}?(?:is|was)[ \t]+{_VALUE}"
)
_NOT_THE_PASSWORD_ITSELF = (
    r"(?![ \t-]*(?:keeper|manager|reset|hint|field|box|policy|rules?|requirements?|holder|app|"
    r"vault|list|book|generator|protected|expir))"
)
"""What a password's label names when more follows: "1Password is my password manager" (its
name was redacted, as if the password)."""
_AS_MY = lazy_compile(
    rf"(?i)(?<!\S){_VALUE}[ \t]+(?:as|is)[ \t]+(?:my|the|our|your|a)[ \t]+(?:[\w-]+[ \t]+)?"
    rf"(?:{_PASSWORD}|pin)\b" + _NOT_THE_PASSWORD_ITSELF
)
_WIFI = lazy_compile(
    r"(?i)\b(?:wi-?fi|wlan|network|router)[ \t]+(?:key|code)[ \t]*(?:is|:|=)[ \t]*" + _VALUE
)
_WIFI_IS = lazy_compile(
    r"(?i)(?:(?:\b(?:my|our|the|das|o|el|la|le|il|lo)[ \t]+(?:[\w-]+[ \t]+)?|^[ \t]*|"
    r"(?<=[,;.!?][ \t]))(?:wi-?fi|wlan)(?:['\u2019]s|"
    # Whose or where: "the wifi at mum's is BlueCat55", "wifi at dad's place: RedDog77", "das
    # WLAN bei Mama ist BlauKatze5", "o wifi da casa da mãe é GatoAzul7" (adversaries).
    r"(?:[ \t]+(?:at|in|for|of|from|bei|von|da|de|di|do|du|del|della|chez)[ \t]+"
    r"(?:[\w'\u2019-]+[ \t]+){0,3}?[\w'\u2019-]+)?"
    r"(?:[ \t]+(?:is|ist|es|est|é|è)\b|[ \t]*[:=]))"
    r"|(?:wi-?fi|wlan)[ \t-]*(?:schl(?:ü|ue)ssel|passwort|clave|contrase(?:ñ|n)a|cl[eé]|senha)"
    r"[ \t]*(?::|=|\b(?:is|ist|es|est|é)\b))[ \t]*" + _VALUE
)
"""The network named for its password: "my wifi is Sunflower2024!", "the guest wifi is
guestpass2024", "the wifi's Hunter2Blue", "WLAN-Schlüssel: …" (adversaries); taken only
when it looks like one ("my wifi is slow" stays)."""
_WIFI_THEN_VALUE = lazy_compile(r"(?i)" + _WHOSE_NETWORK + r"(?:wi-?fi|wlan)[ \t]+" + _VALUE)
""""mum's wifi BlueCat56", "Lisbon flat: wifi BlueFish22, door 1357" (an adversary: kept as
typed); taken only when it looks like a password ("mum's wifi router" stays)."""
_PIN_RELATIVE = lazy_compile(
    r"(?i)\bpin[ \t]+(?:that[ \t]+|which[ \t]+)?(?:i|we)[ \t]+(?:[\w'-]+[ \t]+){0,2}?(?:is|was)"
    r"[ \t]+(?:now[ \t]+)?(?P<value>\d[\d \t.-]{2,10}\d)\b"
    r"|\b(?:using|use|chose|picked|set)[ \t]+(?P<as>\d[\d \t.-]{2,10}\d)[ \t]+(?:as|for)[ \t]+"
    r"(?:my|the|our)[ \t]+(?:[\w-]+[ \t]+)?pin\b"
    r"|\bpin\b[^.;\n]{0,40}?[,;:][ \t]*(?:it|that)(?:['\u2019]s|[ \t]+is)[ \t]+(?:now[ \t]+)?"
    r"(?P<its>\d[\d \t.-]{2,10}\d)\b"
)
""""the new pin I set is 9911", "i'm using 1234 as my pin now", "the pin for my card, it's
4-8-2-1" (an adversary: each kept as typed)."""
_PIN_SAID_BARE = lazy_compile(
    r"(?<![\w-])(?-i:PIN)[ \t]*[:=]?[ \t]*(\d(?:[ .-]?\d){3,7})(?![\d.-]?\d)"
    r"|(?i:\bpin)[ \t]*[:=][ \t]*\r?\n[ \t]*(\d(?:[ .-]?\d){3,7})(?![\d.-]?\d)"
)
""""PIN 4 8 2 3" (in capitals a PIN, where "pin 1800 on the map" is a verb), "pin:" then its
digits on the next line (a second adversary: both kept as typed)."""
_A_PASSWORD_AFTER = lazy_compile(rf"(?i)\b(?:{_PASSWORD}|pass|key)\b")
_KEY_FOR = lazy_compile(
    r"(?i)\b(?:key|password|passcode|code|clave|llave|cl[eé])[ \t]+(?:for|to|of|del|de|do|da|du)"
    r"[ \t]+(?:(?:the|my|our|la|el|mi|le|la|o|a)[ \t]+)?(?:guest[ \t]+)?"
    r"(?:wi-?fi|wlan|network|router|red)[ \t]*(?::|=|\b(?:is|es|est|é)\b)[ \t]*" + _VALUE
)
""""key for the wifi: Sunny-Day-2024" (an adversary), "la clave del wifi es Mariposa2020"
(a new user)."""
_USED_TO_BE = lazy_compile(rf"(?i)\b(?:{_PASSWORD})\b[ \t]+used[ \t]+to[ \t]+be[ \t]+{_VALUE}")
_THE_NEW_ONE = lazy_compile(
    r"(?i)(?<!\S)(?P<value>[^\s,;|]+)[ \t]+is[ \t]+(?:the|my)[ \t]+new[ \t]+"
    r"(?:one|password|pin)\b"
)
""""The wifi password used to be abc12345", "Qw3rtZx9v2 is the new one" (a second
adversary: each kept as typed)."""
_AND_NOW = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})\b[^.;\n]{{0,60}}?(?:\b(?:and|but)[ \t]+|,[ \t]*)(?:now[ \t]+)?"
    rf"(?:it['\u2019]s|it[ \t]+is|(?:the[ \t]+)?new[ \t]+one[ \t]+is)[ \t]+(?:now[ \t]+)?{_VALUE}"
)
""""my password was hunter2 and now it's hunter3": the new one (an adversary); "reset my
bank password today, new one is Xk29!!pq" (kept as typed: found while fixing a changed
key safe code)."""
_CHANGED_PASSWORD = (
    rf"{_PASSWORD}|senha|contrase(?:ñ|n)a|passwort|kennwort|wachtwoord|has[lł]o"
    r"|mot[ \t]+de[ \t]+passe"
)
_CHANGED_WORD = (
    r"changed|updated|reset|rotated|mudou|mudei|mudada|alterada|alterei|trocada|troquei"
    r"|cambi(?:ó|o|é|e|ada|ado)|ge(?:ä|ae)ndert|veranderd|gewijzigd|chang[ée]|modifi[ée]"
    r"|zmieni\w*"
)
_CHANGED_THEN_NOW = lazy_compile(
    rf"(?i)(?:\b(?:{_CHANGED_PASSWORD})\b[^.;\n]{{0,60}}?\b(?:{_CHANGED_WORD})"
    rf"|\b(?:{_CHANGED_WORD})\b[^.;\n]{{0,40}}?\b(?:{_CHANGED_PASSWORD}))\b[^.;\n]{{0,30}}?"
    r"(?:->|=>|→|!+|[,;:–—-]|\b(?:and|e|y|und|en|et)\b)[ \t]*"
    r"(?:now|agora|ahora|jetzt|nun|nu|maintenant|ora|adesso|teraz|(?:the[ \t]+)?new[ \t]+one"
    r"|a[ \t]+nova|la[ \t]+nueva|das[ \t]+neue)\b"
    r"(?:[ \t]+(?:it['\u2019]s|it[ \t]+is|is|é|es|ist|est|c['\u2019]est|is[ \t]+now))?"
    r"[ \t]*[:=]?[ \t]*" + _VALUE
)
"""A change, then the new one without "is": "the lab server password changed, now
Bz9#abelhas2027", "a senha do servidor mudou, agora é …" (a new user, a student: each kept
as typed); "changed my gmail password, new one …"."""
_LOGIN_THEN_PASSWORD = lazy_compile(
    r"(?i)\b(?:ssh|sftp|scp|ftp|telnet|rdp|mysql|psql)\b[^\n]{0,80}?\b(?:password|passwd|pass|pw|pwd)"
    rf"\b[ \t]*[:=]?[ \t]+{_VALUE}"
)
""""ssh root@10.0.0.5 password toor" (an adversary: kept as typed, a word no rule takes for a
password alone)."""
_HALF_GIVEN = lazy_compile(
    r"(?i)\b(?:first|second|other|last|1st|2nd)[ \t]+(?:half|part|bit)[ \t]+"
    r"(?:of[ \t]+(?:it|the[ \t]+\w+|my[ \t]+\w+)[ \t]+)?(?:is|was|:)[ \t]*" + _VALUE
)
""""first half of my password is horse-", then "and the second half is battery-staple" (an
adversary: the first half was redacted, the second kept)."""
_SSHPASS = lazy_compile(r"\bsshpass[ \t]+-p[ \t]*['\"]?(?P<value>[^'\"\s]+)")
""""sshpass -p 'Kite42!' ssh user@host" (an adversary: kept as typed)."""
_NO_LOGIN_PASSWORD = frozenset(
    "reset change changed required prompt prompted less based auth authentication login "
    "manager expired protected is was for of the a and or to in on with from again too here "
    "there please pls asked needed works worked failed".split()
)


def _a_password_or_a_pin(value: str) -> bool:
    """A password, or the digits of a PIN or a passcode: "passcode updated, now 5521"."""
    bare = _bare(value)
    return _looks_like_a_password(value) or (bare.isdigit() and 4 <= len(bare) <= 8)


def _a_half(value: str) -> bool:
    """Half of a password: letters and digits, or symbols, four or more ("K9K9")."""
    bare = _bare(value)
    letters = any(c.isalpha() for c in bare)
    others = any(not c.isalpha() for c in bare)
    return _looks_like_a_password(value) or (len(bare) >= 4 and letters and others)


def _a_login_password(value: str) -> bool:
    """Any word but one about the password: "toor" is one, "reset" is not."""
    bare = _bare(value)
    return len(bare) >= 3 and bare.casefold() not in _NO_LOGIN_PASSWORD


_CJK_SAID = r"[ \t\u3000]*(?:は|が|：|:|=|是|为|為|은|는|이|가|을|를)?[ \t\u3000]*"
_CJK_DIGITS_COUNTED = (
    r"(?:(?:\d{1,2}|한|두|세|네|다섯|여섯|일곱|여덟)[ \t]*(?:자리|桁|位)"
    r"(?:[ \t]*(?:는|은|の|数字|숫자))?[ \t\u3000]*)?"
)
"""How many digits, said before them: "카드 비밀번호 4자리 1234", "네 자리 4821" (four
digits)."""
_NOT_A_COUNT_AFTER = (
    r"(?![ \t]*(?:년|年|월|月|일|日|시|時|분|分|원|円|元|개|個|명|名|살|歳|번째|층|호))"
)
"""A year, a day, an hour, a sum or a count after the number: "PIN은 2026년에 바꿔야 해" (the
PIN must change in 2026) holds no PIN (an adversary saw 2026 redacted)."""
_CJK_LABEL = lazy_compile(
    r"(?:暗証番号|パスワード|パスコード|ピン番号|暗号|密码|密碼|口令|비밀번호|비번|패스워드|암호|"
    r"핀[ \t]?번호|인증[ \t]?번호|인증[ \t]?코드|"
    r"(?i:otp)(?=[ \t]*(?:は|が|은|는|이|가|:|：|=)))"
    + _CJK_SAID
    + _CJK_DIGITS_COUNTED
    + r"(?P<value>[!-~]{3,})(?![!-~])"
    + _NOT_A_COUNT_AFTER
)
"""A password or PIN labelled in Japanese, Chinese or Korean: "研究室のドアの暗証番号は 8642
です" was kept as typed (a new user writing half in Japanese); so were "카드 비번 4829" and "폰
잠금 비번은 0412" (비번, the everyday short of 비밀번호: a new user writing in Korean), and a
verification code ("은행 인증번호 482913", "OTP는 482913": an adversary)."""
_CJK_PIN = lazy_compile(
    r"(?i)(?:\bpin[ \t]*(?:번호|番号|码|碼|코드|コード)[ \t\u3000]*"
    r"(?:は|が|은|는|이|가|을|를|是|：)?"
    r"|\bpin[ \t\u3000]*(?:は|が|은|는|이|가|을|를|是|：)"
    r"|(?<![\w])핀(?:[ \t]*(?:은|는|이|가|을|를))?)[ \t\u3000]*"
    + _CJK_DIGITS_COUNTED
    + r"(?P<value>\d(?:[ .-]?\d){3,7})(?![\d.-]?\d)"
    + _NOT_A_COUNT_AFTER
)
"""A PIN, its particle joined to it: "우리은행 앱 PIN은 482913이야" was kept as typed and shown
to the model (a new user writing in Korean; "PIN 482913" was redacted); "PIN 번호 4821",
"카드 PIN 코드 4821", "PIN을 4821로 바꿨어", "핀은 4821" (an adversary)."""
_CJK_PIN_CHANGED = lazy_compile(
    r"(?:[ \t]*(?:이었는데|였는데|에서|였던|이던))[ \t]*(?P<value>\d{4,8})(?!\d)[ \t]*(?:로|으로)"
)
"""The new PIN after the old: "PIN이 4821이었는데 4822로 바꿨어" (the PIN was 4821, I changed
it to 4822): an adversary saw 4822 kept, and shown to the model."""
_VALUE_FIRST = lazy_compile(
    r"(?im)(?:^|(?<=[.!?,;:][ \t]))[ \t]*[\"'\u201c]?(?P<value>[^\s,;|\"'\u201d]{3,})[\"'\u201d]?"
    r"[ \t]+is[ \t]+(?:the|my|our)[ \t]+(?:new[ \t]+)?(?:[\w-]+[ \t]+){0,2}?"
    r"(?:password|passcode|passwd|pw)\b" + _NOT_THE_PASSWORD_ITSELF
)
""""bluefish is the wifi password for the Graz flat": the value first, opening its sentence
(a second adversary saw it shown whole to the model)."""
_NO_VALUE_FIRST = frozenset(
    "what which who whose where how why this that these those there here mine yours his hers "
    "ours theirs one nothing something anything everything nobody somebody".split()
)
_LOGIN_PAIR = lazy_compile(r"(?i)\blog[ -]?in[ \t]*[:=][ \t]*(?!\d)[^\s/]+[ \t]*/[ \t]*" + _VALUE)
"""A name, then its password; a time is no name ("login: 9am/5pm")."""
_LOGIN_PAIR_TO_LINE_END = lazy_compile(
    r"(?im)\blog[ -]?in[ \t]*[:=][ \t]*(?!\d)[^\s/]+[ \t]*/[ \t]*"
    r"(?P<value>(?:[^\s,;|]*[^\s,;|.][ \t]+){1,3}?[^\s,;|]+?)(?:[ \t.]*$|\.[ \t]+(?-i:[A-Z]))"
)
"""A password with spaces that ends its line: "netflix login: anna@x.com / Pass word 99" left
"word 99" to the model. Ending the line or its sentence, the words after can be nothing else."""
_TAGGED = lazy_compile(r"(?i)<(password|passwd|pwd|secret|token|api[_-]?key)>([^<\n]{1,200})</\1>")
_MYSQL = lazy_compile(r"(?i)\bmysql(?:dump|admin)?\b[^\n]{0,200}?[ \t]-p(?P<value>[^\s-][^\s]*)")
_CARD_CODE = lazy_compile(r"(?i)\b(?:cvv2?|cvc2?|csc|security[ \t]+code)\b\D{0,24}?(\d{3,4})\b")
_SSN = lazy_compile(
    r"(?i)\b(?:ssn|social(?:[ \t]+security)?(?:[ \t]+(?:number|no\.?|#))?)\b\D{0,12}?"
    r"(\d{3}[ \t]*[-. ]?[ \t]*\d{2}[ \t]*[-. ]?[ \t]*\d{4})\b"
)
_BARE_SSN = lazy_compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])(?![ \t]*(?i:ext|x\d))")
_NAMED_NUMBER = lazy_compile(
    r"(?i)\b(?:order|invoice|ticket|tracking|case|ref(?:erence)?|confirmation|booking|"
    r"reservation|part|serial|model|item|sku|flight|shipment|parcel|claim)"
    r"(?:[ \t]+(?:number|no\.?|#|id|code))?[ \t]*[:#]?[ \t]*(?:is[ \t]+)?$"
)
"""What names a number of that shape that is no social security number ("order number
123-45-6789", found by an adversary: the user's own order lost its number)."""
_WHERE = r"(?:[ \t]+[\w'\u2019-]+){1,5}?"
"""What a code is for, in up to five words ("for the new flat", "at mum's house")."""
_NAMED_CODE = lazy_compile(
    r"(?i)\b(?:door|alarm|gate|garage|safe|vault|building|entry|keypad|house|badge|locker|"
    r"lock[ \t-]?box|key[ \t-]?(?:box|safe)|front[ \t]+door|"
    r"(?:phone|screen|laptop|tablet)[ \t]+unlock)"
    # A word for what opens it between ("the garage opener combo is 9-1-7-3": an adversary).
    r"(?:[ \t-]+(?:opener|door|entry|keypad|access|lock))?"
    r"(?:[ \t-]*(?:pass)?(?:code|pin|combination|combo)|(?<=unlock))"
    # What it is for, then "is" or a colon: without them the words after the label may
    # say something else ("The door code for the office changed in 2019": an adversary).
    r"(?:[ \t]+(?:for|of|to|at|in|on)" + _WHERE + r"(?:[ \t]+(?:is|was)|[ \t]*[:=])"
    r"|(?:[ \t]+(?:is|was)|['\u2019]s)?)"
    # The value after ":", "=" or an arrow, on the same line or the next (a second
    # adversary: "door code -> 4821", "door code:\n4821").
    r"(?:[ \t]+now)?[ \t]*(?:[:=]|->|=>)?[ \t]*\n?[ \t]*#?(\d[\d \t-]{1,10}\d)\b"
)
"""A code that opens a home or a safe (found by an adversary: "the door code is 4821" was
saved as typed; by a new user: "the door code for the new flat is 4821" too). A bike
lock's code is kept: asked back later, it is what the user wants."""
_CODE_TO = lazy_compile(
    r"(?i)\b(?:code|combination|combo|pin)[ \t]+(?:to|for|of)[ \t]+(?:the|my|our)[ \t]+"
    r"(?:front[ \t]+|back[ \t]+)?(?:door|alarm|gate|garage|safe|building|house|flat|apartment)"
    r"(?:[ \t]+(?:of|at|in|to|for|on)" + _WHERE + r")?"
    r"[ \t]+(?:is|was)[ \t]+(?:now[ \t]+)?(\d[\d \t-]{1,10}\d)\b"
)
"""The same said the other way round: "the combination to the safe is 12-34-56", "the
code for the door of the new flat is 4821"."""
_PIN_VALUE = r"(\d{2,4}(?:[ .-]\d{2,4}){1,4}(?![\d.-]?\d)|\d{4,8})\b"
"""A PIN's digits, in groups too ("918-273", "1234 5678": a third adversary found both kept)."""
_PIN_FOR = lazy_compile(
    r"(?i)\bpin(?:[ \t]+(?:code|number))?(?:[ \t]+(?:for|of|to|on|at)"
    + _WHERE
    + r"(?:[ \t]+(?:is|was)[ \t]*:?|[ \t]*[:=])|[ \t]*,[ \t]*which[ \t]+(?:is|was)[ \t]*:?)"
    r"[ \t]*" + _PIN_VALUE
)
"""A PIN with what it is for: "the PIN for my new card is 1234" (a new user); "my bank
pin, which is 7391, is new" (an adversary); "PIN for the new card: 4471" (a second
adversary)."""
_THERE_IS = lazy_compile(
    rf"(?i)\b(?:{_PASSWORD})[ \t]+(?:there|here|(?:for|at|on|in)(?:[ \t]+[\w'\u2019-]+){{1,3}}?)"
    rf"[ \t]+(?:is|was)[ \t]+(?:now[ \t]+)?{_VALUE}"
)
_WHICH_IS = lazy_compile(rf"(?i)\b(?:{_PASSWORD})[ \t]*,[ \t]*which[ \t]+(?:is|was)[ \t]+{_VALUE}")
"""Said with where it is for: "my password there is X", "the wifi password, which is X,"
(found by an adversary)."""
_PIN_CHANGED = lazy_compile(
    r"(?i)\b(?:my|the|our)[ \t]+(?:\w+[ \t]+)?pin[ \t]+(?:has[ \t]+been[ \t]+|was[ \t]+|is[ \t]+)?"
    r"(?:changed|set|updated|reset)[ \t]+to[ \t]+" + _PIN_VALUE
)
_PIN_NUMBER = lazy_compile(
    # "my PIN 1234", "PIN is 1234"; not the verb ("pin 2024 as the year to remember"). A word
    # before says it is the noun: "tried pin 2291 like 3 times" (a new user: stored, and
    # later shown to the model beside a bike lock's code).
    r"(?:(?i:\b(?:my|the|our|your|his|her|their|bank|card|app|phone|sim|atm|debit|credit|old|"
    r"new|wrong|tried|typed|entered|enter|type|try)[ \t]+pin)|\bPIN)(?i:[ \t]+(?:is|was|number)"
    r"(?:[ \t]+(?:now|still|currently|also|again|just|actually|probably))?)?"
    r"[ \t]*[:=]?[ \t]*" + _PIN_VALUE + r"|(?i:\bpin[ \t]*(?:is|was|:|=)[ \t]*)" + _PIN_VALUE
)
_CARD_PIN = lazy_compile(
    r"(?i)\b(?:card|bank|atm|sim|phone|debit|credit)[ \t]+pin(?:[ \t]*#)?[ \t]*:?[ \t]*"
    + _PIN_VALUE
    + r"|\bpin(?:[ \t]+(?:code|number))?(?:['\u2019]s|[ \t]*#[ \t]*:?)[ \t]*"
    + _PIN_VALUE
)
_HINTS = (
    "pass", "pw", "p/w", "p@ss", "pa$$", "p4ss", "päss", "pa55", "key", "login", "log in", "cvv",
    "contrase", "senha", "kennwort", "hasło", "haslo", "woord", "senord", "salasana", "kode",
    "cvc", "csc", "mysql", "token", "secret", "<", "wifi", "wi-fi", "wlan", "router", "ssid",
    "暗証", "パス", "ピン", "暗号", "密码", "密碼", "口令", "비밀번호", "암호", "비번", "패스워드",
    "핀", "인증", "otp", "half",
)  # fmt: skip
_PLAIN_WORDS = frozenset(
    "the a an my your our their his her it this that one same new old it's is was i you he "
    "she we they me not no".split()
)
_LABEL_WORDS = lazy_compile(rf"(?i)(?:{_PASSWORD}|pass|pin|secret|token|key)")
_DESCRIBING = frozenset("characters chars letters digits symbols long short words".split())
_POSSESSIVE_WORD = lazy_compile(r"\w+['\u2019]s")
_DIGITS_IN_GROUPS = lazy_compile(r"\d{2,}(?:[-.]\d{2,})+")


def _bare(value: str) -> str:
    return value.strip(_LEADING + _TRAILING)


_HEADINGS = frozenset(
    "otpauth otp totp url uri notes note favorite favourite title username user email e-mail "
    "website site comments name folder type fields group tags login".split()
)


def _marked_not_a_heading(value: str) -> bool:
    """`_marked`, and no CSV heading's word.

    "Title,Url,Username,Password,OTPAuth,Favorite" lost "OTPAuth" (an adversary).
    """
    return _marked(value) and _bare(value).casefold() not in _HEADINGS


def _marked(value: str) -> bool:
    """Whether a value holds a digit, a capital or a symbol: no ordinary lower-case word."""
    value = _bare(value)
    if not value or _POSSESSIVE_WORD.fullmatch(value):
        return False
    # Hyphens join ordinary words too: "case-sensitive".
    return not value.replace("-", "").isalpha() or not value.islower()


def _span(found: re.Match[str], group: str | int, check: Callable[[str], bool]) -> tuple[int, int]:
    start, end = found.span(group)
    while end > start + 1 and found.string[end - 1] in _TRAILING:
        end -= 1
    value = found.string[start:end]
    bare = _bare(value)
    following = found.string[end : end + 40].split()
    if following and following[0].lower().strip(_TRAILING) in _DESCRIBING:
        return (0, 0)  # "My password is Seventeen characters long" describes it
    if (
        not bare
        or value.startswith("[REDACTED")
        or bare.casefold() in _PLAIN_WORDS
        or _LABEL_WORDS.fullmatch(bare)
        or not check(value)
    ):
        return (0, 0)
    return start, end


def with_its_bangs(text: str, start: int, end: int) -> int:
    """The end of a value taken with the "!" right after it.

    Passwords end in "!" as often as sentences do ("Summer2024!"): "pass = qwerty123!" showed
    the model "[REDACTED:secret]!", a character of the secret (an adversary). Taking a
    sentence's "!" with it hides nothing the model needs.
    """
    while end < len(text) and text[end] == "!":
        end += 1
    return end


def width_folded(text: str) -> str:
    """`text` with full-width and other compatibility letters as plain ones, one for one.

    Other scripts' digits too (`memory.letters.OTHER_DIGITS`).

    "my ｐａｓｓｗｏｒｄ is hunter2" was stored as said (an adversary). Only characters that
    fold to one character are folded, so every position still points at the same place.
    """
    if text.isascii():
        return text
    folded = []
    for char in text:
        # Another script's digits as 0-9: "my sin is ۰۴۶ ۴۵۴ ۲۸۶" was kept as typed, where
        # the same number in 0-9 was redacted (a new user writing Persian).
        plain = OTHER_DIGITS.get(char) or unicodedata.normalize("NFKC", char)
        folded.append(plain if len(plain) == 1 else char)
    return "".join(folded)


def _pin_digits(value: str) -> bool:
    """Digits, in groups or not ("918-273", "1234 5678")."""
    return value.replace(" ", "").replace("-", "").replace(".", "").isdigit()


def wording_spans(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(kind, span) of each password, card code or social security number found."""
    lowered = text.lower()
    spans: list[tuple[str, tuple[int, int]]] = []
    if any(hint in lowered for hint in _HINTS):
        for rule, check in (
            (_AFTER_TO, _marked),
            (_NOW_IS, _marked),
            (_IT_IS, _looks_like_a_password),
            (_PASSWORD_ASKED_THEN_GIVEN, _looks_like_a_password),
            (_NETWORK_ASKED_THEN_GIVEN, _looks_like_a_password),
            (_PASSWORD_SAID_OF_THEN_GIVEN, _looks_like_a_password),
            (_POSSESSIVE, _marked),
            (_NAME_OF, _marked),
            (_BETWEEN_COMMAS, _marked_not_a_heading),
            (_ARROW, _marked),
            (_TWO_CELLS, _marked),
            (_NETWORK_ARROW, _looks_like_a_password),
            (_SAID_EQUAL, _not_a_variable),
            (_ASKED_OF_A_VALUE, _looks_like_a_password),
            (_HINT_THEN_GIVEN, _looks_like_a_password),
            (_BARE, _looks_like_a_password),
            (_QUOTED_AFTER, _a_quoted_password),
            (_FOR_A_THING, _looks_like_a_password),
            (_NETWORKS_KEY, _looks_like_a_password),
            (_PASSWORD_THEN_NETWORK, _looks_like_a_password),
            (_BARE_KEY, _looks_like_a_key),
            (_NEXT_LINE, _anything),
            (_RELATIVE, _marked),
            (_AS_MY, _looks_like_a_password),
            (_THERE_IS, _looks_like_a_password),
            (_WHICH_IS, _looks_like_a_password),
            (_LOGIN_PAIR_TO_LINE_END, _anything),
            (_LOGIN_PAIR, _anything),
            (_MYSQL, _anything),
            (_WIFI, _anything),
            (_NETWORKS_BARE, _a_networks_password),
            (_SSID_KEY, _anything),
            (_KEY_FOR, _looks_like_a_password),
            (_AND_NOW, _marked),
            (_CHANGED_THEN_NOW, _a_password_or_a_pin),
            (_LOGIN_THEN_PASSWORD, _a_login_password),
            (_HALF_GIVEN, _a_half),
            (_SSHPASS, _anything),
            (_CJK_LABEL, _anything),
            (_USED_TO_BE, _marked),
            (_WIFI_THEN_VALUE, _looks_like_a_password),
        ):
            spans += [("secret", _span(found, "value", check)) for found in rule.finditer(text)]
        spans += [
            ("secret", _span(found, group, _a_quoted_password))
            for found in _QUOTED_AFTER.finditer(text)
            for group in ("curly", "single")
            if found[group]
        ]
        spans += [("secret", _span(found, 2, _anything)) for found in _TAGGED.finditer(text)]
        # "the wifi is Home5G and the password's daffodil": the network, then its password
        # (an adversary saw the name redacted and the password kept).
        spans += [
            ("secret", _span(found, "value", _looks_like_a_password))
            for found in _WIFI_IS.finditer(text)
            if not _A_PASSWORD_AFTER.search(text, found.end())
        ]
    spans += [
        ("secret", found.span("value"))
        for found in _VALUE_FIRST.finditer(text)
        if found["value"].casefold() not in _NO_VALUE_FIRST
    ]
    if "new one" in lowered or "new password" in lowered or "new pin" in lowered:
        spans += [
            ("secret", _span(found, "value", _looks_like_a_password))
            for found in _THE_NEW_ONE.finditer(text)
        ]
    if "pin" in lowered or "핀" in lowered:
        for found in _CARD_PIN.finditer(text):
            spans.append(("pin", _span(found, 1 if found.group(1) else 2, _pin_digits)))
        spans += [
            ("pin", _span(found, 1 if found.group(1) else 2, _pin_digits))
            for found in _PIN_NUMBER.finditer(text)
        ]
        spans += [("pin", _span(found, 1, _pin_digits)) for found in _PIN_CHANGED.finditer(text)]
        spans += [("pin", _span(found, 1, _pin_digits)) for found in _PIN_FOR.finditer(text)]
        spans += [
            ("pin", _span(found, next(g for g in ("value", "as", "its") if found[g]), _pin_digits))
            for found in _PIN_RELATIVE.finditer(text)
        ]
        spans += [
            ("pin", _span(found, 1 if found[1] else 2, _pin_digits))
            for found in _PIN_SAID_BARE.finditer(text)
        ]
        for found in _CJK_PIN.finditer(text):
            spans.append(("pin", _span(found, "value", _pin_digits)))
            if (then := _CJK_PIN_CHANGED.match(text, found.end())) is not None:
                spans.append(("pin", then.span("value")))
    if any(word in lowered for word in ("code", "combination", "combo", "pin", "unlock")):
        spans += [("code", _span(found, 1, _anything)) for found in _NAMED_CODE.finditer(text)]
        spans += [("code", _span(found, 1, _anything)) for found in _CODE_TO.finditer(text)]
    spans += [("code", span) for span in code_spans(text)]
    if any(hint in lowered for hint in ("cvv", "cvc", "csc", "security code")):
        spans += [
            ("card-code", _span(found, 1, _pin_digits)) for found in _CARD_CODE.finditer(text)
        ]
    if "ssn" in lowered or "social" in lowered:
        spans += [("ssn", _span(found, 1, _anything)) for found in _SSN.finditer(text)]
    spans += [
        ("ssn", _span(found, 0, _anything))
        for found in _BARE_SSN.finditer(text)
        if not _NAMED_NUMBER.search(text[max(found.start() - 40, 0) : found.start()])
    ]
    return [(kind, span) for kind, span in spans if span[1] > span[0]]


def _a_networks_password(value: str) -> bool:
    return _bare(value).casefold() not in _NOT_A_NETWORKS_PASSWORD


def _anything(value: str) -> bool:
    return True


def _looks_like_a_key(value: str) -> bool:
    """A long run of letters and digits ("abc123def456ghi789jkl"), as a weak label's value."""
    value = _bare(value)
    return len(value) >= 16 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _a_quoted_password(value: str) -> bool:
    """Words with spaces, or one word that looks like a password.

    Not "reset" in 'the password "reset" link'.
    """
    return " " in value.strip() or _looks_like_a_password(value)


_VARIABLE = lazy_compile(
    r"[a-z_][a-z0-9_]*(?:_[a-z0-9_]*|(?:\.[a-z_][a-z0-9_]*)+|\(\))|[a-z]+(?:[A-Z][a-z0-9]*)+"
)
"""A name in code: with "_", dotted, called, or in camelCase ("user_input", "self.pw",
"getPassword()"); not "sunflower99" (an adversary saw "wifi password == sunflower99" kept)."""


def _not_a_variable(value: str) -> bool:
    """A password, not a name in code compared with it ("password == user_input")."""
    return _looks_like_a_password(value) and not _VARIABLE.fullmatch(_bare(value))


_MIXED_CASE = lazy_compile(r"[a-z].*[A-Z]|[A-Z].*[a-z]")


def _looks_like_a_password(value: str) -> bool:
    """A word and a number, or a word and symbols: "hunter2", "Tr0ub4dor&3"; not "reset".

    Not a possessive ("tomorrow's"): found by an adversary, "I hope I pass tomorrow's
    exam" lost its words.
    """
    value = _bare(value)
    if _POSSESSIVE_WORD.fullmatch(value):
        return False
    if _DIGITS_IN_GROUPS.fullmatch(value):
        return True  # "the wifi at the cabin uses password 77-19-44" (an adversary)
    letters = any(c.isalpha() for c in value)
    if len(value) >= 6 and letters and any(c.isdigit() for c in value):
        return True
    if len(value) == 5 and any(c.isdigit() for c in value) and _MIXED_CASE.search(value):
        return True  # "webex password Xy7pQ" (an adversary saw it kept)
    return len(value) >= 8 and letters and any(not c.isalnum() for c in value)
