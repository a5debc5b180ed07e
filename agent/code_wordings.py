"""Codes that open a home, said in the ways `agent.password_wordings` does not read.

Found by an adversary, each stored, written to the chat file and recalled as typed:
"Keypad: *4471#", "gate: 4471", "Front door: 8812#", "lockbox: 5521", "lock box 2580",
"The door code changed to 8812", "Access code 4471", "The intercom code is 4471", "Code to
the key safe: 2580", "Use 8812 for the front door", "Buzz 4471 at the gate", "The alarm is
4471, disarm on entry", "pin is 44-71", "Sim pin 1234, puk 12345678", "El código de la
puerta es 4471", "Le code de la porte est 4471". (The wifi keys it found are read with the
passwords.) A bike lock's code is kept, as there: asked back later, it is what the user
wants.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.not_secret_codes import (
    HTTP_STATUS,
    NO_SECRETS_CODE,
    NOT_SECRET_CODES,
    a_bike_lock,
    a_lockers_number,
    a_year,
    alarm_time,
    of_no_secret,
    postal_pin,
)
from memory.lazy_patterns import lazy_compile

_OPENS = (
    r"(?:front[ \t]+|back[ \t]+|side[ \t]+|main[ \t]+|garage[ \t]+)?(?:door|gate|garage|alarm|"
    r"keypad|intercom|buzzer|lock[ \t-]?box|key[ \t-]?(?:box|safe)|safe|vault|building|"
    r"entry|access|mail[ \t-]?box|letter[ \t-]?box|post[ \t-]?box|locker|shed|padlock|opener|"
    r"storage"
    r"(?:[ \t]+unit)?|office|ward|med(?:ication)?[ \t]+room|bike[ \t]+lock|alarmanlage|"
    # A one-time code opens a login: "the staging OTP is 481920" (a new user: kept as typed).
    r"t?otp|one[ \t-]time[ \t]+pass(?:word|code)?)"
)
_CODE = (
    # A keypad's * and # between digits too: "access code 55#21" (an adversary).
    r"[\"'`\u201c\u2018]?([*#]?\d(?:[\d \t-]|[*#](?=[ \t]?\d)){1,10}\d[*#]?"
    r"|(?=[0-9A-Z]*\d)(?=\d*[A-Z])(?-i:[0-9A-Z]{4,8})"
    # Letters and digits in two groups: "Boat padlock code 4B 719" (an adversary).
    r"|(?-i:(?=[0-9]*[A-Z])(?=[A-Z]*[0-9])[0-9A-Z]{2,4}[ -](?=[A-Z]*[0-9])[0-9A-Z]{2,5}))"
    r"[*#]?[\"'`\u201d\u2019]?(?!\w)"
    r"(?![ \t]*(?:[a-z]{0,2}m\b|meters?|metres?|feet|ft|inch|in\b|years?|days?|min|minutes?|"
    r"hours?|h\b|euros?|dollars?|pounds?|€|\$|£|%|kg|lbs?|people|cars?|floors?|steps?|miles?|"
    r"wide|tall|high|long|deep|away|am\b|pm\b|updates?|versions?|releases?|editions?|"
    # A time: "gate → 1600 closing time" (an adversary saw it redacted, and the meeting
    # "moved to 1600" later in that chat with it).
    r"closing|opening|time\b|o['\u2019]clock|hrs\b|"
    r"firmware|models?|lines?|characters?|chars|digits?|words?|bytes|pages?))"
)
CODE = _CODE
OPENS = _OPENS
"""Digits, spaced or not, between a keypad's * and # keys; not a measure, a price or a time
("The garage is 600 meters long", "The door is 200 cm wide", "The code is 200 lines long":
an adversary)."""
_CODE_UNGROUPED = _CODE.replace("([*#]?\\d(", "(?:[*#]?\\d(", 1)
"""`_CODE` capturing nothing: read ahead of a rule's own group."""
_WHEN_CHANGED = (
    r"(?:[ \t]+(?:today|yesterday|again|now|this[ \t]+(?:morning|afternoon|evening|week)|"
    r"last[ \t]+(?:night|week)|on[ \t]+\w+day))?"
)
"""When a code changed, said before its new value: "… changed today to 9023" (a new user:
the code was kept as typed)."""
_NOTE = r"(?:[ \t]*(?:\([^()\n]{1,40}\)|\[[^\[\]\n]{1,40}\]|\{[^{}\n]{1,40}\}|<[^<>\n]{1,40}>))?"
"""A note in brackets of any kind after a lock's name: "door code [back]", "gate code {side}",
"door code <back>" (adversaries)."""
_PRICE_OF = lazy_compile(
    r"(?i)\b(?:rent|price|cost|fees?|parking|insurance|tax|rates|bill|deposit|charge)[ \t]+"
    r"(?:for|of|on)[ \t]+(?:the|my|our)[ \t]+\Z"
)
"""Not what a lock costs: "rent for the garage is 150 now", "the price for the shed is 450"
(an adversary saw each amount redacted as the garage's code)."""


def _a_price_of(match: re.Match[str]) -> bool:
    """Whether a lock named with its number is named as what costs it (`_PRICE_OF`)."""
    return match.re.pattern == _LABELLED.pattern and bool(
        _PRICE_OF.search(match.string, max(0, match.start() - 40), match.start())
    )


_LABELLED = lazy_compile(
    rf"(?i)\b{_OPENS}(?:[ \t]+remote)?"
    r"(?:[ \t-]*(?:pass)?(?:code|pin|combination|combo))?"
    rf"(?:[ \t]+(?:at|of|for|on|in|ya|wa|la|za)(?:[ \t]+[\w'\u2019-]+){{1,4}}?)?"
    # Said of it in brackets: "the door code (updated 2026-11-30) is 4590" (an adversary).
    + _NOTE
    # A dash between spaces too: "house alarm - 7412" (an adversary: kept as typed); an
    # arrow or a doubled "=" ("the alarm -> 7414", "gate code == 4455": a later one).
    + r"(?:[ \t]*(?:[:=]|==|[-=]{1,2}>|[\u2192\u21d2])[ \t]*|[ \t]+[-\u2013\u2014][ \t]+|"
    # Exclaimed, the code closing its sentence: "alarm!! 7416" (a later adversary).
    r"!+[ \t]*(?=" + _CODE_UNGROUPED + r"[ \t]*(?:$|[.,;!]))|"
    # Swahili "ni": "alarm code ya nyumba ni 2580" (a new user, in Nairobi); Nigerian
    # Pidgin "na" and "be": "the door code na 5521 o" (a new user, in Lagos).
    r"[ \t]+(?:is|was|ni|na|be|remains|stays|(?:should|will|must|might|may)[ \t]+be|"
    r"takes|has[ \t]+been)"
    r"[ \t]+(?:(?:now|still|currently|again|just|also|actually|probably|definitely|always)"
    r"[ \t]+)?(?:set[ \t]+to[ \t]+)?|"
    r"[ \t]+(?:code[ \t]+)?(?:has[ \t]+)?(?:been[ \t]+)?(?:changed|set|reset)"
    + _WHEN_CHANGED
    + r"[ \t]+to[ \t]+)"
    + _CODE
)
"""A lock named, then its code after a colon, "is" or "changed (today) to"."""
_CHANGED_THE_LOCK = lazy_compile(
    r"(?i)\b(?:changed|reset|switched|updated)[ \t]+(?:the|my|our)[ \t]+"
    r"(?:[a-z][\w'-]*[ \t]+){0,2}?"
    # Not a place one moves to: "updated my locker to 114" may be another locker.
    r"(?!(?:locker|office|ward|building|storage|entry|access)\b)"
    + _OPENS
    + r"(?:[ \t]+lock)?(?:[ \t-]*(?:pass)?(?:code|pin|combination|combo))?"
    + _WHEN_CHANGED
    + r"[ \t]+to[ \t]+"
    + _CODE
)
""""changed the shed padlock to 3390 today" (a new user, an allotment's secretary: kept as
typed)."""
_FROM_ONE_CODE_TO_ANOTHER = (
    r"from[ \t]+" + _CODE + r"[ \t]+to[ \t]+" + _CODE.replace("([*#]?\\d(", "(?P<new>[*#]?\\d(", 1)
)
"""A change's old code (group 1) and its new one (group "new")."""
_CHANGED_THE_CODE_FROM_TO = lazy_compile(
    r"(?i)\b(?:changed|switched|reset|updated)[ \t]+(?:the|my|our)[ \t]+"
    r"(?:[\w'\u2019-]+[ \t]+){0,3}?(?:code|combo|combination|pin|passcode)[ \t]+"
    + _FROM_ONE_CODE_TO_ANOTHER
)
""""I changed the alarm code from 3344 to 5566" (an adversary: both codes kept as typed)."""
_CODE_FOR_A_THING = lazy_compile(
    r"(?i)(?<![\w-])(?:code|pin|combination|combo|passcode)[ \t]+"
    r"(?:for|to|of)[ \t]+(?:(?:the|my|our)[ \t]+|(?<=passcode[ \t]for[ \t])|(?<=pin[ \t]for[ \t]))"
    r"[a-z]+"
    r"(?:[ \t]+(?!(?:in|on|at|since|from|to|by|until|was|is|were|been|\w+ed)\b)[a-z]+){0,2}?"
    r"(?:[ \t]*(?:is|was|:|=|[-\u2013\u2014])[ \t]*(?:now[ \t]+)?|[ \t]+)" + _CODE
)
""""pin for the storage unit 5581", "code for the bin store is 55-81" (an adversary): what
it opens after "for", whatever it is; not a zip code's or a promotion's."""
_PLACE_THEN_CODE = lazy_compile(
    rf"(?i)\b{_OPENS}(?:[ \t]+(?:at|of|for|on|in)(?:[ \t]+[\w'\u2019-]+){{1,4}}?)?"
    r"[ \t]*[-\u2013\u2014,:][ \t]*(?:pass)?(?:code|pin|combination|combo)[ \t]*[:=]?[ \t]*" + _CODE
)
""""key safe at the cottage - code 8080" (an adversary)."""
_THEN_IT_IS = lazy_compile(
    r"(?i)\b(?:pin|code|combination|combo|passcode)[ \t]*,?[ \t]+"
    r"(?:it['\u2019]?s|it[ \t]+is|now[ \t]+it['\u2019]?s)[ \t]+(?:now[ \t]+)?" + _CODE
)
""""plumbcenter changed my trade counter pin its 5096 now" (a new user, a plumber: kept
as typed, and the chat said the message did not give the new one)."""
_WORD_BEFORE = lazy_compile(r"(?<![A-Za-z])([A-Za-z]+)[ \t,]+$")
_BEFORE_A_VERB = frozenset("i we you they to will can should please must".split())
"""Words before "pin" the verb: "I pin for the team 2024 goals" names no PIN."""
_ANOTHER_AFTER = lazy_compile(
    r"[ \t]*,?[ \t]*(?:or|and|else|otherwise)[ \t]+(?:try[ \t]+|maybe[ \t]+|else[ \t]+)?" + _CODE
)
""""Barn door code is 4471, or 4472 if that fails" (an adversary: the second kept)."""
_LABEL_THEN_CODE = lazy_compile(
    rf"(?i)\b(?:lock[ \t-]?box|key[ \t-]?(?:box|safe)|keypad|{_OPENS}(?:[ \t]+remote)?[ \t]+"
    r"(?:pass)?(?:code|combo|combination))" + _NOTE + rf"[ \t]+{_CODE}"
)
"""A code right after its label, no "is": "lock box 2580", "Access code 4471", "Garage
remote code 8812#", "keypad 2580 for the bins", "padlock combo 0-4-9" (adversaries)."""
_LABEL_FIRST = lazy_compile(
    r"(?i)^\W*(?:(?:the|my|our)[ \t]+)?(?:code|pin|combo|combination|passcode)"
    r"(?:[ \t]+(?:is|was|:|=))?[ \t]+"
    + _CODE
    + r"(?=(?:[ \t]*,?[ \t]*(?:btw|fyi|by[ \t]+the[ \t]+way))?[ \t]*,?[ \t]+(?:for|to|of|at|on)\b)"
)
""""Code 55-81 for the bin store", "pin 12 34 for the bike shed", "Code is 4B-719 for the
boat": the label first, then what it opens (a second adversary), a word or two between
("pin 2291 btw, for the garage": a later one)."""
_FEWEST_LABELLED_DIGITS = 4
_CODE_OPENS = lazy_compile(
    r"(?i)(?<![\w-])" + _CODE + r"[ \t]+(?:opens|unlocks)\b"
    # Not a place opening at an hour: "Access Bank branch 01 2712005 opens 8am" (its phone,
    # an adversary saw it redacted).
    r"(?![ \t]+(?:at[ \t]+)?(?:\d{1,2}(?:[:.]\d\d)?[ \t]*(?:am|pm|h)?\b|noon|early|late))"
)
""""8080 opens the cottage key safe" (a second adversary)."""
_COMBO_AFTER = lazy_compile(
    r"(?i)\b(?:combo|combination|combinaci[oó]n|combinaison|combinazione|combina[çc][ãa]o|"
    r"combinatie|kombination|szyfr)[ \t]*[:=]?[ \t]+" + _CODE
)
""""locker 212, combo 1-2-3": a combination is a lock's, whatever it opens (an adversary);
"Candado del trastero, combinación 3842" (a later one: kept as typed)."""
_LOCKS_ANY_LANGUAGE = (
    r"padlock|combination[ \t]+lock|bike[ \t]+lock|lock[ \t-]?box|key[ \t-]?safe|"
    r"vorh(?:ä|ae)ngeschloss|zahlenschloss|fahrradschloss|tresor|schl(?:ü|ue)sselsafe|"
    r"candado|caja[ \t]+fuerte|cadenas|coffre(?:-fort)?|lucchetto|cassaforte|cadeado|"
    r"hangslot|fietsslot|cijferslot|sleutelkluis|kluis|k[łl][óo]dk[aię]|sejf"
)
_LOCK_NOTE = lazy_compile(
    rf"(?i)(?<![\w-])(?:{_LOCKS_ANY_LANGUAGE})"
    r"(?:[ \t]+(?!(?:model|size|type|brand|nr|no|number|item|art|for|für|para|pour|per)\b)"
    r"[\w'\u2019.-]+){0,3}?[ \t]*[:,=-]?[ \t]*"
    + _CODE
    + r"(?=[ \t]*(?:$|[,.;!)]|(?:thanks|thx|ty|pls|please|btw|ok)\b))",
    re.MULTILINE,
)
"""A lock, where it is, then its code, as a note: "Vorhängeschloss Keller 0815", "Tresor im
Büro: 2-14-33", "padlock basement 0815" (an adversary: each kept as typed)."""
_CHANGED_ELSEWHERE = lazy_compile(
    r"(?i)\b(?:\w*code|pin|passwort|c[oó]digo(?:[ \t]+d[oae][ \t]+\w+)?)[ \t]+"
    r"(?:auf|para|a|en|à|a[ \t]+la)[ \t]+" + _CODE + r"(?=[ \t]*(?:ge(?:ä|ae)ndert|$|[.,!]))"
)
""""Ich habe den Alarmcode auf 8888 geändert", "Mudei o código do alarme para 5555" (an
adversary: kept as typed, where the Spanish, French and Italian were redacted)."""
_OPENS_WITH = lazy_compile(
    r"(?i)\b(?:opens?|unlocks?)[ \t]+(?:it[ \t]+|them[ \t]+|the[ \t]+[\w-]+[ \t]+)?with"
    r"[ \t]+(?:(?:the[ \t]+)?(?:code|combination|pin)[ \t]+)?" + _CODE
)
""""The gate opens with 4471", "it opens with the code 4471", "the lock opens with 4 4 7 1",
"opens with code 4471", "unlock with 4471" (adversaries)."""
# These open where a word of letters and hyphens does, not at each of its letters: "a-a-a-…"
# of 300,000 characters was read from every letter to its end, and a turn took minutes (an
# adversary).
_LISTED = lazy_compile(rf"(?i)(?<![\w-])[a-z][\w-]*[ \t]+{_CODE}")
"""Each thing and its code in a list of codes: "codes: door 8264, gate 9912, shed 1234"
(adversaries). Only after "codes:" or "code:" in the same sentence: "gate 14" alone is an
airport's."""
_NAMED_CODE = lazy_compile(
    r"(?i)\b(?!(?:zip|postal|post|postcode|area|country|dial(?:ling)?|error|status|exit|"
    r"promo|discount|coupon|voucher|gift|referral|tracking|product|colou?r|dress|source|qr|"
    r"bar|cheat|morse|tax|bank|sort|swift|routing|airport|flight|course|class|room|"
    # A PIN's and a PUK's own rules read how their digits are grouped (`agent.redact`):
    # here "PIN code is 4-8-2-1 4111 …" took the card number's first group along.
    r"pin|puk)\b)"
    r"[a-z]+[ \t]+(?:code|combination|combo)"
    r"(?:[ \t]+(?:for|to|of|at)[ \t]+(?:the|my|our)[ \t]+[a-z]+(?:[ \t]+[a-z]+)?)?"
    r"[ \t]*(?:is|was|:|=)[ \t]*(?:now[ \t]+)?" + _CODE
)
""""The mailbox code is 5823", "the storage unit code is 5823" (a second adversary), "the key
code for the office is 4821" (a later one): a thing's code, but for the codes that open
nothing (a zip, an area, an error, a promotion …)."""
_PIN_GIVEN = lazy_compile(
    r"(?im)\bpin[ \t]+(\d{4,8})(?=[ \t]*(?:\r?$|[,.;:!)]|for\b|and\b)"
    r"|(?<!\b19\d\d)(?<!\b20\d\d)(?![ \t]+(?:as|of|to|in|on|at|into|onto)\b)[ \t]+\w)"
)
""""pin 4471 for the new card" (a second adversary); not "pin 2024 as the year to
remember" (pin, the verb) or "pin 12 of the chip". At a line's end too: "netflix pin 4387"
then a line of its own was kept as typed (a later adversary). Then any word but a year's
or a verb's: "pin 4321 thanks", and 100,000 characters of "pin 4321 " cut off after a "p"
(an adversary saw each kept as typed)."""
_PIN_OF_A_THING = lazy_compile(
    r"(?i)\bpin(?:-?code)?[ \t]+(?:della|dell['\u2019]|del|de(?:[ \t]+la)?|di|du|der|des|van|do|"
    r"da|dla|för|til|meiner|meines|meinem|seiner|ihrer|van[ \t]+mijn)[ \t]+"
    r"(?:[\w'\u2019-]+[ \t]+){0,2}?"
    r"(?:(?::|=|è|es|ist|is|é|est|jest)[ \t]*)?"
    r"(\d{4,8})(?![\d])"
)
""""PIN della carta 4821", "el pin de la tarjeta 4821" (an adversary: kept as typed, where
"il PIN del bancomat è 4821" was redacted)."""
_DESCRIBED_THEN_GIVEN = lazy_compile(
    r"(?i)\b(?:pin|passcode|(?:door|gate|alarm|safe|garage)[ \t]+code)(?:[ \t]+(?:number|code))?"
    r"[ \t]+is[ \t]+(?:the|a|my|our)[ \t]+[^\d\n,;:]{3,60}?[ \t]*[,:;\u2013\u2014-][ \t]*"
    r"(?:it['\u2019]?s[ \t]+|so[ \t]+)?(\d{4,8})(?![\d])"
)
""""my pin is the year my dad died backwards, 9102": said by what it is, then given (an
adversary: kept as typed)."""
_SET_THE_CODE_TO = lazy_compile(
    r"(?i)\b(?:set|changed|reset|switched|updated)[ \t]+(?:the|my|our)[ \t]+"
    rf"(?!(?:{NOT_SECRET_CODES})\b)(?:[\w'-]+[ \t]+)?"
    r"(?:pin|passcode|code|combination|combo)[ \t]+to[ \t]+" + _CODE
)
""""I set the pin to 2 4 6 8 0" (a second adversary saw the last digit kept); not "changed the
zip code to 90210"."""
_LIST_OF_CODES = lazy_compile(
    r"(?i)(?:\b(?P<what>[a-z0-9]+)[ \t]+)?\bcodes?"
    r"(?P<label>[ \t]*(?::|[-\u2013\u2014]|\b(?:are|were)\b)"
    # Backup codes need no separator: "backup codes 1234-5678 8765-4321" (an adversary).
    r"|(?<=backup[ \t]codes)|(?<=backup[ \t]code)|(?<=recovery[ \t]codes)|(?<=recovery[ \t]code))"
    r"[^\n.!?]*"
    # Its items on lines of their own: "codes:\n- alarm 1234\n- gate 5678" (an adversary),
    # or a code alone on each line: "2FA recovery codes\n8f3k-29dk\n1kd9-3jf8" (a later one).
    r"(?:\n[ \t]*(?:(?:[-*\u2022]|\d{1,2}[.)])[ \t]+[^\n]*"
    r"|(?=[^\n]*\d)[A-Za-z0-9]{3,10}(?:[- ][A-Za-z0-9]{3,10}){0,3}[ \t]*(?=\n|$)))*"
)
"""A list of codes: after "codes:", "codes -", "backup codes are" (adversaries: bare numbers
and items after a ";" were kept); not zip codes or promo codes."""
_ITEM_STARTS = lazy_compile(r"[,;\n]|\b(?:and|or)\b")


def _an_item(before: str) -> bool:
    """Whether a number is an item of a list: two words at most since the last separator.

    "door code: ask the landlord on 0176 8888888" lists no code (an adversary saw the phone
    number redacted); "codes: front 1234, backup 9999" does.
    """
    last = list(_ITEM_STARTS.finditer(before))
    since = before[last[-1].end() :] if last else before
    return len(since.split()) <= 2


_BARE_IN_LIST = lazy_compile(
    rf"(?<![\w-]){_CODE}|(?<![\w-])((?=[A-Za-z0-9-]{{6,}})(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9]{{2,}}"
    r"(?:-[A-Za-z0-9]{2,})*)(?![\w-])"
)
"""A code of a list: digits, or letters and digits ("ABCD-1234", "a1b2c3d4": a second
adversary's backup codes were kept)."""
_CODE_FIRST = lazy_compile(
    rf"(?i)(?<![\w-]){_CODE}[ \t]+is[ \t]+(?:the|my|our)[ \t]+(?!(?:{NOT_SECRET_CODES}|pin|puk)\b)"
    r"(?:[a-z]+[ \t]+){0,2}(?:code|combination|combo|pin)\b"
)
""""5823 is the mailbox code" (an adversary)."""
_UNLOCK = lazy_compile(
    rf"(?i)\b(?:to[ \t]+unlock(?:[ \t]+it)?[ \t]*,?[ \t]*(?:use|enter|type|press)|"
    rf"unlock[ \t]+(?:code|pin))[ \t]*:?[ \t]*{_CODE}"
)
""""to unlock use 4471", "unlock code 4471" (a second adversary)."""
_DISARMED_WITH = lazy_compile(
    r"(?i)\b(?:disarm|arm|unlock|open|silence|turn[ \t]+off|switch[ \t]+off)[ \t]+"
    r"(?:(?:the|my|our)[ \t]+)?(?:[\w'-]+[ \t]+)?"
    + _OPENS
    + r"(?:[ \t]+(?:with|using|by[ \t]+(?:typing|entering|pressing))|[ \t]*,?[ \t]*(?:type|enter|"
    r"press|punch[ \t]+in|key[ \t]+in|use))[ \t]+(?:(?:the[ \t]+)?(?:code|pin)[ \t]+)?" + _CODE
)
""""disarm the alarm with 1919", "open the gate using 4471", "to turn off the alarm type 1923",
"to disarm the alarm, punch in 2020" (adversaries: kept as typed)."""
_DISARMING_CODE = lazy_compile(r"(?i)\bdisarm(?:ing)?[ \t]+(?:code|pin)[ \t]*[:=]?[ \t]*" + _CODE)
""""disarm code 1920" (a second adversary: kept as typed)."""
_LOCK_IN_A_LIST = lazy_compile(
    r"(?im)(?:^[ \t]*|[,;:][ \t]*)" + _OPENS + r"[ \t]+(\d{4,8})(?=[ \t]*(?:[,;.]|$))"
)
""""Lisbon flat: wifi BlueFish22, door 1357, landlord Rui", "bike lock 4455": a lock and its
digits as an item of a list, or the whole of it (an adversary: kept as typed)."""
ASKED_THEN_ANSWERED = (
    # "the wifi?: Daisy26" (an adversary).
    r"\?+:?[ \t]*(?:(?:oh|ah|right|yes|yeah|well|ok|okay)[ \t,]+){0,2}"
    r"(?:(?:it['\u2019]?s|it[ \t]+is)[ \t]+)?"
)
"""The question's mark, then how its answer may open: "? oh right, it's ", "? "."""
_CODE_ASKED_THEN_GIVEN = lazy_compile(
    r"(?i)(?:\b(?:code|combo|combination|passcode|pin)\b[^?\n.]{0,40}|\b"
    # What it opens alone: "the alarm? 7412" (a later adversary: kept, and the chat's title).
    + _OPENS
    + r")"
    + ASKED_THEN_ANSWERED
    + _CODE
)
""""the code for the front door? it's 4590", "door code? 4590", "the pin for the safe? 9080",
"the alarm? 7412" (adversaries: kept as typed, and in the chat's title)."""
_CHANGED_THEN_IT_IS = lazy_compile(
    r"(?i)\b(?:changed|reset|switched|updated)[ \t]+(?:the|my|our)[ \t]+"
    r"(?:[a-z][\w'-]*[ \t]+){0,2}?"
    + _OPENS
    + r"(?:[ \t]+lock)?(?:[ \t-]*(?:pass)?(?:code|pin|combination|combo))?[ \t]*[,;:\u2013\u2014-]"
    r"[ \t]*(?:it['\u2019]?s|it[ \t]+is)[ \t]+(?:now[ \t]+)?" + _CODE
)
""""changed the shed padlock, it's 5555 now" (a second adversary: kept as typed)."""
_CODE_ITEM_AFTER_A_LOCK = lazy_compile(
    rf"(?i)\b{_OPENS}\b[^.\n]{{0,40}}?[,;][ \t]*(?:the[ \t]+)?"
    r"(?:pass)?(?:code|pin|combo|combination)"
    r"[ \t]*[:=]?[ \t]*(\d{4,8})(?=[ \t]*(?:[,;.!]|$))"
)
""""buzzer 12, code 3344": a code as an item of a list about a lock (an adversary)."""
_PIN_AFTER_ASKING = lazy_compile(r"(?i)\bpin\?[ \t]*(?:[\w'\u2019]+[ \t,]+){0,3}(\d{4,8})\b")
""""what's my pin? oh right, 4471", "the pin? 4471" (a second adversary)."""
_ANOTHER_PIN = lazy_compile(
    r"(?i)\bpins?\b[^.!?\n]{0,40}?\b(?:and[ \t]+)?(?:mine|his|hers|theirs|ours|[a-z]+['\u2019]s)"
    r"[ \t]+(?:is|was)[ \t]+(\d{4,8})\b|\bpins?\b[^\n]{0,40}?[.;][ \t]*(?:my|his|her|their)"
    r"[ \t]+[a-z]+['\u2019]s[ \t]+(?:is|was)[ \t]+(\d{4,8})\b"
)
""""Her PIN is 1234 and mine is 5678", "my PIN is 4471. My wife's is 9911." (a second
adversary: the second PIN was kept)."""
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_PIN_IN_WORDS = lazy_compile(
    rf"(?i)\b(?:pin|passcode|code|combo|combination)[ \t]*(?:number[ \t]+)?"
    r"(?:(?:is|was)(?:[ \t]+now)?|:|=)?[ \t]*"
    rf"({_DIGIT_WORD}(?:[ \t,-]+{_DIGIT_WORD}){{3,7}})\b"
)
""""My bank PIN is four four seven one", "the gate code is now one three five seven",
"Villa PIN four four seven one" (adversaries)."""
_OPENS_IN_WORDS = lazy_compile(
    rf"(?im)(?:^|(?<=[.!?,;][ \t]))[ \t]*(?:(?:the|my|our)[ \t]+)?{_OPENS}"
    r"(?:[ \t]+(?:at|in|on|for)[ \t]+(?:(?:the|my|our)[ \t]+)?[\w'-]+(?:[ \t]+[\w'-]+)?)?"
    rf"[ \t]*(?::|=|\bis\b)[ \t]*({_DIGIT_WORD}(?:[ \t,-]+{_DIGIT_WORD}){{3,7}})\b"
)
""""key safe: zero four one one": what it opens first, then a colon or "is" (an adversary);
its place between ("the key safe at the cottage is four seven one one": a new user); after
"pin for the …" it is a PIN's, read by `_PIN_IN_WORDS`."""
_CODE_TO = lazy_compile(
    rf"(?i)\b(?:code|combination|combo|pin)[ \t]+(?:to|for|of)[ \t]+"
    rf"(?:the[ \t]+|my[ \t]+|our[ \t]+)?{_OPENS}(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+){_CODE}"
)
""""Code to the key safe: 2580"."""
_CODE_TO_GET_IN = lazy_compile(
    r"(?i)\b(?:code|combination|combo|pin)[ \t]+to[ \t]+(?:get[ \t]+in(?:to)?|open|enter|unlock)"
    r"(?:[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[a-z]+(?:[ \t]+[a-z]+)?)?"
    rf"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+(?:now[ \t]+)?){_CODE}"
)
"""'the code to get in is 5521', 'the code to get into the flat is 5530' (an adversary)."""
_KEYPAD_CODE = lazy_compile(rf"(?i)\b{_OPENS}[ \t]+(?:code[ \t]+)?[*#]?(\d{{3,8}})#(?!\w)")
"""A code ended by the keypad's "#" after what it opens: "building entry 3390#" (an
adversary)."""
_USE_FOR = lazy_compile(
    rf"(?i)\b(?:use|enter|type|buzz|press|punch[ \t]+in|key[ \t]+in|tried|typed|entered|"
    rf"punched[ \t]+in)[ \t]+{_CODE}[ \t]+"
    rf"(?:(?:for|at|on|to[ \t]+open|into|in)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?{_OPENS}\b"
    r"|to[ \t]+(?:get[ \t]+in(?:to)?|open|unlock|enter)\b)"
)
""""Use 8812 for the front door", "Buzz 4471 at the gate"; "tried 5555 on the keypad and it
worked", "use 7734 to get in the building" (an adversary: both kept as typed)."""
_PRESSED = lazy_compile(
    rf"(?i)\b{_OPENS}\b[^.\n]{{0,25}}?\b(?:press|punch(?:[ \t]+in)?|enter|key[ \t]+in|type|"
    r"dial|hit)[ \t]+(?:(?:star|hash|pound|\*|#)[ \t]+(?:then[ \t]+)?)?" + _CODE
)
""""gate: press star then 7391 then hash", "for the gate press * 7391 #" (an adversary: each
kept as typed)."""
_STAR_THEN_HASH = lazy_compile(
    r"(?i)(?<![\w-])(?:star|\*)[ \t,]+(?:then[ \t]+)?(\d(?:[ \t]?\d){2,7})[ \t,]+(?:then[ \t]+)?"
    r"(?:hash|pound|#)(?![\w-])"
)
_HASH_THEN_STAR = lazy_compile(
    r"(?i)(?<![\w-])(?:hash|pound|#)[ \t]+(?:then[ \t]+)?(\d{3,8})[ \t]+(?:then[ \t]+)?"
    r"(?:star|\*)(?![\w-])"
)
""""it's star 4821 hash", "tap star 4821 hash", "press hash 4821 star": a keypad's code
however it is pressed (an adversary: each kept as typed)."""
_THEN_A_KEY = lazy_compile(
    r"(?i)\b(?:press|punch(?:[ \t]+in)?|key[ \t]+in|enter|type|tap)[ \t]+(\d(?:[ \t]?\d){2,7})"
    r"[ \t,]+(?:and|then|&)[ \t]+(?:then[ \t]+)?(?:hit|press|tap|push)[ \t]+(?:the[ \t]+)?"
    r"(?:hash|pound|#|star|\*)(?:[ \t]+(?:key|button))?(?![\w-])"
)
""""punch in 4821 and hit #" (an adversary: kept as typed)."""
_THE_CODES = lazy_compile(
    r"(?i)\b(?:the|my|our)[ \t]+(?!(?:zip|post|postal|promo|area|error|country|dial)\b)"
    r"(?:[\w-]+[ \t]+)?(?:pass)?code['\u2019]s[ \t]+(?:now[ \t]+|still[ \t]+)?" + _CODE
)
""""the code's 2580 btw" (an adversary: kept as typed)."""
_CODE_NAMED_AFTER = lazy_compile(
    r"(?i)\b(?:it['\u2019]?s|it[ \t]+is)[ \t]+" + _CODE + r"(?:[ \t]*[,\u2013\u2014-][ \t]*"
    r"(?:the|my|our)[ \t]+(?:[\w'\u2019-]+[ \t]+){0,2}?(?:pass)?(?:code|pin|combo|combination)\b"
    r"|[ \t]+for[ \t]+(?:the|my|our)[ \t]+" + _OPENS + r"\b)"
)
""""it's 4590, the door code I mean" (an adversary: kept as typed)."""
_DIAL_COMBO = lazy_compile(
    r"(?i)\b(?:combo|combination|code)(?:[ \t]+(?:is|was))?[ \t]*[:=]?[ \t]+"
    r"((?:left|right|l|r)[ \t]*\d{1,2}"
    r"(?:[ \t]*,?[ \t]+(?:then[ \t]+)?(?:left|right|l|r)[ \t]*\d{1,2}){1,4})\b"
)
""""safe combo is left 32 right 14 left 8": a dial's turns (an adversary: kept as typed)."""
_CODE_GIVEN = lazy_compile(
    r"(?i)\b(?:gave|sent|texted|told|emailed)[ \t]+(?:me|us)[ \t]+the[ \t]+(?:pass)?code"
    r"[ \t]*[,:\u2013\u2014-][ \t]*" + _CODE
)
""""neighbor gave me the code, 8080"; "it's 4329 for the gate" above (a second adversary:
each kept as typed)."""
_FOREIGN = lazy_compile(
    r"(?i)\b(?:c[oó]digo[ \t]+(?:de[ \t]+(?:la[ \t]+)?|del[ \t]+)(?:puerta|port[oó]n|alarma|"
    r"garaje|portal|entrada)|code[ \t]+(?:de[ \t]+la[ \t]+|du[ \t]+|de[ \t]+l['\u2019])"
    r"(?:porte|portail|alarme|garage|entr[ée]e|immeuble)|t(?:ü|ue)rcode|torcode|alarmcode|"
    r"tresorcode|haust(?:ü|ue)rcode)[ \t]*(?::|=|\b(?:es|est|ist|lautet|é)\b)[ \t]*" + _CODE
)
""""El código de la puerta es 4471", "Le code de la porte est 4471", "Türcode: 4471"."""
_NOT_OF_A_LOCK = (
    r"(?!(?:zip|post|postal|promo\w*|area|error|fehler|erreur|rabatt|gutschein|descuento|"
    r"barras|barre|bar|de[ \t]+barras|de[ \t]+descuento|de[ \t]+error|qr|corso|curso|cours|"
    r"kurs|course|prodotto|producto|produit|articolo|art[ií]culo|fiscale?)\b)"
)
_SAID_ELSEWHERE = (
    r"(?:[ \t]+"
    + _NOT_OF_A_LOCK
    + r"(?!(?:ist|es|est|é|è|lautet|wurde|mudou|cambi[oó]|sigue|continua)\b)"
    r"[\w'\u2019-]+){0,6}?[ \t]*(?::|=|\b(?:ist(?:[ \t]+(?:jetzt|immer[ \t]+noch|weiterhin|noch))?|"
    r"lautet|es(?:[ \t]+ahora)?|sigue(?:[ \t]+siendo)?|est(?:[ \t]+(?:maintenant|toujours))?|"
    r"é(?:[ \t]+(?:agora|ainda))?|continua(?:[ \t]+(?:a[ \t]+ser|sendo))?|"
    r"è(?:[ \t]+(?:ancora|sempre))?|wurde[ \t]+auf|mudou[ \t]+para|"
    r"geändert[ \t]+(?:zu|auf|in)|"
    r"cambi[oó][ \t]+a|a[ \t]+chang[ée][ \t]+(?:en|à|pour)|(?:ha|fue)[ \t]+cambiado[ \t]+a)"
    # And a colon after the verb: "Il PIN del bancomat è: 4829" (an adversary: kept).
    r"(?!\w)(?:[ \t]*:)?)[ \t]*"
)
"""A code's or password's label, up to six words of what it opens ("für die Garage", "do
portão", "wifi", "de la puerta del portal": a translator's was kept) and its verb in German,
Spanish, French or Portuguese."""
_CODE_ELSEWHERE = lazy_compile(
    r"(?i)(?<![\w-])(?!(?:zip|post|promo|area|error|fehler|erreur|rabatt|gutschein|bar|qr|status|"
    r"exit|farb|color|colour|quell|source)[\w-]*code\b)(?:[\w-]*code|c[oó]digo|codice|"
    r"geheimzahl|pin|combinaci[oó]n|combina[cç][aã]o|combinazione|kombination)"
    + _SAID_ELSEWHERE
    + _CODE
)
""""Der Alarmcode wurde auf 8080 geändert", "Der neue Code für die Garage ist 7788", "O
código do portão mudou para 1357", "el código es 1357" (an adversary: each kept). "Il PIN
del bancomat è 9090", "Meu PIN é 4455", "mi pin del banco ha cambiado a 1122" (a later one:
a PIN in another language was kept; "is" is English's, read by `agent.redact`)."""
_LOCKS_ELSEWHERE = (
    r"puerta|port[oó]n|portal|alarma|garaje|cancello|portone|allarme|porta|port[aã]o|alarme|"
    r"garagem|porte|portail|t(?:ü|ue)r|tor|garage|alarm|haust(?:ü|ue)r|entr[ée]e|immeuble"
)
_LOCKS_BEFORE_A_COLON = _LOCKS_ELSEWHERE.replace("|tor|", "|")
"""Not "Tor:": a goal too ("Tor: 2024 Endspiel in Berlin", an adversary saw it redacted)."""
_FOREIGN_LABEL_THEN_CODE = lazy_compile(
    r"(?i)\b(?:c[oó]digo|codice|code)[ \t]+(?:(?:de[ \t]+la|de[ \t]+l['\u2019]|del|dell['\u2019]|"
    r"della|de|do|da|du|des|d['\u2019]|f(?:ü|ue)r[ \t]+(?:die|das|den))[ \t]*)?"
    rf"(?:{_LOCKS_ELSEWHERE})"
    r"(?:[ \t]+(?:de[ \t]+l['\u2019]|de|du|des|d['\u2019])[ \t]*[\w'\u2019-]+)?"
    r"[ \t]*(?::|\b(?:is|est|es|ist|è|é)\b)?[ \t]+"
    r"[\"'`\u201c\u2018]?[*#]?((?=[0-9A-Z]*\d)[0-9A-Z]{3,10}|\d(?:[\d \t-]|[*#](?=\d)){1,10}\d)"
    r"[*#]?(?![\w-])"
)
""""Codice del cancello 7788", "Código de la puerta 2580", "Code für die Tür 4471" (a
translator: the label and its code with no verb between, kept), "code porte 3B77A", "code
d'entrée 2208" (an adversary: a French door's code may hold letters)."""
_CODE_WORD_ELSEWHERE = lazy_compile(
    r"(?i)(?<![\w-])(?:[\w-]*kod(?:e|en|u)?|[\w-]*koodi|код\w*)\b(?:[ \t]+[\w-]+){0,2}?[ \t]*"
    r"[:=]?[ \t]*(\d{4,8})(?![\w-])"
    r"|(?:コード|暗証番号|パスコード)[^\d\n]{0,8}?(?<!\d)(\d{4,8})(?!\d)"
)
"""A code in Swedish, Danish, Finnish, Polish, Turkish, Russian, Japanese: "larmkod 1234",
"pinkode 4414", "hälytyskoodi 4415", "kod do alarmu 5566", "alarm kodu 9988", "код домофона
4418", "ドアのコード 4417" (an adversary: each kept as typed)."""


_YEAR_WORD_AFTER = lazy_compile(r"(?i)[ \t]*(?:y[ıi]l\w*|year|jahr\w*|år\w*|vuon\w*|rok\w*|roku)\b")


def _a_year_said_after(found: re.Match[str]) -> bool:
    """A year after words, not a code: "larmkoden byttes 2019".

    The code changed in 2019, as "ドアのコードは2019年に変更" says too: a later adversary saw
    the year redacted.
    """
    group = 1 if found[1] else 2
    if not a_year(found[group]):
        return False
    if found.string[found.end(group) : found.end(group) + 1] == "年":
        return True
    if _YEAR_WORD_AFTER.match(found.string, found.end(group)):
        return True  # "kodu 2023 yılında yazdım": "in the year 2023" (an adversary)
    return len(found.string[found.start() : found.start(group)].split()) > 1


_TWO_FACTOR = lazy_compile(
    r"(?i)\b(?:2fa|mfa|otp|totp|two[- ]factor)[ \t]+(?:backup|recovery)(?:[ \t]+codes?)?"
    r"[ \t]*[:=-]?[ \t]*((?=[\w-]*\d)[\w-]{6,})"
)
""""2FA backup: 11112222" (an adversary)."""
_LOCK_THEN_ITS_CODE = lazy_compile(
    rf"(?i)(?<![\w-])(?:{_OPENS}|schl(?:ü|ue)ssel(?:box|kasten|safe|tresor)|tresor)"
    r"(?:[ \t]+(?!(?:error|area|zip|post|postal|promo|discount|booking|dress|country|dial|"
    r"bar|qr|source|tracking|order|reference|fehler|gutschein|rabatt)\b)[\w'\u2019.-]+){1,6}?"
    r"[ \t]+(?:pass)?code[ \t]*[:=]?[ \t]*" + _CODE
)
"""A lock, what it is of, then its code, as a note is written: "Schluesselsafe Baustelle Nowak
Code 4711", "Der Schlüsselsafe an der Baustelle Meier hat den Code 9911", "key safe at the
Meier site code 9911" (a new user, an electrician: each kept, and shown to the model)."""
_LOCK_ELSEWHERE_THEN_CODE = lazy_compile(
    r"(?i)\b(?:(?:t(?:ü|ue)r|tor|alarm|garagen|haust(?:ü|ue)r|tresor|zugangs|schloss)code"
    r"[ \t]*(?::|=)?|schl(?:ü|ue)ssel(?:box|kasten|safe|tresor)[ \t]*(?:code)?[ \t]*:?|"
    r"(?:alarmanlage|zahlenschloss|digicode|interphone|"
    + _LOCKS_BEFORE_A_COLON
    + r")[ \t]*[:=])[ \t]*"
    + _CODE
)
""""Türcode 5858", "Torcode 3434", "Alarmanlage: 7788" (an adversary: each kept); not
"garage 120 sqm": a lock's word alone is followed by a colon."""
_DIGICODE = lazy_compile(
    r"(?i)\bdigicode(?:[ \t]+(?:de|du|des|d['\u2019]|for|of|at|to)[ \t]*(?:(?:the|my|our)[ \t]+)?"
    r"[\w'\u2019-]+(?:[ \t]+[\w-]+)?)?"
    r"[ \t]*(?::|=|\best\b|\bc['\u2019]est\b|\bis\b|\bwas\b)[ \t]*(?:now[ \t]+)?"
    r"((?=[0-9A-Z]*\d)[0-9A-Z]{3,8})(?![\w-])"
)
""""le digicode de Lyon est 7A42B", "le digicode est 4B12", "the digicode for our building is
4B719" (a new user, a pharmacist in Lyon): a French door's keypad takes
letters too (an adversary: both kept)."""
_FOREIGN_DIGIT_WORD = (
    r"(?:cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|zero|due|tre|quattro|cinque|sei|"
    r"sette|otto|nove|um|dois|tr[eê]s|quatro|sete|oito|z[ée]ro|un|deux|trois|quatre|cinq|six|"
    r"sept|huit|neuf|null|eins|zwei|drei|vier|f(?:ü|ue)nf|sechs|sieben|acht|neun)"
)
_PIN_IN_FOREIGN_WORDS = lazy_compile(
    r"(?i)\b(?:pin|c[oó]digo|codice|code|geheimzahl)"
    + _SAID_ELSEWHERE
    + rf"({_FOREIGN_DIGIT_WORD}(?:[ \t,-]+{_FOREIGN_DIGIT_WORD}){{3,7}})\b"
)
""""mi pin es uno dos tres cuatro", "il codice è sette sette otto otto" (number words in
Spanish, Italian, Portuguese, French or German)."""
_PASSWORD_ELSEWHERE = lazy_compile(
    r"(?i)(?<![\w-])(?:[\w-]*passwort|kennwort|contrase[ñn]a|clave|mot[ \t]+de[ \t]+passe|senha|"
    r"palavra-passe)"
    + _SAID_ELSEWHERE
    + r"[\"'`\u201c\u2018\u00ab]?((?=[^\s,;]*[\d_@#$%&*!+=])[^\s\"'`\u201d\u2019\u00bb,;]{3,}?)"
    r"[\"'`\u201d\u2019\u00bb]?"
    r"(?=[.!?]?(?:\s|$)|[,;])"
)
""""Das WLAN-Passwort wurde auf Blume22 geändert", "Le mot de passe wifi est tulip77" (an
adversary: each kept). A value with a digit or a sign only: "Le mot de passe est trop
court" says no password (`agent.password_wordings` reads those said plainly)."""
_THE_NEW_ONE = lazy_compile(
    r"(?i)\b(?<!zip[ \t])(?<!promo[ \t])(?:pin|passcode|code|c[oó]digo|clave|codice)\b"
    r"[^.!?\n\d]{0,40}?[,;:\u2013\u2014-][ \t]*(?:and[ \t]+|y[ \t]+|e[ \t]+)?"
    r"(?:(?:the[ \t]+)?new[ \t]+one[ \t]+|it[ \t]+|now[ \t]+it[ \t]+|ahora[ \t]+|"
    r"(?:el|il|o)[ \t]+nuevo[ \t]+|il[ \t]+nuovo[ \t]+|o[ \t]+novo[ \t]+|ora[ \t]+|agora[ \t]+)?"
    r"(?:is|['\u2019]s|es|è|é)[ \t]+(?:now[ \t]+|ahora[ \t]+)?" + _CODE
)
""""he cambiado el pin de bbva, ahora es 5408", "changed my bbva app pin, the new one is
6620" (a translator: both kept, and the chat said the new PIN was not given)."""
_CLAVE = lazy_compile(
    r"(?i)\bclave[ \t]*:?[ \t]+(\d{4,8})(?![\d.,/:-]?\d)(?![ \t]*(?:€|eur|euros?|%))"
)
""""tarjeta nueva: clave 8812" (a translator's card PIN was kept)."""
_CHANGED_FROM_TO = lazy_compile(
    r"(?i)\b(?:code|combo|combination|pin|passcode)[ \t]+"
    r"(?:was[ \t]+|has[ \t]+been[ \t]+|got[ \t]+)?"
    r"(?:changed|switched|reset|updated)[ \t]+" + _FROM_ONE_CODE_TO_ANOTHER
)
""""the shed padlock combo changed from 4321 to 8765" (an adversary: both codes saved, and
shown to the model in a note)."""
_PIN_PAIRS = lazy_compile(r"(?i)\bpin[ \t]*(?:is|was|:|=)[ \t]*(\d\d[ .-]\d\d)(?![\d.-]?\d)")
""""pin is 44-71": two pairs (single digits spaced are read in `agent.redact`)."""
_PUK = lazy_compile(
    r"(?i)\bpuk2?(?:[ \t]*code)?[ \t]*(?:(?:is|was)(?:[ \t]+now)?|:|=)?[ \t]*"
    r"(\d{8}|\d{4}([ .-])\d{4}(?!\2\d{4})|\d\d([ .-])\d\d(?:\3\d\d){2}(?!\3\d\d))"
    r"(?![\d.-]?\d)"
)
"""A PUK's eight digits, in groups too ("puk is 1234 5678": an adversary found it kept), but
not the start of a longer run of groups."""
_HINTS = (
    "door", "gate", "garage", "alarm", "keypad", "intercom", "buzz", "lock", "key", "safe",
    "vault", "building", "entry", "access", "código", "codigo", "code", "pin", "puk",
    "tür", "tuer", "tor", "tresor", "mail", "letter", "post", "locker", "shed", "storage",
    "combination", "combo", "unlock", "passwort", "kennwort", "contrase", "clave", "passe",
    "senha", "codice", "geheimzahl", "padlock", "opener", "anlage", "schloss", "schlüssel",
    "schluessel", "puerta", "port", "cancell", "allarm", "garaj", "combina", "kombination",
    "tried", "typed", "entered", "use", "gave", "sent", "texted", "told", "it's", "its",
    "kod", "koodi", "код", "コード", "暗証", "2fa", "mfa", "otp", "alarmanlage",
    "candado", "cadenas", "lucchetto", "cassaforte", "cadeado", "slot", "kluis", "kłódk",
    "klodk", "sejf", "coffre", "caja fuerte", "star", "hash", "pound", "punch", "press", "#",
)  # fmt: skip


def code_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the codes `text` gives in these wordings (a bike lock's kept)."""
    return [span for span, bike in _found_codes(text) if not bike]


def bike_code_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the bike locks' codes `text` gives, kept in what is saved.

    Shown to the model only when asked for (`agent.asked_secrets`): an adversary's "Bike
    lock combination is 3-7-1-9" went to the model for questions about anything else.
    """
    merged: list[tuple[int, int]] = []
    for start, end in sorted(span for span, bike in _found_codes(text) if bike):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


@lru_cache(maxsize=512)
def _found_codes(text: str) -> tuple[tuple[tuple[int, int], bool], ...]:
    """Each code's span, and whether it is a bike lock's.

    Read once per text: a recalled memory is read again each turn, and a pasted log of
    3,000 lines took a second of every turn that recalled it (a new user, an engineer).
    Read again with brackets and bars as spaces (one for one, so every span stays where it
    is): "the {alarm} is 7417", "<alarm> 7418", "[alarm code] 7429", "| alarm | 4411 |",
    "the alarm code (4430)" (an adversary: each kept as typed, and shown to the model).
    """
    lowered = text.lower()
    if not any(hint in lowered for hint in _HINTS):
        return ()
    found = _codes_in(text)
    if _BRACKETS.search(text):
        spaced = _BRACKETS.sub(" ", text)
        known = {span for span, _ in found}
        found += [(span, bike) for span, bike in _codes_in(spaced) if span not in known]
    return tuple(found)


_BRACKETS = lazy_compile(r"[{}\[\]()<>|]")


def _codes_in(text: str) -> list[tuple[tuple[int, int], bool]]:
    rules = (
        *(_LABELLED, _LABEL_THEN_CODE, _OPENS_WITH, _CODE_TO, _USE_FOR, _FOREIGN),
        *(_NAMED_CODE, _PIN_GIVEN, _CODE_FIRST, _PIN_IN_WORDS, _UNLOCK),
        *(_CODE_TO_GET_IN, _KEYPAD_CODE, _CODE_ELSEWHERE, _PASSWORD_ELSEWHERE),
        *(_PIN_AFTER_ASKING, _FOREIGN_LABEL_THEN_CODE, _PIN_IN_FOREIGN_WORDS),
        *(_THE_NEW_ONE, _CLAVE, _LOCK_ELSEWHERE_THEN_CODE, _DIGICODE, _CHANGED_THE_LOCK),
        _LOCK_THEN_ITS_CODE,
        _LOCK_NOTE,
        _PIN_OF_A_THING,
        _DESCRIBED_THEN_GIVEN,
        _PLACE_THEN_CODE,
        _COMBO_AFTER,
        _CHANGED_ELSEWHERE,
        _CODE_OPENS,
        _SET_THE_CODE_TO,
        _CODE_NAMED_AFTER,
        _CODE_GIVEN,
        _DIAL_COMBO,
        _THE_CODES,
        _PRESSED,
        _STAR_THEN_HASH,
        _HASH_THEN_STAR,
        _THEN_A_KEY,
        _OPENS_IN_WORDS,
        _DISARMED_WITH,
        _DISARMING_CODE,
        _LOCK_IN_A_LIST,
        _CODE_ASKED_THEN_GIVEN,
        _CODE_ITEM_AFTER_A_LOCK,
        _CHANGED_THEN_IT_IS,
        _TWO_FACTOR,
    )
    found = [match for rule in (*rules, _PIN_PAIRS, _PUK) for match in rule.finditer(text)]
    spans_elsewhere = [
        (match.span(1) if match[1] else match.span(2), False)
        for match in _CODE_WORD_ELSEWHERE.finditer(text)
        if not _a_year_said_after(match)
    ]
    spans = [
        (match.span(1), a_bike_lock(text, match.start()))
        for match in found
        if not (
            alarm_time(match, match.re.pattern == _DISARMED_WITH.pattern)
            or a_lockers_number(match)
            or of_no_secret(text, match)
            or postal_pin(text, match.start(), match[1], match.group())
            or _a_price_of(match)
        )
    ]
    for rule in (_CHANGED_FROM_TO, _CHANGED_THE_CODE_FROM_TO):
        for match in rule.finditer(text):
            spans += [(match.span(1), False), (match.span("new"), False)]
    spans += _checked_codes(text) + spans_elsewhere
    # A second code offered after the first: "4471, or 4472 if that fails".
    for (_start, end), bike in list(spans):
        if (after := _ANOTHER_AFTER.match(text, end)) is not None:
            spans.append((after.span(1), bike))
    for match in _ANOTHER_PIN.finditer(text):
        spans.append((match.span(1) if match[1] else match.span(2), False))
    for listed in _LIST_OF_CODES.finditer(text):
        if listed["what"] and NO_SECRETS_CODE.fullmatch(listed["what"]):
            continue  # "zip codes: 10115, 10117"
        for item in _BARE_IN_LIST.finditer(text, listed.end("label"), listed.end()):
            if HTTP_STATUS.match(text, item.end()):
                continue  # "codes: 404 not found, 500 server error" (an adversary)
            if _an_item(text[listed.end("label") : item.start()]):
                spans.append(
                    (item.span(1) if item[1] else item.span(2), a_bike_lock(text, item.start()))
                )
        if (listed["what"] or "").casefold() in ("backup", "recovery"):
            spans += [
                (item.span(), False)
                for item in _LETTERS_IN_GROUPS.finditer(text, listed.end("label"), listed.end())
            ]
    return spans


_LETTERS_IN_GROUPS = lazy_compile(r"(?<![\w-])[A-Za-z0-9]{3,6}(?:-[A-Za-z0-9]{3,6})+(?![\w-])")
"""A backup code of letters alone, in groups: "backup codes are abcd-efgh ijkl-mnop" (an
adversary saw them kept: a code of a list is taken with a digit in it)."""


def _checked_codes(text: str) -> list[tuple[tuple[int, int], bool]]:
    """The codes of the rules that read what stands around them before they count."""
    spans: list[tuple[tuple[int, int], bool]] = []
    # A label first, bare: four digits at least ("the code 404 for the page" is an error's).
    for match in _LABEL_FIRST.finditer(text):
        if of_no_secret(text, match):
            continue
        if sum(c.isdigit() for c in match[1]) >= _FEWEST_LABELLED_DIGITS:
            spans.append((match.span(1), a_bike_lock(text, match.start())))
    for match in (*_CODE_FOR_A_THING.finditer(text), *_THEN_IT_IS.finditer(text)):
        before = _WORD_BEFORE.search(text, 0, match.start())
        if before is None or not (
            NO_SECRETS_CODE.fullmatch(before[1]) or before[1].casefold() in _BEFORE_A_VERB
        ):
            spans.append((match.span(1), a_bike_lock(text, match.start())))
    return spans
