"""How a dose is said: the user's, a parent's or someone named's, in English and elsewhere.

`memory.health_values` reads each with these patterns into a topic ("dose of lisinopril",
"mum's dose of concor") and its amount.
"""

from __future__ import annotations

import re

from memory.lazy_patterns import lazy_compile
from memory.letters import LOWER, UPPER

USER_IS = r"(?:i['\u2019]?m|i\s+am|(?:the\s+)?user\s+is)"
"""The user, in their words or a model's ("The user is allergic to peanuts")."""
_NOW_ELSEWHERE = r"(?:(?:ahora|ora|adesso|maintenant|jetzt|agora)\s+)?"
_TAKE_ELSEWHERE = (
    _NOW_ELSEWHERE + r"(?:(?:yo\s+|eu\s+)?tomo|prendo|je\s+prends|ich\s+nehme)\s+" + _NOW_ELSEWHERE
)
_FOREIGN_DRUG = (
    r"(?!(?:ahora|ora|adesso|maintenant|jetzt|agora)\b)(?P<drug>[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ-]{2,30})"
)
AMOUNT = (
    r"(?P<amount>\d+(?:[.,]\d+)?)\s?(?P<unit>mg|mcg|µg|ug|g|ml|iu|units?|puffs?|pufjes?|"
    r"inhalations?|h(?:ü|ue)be)\b"
)
"""An amount and its unit; an inhaler's puffs too ("Ventolin, 2 puffs when needed": a new
user, a teacher with asthma, saw no dose read, so none was ever updated)."""
_DRUG = r"(?P<drug>[A-Za-z][A-Za-z-]{2,30})"
DOSES = (
    # "I take 10mg of lisinopril", "I'm on 20 mg lisinopril"
    lazy_compile(
        r"(?i)\b(?:(?:i|(?:the\s+)?user)\s+(?:now\s+)?takes?|" + USER_IS + r"\s+(?:now\s+)?"
        r"(?:taking|on))\s+" + AMOUNT + r"\s+(?:of\s+)?" + _DRUG
    ),
    # "I take lisinopril 10mg", "I'm on lisinopril, 10 mg"
    lazy_compile(
        r"(?i)\b(?:(?:i|(?:the\s+)?user)\s+(?:now\s+)?takes?|" + USER_IS + r"\s+(?:now\s+)?"
        r"(?:taking|on))\s+" + _DRUG + r",?\s+" + AMOUNT
    ),
    # "my medication is sertraline 10mg daily", "my meds are now 20mg of sertraline"
    lazy_compile(
        r"(?i)\b(?:my|(?:the\s+)?user['\u2019]s)\s+(?:medication|medicine|meds|prescription)"
        r"\s+(?:is|are)\s+(?:now\s+)?" + _DRUG + r",?\s+" + AMOUNT
    ),
    lazy_compile(
        r"(?i)\b(?:my|(?:the\s+)?user['\u2019]s)\s+(?:medication|medicine|meds|prescription)"
        r"\s+(?:is|are)\s+(?:now\s+)?" + AMOUNT + r"\s+(?:of\s+)?" + _DRUG
    ),
    # "my lisinopril dose went up to 20mg", "my dose of lisinopril is now 20 mg"
    lazy_compile(
        r"(?i)\b(?:my|(?:the\s+)?user['\u2019]s)\s+(?:(?P<drug>[A-Za-z][A-Za-z-]{2,30})\s+)?(?:dose|dosage)"
        r"(?:\s+of\s+(?P<drug2>[A-Za-z][A-Za-z-]{2,30}))?\s+"
        r"(?:(?:is|was|went|has\s+gone|got|has\s+been|will\s+be)\s+)?(?:now\s+)?"
        r"(?:(?:up|down|raised|lowered|increased|reduced|changed|cut|doubled|halved)\s+)?"
        r"(?:to\s+|at\s+)?" + AMOUNT
    ),
    # "Warfarin dose is now 6 mg" (an adversary): the medicine first, said of no one else.
    lazy_compile(
        r"(?i)^\s*(?P<drug>[A-Za-z][A-Za-z-]{2,30})\s+(?:dose|dosage)\s+"
        r"(?:(?:is|went|has\s+gone|got|has\s+been)\s+)?(?:now\s+)?"
        r"(?:(?:up|down|raised|lowered|increased|reduced|changed|cut|doubled|halved)\s+)?"
        r"(?:to\s+|at\s+)?" + AMOUNT
    ),
    # "Doctor cut my lisinopril back to 5mg", "she upped my dose of sertraline to 100 mg"
    lazy_compile(
        r"(?i)\b(?:cut|lowered|reduced|raised|increased|upped|bumped|dropped|changed|put|"
        # "the" too: "Dr Patel upped the metoprolol to 50mg" (a new user, a retired farmer).
        r"switched|moved|halved|doubled)\s+(?:me|my|the(?!\s+(?:dog|cat|puppy|kitten|pup|"
        r"horse|rabbit|bunny|kids?|baby|boy|girl)\b))\s+(?:(?:dose|dosage)\s+of\s+)?"
        r"(?:(?:on|to)\s+)?" + _DRUG + r"(?:\s+(?:dose|dosage))?\s+(?:(?:back|down|up)\s+)?"
        r"(?:to|at)\s+" + AMOUNT
    ),
    # A translator: "Prendo 20mg di omeprazolo", "Ahora tomo 40 mg de omeprazol", "Je prends
    # 20mg d'oméprazole", "Ich nehme jetzt 20mg Omeprazol" (each no dose, so a new one
    # replaced none).
    lazy_compile(
        r"(?i)(?<![\w'\u2019])"
        + _TAKE_ELSEWHERE
        + AMOUNT
        + r"\s*(?:(?:de|di|del|della|dello|d['\u2019])\s*)?"
        + _FOREIGN_DRUG
    ),
    lazy_compile(r"(?i)(?<![\w'\u2019])" + _TAKE_ELSEWHERE + _FOREIGN_DRUG + r",?\s+" + AMOUNT),
    # The medicine first, said of no one: "lisinopril up to 20mg from today" (an adversary:
    # the 10mg stayed in effect).
    lazy_compile(
        r"(?i)^\W*(?:my\s+)?(?P<drug>[A-Za-z][A-Za-z-]{2,30})\s+(?:(?:is|was|has\s+gone|went)\s+)?"
        r"(?:now\s+)?(?:(?:back\s+)?(?:up|down)|raised|lowered|increased|reduced|upped|dropped|"
        r"cut)\s+(?:to|at)\s+" + AMOUNT
    ),
    # In German: "Mein Arzt hat Lisinopril auf 20mg erhöht" (an adversary: no dose), "Dr.
    # Hansen hat mein Metformin auf 1000 mg zweimal taeglich erhoeht", "Meine Ramipril-Dosis
    # wurde auf 10 mg erhöht" (a new user, an electrician: neither).
    lazy_compile(
        r"(?i)\b(?:hat|haben|wurde|wird)\s+(?:mir\s+)?(?:(?:mein(?:e|en)?|das|den|die)\s+)?"
        + _FOREIGN_DRUG
        + r"(?:-?dosis)?\s+(?:von\s+\d+(?:[.,]\d+)?\s?\w+\s+)?auf\s+"
        + AMOUNT
        + r"(?:\s+[\wäöüß]+){0,3}?\s+(?:erh(?:ö|oe|o)ht|reduziert|gesenkt|ge(?:ä|ae|a)ndert|"
        r"umgestellt|angehoben|hochgesetzt|runtergesetzt|verringert|verdoppelt|halbiert)"
    ),
    lazy_compile(
        r"(?i)^\W*(?:meine\s+)?" + _FOREIGN_DRUG + r"-?dosis\s+(?:wurde|ist|wird)\s+(?:jetzt\s+)?"
        r"(?:auf\s+)?" + AMOUNT
    ),
    # The medicine first, with "now" or "back down to": "Ramipril ist jetzt 10 mg einmal
    # taeglich", "Metformin wieder runter auf 500 mg", "Metformin now 500 mg in the morning".
    lazy_compile(
        r"(?i)^\W*(?:my\s+|mein\s+)?" + _FOREIGN_DRUG + r"\s+(?:(?:ist|is)\s+)?(?:jetzt|now)\s+"
        r"(?:(?:auf|at|on)\s+)?" + AMOUNT
    ),
    lazy_compile(
        r"(?i)^\W*(?:mein\s+)?" + _FOREIGN_DRUG + r"\s+(?:wieder\s+|jetzt\s+)?(?:runter|rauf|hoch|"
        r"herunter|herauf)\s+auf\s+" + AMOUNT
    ),
    # In Spanish, the user's: "El médico me ha subido la metformina a 850mg" (a later
    # adversary: no dose).
    lazy_compile(
        r"(?i)\bme\s+(?:ha|han)\s+(?:subido|bajado|aumentado|reducido|cambiado|ajustado|puesto)\s+"
        r"(?:el|la|los|las)\s+" + _FOREIGN_DRUG + r"\s+(?:a|en)\s+" + AMOUNT
    ),
    # "I'm down to 5mg of lisinopril now", "I'm up to 40 mg lisinopril"
    lazy_compile(
        r"(?i)\b"
        + USER_IS
        + r"\s+(?:now\s+)?(?:back\s+)?(?:down|up)\s+to\s+"
        + AMOUNT
        + r"\s+(?:of\s+)?"
        + _DRUG
    ),
)
KIN_TYPED_LOWER = (
    r"(?:mum|mom|mam|mama|mother|dad|father|nan|nana|granny|gran|grandma|grandpa|grandad|"
    r"mẹ|má|bố|maman|baba)(?!\w)"
)
ONE_KIN = {
    "mom": "mum",
    "mam": "mum",
    "mama": "mum",
    "mother": "mum",
    "father": "dad",
    # Vietnamese, in English text: "Mẹ takes metformin 500mg", then "mum's metformin is now
    # 1000mg" (a new user, a nurse in Melbourne: both stayed in effect).
    "mẹ": "mum",
    "má": "mum",
    "bố": "dad",
    "madre": "mum",
    "mamá": "mum",
    "padre": "dad",
    "papá": "dad",
    # French and Persian, typed in English text: "doctor raised maman's metformin to 1000mg"
    # marked her amlodipine instead (a new user writing Persian and English).
    "maman": "mum",
    "baba": "dad",
    "ماما": "mum",
    "مامان": "mum",
    "امي": "mum",
    "أمي": "mum",
    "بابا": "dad",
    "ابويا": "dad",
    "أبويا": "dad",
}
"""One word for one person, whichever is typed: "My mother takes Amlodipine 5mg" and "mum's
amlodipine dose went up to 10mg" are one dose (a new user saw both kept, the old one first)."""
"""Whose a dose is, typed in lower case: "doctor increased mum's Levothyrox to 75µg", "mum
stopped the bisoprolol" (a new user, a pharmacist managing her mother's medicines)."""
_WHO = rf"(?P<who>{UPPER}{LOWER}[\w-]*|{KIN_TYPED_LOWER})"
"""A name in any Latin, Greek or Cyrillic letters ("Jürgen", "Łukasz", "Mẹ"), or a parent."""
_CHANGED = (
    r"(?i:\b(?:cut|lowered|reduced|raised|increased|upped|bumped|dropped|changed|put|switched|"
    r"moved|halved|doubled))"
)
_GONE_TO = (
    r"(?i:\s+(?:(?:is|was|went|has\s+gone|got|has\s+been|will\s+be)\s+)?(?:now\s+)?"
    r"(?:(?:up|down|raised|lowered|increased|reduced|changed|cut|doubled|halved)\s+)?"
    r"(?:to\s+|at\s+)?)"
)
_NAMED_TAKES = (
    r"(?:\s+the\s+(?i:dog|cat|puppy|kitten|pup|horse|rabbit|bunny))?\s+(?:now\s+)?"
    r"(?i:takes?|gets?|is\s+(?:now\s+)?(?:on|taking|getting|given))\s+"
)
"""'Leo takes', 'Rex the dog gets', 'Maya is on' (an adversary: the last two were no dose)."""
NAMED_DOSES: tuple[re.Pattern[str], ...] = (
    # "My cat Mochi takes methimazole 2.5mg twice a day", "Leo takes 5 ml of ibuprofen"
    lazy_compile(r"\b" + _WHO + _NAMED_TAKES + _DRUG + r",?\s+" + AMOUNT),
    lazy_compile(r"\b" + _WHO + _NAMED_TAKES + AMOUNT + r"\s+(?:of\s+)?" + _DRUG),
    # "Mochi's methimazole dose went up to 5mg"
    lazy_compile(
        r"\b" + _WHO + r"['\u2019]s\s+(?:(?P<drug>[A-Za-z][A-Za-z-]{2,30})\s+)?(?:dose|dosage)"
        r"(?:\s+of\s+(?P<drug2>[A-Za-z][A-Za-z-]{2,30}))?\s+"
        r"(?:(?:is|was|went|has\s+gone|got|has\s+been|will\s+be)\s+)?(?:now\s+)?"
        r"(?:(?:up|down|raised|lowered|increased|reduced|changed|cut|doubled|halved)\s+)?"
        r"(?:to\s+|at\s+)?" + AMOUNT
    ),
    # Found by an adversary, each left the old dose in effect (recalled above the new):
    # "Leo's ibuprofen is now 7.5ml", "The vet lowered Rex's meloxicam to 2.5mg", "The vet
    # cut Rex back to 2.5mg of meloxicam", "The vet upped Biscuit to 7.5mg of meloxicam".
    lazy_compile(
        r"\b"
        + _WHO
        + r"['\u2019]s\s+"
        + _DRUG
        + r"\s+(?:(?:is|was|went|has\s+gone|got|has\s+been|is\s+going)(?:\s+now)?"
        # "mum's amlodipine was reduced to 2.5mg", "… changed to 10mg" (an adversary);
        # "Manny's donepezil is going up to 10mg from tonight" (a new user, a carer).
        r"(?:\s+(?:up|down|back|raised|lowered|increased|reduced|changed|cut|upped|dropped))?"
        r"|(?:raised|lowered|increased|reduced|changed|cut|upped|dropped))"
        r"\s+(?:(?:up|down|back)\s+)?(?:to\s+|at\s+)?" + AMOUNT
    ),
    lazy_compile(
        _CHANGED
        + r"\s+"
        + _WHO
        + r"['\u2019]s\s+(?:(?:dose|dosage)\s+of\s+)?"
        + _DRUG
        + r"(?:\s+(?:dose|dosage))?\s+(?:(?:back|down|up)\s+)?(?:to|at)\s+"
        + AMOUNT
    ),
    # "dose of concor for maman went up to 5mg", "the Concor dose for mom is now 5mg" (an
    # adversary: no dose, and the old one stayed in effect).
    lazy_compile(
        r"(?i:\b(?:dose|dosage)\s+of\s+)" + _DRUG + r"\s+for\s+" + _WHO + _GONE_TO + AMOUNT
    ),
    lazy_compile(r"\b" + _DRUG + r"(?i:\s+(?:dose|dosage)\s+for\s+)" + _WHO + _GONE_TO + AMOUNT),
    lazy_compile(
        _CHANGED
        + r"\s+"
        + _WHO
        + r"\s+(?:(?:back|down|up)\s+)?(?:to|at|on)\s+"
        + AMOUNT
        + r"\s+(?:of\s+)?"
        + _DRUG
    ),
)
_KIN_IN_SPANISH = r"(?:mi\s+)?(?P<who>madre|mam[áa]|padre|pap[áa])"
NAMED_DOSES += (
    # A parent's dose in Spanish: "Mi madre toma enalapril 10mg cada mañana", then "el
    # medico le ha subido el enalapril a mi madre, ahora toma 20mg" (a new user, a nurse in
    # Madrid: neither was a dose, and both stayed in effect).
    lazy_compile(
        r"(?i)\b"
        + _KIN_IN_SPANISH
        + r"\s+(?:ahora\s+)?toma\s+(?:ahora\s+)?"
        + _FOREIGN_DRUG
        + r",?\s+"
        + AMOUNT
    ),
    lazy_compile(
        r"(?i)\b"
        + _KIN_IN_SPANISH
        + r"\s+(?:ahora\s+)?toma\s+(?:ahora\s+)?"
        + AMOUNT
        + r"\s+(?:de\s+)?"
        + _FOREIGN_DRUG
    ),
    # "A mi madre le han bajado el Sintrom a 2mg" (a later adversary: no dose).
    lazy_compile(
        r"(?i)\ba\s+" + _KIN_IN_SPANISH + r"\s+le\s+(?:ha|han)\s+(?:subido|bajado|aumentado|"
        r"reducido|cambiado|ajustado|puesto)\s+(?:el|la|los|las)\s+"
        + _FOREIGN_DRUG
        + r"\s+(?:a|en)\s+"
        + AMOUNT
    ),
    lazy_compile(
        r"(?i)\b(?:subido|bajado|aumentado|reducido|cambiado|ajustado)\s+(?:el|la)\s+"
        + _FOREIGN_DRUG
        + r"\s+a\s+"
        + _KIN_IN_SPANISH
        + r"\b[^.\n\d]{0,30}?"
        + AMOUNT
    ),
)
_KIN_IN_ARABIC = r"(?P<who>ماما|امي|أمي|بابا|ابويا|أبويا)"
_TAKES_IN_ARABIC = r"(?:بتاخد|تاخد|بياخد|ياخد|تأخذ|يأخذ)"
NAMED_DOSES += (
    # A parent's dose in Egyptian Arabic: "ماما بتاخد Concor 10 مجم", then "الدكتور قال ماما
    # تاخد Concor ٥ مجم بدل ١٠" (a new user, a pharmacist in Cairo: neither was a dose, and
    # the old one stayed in effect); `in_digits` writes the dose as English does.
    lazy_compile(
        _KIN_IN_ARABIC + r"\s+" + _TAKES_IN_ARABIC + r"\s+" + _FOREIGN_DRUG + r",?\s+" + AMOUNT
    ),
)
"""A dose someone named takes (a child, a pet): found by a new user, "Mochi's methimazole
dose went up to 5mg" left "My cat Mochi takes methimazole 2.5mg twice a day" in effect,
and the old dose was recalled first. Each is that one's own topic, never the user's."""
