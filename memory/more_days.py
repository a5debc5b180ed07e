"""More ways a message names a day to come, read only to keep it until then.

Found by an adversary, each said on 1 November and deleted at 30 days before its day:
"Dentist 20270312", "Dentist the 20th of next month", "Deadline Q1", "Contract renewal in
Q2", months in Turkish, Polish, Dutch and Swahili ("Diş hekimi 12 Mart", "Wizyta u
dentysty 12 marca", "tandarts 12 maart", "Miadi ya daktari 12 Machi"), and how long
something lasts ("Sister visiting from 1 Dec for six weeks", "Trial period ends after 6
months", "Warranty good for 2 years"). The index reads none of these as dates; keeping a
message a little longer costs nothing (`memory.days_to_keep`). Dates in Korean, Japanese
and Chinese ("12월 15일", "12月18日") are read here too.
"""

from __future__ import annotations

import re
from datetime import date

from memory.date_terms import CJK_DAY
from memory.lazy_patterns import lazy_compile
from memory.periods_ahead import COUNTS, month_end, period_after

_COMPACT = lazy_compile(
    r"(?<![\d.,/#-])(?<!#\s)(20\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\d.,/-])"
)
"""'20270312', as a file name or a form writes it."""
_ORDINAL_DAY = lazy_compile(
    r"(?i)\bthe\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)\b(?P<next>\s+of\s+next\s+month)?"
    r"(?!\s+of\s+(?!next\b)\w)"
)
"""'the 20th of next month'; 'the 20th' alone, the next 20th to come."""
_QUARTER = lazy_compile(r"(?i)(?<![\w-])Q(?P<which>[1-4])(?:\s*(?:20)?(?P<year>\d\d))?(?![\w-])")
_MONTHS_ELSEWHERE = {
    # Turkish, Polish (of a day: "12 marca"), Dutch, Swahili.
    **dict.fromkeys(["ocak"], 1), **dict.fromkeys(["şubat", "subat"], 2),
    **dict.fromkeys(["mart"], 3), **dict.fromkeys(["nisan"], 4),
    **dict.fromkeys(["mayıs", "mayis"], 5), **dict.fromkeys(["haziran"], 6),
    **dict.fromkeys(["temmuz"], 7), **dict.fromkeys(["ağustos", "agustos"], 8),
    **dict.fromkeys(["eylül", "eylul"], 9), **dict.fromkeys(["ekim"], 10),
    **dict.fromkeys(["kasım", "kasim"], 11), **dict.fromkeys(["aralık", "aralik"], 12),
    "stycznia": 1, "lutego": 2, "marca": 3, "kwietnia": 4, "maja": 5, "czerwca": 6,
    "lipca": 7, "sierpnia": 8, "września": 9, "wrzesnia": 9, "października": 10,
    "pazdziernika": 10, "listopada": 11, "grudnia": 12,
    "januari": 1, "februari": 2, "maart": 3, "mei": 5, "juni": 6, "juli": 7,
    "augustus": 8, "oktober": 10,
    "machi": 3, "aprili": 4, "julai": 7, "agosti": 8, "septemba": 9, "oktoba": 10,
    "novemba": 11, "desemba": 12,
    # German and Dutch, in full and cut short ("Dentist 12 März", "Zahnarzt am 12. Mär.",
    # "Dentist 12 mrt": a second adversary saw each deleted).
    "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mär": 3, "mrz": 3,
    "mrt": 3, "dezember": 12, "okt": 10, "dez": 12,
    # Hindi and Arabic ("दंत चिकित्सक 12 मार्च", "حفل الزفاف في 18 أبريل": an adversary).
    "जनवरी": 1, "फ़रवरी": 2, "फरवरी": 2, "मार्च": 3, "अप्रैल": 4, "मई": 5, "जून": 6,
    "जुलाई": 7, "अगस्त": 8, "सितंबर": 9, "सितम्बर": 9, "अक्टूबर": 10, "नवंबर": 11,
    "नवम्बर": 11, "दिसंबर": 12, "दिसम्बर": 12,
    "يناير": 1, "فبراير": 2, "مارس": 3, "أبريل": 4, "ابريل": 4, "إبريل": 4, "مايو": 5,
    "يونيو": 6, "يوليو": 7, "أغسطس": 8, "اغسطس": 8, "سبتمبر": 9, "أكتوبر": 10,
    "اكتوبر": 10, "نوفمبر": 11, "ديسمبر": 12,
}  # fmt: skip
_DAY_THEN_MONTH_ELSEWHERE = lazy_compile(
    r"(?i)(?<![\w.])(?P<day>[0-3]?\d)\.?\s+(?P<month>"
    + "|".join(sorted(_MONTHS_ELSEWHERE, key=len, reverse=True))
    + r")\b\.?(?:\s+(?P<year>20\d\d))?"
)
"""A day, then its month in Turkish, Polish, Dutch or Swahili: only with its day ("Maja" and
"Mei" are names too)."""
_STAY = lazy_compile(
    r"(?i)\b(?:for|after)\s+(?:another\s+|about\s+|around\s+|the\s+next\s+)?"
    rf"(?P<few>{COUNTS})\s+(?P<unit>days?|weeks?|months?|years?)\b"
)
"""How long something lasts: "good for 2 years", "ends after 6 months", "I'm on antibiotics
for six weeks", "staying with mum for 40 days"; not said of the past (`_LASTED`)."""
_LASTED = lazy_compile(
    r"(?i)\b(?:was|were|went|had|did|lived|worked|spent|took|lasted|been|ago|last\s+year)\b"
)


_ROMAN_MONTHS = {
    "I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9, "X": 10,
    "XI": 11, "XII": 12,
}  # fmt: skip
_ROMAN_MONTH = lazy_compile(
    r"(?<![\w.])(?P<day>[0-3]?\d)(?P<sep>[./ -])"
    r"(?P<month>(?i:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I))"
    r"(?:(?P=sep)(?P<year>(?:20)?\d\d))?(?![\w])"
)
"""A month in Roman numerals, as Polish, Italian and Hungarian forms write it: "12.III.2027",
"18.IV.2027", "12/III/2027" (an adversary saw each deleted before its day)."""
_MONTH_DASH_DAY = lazy_compile(
    r"(?i)(?<![\w-])(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)-"
    r"(?P<day>[0-3]?\d)(?![\w])(?!-\d)"
)
"""'Dentist on Mar-12' (an adversary saw it deleted)."""
_MONTH_OF = {
    name: number
    for number, name in enumerate(
        "jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1
    )
} | {"sept": 9}
_LASTING = lazy_compile(
    # A sum by the month or the week: "rent is $1450/month", "Meu aluguel é 1450 por mês"
    # (a new user, a student: deleted at 30 days, where "my rent is …" was kept).
    r"(?i)\d[\d,.]*\s*(?:[€£$₹]|eur(?:os?)?|dollars?|pounds?|usd|gbp|reais|k|lakhs?|l|crores?|"
    r"cr|rupees|rs\.?|pesos|mxn)?\s*"
    r"(?:/\s*|per\s+|a\s+|each\s+|every\s+|por\s+|al\s+|pro\s+|par\s+|for\s+the\s+)"
    r"(?:month|mo|mth|week|wk|m[eê]s|monat|mois|semana|woche|semaine|"
    # A fee by the term or the year: "mess fee is ₹45,000 per semester", "Hostel fee Rs 1.2
    # lakh for the year" (a new user, a student: each deleted at 30 days).
    r"semester|sem|term|trimester|quarter|year|yr|annum|a[ñn]o|semestre|jahr|an|"
    # A fare or a fee by the job: "Airport flat rate is $65 per trip" (a new user, a taxi
    # dispatcher: deleted at 30 days).
    r"trip|ride|journey|run|job|visit|lesson|class|session|hour|hr)\b|"
    r"\bfrom\s+now\s+on\b|"
    # Every month, every week in Czech, Arabic and Persian (an adversary: deleted at 30 days).
    r"\bka[žz]d[ýy]\s+(?:m[ěe]s[íi]c|t[ýy]den)\b|\bm[ěe]s[íi][čc]n[ěe]\b|"
    r"كل\s+(?:شهر|أسبوع|اسبوع)|شهري(?:ا|اً)|هر\s+(?:ماه|هفته)|ماهانه|"
    r"\buntil\s+further\s+notice\b|\bindefinitely\b|\bfor\s+the\s+foreseeable\s+future\b"
    r"|\b(?:every|each)\s+(?:(?:other|second)\s+)?(?:day|morning|evening|night|week|weekend|"
    r"month|year|fortnight|quarter|mon|tue|wed|thu|fri|sat|sun)\w*"
    # "I pay the gardener £40 every fortnight", "once a month I call grandma", "water bill
    # quarterly, £120" (an adversary: each deleted at 30 days).
    r"|\b(?:once|twice|three\s+times)\s+(?:a|per|every)\s+(?:week|month|year|fortnight|quarter)\b"
    r"|\b(?:every|each)\s+(?:\d{1,2}(?:st|nd|rd|th)|first|last|1st)\s+(?:\w+\s+)?of\s+(?:the|each|"
    r"every)\s+month\b|\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"
    r"|\b(?:daily|weekly|fortnightly|monthly|yearly|annually|quarterly|biweekly|bimonthly|"
    r"semi-?annually)\b(?!\s+(?:fee|rate|cost|price|"
    r"charge|limit|cap|allowance|special|deal|pass|ticket)s?\b)|\bnext\s+(?:term|semester)\b"
    # A day of each month, and what comes each year (a new user, a retired nurse: "book
    # club is first tuesday of the month", "Aoife's birthday is 23rd of March").
    r"|\b(?:first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)day\s+of\s+(?:the|each|every)\s+month\b|\bof\s+(?:each|every)\s+month\b"
    r"|\b(?:birthday|b-?day|anniversary|name\s*day)s?\b"
    # In Korean: every week, every month, each Monday, next term, in spring.
    r"|매주|매달|매월|매일|매년|요일마다|[월화수목금토일]요일에?\s*마다|다음\s*학기|봄에|여름에|가을에|"
    r"겨울에|\d+\s*(?:개월|주|년)\s*(?:뒤|후)"
)
"""What holds on, or comes again: "Office closed until further notice", "Rent due every
1st of the month", "Standup every Monday", "next term I teach year 9" (an adversary saw each
deleted at 30 days). Kept a year: a memory that still holds by then has been recalled, or
made a fact, long before. Not a price by the day: "Daily fee is $78" in a school's holiday
program of known days kept its email a year (a new user)."""
A_YEAR_ON = 365
_KEEP_ASKED = lazy_compile(
    r"(?i)\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:keep|save|store|hold\s+on\s+to|"
    r"remember|file)\s+(?:this|it|that|these|them|a\s+copy)\b(?!\s+(?:up|down|short|simple|brief|"
    r"quiet|going|together|clean|in\s+check))"
    r"|\bplease\s+(?:keep|save|store|remember|file)\s+(?:this|it|that|these|a\s+copy)\b"
    r"(?!\s+(?:up|down|short|simple|brief|quiet|going|together|clean|in\s+check))"
    r"|\b(?:keep|save|store|file)\s+(?:this|it|that|these)\s+(?:for\s+(?:me|later)|safe|"
    r"on\s+file|somewhere)\b"
    # What it is, named: "save this ref pls:" and a BibTeX entry (a new user, a student,
    # saw it deleted at 30 days); "keep this link", "guarda essa referência:".
    r"|\b(?:keep|save|store|file)\s+(?:this|these)\s+(?:refs?|references?|links?|papers?|"
    r"articles?|citations?|quotes?|recipes?|notes?|details|info|information|addresse?s?|"
    r"numbers?|contacts?|documents?|docs?|letters?|emails?)\b(?!\s+(?:up|down|short|simple))|\bfor\s+(?:my|our)\s+records\b|\bfor\s+future\s+reference\b"
    r"|\bdon['\u2019]?t\s+(?:let\s+me\s+)?(?:lose|forget)\s+(?:this|it|that)\b"
    # In Spanish, French, German, Italian and Portuguese: "guárdame esto: …", "recuerda que
    # el nuevo turno es …" (a new user, a nurse in Madrid, saw each deleted at 30 days).
    r"|\bgu[áa]rda(?:me|lo)?\s+(?:esto|eso|isto|isso|est[ea]|ess[ea]|es[ao])\b|\b(?:recuerda|acu[ée]rdate\s+de|apunta(?:me)?|"
    r"no\s+(?:te\s+)?olvides(?:\s+de)?|souviens-toi|rappelle-toi|n['\u2019]oublie\s+pas|"
    r"ricorda(?:ti)?|lembra(?:-te)?(?:\s+de)?|n[ãa]o\s+(?:te\s+)?esque[çc]as(?:\s+de)?)\s+(?:que|esto|ça|"
    r"qu['\u2019]|che|isto)\b|\bgarde(?:-moi)?\s+(?:[çc]a|ceci|cela)\b|\bmerk\s+dir\b|"
    r"\bvergiss\s+nicht\b|\bsalva(?:mi)?\s+questo\b"
)
"""A message asking for what it holds to be kept: "this came from the pension office today,
can you keep it:" and a letter, deleted after its deadline (a new user, a retired nurse).
Kept for years: asked for, it is the user's to forget."""
_KEPT_WHEN_ASKED = 10 * 365


def asks_to_keep(text: str) -> bool:
    """Whether `text` asks for what it holds to be kept, in any wording `_KEEP_ASKED` reads."""
    return _KEEP_ASKED.search(text) is not None and _TAKEN_BACK.search(text) is None


_AN_INVOICE_OPEN = lazy_compile(
    r"(?i)\b(?:invoice|inv|rechnung|factura|facture|fattura|fatura|bill)\b[^\n]{0,80}?"
    r"\b(?:unpaid|not\s+(?:yet\s+)?paid|(?:still\s+)?(?:hasn['\u2019]?t|has\s+not|haven['\u2019]?t)\s+"
    r"(?:yet\s+)?paid|outstanding|overdue|noch\s+offen|(?:noch\s+)?nicht\s+bezahlt|unbezahlt|"
    r"ausstehend|mahnung|pendiente|no\s+(?:ha\s+)?pagad[oa]|impay[ée]e?|non\s+pagat[oa])\b"
    r"|\b(?:mahnung|reminder)\b[^\n]{0,60}?\b(?:invoice|rechnung)\b"
)
"""An invoice said to be unpaid: "Familie Nowak hat Rechnung 2027-052 nicht bezahlt, erste
Mahnung am 20.05.2027" was deleted at 30 days, and nothing knew it was owed (a new user, an
electrician). Kept a year, as what lasts: paid, its payment marks it."""
_PHONE = (
    r"(?:(?:\+|\b0)\d[\d ().-]{6,16}\d|\b\d{3}[ .-]\d{3}[ .-]\d{3,4}|\b3\d{2}[ .-]?\d{6,7}|"
    r"\b[1-9]\d[ .-]\d{3}[ .-]\d{2}[ .-]\d{2}"
    # India's mobiles, five and five: "Bhaiya ka number 98450 12345 hai" (a new user).
    r"|\b[6-9]\d{4}[ .-]?\d{5})(?![\d/:]|\.\d)"
)
"""A phone number: from "+" or a 0, or in groups of three, three and four; not "20270312"."""
_A_PHONE_ANYWHERE = lazy_compile(_PHONE)
_ANOTHER_NUMBER_BEFORE = lazy_compile(
    r"(?i)(?:\b(?:order|ref(?:erence)?|invoice|inv|tracking|ticket|case|booking|account|acct|"
    r"serial|confirmation|policy|claim|iban|sort\s+code|helpline|fraud|"
    # A bank's text: "… was charged £32.50 … Not you? Call 0800 123 456" (a later adversary
    # saw it kept for years as a number given).
    r"not\s+you\W+(?:call|ring|contact)|customer\s+(?:service|care|support))\b|#)[^\n\d]{0,16}$"
)
"""Whose number of a phone's shape is no phone: "the invoice number is 438-555-0199"."""
_A_CONTACT = lazy_compile(
    r"(?i)\b(?:mechanic|plumber|electrician|builder|locksmith|dentist|doctor|gp|vet|"
    r"babysitter|nanny|cleaner|accountant|lawyer|solicitor|hairdresser|barber|physio|tutor|"
    r"landlord|handyman|gardener|carer|midwife|pharmacy|pharmacist|garage|clinic|surgery|"
    # One's family: "my partner is Javier Ruiz, his phone is 612 345 678" was deleted at
    # 30 days where the plumber's number was kept (a new user, a nurse in Madrid).
    r"partner|wife|husband|boyfriend|girlfriend|fianc[ée]e?|mum|mom|mother|dad|father|"
    r"sister|brother|son|daughter|grandma|grandpa|granny|pareja|marido|mujer|espos[oa]|"
    r"novi[oa]|madre|padre|herman[oa]|hij[oa]|abuel[oa]|mari|femme|copain|copine|m[èe]re|"
    r"p[èe]re|s(?:œ|oe)ur|fr[èe]re|fils|fille|mann|frau|freund(?:in)?|mutter|vater|"
    r"schwester|bruder|marito|moglie|madre|padre|sorella|fratello|figli[oa]|"
    r"brat\w*|siostr\w*|mam[aąy]|tat[aąy]|żon[aąy]|mąż|męża|syn\w*|córk\w*|"
    # In French, Spanish, German and Italian too: "la gardienne Léa Martin, 514 555 0177" (a
    # new user, a translator in Montréal, saw it deleted at 30 days).
    r"plombier|[ée]lectricien|dentiste|m[ée]decin|p[ée]diatre|v[ée]t[ée]rinaire|gardienne|"
    r"gardien|nounou|femme\s+de\s+m[ée]nage|comptable|avocat|coiffeur|coiffeuse|garagiste|"
    r"pharmacie|clinique|concierge|propri[ée]taire|proprio|fontanero|electricista|m[ée]dico|"
    r"canguro|ni[ñn]era|abogado|peluquer[oa]|klempner|elektriker|zahnarzt|[äa]rztin?|"
    r"babysitterin|anwalt|friseur|idraulico|elettricista|dottore|medico|babysitter|"
    # In Polish: "Numer do hydraulika: Janek 601 234 567" (an adversary saw it deleted).
    r"hydraulik\w*|elektryk\w*|mechanik\w*|lekarz\w*|dentyst\w*|fryzjer\w*|niani\w*|"
    r"opiekunk\w*|weterynarz\w*|"
    # A business's: "Grosshandel Sonepar Hamburg Telefon 040 123 456 78", "the supplier is
    # Sonepar, Mr Krause, 040 12345678" (a new user, an electrician, saw each deleted).
    r"supplier|wholesaler|lieferant\w*|gro(?:ss|ß)handel|ansprechpartner\w*|kunde|kundin|"
    r"client|customer|proveedor|fournisseur|fornitore|fornecedor)\b"
    rf"[^\n]{{0,60}}?(?<![\d$€£])(?:{_PHONE})"
    rf"|\b(?:number|phone|mobile|tel)\s+(?:for|of)\s+[^\n\d]{{1,30}}?(?:is|:|-)?\s*{_PHONE}"
    # Someone's number: "le numéro de mon ex, Marc: 438-555-0199", "Marc's number is …".
    r"|\b(?:num[ée]ro|n[uú]mero|nummer|numero|numer|t[ée]l[ée]phone|tel[ée]fono|telefon|"
    r"cellulaire|cell|celular|m[oó]vil|cellulare|handy)\s+"
    r"(?:de|du|des|d['\u2019]|von|di|del|dell['\u2019]|della|dello|da|do|od)\s*[^\n\d]{1,40}?"
    rf"(?:c['\u2019]est|est|es|ist|è|:|-)?\s*{_PHONE}"
    rf"|[\w-]+['\u2019]s\s+(?:new\s+|mobile\s+|cell\s+)?(?:number|phone|mobile)\s*(?:is|:|-)\s*{_PHONE}"
    # "Noreen has a new number: 086 …", "mi hermana Lucía tiene un número nuevo: 699 …" (a
    # third adversary: the README's own wording, deleted at 30 days).
    r"|\bma\s+nowy\s+(?:numer|telefon)[^\n\d]{0,12}"
    + _PHONE
    + r"|\b(?:has|have|got)\s+a\s+new\s+(?:number|mobile|phone|cell)"
    rf"[^\n\d]{{0,12}}{_PHONE}|\btiene\s+(?:un\s+)?(?:n[uú]mero|m[oó]vil|tel[eé]fono)\s+nuevo"
    rf"[^\n\d]{{0,12}}{_PHONE}"
)
"""Someone's number: "the mechanic is Tony at Brunswick Auto, 0412 555 873", "number for
the plumber: 087 123 4567". A new user, a nurse, saw it deleted with the message's other
news once its day had passed; a number one was given is kept as one's own details are."""
_NO_NAME = (
    "bored|tired|hungry|starving|sick|ill|sorry|done|back|home|here|fine|good|great|ok|okay"
    "|happy|sad|excited|exhausted|stressed|busy|free|late|lost|confused|ready|sure|glad|so"
    "|very|really|just|also|still|going|off|out|sleepy|cold|hot|freezing|dying|broke|stuck"
    "|scared|worried|nervous|angry|annoyed|finished|leaving|coming|working|thinking|feeling"
    "|fed|full|awake|up|in|on|at|not|sooo+|soo|bit|kinda|literally|actually|new|trying"
    "|wondering|curious|having|getting|looking|using|stuck|alright|well|sure|afraid"
    "|outside|inside|downstairs|upstairs|nearby|around|online|offline|away"
)
"""Words after "I'm" that say how the user is, not who: "I'm Starving", "Hi, I'm Bored" (an
adversary saw each kept ten years as an introduction)."""
_OWN_DETAILS = lazy_compile(
    r"(?im)\b(?:my|our)\s+(?:new\s+|home\s+|current\s+|work\s+|personal\s+|private\s+)*"
    r"(?:(?:phone|mobile|cell|landline)(?:\s+number)?|number)\s*(?:is\b|:|=|now\b)"
    r"(?=[^0-9+\n]{0,12}[0-9+])"
    # The user's, or a form's line: "the dog's name is Rex", "the rent is going up" are not.
    r"|\b(?:my|our)\s+(?:new\s+|home\s+|current\s+|work\s+|personal\s+|private\s+)*"
    r"(?:address|e-?mail(?:\s+address)?|postcode|post\s+code|zip(?:\s+code)?|eircode|"
    r"rent|landlord|employer|name)\s*(?:is\b|are\b|'s\b|:|=|now\b)"
    # Who looks after the user: "My GP is Dr Pritchard at the Padarn Surgery", "The chemist
    # is Boots on Terrace Road" (a new user, a retired librarian: each deleted at 30 days).
    r"|\b(?:my|our)\s+(?:(?:new|regular|usual|local|family)\s+)?(?:gp|doctor|dentist|chemist|"
    r"pharmacy|pharmacist|optician|vet|surgery|physio|physiotherapist|therapist|consultant|"
    r"solicitor|accountant|hairdresser|mechanic|plumber|electrician)\s*(?:is|are|:|=|now)"
    r"\s+(?:now\s+|called\s+)?(?:the\s+)?(?:dr\b|(?-i:[A-Z]))"
    r"|^\W*the\s+(?:chemist|pharmacy|gp|surgery|dentist|vet)\s+(?:is|['\u2019]s)\s+(?-i:[A-Z])"
    r"|^[ \t]*(?:address|e-?mail(?:\s+address)?|postcode|post\s+code|zip(?:\s+code)?|eircode|"
    r"name)[ \t]*:"
    r"|\bnew\s+(?:place|flat|apartment|house|home|address)\s+(?:is\b|:|(?=\d))"
    r"|\bnew\s+(?:phone\s+number|number|mobile)\s+(?:is\b|:)(?=[^0-9+\n]{0,12}[0-9+])"
    r"|\b(?:we|i)\s+(?:have\s+|['\u2019]ve\s+)?(?:just\s+|finally\s+)?moved\s+"
    r"(?:(?:to|into|in\s+to)\s+(?:(?-i:[A-Z0-9])|a\s+new|the\s+new|our\s+new)|house|flat|home)"
    r"|\bwe\s+moved!"
    r"|\b(?:moving|move)\s+(?:flat|house|home|apartment)\b"
    r"|\b(?:we|i)\s+(?:now\s+)?live\s+(?:in|at|on|near)\b|\bbased\s+in\s+[A-Z]"
    r"|\bi\s+(?:now\s+)?work\s+(?:at|for|as)\b|\bi['\u2019]?m\s+a\s+(?:freelance|self-employed)"
    r"|\b(?:i|we)\s+(?:run|own|manage)\s+(?:a|an|my|our)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:bakery|shop|business|company|caf[eé]|restaurant|bar|pub|practice|salon|studio|firm|farm|"
    r"store|agency|clinic|b&b|hotel|garage|workshop)\b"
    r"|^\W*(?:(?:hi|hello|hey|hiya|hola|bonjour|salut|hallo|ciao|ol[áa]|oi|hoi|hej|moin|servus"
    # "Oi! I'm Tomás Ferreira, PhD student …": the Brazilian hello (a new user saw it
    # deleted at 30 days).
    r"|buenas|good\s+(?:morning|afternoon|evening)|bom\s+dia|boa\s+(?:tarde|noite)"
    r"|buenos\s+d[ií]as|guten\s+(?:morgen|tag))\b[\W_]*)?"
    r"(?:i['\u2019]?m|i\s+am|my\s+name['\u2019]?s|soy|me\s+llamo|je\s+suis|je\s+m['\u2019]appelle|"
    r"ich\s+bin|ich\s+hei(?:ß|ss)e|sono|mi\s+chiamo|sou|chamo-me)\s+"
    # A name of up to three words: "Hi, I'm Kwame Mensah, a PhD student …" (a new user
    # saw it deleted at 30 days, and "what do you know about me?" knew nothing).
    r"(?:(?:o|a)\s+)?(?!(?:"
    + _NO_NAME
    + r")\b)(?-i:[A-Z])[^\W\d_]+(?:\s+(?-i:[A-Z])[^\W\d_]+){0,2}"
    # Then a stop, or what follows a name: "sono Giulia Rossi e lavoro in banca", "ich bin
    # Klaus Weber aus München" (a second adversary saw each deleted at 30 days).
    r"(?:\s*[,.!]|\s+(?:and|e|y|und|et|aus|from|de|da|di|z)\b|\s*$)"
    r"|\b(?:i['\u2019]?m|i\s+am)\s+(?:originally\s+)?from\s+(?-i:[A-Z])"
    # Typed in lower case after a hello: "hi im tomasz, taxi driver in manchester" (a new
    # user, a taxi driver: deleted at 30 days where "I'm Tomasz, …" was kept).
    r"|^\W*(?:hi|hello|hey|hiya|cześć|czesc)\b[\W_]*(?:i['\u2019]?m|i\s+am|my\s+name\s+is)\s+"
    r"(?!(?:" + _NO_NAME + r")\b)(?![^\W\d_]+ing\b)[^\W\d_]{2,}\s*,\s*[^\W\d_]"
    # In Hinglish: "Hi! Main Priya hoon, 21, engineering student" (a new user: deleted at
    # 30 days), "mera naam Priya hai", "mera naya number …".
    r"|\b(?:main|mai)\s+(?-i:[A-Z])[^\W\d_]+(?:\s+(?-i:[A-Z])[^\W\d_]+){0,2}\s+(?:hoon|hun|hu|hoo)\b"
    r"|\bmera\s+naam\s+(?-i:[A-Z])|\bmera\s+(?:naya\s+)?(?:number|phone|address|pata)\b"
    # In Persian and Arabic: "سلام، من شیرین هستم، دفتر … را اداره می‌کنم" (a new user: deleted
    # at 30 days), "اسم من شیرین است", "اسمي عمر", "انا عمر، صيدلي".
    r"|(?:^|\s)من\s+(?!(?:خسته|مریض|خوب|بد|ناراحت|خوشحال|گرسنه|عصبانی|آماده|بیدار|اینجا|"
    r"بیرون|سر|تنها|مطمئن|نگران)\b)\S+(?:\s+\S+)?\s+هستم\s*[،,]\s*\S"
    r"|(?:^|\s)اسم\s+من\s+\S|(?:^|\s)اسمي\s+\S"
    r"|^\W*(?:سلام|مرحبا|اهلا|أهلا)?[\W_]*(?:انا|أنا)\s+(?!(?:تعبان|تعبانة|مريض|مريضة|زهقان|"
    r"جعان|جعانة|مبسوط|مبسوطة|كويس|كويسة|هنا|برا|مشغول|مشغولة|نايم|صاحي|خايف|قلقان|"
    r"متأخر|جاهز|راجع|رايح|في)(?!\w))\S+\s*[،,]"
    # One's family by name: "my kids are Pablo (9) and Irene (6)", "mi pareja es Javier".
    r"|\b(?:my|our)\s+(?:kids|children|son|sons|daughter|daughters|wife|husband|partner|"
    r"boyfriend|girlfriend|mum|mom|dad|mother|father)\s+(?:is|are|['\u2019]s)\s+"
    r"(?:called\s+|named\s+)?(?-i:[A-Z])[^\W\d_]+(?!\w)"
    r"|\b(?:mi|mis)\s+(?:hij[oa]s?|pareja|marido|mujer|espos[oa]|novi[oa]|madre|padre)\s+"
    r"(?:es|son|se\s+llaman?)\s+(?-i:[A-Z])"
    r"|\b(?:i\s+)?mie?[oi]\s+(?:figli[oe]?|marito|moglie|compagn[oa])\s+(?:sono|è|si\s+chiama(?:no)?)\s+"
    r"(?-i:[A-Z])|\bmeine\s+(?:kinder|tochter|frau)\s+(?:hei(?:ß|ss)en|hei(?:ß|ss)t|sind|ist)\s+"
    r"(?-i:[A-Z])|\bmeine?\s+(?:sohn|mann|partner(?:in)?)\s+(?:hei(?:ß|ss)t|ist)\s+(?-i:[A-Z])"
    # Polish: "Mieszkam na ulicy Długiej 5 w Krakowie" (a second adversary: deleted).
    r"|\bmieszka(?:m|my)\s+(?:na|w|przy)\b"
    # Where one lives, in other languages: "vivo en calle Alcala 215" (deleted at 30 days
    # where "I live at …" was kept).
    r"|\b(?:vivo|vivimos|moro|moramos)\s+(?:en|em|no|na)\s+(?:la\s+|el\s+|a\s+|o\s+)?"
    r"(?:calle|c/|avenida|avda|plaza|paseo|rua|avenida|travessa|(?-i:[A-Z]))"
    r"|\bj['\u2019]habite\b|\bnous\s+habitons\b|\b(?:ich\s+wohne|wir\s+wohnen)\s+(?:in|am|an|im)\b"
    r"|\b(?:abito|abitiamo)\s+(?:a|in)\b"
    r"|\b(?:mudei-me|me\s+mudei|mud[aá]mo-nos|mi\s+sono\s+trasferit[oa]|ci\s+siamo\s+trasferit[ie]|"
    r"(?:ora|adesso)\s+abito|abito\s+ora|(?:agora\s+)?moro\s+agora|agora\s+moro|"
    r"(?:ich\s+wohne|wir\s+wohnen)\s+jetzt|(?:ich\s+bin|wir\s+sind)\s+nach\s+\w+\s+gezogen)\b"
    r"|\b(?:nos\s+hemos\s+mudado|me\s+he\s+mudado|on\s+a\s+d[ée]m[ée]nag[ée]|"
    r"j['\u2019]ai\s+d[ée]m[ée]nag[ée]|wir\s+sind\s+umgezogen|ich\s+bin\s+umgezogen)\b"
    r"|\bmy\s+(?:phone|mobile|number|address|e-?mail)\s+(?:has\s+)?changed\b"
    r"|\b(?:reach|contact|call|text)\s+me\s+(?:at|on)\s+\+?[0-9][0-9 ()-]{6,}"
    r"|\b(?:mi|mis)\s+(?:nuev[oa]s?\s+)?(?:tel[eé]fono|m[oó]vil|n[uú]mero|direcci[oó]n|correo)\b"
    r"|\bmein(?:e)?\s+(?:neue[n]?\s+)?(?:adresse|anschrift|telefonnummer|handynummer|nummer|"
    r"e-?mail(?:-adresse)?)\b"
    r"|\b(?:mon|ma)\s+(?:nouvel(?:le)?\s+|nouveau\s+)?(?:adresse|num[eé]ro|t[eé]l[eé]phone|"
    r"portable|e-?mail)\b"
    r"|\b(?:il\s+)?mi[oa]\s+(?:nuov[oa]\s+)?(?:indirizzo|numero|telefono|cellulare|e-?mail)\b"
    r"|\b(?:o\s+|a\s+)?(?:meu|minha)\s+(?:nov[oa]\s+)?(?:telefone|telem[oó]vel|celular|"
    r"n[uú]mero|endere[cç]o|e-?mail)\b"
)
"""The user's own lasting details: "my new phone number is +34 612 448 903", "new place is
Carrer de Sueca 14, rent 1.150€", "We moved! We're in Russafa now", "freelance dev based in
Valencia". A new user, a contractor, saw each deleted at 30 days (the move, once its day had
passed): one's own address or number holds until it changes, and a change marks it. Who one
is and what one runs too: "Hi! I am Agnieszka, I run a small bakery in Kraków" (a new user,
a baker: deleted at 30 days, and "what do you know about me?" knew neither). And said
otherwise or in another language: "my mobile changed, it's now …", "you can reach me at
+353 …", "mi nuevo teléfono es …", "meine neue Adresse ist …" (an adversary). A phone
with its number, a move to a place: "my new phone is great", "we moved to the living room"
are no details (a second adversary saw them kept ten years)."""


def days_written_otherwise(text: str, said: date) -> list[date]:
    """The days `text` names in these ways, to come or just gone, as `said` reads them."""
    days = _days_in_other_hands(text, said)
    for found in _COMPACT.finditer(text):
        year, month, day = (int(part) for part in found.groups())
        if day <= month_end(year, month).day:
            days.append(date(year, month, day))
    for found in _ORDINAL_DAY.finditer(text):
        days += _ordinal_day(int(found["day"]), bool(found["next"]), said)
    for found in _QUARTER.finditer(text):
        year = said.year if found["year"] is None else 2000 + int(found["year"])
        end = month_end(year, int(found["which"]) * 3)
        days.append(end if found["year"] is not None or end >= said else end.replace(year=year + 1))
    for found in CJK_DAY.finditer(text):
        days += _cjk_day(found, said)
    for found in _DAY_THEN_MONTH_ELSEWHERE.finditer(text):
        month = _MONTHS_ELSEWHERE[found["month"].casefold()]
        day = int(found["day"])
        for year in (int(found["year"]),) if found["year"] else (said.year, said.year + 1):
            if 1 <= day <= month_end(year, month).day and date(year, month, day) >= said:
                days.append(date(year, month, day))
                break
    return days


_A_BIRTHDAY_WORD = lazy_compile(r"(?i)(?:birthday|b-?day|anniversary|name\s*day)s?")


def _days_in_other_hands(text: str, said: date) -> list[date]:
    """Roman months, "Mar-12", and what holds on or comes again (`_LASTING`)."""
    days: list[date] = []
    for found in _ROMAN_MONTH.finditer(text):
        if found["year"] is None and found["sep"] == " ":
            continue  # "chapter 12 IV" is no day; "12.III" is
        year = int(found["year"]) % 100 + 2000 if found["year"] else None
        days += _the_day(_ROMAN_MONTHS[found["month"].upper()], int(found["day"]), year, said)
    for found in _MONTH_DASH_DAY.finditer(text):
        days += _the_day(_MONTH_OF[found["month"].casefold()], int(found["day"]), None, said)
    if (lasting := _LASTING.search(text)) and not (
        _A_BIRTHDAY_WORD.fullmatch(lasting[0]) and _A_QUESTION.search(text)
    ):
        # A birthday comes again; a question about one gives none ("Nani ka birthday kab
        # hai?" was kept a year and recalled for every question after: a new user).
        days.append(date.fromordinal(said.toordinal() + A_YEAR_ON))
    return days


def kept_for_years(text: str, said: date) -> list[date]:
    """The day a message asking to be kept, or giving one's own details, is kept until.

    No day it names: what comes next is asked of the days a message names, and "Hi! I'm
    Linh, night-shift nurse … my roster: night shift Fri 11/12 …" came before February's
    roster for "when's my next night shift?" in February (a new user).
    """
    if _KEEP_ASKED.search(text) and not _TAKEN_BACK.search(text):
        return [date.fromordinal(said.toordinal() + _KEPT_WHEN_ASKED)]
    if _A_QUESTION.search(text):
        # "est-ce que Camille a mon numéro de cellulaire?" gives no detail of one's own (a
        # new user saw such questions kept for months after the details were deleted).
        return []
    if _OWN_DETAILS.search(text) or _A_CONTACT.search(text) or _AN_ALLERGY.search(text):
        return [date.fromordinal(said.toordinal() + _KEPT_WHEN_ASKED)]
    if len(text) <= _SAID_IN_A_FEW_LINES and _lasting_news(text):
        return [date.fromordinal(said.toordinal() + _KEPT_WHEN_ASKED)]
    if _AN_INVOICE_OPEN.search(text):
        return [date.fromordinal(said.toordinal() + A_YEAR_ON)]
    return []


_SAID_IN_A_FEW_LINES = 600
"""The longest message read for lasting news (`_lasting_news`): a paste is no news."""
_BIRTHDAY_MONTHS = (
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januar|m[äa]rz|mai|juni|juli|okt|dez|"
    r"enero|mayo|junio|julio|janvier|mai|juin|juillet|gennaio|maggio|giugno|luglio|januari|"
    r"maart|mei|ionawr|chwefror|mawrth|fawrth|ebrill|mehefin|fehefin|gorffennaf|orffennaf|"
    r"awst|medi|fedi|hydref|tachwedd|dachwedd|rhagfyr"
)
_A_BIRTHDAY_ON = lazy_compile(
    r"(?i)\b(?:birthday|b-?day|anniversary|name\s*day|geburtstag|cumplea[ñn]os|anniversaire|"
    r"compleanno|anivers[áa]rio|verjaardag|urodziny|janamdin|"
    # Said as a verb: "mi suegra cumple años el 22 de marzo", "cumple el 22", "a minha mãe
    # faz anos a 3 de maio" (a new user, a baker: deleted after its first day); in Hindi.
    r"cumple(?:\s+a[ñn]os)?|faz\s+anos|जन्मदिन|सालगिरह|"
    # Czech, Arabic and Persian: "Jana má narozeniny 3. května", "ماما عيد ميلادها ٣ مايو",
    # "تولد آرین ۱۲ آوریل است" (an adversary and a new user: each kept only to its day).
    r"narozenin\w*|narozk\w*|عيد\s+ميلاد\w*|عيد\s+الميلاد|تولد|"
    # Welsh and Vietnamese: "Rhys's pen-blwydd is the 2nd of August" (a new user in Wales:
    # kept only to its day), "sinh nhật con tôi 12/5"; one's own: "I was born on 3/4/1990"
    # (an adversary: deleted at 30 days).
    r"pen[- ]?blwydd|penblwydd|sinh\s+nh[aậ]t|(?:was|were)\s+born|date\s+of\s+birth|d\.?o\.?b\b)"
    rf"(?=[^\n]{{0,40}}?(?:\d|\b(?:{_BIRTHDAY_MONTHS})))"
    # The day first: "Oma hat am 3. Mai Geburtstag", "le 3 mai c'est son anniversaire".
    rf"|\b\d{{1,2}}\.?\s*(?:{_BIRTHDAY_MONTHS})[^\W\d_]*\.?\s+(?:[^\W\d_]+\s+){{0,3}}?"
    r"(?:geburtstag|anniversaire|verjaardag|birthday|cumplea[ñn]os|compleanno|anivers[áa]rio)\b"
)
_KIN = r"wife|husband|mother|father|mum|mom|dad|son|daughter|brother|sister"
_A_DEATH = lazy_compile(
    rf"(?i)\b(?:(?:{_KIN}|grandma|grandpa|granny|nan|aunt|uncle|cousin|friend|partner|"
    r"(?-i:[A-Z])[a-z]+)\b[^.!?\n]{0,30}?\b"
    r"(?:passed\s+away|passed\s+(?:on\s+)?(?:in|last|on)\b|died|is\s+dead|was\s+killed)|"
    rf"late\s+(?:{_KIN})|widow(?:er|ed)?|"
    r"falleci[óo]|ist\s+(?:letzte\s+woche\s+|gestern\s+|heute\s+)?gestorben|verstorben|"
    r"est\s+d[ée]c[ée]d[ée]e?|[èe]\s+mort[oa]|morreu|overleden)\b"
)


def _lasting_news(text: str) -> bool:
    """Whether a message gives what holds for years: a number, a birthday, a death.

    Found by a new user, a retired farmer, each deleted at 30 days: "seed dealer is pioneer,
    rep is jim halvorson 563-555-0133", "my grandaughter katies phone is 563-555-0150" (a
    number given, in words no rule named), "DOCTOR SAYS TAKE THE METOPROLOL 25MG TWICE A DAY
    NOW" (`memory.changes_kept` keeps that one); kept a year from when said, "katies
    birthday is june 3" was gone before her next one, and "my wife margaret passed in 2023"
    too.
    """
    if _A_BIRTHDAY_ON.search(text) or _A_DEATH.search(text):
        return True
    return any(
        _ANOTHER_NUMBER_BEFORE.search(text, max(0, found.start() - 40), found.start()) is None
        for found in _A_PHONE_ANYWHERE.finditer(text)
    )


_A_QUESTION = lazy_compile(r"[?\u061f]\s*$")
_TAKEN_BACK = lazy_compile(
    r"(?i)\b(?:forget\s+(?:it|that)|never\s*mind|olv[ií]dalo|d[ée]jalo|vergiss\s+es|"
    r"laisse\s+tomber|lascia\s+stare|esquece|nieważne)\b"
)
""""guárdame esto? no, olvídalo" asks for nothing kept (a second adversary: kept ten years)."""
"""A message ending on a question mark: asked, not said."""


_AN_ALLERGY = lazy_compile(
    r"(?i)\b(?:allergic|allergy|allergies|allergique|allergie|allergisch|"
    r"al[ée]rgic[oa]|alergia|allergic[oa]|epipen|anaphyla\w*|c(?:oe|œ|e)liac|c(?:oe|œ|e|é)liaque|"
    r"cel[ií]ac[oa]|z[öo]liakie|intoleran\w*|intol[ée]ran\w*)\b"
)
"""An allergy, the user's or their child's: "Zoé est allergique aux arachides (peanuts) —
EpiPen in her backpack" was deleted at 30 days, and "what's Zoé allergic to?" knew nothing
(a new user, a translator in Montréal). What can do harm forgotten is kept as one's own
details are; not a question about one."""


def _cjk_day(found: re.Match[str], said: date) -> list[date]:
    """The day or month a Korean, Japanese or Chinese date names, to come (its year's)."""
    month = int(found["month"])
    if not 1 <= month <= 12:
        return []
    year = int(found["year"]) if found["year"] else None
    if found["day"]:
        return _the_day(month, int(found["day"]), year, said)
    for end in (month_end(year or said.year, month), month_end(said.year + 1, month)):
        if end >= said or year:
            return [end]
    return []


def _the_day(month: int, day: int, year: int | None, said: date) -> list[date]:
    """The day named: in its year if said, else the next one to come from `said`."""
    for in_year in (year,) if year else (said.year, said.year + 1):
        if 1 <= day <= month_end(in_year, month).day and (
            year or date(in_year, month, day) >= said
        ):
            return [date(in_year, month, day)]
    return []


def _ordinal_day(day: int, of_next_month: bool, said: date) -> list[date]:
    """The `day`th of next month, or the next `day`th to come."""
    months_on = 1 if of_next_month or day < said.day else 0
    for more in range(months_on, months_on + 3):  # the 31st: the next month that has one
        index = said.month - 1 + more
        year, month = said.year + index // 12, index % 12 + 1
        if 1 <= day <= month_end(year, month).day:
            return [date(year, month, day)]
    return []


def last_day_of_stays(text: str, starting: date) -> list[date]:
    """The last day of what `text` says lasts a while, from `starting` (its start, if said)."""
    if _LASTED.search(text):
        return []  # "I lived in Berlin for 2 years"
    return [
        period_after(starting, found["few"], found["unit"].casefold())
        for found in _STAY.finditer(text)
    ]
