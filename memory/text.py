"""Text analysis shared by indexing and querying, so both sides always agree on terms.

English words are folded (case, diacritics), stop words dropped and Porter2-stemmed.
Runs of CJK characters become overlapping bigrams: Korean attaches particles to words and
Japanese and Chinese use no spaces, so whole-token matching would never find "커피" in
"커피를"; bigrams do (the approach of Lucene's CJK analyzer).
"""

from __future__ import annotations

import threading
import unicodedata
from datetime import date, datetime
from functools import cache, lru_cache
from typing import Any

from memory.date_term_names import named_in_the_past, saved_term
from memory.date_terms import date_terms_of, find_dates, names_numeric_date
from memory.diets import diet_wordings
from memory.function_words import STOP_WORDS, function_words_of
from memory.kin_words import english_kin_word, kin_in_english, kin_wordings
from memory.lazy_patterns import lazy_compile
from memory.letters import OTHER_DIGITS
from memory.money_words import money_wordings
from memory.month_names import MONTH_OF_ANY_LANGUAGE, OTHER_LANGUAGES
from memory.numbers import joined_numbers, written_alike
from memory.owners import owner_terms
from memory.predicates import every_wording_of, wordings_of
from memory.relative_dates import (
    ASKED_AS_DATES_ONLY,
    relative_date_terms,
    said_relative_terms,
    this_years,
)
from memory.shift_words import shift_wordings
from memory.short_words import SHORT_WORDS, written_out
from memory.weekly_days import weekday_terms, weekly_terms
from memory.words_elsewhere import in_english, phrases_in_english

_TOKEN = lazy_compile(r"[^\W_]+")
_CJK = lazy_compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    r"\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+"
)
_COMBINING_DIACRITICS = lazy_compile(r"[\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670\u0640]")
"""Latin accents, and Arabic's vowel marks, its hamza above or below a letter (after
decomposing), and the stretching tatweel: "مُهِمّ" is "مهم", "إبن" is "ابن" (a new user, a
pharmacist in Cairo, found neither by the other)."""
_HOUR_TERM = lazy_compile(r"(?:1[0-2]|[1-9])[ap]m")

CHAT_FILLERS: frozenset[str] = frozenset(
    """
    ok okay k thanks thank thx ty yes yeah yep yup nope hi hello hey bye goodbye please pls
    lol alright hmm sure now
    """.split()
)
"""Words a chat message is made of without being about anything ("ok", "thanks, that's
all"): a query does not search for them, so they recall nothing by themselves. "now"
too: "where do I live now?" recalled "Garage code is now 9090" on it (a new user)."""

_SMALL_TALK: frozenset[str] = CHAT_FILLERS | frozenset(
    """
    great cool nice perfect awesome good fine got noted understood right cheers sounds
    wow oh ah no aye grand ta hen x xx xxx brill brilliant lovely ace sorted nae bother
    haha lmao smashing champion
    danke merci gracias obrigado obrigada grazie vale genial super prima perfekt parfait
    claro perfecto perfeito otimo beleza bueno bien ottimo perfetto certo accord beaucoup
    bene va klar alles valeu dir
    dia duit dhuit slan
    very much so kind star welcome night morning afternoon evening
    diolch yn fawr iawn nos bore prynhawn noswaith hwyl croeso da
    """.split()
)
"""What small talk is made of, said alone: "cheers hen x" and "aye grand" were saved as
memories (a new user from Edinburgh), "Dia duit" (Irish for hello: a retired nurse);
"Thank you very much!", "Good night!", "you are very kind", "Diolch yn fawr iawn!", "Nos
da!" (a new user, a retired librarian in Wales: each kept 30 days)."""


_SHOWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
"""Letters and marks that print as blank: Hangul fillers, the blank braille pattern."""
_UNSEEN_KINDS = frozenset({"Mn", "Me", "Cf", "Cc", "Co", "Cn", "Zs", "Zl", "Zp"})
"""Combining marks alone, formats, controls, unassigned and private code points, spaces."""


def has_visible_text(text: str) -> bool:
    """Whether `text` shows anything: not only spaces, controls or invisible marks.

    Content of a zero-width space, a byte-order mark, a NUL, Hangul fillers or a lone
    combining accent passed as "not empty" and was stored as a memory nobody can see
    (found by adversaries).
    """
    return any(
        ch not in _SHOWS_NOTHING and unicodedata.category(ch) not in _UNSEEN_KINDS for ch in text
    )


_ARITHMETIC = lazy_compile(
    r"(?i)(?=\D*\d)(?=.*(?:[-+*×÷^=%]|(?<=[\d\s])x(?=[\s\d])|\b(?:plus|minus|times|multiplied|"
    r"divided|over|squared|cubed|percent|half\s+of|double)\b))"
    r"\s*(?:(?:what(?:['\u2019]?s|\s+is)|whats|calculate|compute|work\s+out|how\s+much\s+is|"
    r"solve|and)\s+)?(?:[\d.,]+\s*%?|[-+*×÷^=()]|(?<=[\d\s])x(?=[\s\d])|\b(?:plus|minus|times|"
    r"multiplied|divided|by|over|of|squared|cubed|percent|half|double|the\s+square\s+root)\b|\s)+"
    r"[?!.]*\s*"
)
"""A sum and nothing else: "what's 2+2?", "12 times 18", "calculate 15% of 80" (an adversary
saw each recall a date at 1.00: "2월 3일", "12월 18일")."""


def asks_nothing(text: str) -> bool:
    """Whether a message is made only of chat fillers and small words.

    "ok", "no", "thanks, that's all for now" or "sounds good" are about nothing, so
    recalling for them only adds noise.
    """
    if _ARITHMETIC.fullmatch(text):
        return True
    words = _TOKEN.findall(fold(text))
    if not words:
        return False
    foreign = function_words_of(words)
    return all(w in _SMALL_TALK or w in STOP_WORDS or w in foreign for w in words) and any(
        w in _SMALL_TALK for w in words
    )


_STEMMERS = threading.local()


def _english_stemmer() -> Any:
    # One per thread: a stemmer keeps its state in the object while it works. Imported on
    # first use, so commands that never stem (stats, list, export) do not load it.
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        import Stemmer

        stemmer = _STEMMERS.english = Stemmer.Stemmer("english")
    return stemmer


_STEMMED_APART = {
    "accountant": "accountant", "accountants": "accountant", "assistant": "assistant",
    "assistants": "assistant", "consultant": "consultant", "consultants": "consultant",
}  # fmt: skip
"""People named by their trade, which the stemmer makes the trade's word: "accountant" was
"account", so "what's my accountant's name?" found "My IBAN is … (AIB business account)"
at 1.0 (a new user, a translator)."""


_IRREGULAR_PLURALS = {
    "loaves": "loaf", "knives": "knife", "wives": "wife", "halves": "half", "shelves": "shelf",
    "calves": "calf", "thieves": "thief", "scarves": "scarf", "wolves": "wolf",
    "mice": "mouse", "teeth": "tooth", "geese": "goose",
    # Not a plural, but stemmed apart alike: "goes" was "goe" ("what school does Aoife go
    # to?" missed "Aoife … goes to Scoil Mhuire": a new user, a retired nurse).
    "goes": "go",
}  # fmt: skip
"""Plurals the stemmer does not bring to their singular: "which loaves have sesame?" found
no "walnut loaf" ("loav", "loaf": a new user, a baker). Not "leaves" (also a verb), nor
"children", "men", "women", "feet": with them LoCoMo's tuning half lost recall (0.635 →
0.632 both speakers, 0.653 → 0.651 user side), without them it kept it."""


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    word = _IRREGULAR_PLURALS.get(word, word)
    return _STEMMED_APART.get(word) or str(_english_stemmer().stemWord(word))


_AN_IRREGULAR_PLURAL = lazy_compile(r"(?i)\b(?:" + "|".join(_IRREGULAR_PLURALS) + r")\b")


def names_an_irregular_plural(text: str) -> bool:
    """Whether `text` holds a plural `_IRREGULAR_PLURALS` stems otherwise than it once did."""
    return _AN_IRREGULAR_PLURAL.search(text) is not None


_NAMED_BY_TRADE = lazy_compile(r"(?i)\b(?:" + "|".join(_STEMMED_APART) + r")\b")


def names_someone_by_trade(text: str) -> bool:
    """Whether `text` holds a word `_STEMMED_APART` stems otherwise than it once did."""
    return _NAMED_BY_TRADE.search(text) is not None


# Latin letters that carry their mark inside the letter, so decomposing leaves them whole:
# written as people type them without the key ("Soren" for "Søren", "strasse").
LETTERS_WITHOUT_MARKS = str.maketrans(
    {"ø": "o", "ł": "l", "ß": "ss", "đ": "d", "ħ": "h", "æ": "ae", "œ": "oe", "ŧ": "t",
     "ı": "i", "þ": "th", "ð": "d",
     # Arabic letters written either way: a final ى as ي, a ة as ه; Persian's own yeh and
     # keheh as Arabic's (phones type either: "كد" found no "کد", a new user writing
     # Persian), and the zero-width non-joiner inside a word dropped ("میکنم" finds
     # "می‌کنم").
     "\u0649": "\u064a", "\u0629": "\u0647", "\u06cc": "\u064a", "\u06a9": "\u0643",
     "\u200c": ""}
    | OTHER_DIGITS
)  # fmt: skip


_LETTER_WITHOUT_MARK = lazy_compile("[øłßđħæœŧıþð]")


def has_letter_without_mark(text: str) -> bool:
    """Whether `fold` maps a letter of `text` through `LETTERS_WITHOUT_MARKS`.

    For stores indexed before it did: only such entries need their terms made again.
    Asked of the text as `fold` sees it, decomposed: "Ǿ" becomes "ø" and an accent.
    """
    if text.isascii():
        return False
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return _LETTER_WITHOUT_MARK.search(decomposed) is not None


def fold(text: str) -> str:
    """Lower-case and strip Latin diacritics, leaving Hangul and kana intact."""
    lowered = text.lower()
    if lowered.isascii():
        return lowered  # nothing to decompose, strip or compose
    decomposed = unicodedata.normalize("NFKD", lowered)
    stripped = _COMBINING_DIACRITICS.sub("", decomposed).translate(LETTERS_WITHOUT_MARKS)
    return unicodedata.normalize("NFC", stripped)


def has_terms_added(text: str) -> bool:
    """Whether `text` is indexed with more terms since schema 0013.

    A number in groups is joined too, a one-valued predicate has its other wordings, and
    since 0014 the user's own facts are marked (`memory.owners`).
    """
    return bool(joined_numbers(fold(text)) or wordings_of(text) or owner_terms(text))


def reads_numbers_anew(text: str) -> bool:
    """Whether `text` is indexed otherwise since numbers, times and dates were read anew.

    See `written_alike` and `memory.date_terms` ("3/3/2026"); for stores indexed before.
    """
    folded = fold(text)
    return written_alike(folded) != folded or names_numeric_date(text)


def _cjk_bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


_HANGUL_WORD = lazy_compile(r"[\uac00-\ud7af]+")
_PARTICLES = sorted(
    """
    에서는 에서도 에게서 한테서 으로는 으로도 이라고 이라는 이었지 이었어 이에요 입니다 까지는
    부터는 에서 에게 한테 께서 으로 까지 부터 처럼 보다 마다 이랑 하고 이나 이야 였지 였어
    였나 예요 이지 라고 라는 에는 에도 은 는 이 가 을 를 에 의 도 로 와 과 만 랑 야 요
    """.split(),
    key=len,
    reverse=True,
)
"""Korean particles and endings a noun carries: "월세가" (the rent, as subject), "보리는",
"영어로", "얼마였지". Only what is left is read: bigrams of "월세가 얼마였지" held "세가",
"마였" and "였지", which no memory of the rent holds, and the rent fell under the floor (a
new user writing in Korean)."""
_KOREAN_FUNCTION_WORDS = frozenset(
    """
    뭐 무엇 무슨 누구 누가 언제 어디 얼마 왜 어떻게 몇 어느 나 내 저 제 너 네 우리 그 이 것 거 좀
    있어 있지 있나 없어 했지 했어 해야 하기 할까 해줘 알려줘 알아 기억해 기억나
    """.split()
)
"""Who, what, when, where, how much; I, you, we, it; "is there", "did", "tell me", "do you
remember": asking, not what is asked about."""


def _hangul_terms(word: str, attached: bool, keep_stop_words: bool) -> list[str]:
    """A Korean word's terms: its particles taken off, down to two syllables at least.

    Taken off again and again ("고양이는" → "고양이" → "고양"), so a word reads the same
    with every particle it takes. `attached`: the word follows Latin letters or digits in
    one token ("PIN은", "3시에"), where a particle alone is no term.
    """
    stem = word
    while True:
        cut = next(
            (
                len(particle)
                for particle in _PARTICLES
                if stem.endswith(particle)
                and (
                    len(stem) - len(particle) >= 2
                    or attached
                    # "뭐라고" is "뭐" asked; "나이" (age) and "내과" are no "나", "내".
                    or (len(particle) > 1 and stem[: -len(particle)] in _KOREAN_FUNCTION_WORDS)
                )
            ),
            0,
        )
        if not cut:
            break
        stem = stem[:-cut]
    if not stem or (not keep_stop_words and stem in _KOREAN_FUNCTION_WORDS):
        return []
    return _cjk_bigrams(stem)


def _cjk_terms(run: str, attached: bool, keep_stop_words: bool) -> list[str]:
    """Bigrams of a run of CJK characters; a Korean word's after its particles."""
    if not _HANGUL_WORD.fullmatch(run):
        return _cjk_bigrams(run)
    return _hangul_terms(run, attached, keep_stop_words)


SAME_CONDITION = {
    "allerg": "allergi",
    "asthmat": "asthma",
    "anem": "anemia",
    "anaem": "anemia",
    "anaemia": "anemia",
    "epilept": "epilepsi",
    "autist": "autism",
    "arthrit": "arthriti",
    "pregnanc": "pregnant",
    "dyslex": "dyslexia",
    "insomniac": "insomnia",
    "coeliac": "celiac",
    # Not a condition, but asked after alike: "Biscuit weighs 17.9kg" was found by neither
    # "what's Biscuit's weight?" nor its own older "Biscuit weight 18.4kg" (a new user).
    "weight": "weigh",
}
"""Stems of a health condition's adjective, read as the condition's: "allergies" found no
"I'm allergic to peanuts" (a new user: safety information missed by its word)."""


def names_a_condition(text: str) -> bool:
    """Whether `text` holds a word `SAME_CONDITION` reads anew (for stores indexed before)."""
    return any(term in SAME_CONDITION.values() for term in analyze(text))


def _analyze_token(token: str, keep_stop_words: bool) -> list[str]:
    token = SHORT_WORDS.get(token, token)
    if not _CJK.search(token):
        if not keep_stop_words and token in STOP_WORDS:
            return []
        if token.isdigit():
            return [token]
        stem = _stem(token)
        return [SAME_CONDITION.get(stem, stem)]
    terms: list[str] = []
    position = 0
    for match in _CJK.finditer(token):
        if match.start() > position:
            terms.extend(_analyze_token(token[position : match.start()], keep_stop_words))
        terms.extend(_cjk_terms(match.group(), match.start() > 0, keep_stop_words))
        position = match.end()
    if position < len(token):
        terms.extend(_analyze_token(token[position:], keep_stop_words))
    return terms


@lru_cache(maxsize=65_536)
def _token_terms(token: str, keep_stop_words: bool) -> tuple[str, ...]:
    # A vocabulary is small next to the words written with it: most tokens were seen.
    return tuple(_analyze_token(token, keep_stop_words))


REDACTED_MARKER = lazy_compile(r"\[REDACTED:[\w-]+\]")
"""What the app writes in place of a secret: no word the user said ("pin" in "[REDACTED:pin]"
made a follow-up of a message about a birthplace: an adversary)."""


_IN_LAW = lazy_compile(
    r"(?i)\b(mother|father|mum|mom|dad|sister|brother|son|daughter|parent)s?[- ]in[- ]laws?\b"
)
"""One of the family by marriage, one word: "My mother-in-law Rosa's birthday" was found
by "when is mom's birthday?" as the user's mother (an adversary)."""


def names_an_in_law(text: str) -> bool:
    """Whether `text` names one of the family by marriage ("sister-in-law")."""
    return "law" in text.lower() and _IN_LAW.search(text) is not None


def analyze(text: str, *, keep_stop_words: bool = False) -> list[str]:
    """Split text into index terms, in order, duplicates kept."""
    if "[REDACTED:" in text:
        text = REDACTED_MARKER.sub(" ", text)
    folded = fold(text)
    if "law" in folded:
        folded = _IN_LAW.sub(lambda found: f"{english_kin_word(found[1])}inlaw", folded)
    tokens = _TOKEN.findall(written_alike(folded))
    foreign = frozenset() if keep_stop_words else function_words_of(tokens)
    return [
        term
        for token in tokens
        if token not in foreign
        for term in _token_terms(token, keep_stop_words)
    ]


@cache
def _filler_terms() -> frozenset[str]:
    return frozenset(term for word in CHAT_FILLERS for term in analyze(word))


_ASKING_WORDS = lazy_compile(
    r"(?i)\b(?:these\s+days|nowadays|at\s+the\s+moment|right\s+now|currently|lately|"
    # "what jobs have i got thurs": the having says nothing (a new user, a plumber).
    r"(?:(?<=\bi\s)|(?<=\bwe\s)|(?<=\bi've\s)|(?<=\bive\s))got|"
    r"remember|recall|know|tell\s+me|remind\s+me(?:\s+(?:of|about))?|forget|"
    # "list everything you know about wifi": 0.28, where "what do you know about wifi" gave
    # the wifi's fact at 1.0 (an adversary).
    r"(?:^\W*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?)(?<!\w)(?:list|show(?:\s+me)?|give\s+me)"
    r"(?=\s)|(?:every|any)thing(?=\s+(?:you|about|on|i\b|we\b|to\s+do\s+with))|"
    r"(?:i\s+)?(?:told|tell)\s+you|did\s+i\s+(?:say|mention)|how\s+much|"
    r"(?:(?<=\bi\s)|(?<=\bwe\s))go(?=\s+to\b)|(?:^\s*|(?<=\bmy\s)|(?<=\bthe\s)|(?<=\bour\s))next"
    r"(?!\s+(?:week|month|year|weekend|mon|tue|wed|thu|fri|sat|sun)))\b"
)
"""Words of asking, not of what is asked about: "where do I work these days?" shared
"days" with nothing and fell under the floor; "what do you remember about my cat" put
"Please remember that I work as a nurse" above the cat (found by a new user). Nor "please
forget what I told you about being on call": it recalled nothing, so the model could not
see the fact it was asked to forget (a new user). Nor "how much" ("how much is flour now?"
matched "much" as often as "flour": a new user), nor "go" in "when do I go to the gym?"
("Gym mon/wed 7am" fell under the floor: a new user), nor "next" in "when's my next
dentist?" (it asks which one; an adversary saw "Haircut next Tuesday" first)."""


_ASKS_WHAT_WAS_SAID = lazy_compile(
    r"(?i)\b(?:told|said|mentioned|talked|discussed|chatted|wrote|shared|asked|saved|noted|"
    r"did\s+(?:i|we|you)\s+(?:tell|say|mention|talk|discuss|chat|write|share|ask|save|note))\b"
)
"""A question about what was said on a day: it asks for what was saved that day too."""
_ASKS_OF_THE_PAST = lazy_compile(
    r"(?i)\b(?:did|was|were|had|happened|ago|went|has\s+been|have\s+been|used\s+to)\b"
)
"""A question about what happened: a date it names without a year is one gone by."""


_PAST_OF = {
    "pay": "paid", "buy": "bought", "send": "sent", "bring": "brought", "sell": "sold",
    "lend": "lent", "ring": "rang", "meet": "met", "write": "wrote", "book": "booked",
}  # fmt: skip
"""Not "tell", "say", "get", "make": asking words ("what did I tell you about …")."""
_DID_I = lazy_compile(
    r"(?i)\bdid\s+(?:i|we|you|he|she|they)\s+(?:already\s+|ever\s+|actually\s+)?"
    rf"({'|'.join(_PAST_OF)})\b"
)
"""Asked with "did", a verb is searched in its past form too: "did i pay the ESB bill?"
found "paid the ESB today" at 0.24, below the floor (a new user, a retired nurse)."""
_ASKS_WHAT_IS_ON_IN_CJK = lazy_compile(
    r"\s*[(（][月火水木金土日]曜?日?[)）][\s?？]*|"
    r"\s*(?:[(（][月火水木金土日][)）])?\s*(?=[^A-Za-z0-9]*(?:[?？何吗か]|什么|予定|安排|ある))"
    r"[\u3040-\u30ff\u4e00-\u9fff\s?？!！、。]{1,16}"
)
"""What a Japanese or Chinese question asks of the date before it: "12月18日の予定は?",
"12月18日に何がある?", "12月18日有什么安排?", "12月18日(金)" (an adversary: each found
nothing, its words in no memory; "the dentist on 12月18日" keeps its words)."""
_FOR_A_LIVING = lazy_compile(r"(?i)\b(?:for\s+a\s+living|for\s+work)\b")
"""What one does "for a living" is a job: "what do I do for a living" found "My sister
lives in Lyon" at 1.0 by "live" alone, and not the job (an adversary)."""


_ON_WHAT = lazy_compile(
    r"(?i)\bwhat(?:['\u2019]?s|\s+is|\s+are)\s+"
    r"(?!(?:due|happening|going|planned|scheduled|it|that|this|there|left|next)\b)"
    r"(?P<who>(?:(?:my|our|his|her)\s+)?[\w'\u2019-]+)"
    r"\s+on(?:\s+(?:now|currently|these\s+days|at\s+the\s+moment))?(?=\s*[?.!]*\s*$)"
)
"""What someone is "on" is their medicines: "what's dad on now" searched "dad" alone and
found his NHS number and a key safe's code first, not his tablets (a new user, a carer)."""


_LONGEST_QUERY_KEPT = 2_000
"""Longer queries (a pasted page) are analysed each time rather than kept in the cache."""


def query_terms(text: str) -> list[str]:
    """Distinct terms of a query, in first-seen order, then the dates it names.

    Stop words are not indexed, so a query made only of them ("what is it?") has no
    terms; recall then falls back to a bounded substring search. A recall reads one
    query's terms several times (the question's parts, then each lane): they are kept
    for the day, as the days a query names are counted from today.
    """
    today = date.today()
    if len(text) > _LONGEST_QUERY_KEPT:
        return list(_query_terms(text, today))
    return list(_kept_query_terms(text, today))


@lru_cache(maxsize=512)
def _kept_query_terms(text: str, today: date) -> tuple[str, ...]:
    return _query_terms(text, today)


_SAYS_A_MOVE = lazy_compile(
    r"(?i)\b(?:moved|changed|rescheduled|pushed(?:\s+back)?|shifted|postponed|switched|bumped|"
    r"brought\s+forward)\s+(?:to|till|until)\b|\bis\s+now\b|\bnow\s+(?:at|on|is)\b"
)
"""A statement of a change: what follows is the new value, in no memory yet."""
_LONGEST_CHANGE_SAID = 160
_MOVED_FIRST = lazy_compile(
    r"(?i)^\W*(?:(?:we|i|they|he|she)\s+(?:have\s+|'ve\s+|just\s+)*)?(?:moved|changed|"
    r"rescheduled|pushed(?:\s+back)?|shifted|postponed|switched|bumped)\s+(?P<what>.+?)\s+"
    r"(?:to|till|until)\b"
)


def _before_the_new_value(text: str) -> str:
    """A change said or asked, up to its new value, if that leaves a word to search for.

    "Standup moved to 10:00" found nothing of "Standup is at 9:30": "10:00" is in no
    memory, and counted against it (0.25, under the floor). Of a short message only: a
    pasted text's first "is now" would cut the rest of it out of the search.
    """
    if len(text) > _LONGEST_CHANGE_SAID:
        return text
    moved = _SAYS_A_MOVE.search(text)
    if moved is not None and moved.start() > 0:
        # What moved, not the word of moving: "yoga got rescheduled to thursdays at 7"
        # matched "Yoga class is on Tuesday" on "yoga" alone, and "rescheduled" pulled it
        # under the floor (an adversary).
        said = text[: moved.start()]
    elif (first := _MOVED_FIRST.match(text)) is not None:
        said = first["what"]  # said verb first: "Moved standup to 10:00"
    else:
        return text
    return said if any(t not in change_terms_of_a_move() for t in analyze(said)) else text


@cache
def change_terms_of_a_move() -> frozenset[str]:
    """The words of `_SAYS_A_MOVE` as terms: alone, they are nothing to search for."""
    return frozenset(
        analyze("moved changed rescheduled pushed back shifted postponed switched bumped brought")
    ) | frozenset(analyze("forward now"))


def _query_terms(text: str, today: date) -> tuple[str, ...]:
    text = _before_the_new_value(written_out(text))
    found, rest = find_dates(text)
    named = list(found)
    if _SAYS_OF_TODAY_IN_PASSING.search(rest) and not _ASKS_OR_REQUESTS.search(text):
        # "the bbva app is so slow today" recalled "Bodegas paid invoice F-041 today!!", said
        # today too (a translator): today named in passing in a statement asks for no day.
        if len([t for t in analyze(rest) if t not in _filler_terms()]) > _WORDS_OF_A_DAY:
            rest = _SAYS_OF_TODAY_IN_PASSING.sub(" ", rest)
    found += this_years(found, today) + relative_date_terms(rest, today)
    weekly = weekday_terms(found)
    if _ASKS_WHAT_WAS_SAID.search(text):
        found += [saved_term(term) for term in found]
    else:
        asks_of_the_past = bool(_ASKS_OF_THE_PAST.search(text))
        past = named if named_in_the_past(named, asks_of_the_past, today) else []
        found += [
            saved_term(term) for term in past + relative_date_terms(rest, today, past_only=True)
        ]
    rest = ASKED_AS_DATES_ONLY.sub(" ", rest)
    if found and _ASKS_WHAT_IS_ON_IN_CJK.fullmatch(rest):
        rest = ""
    rest = _FOR_A_LIVING.sub(" for work job ", rest)
    rest = _DID_I.sub(lambda did: f"{did[0]} {_PAST_OF[did[1].casefold()]}", rest)
    if _ON_WHAT.search(text):
        rest = _ON_WHAT.sub(r"\g<who> meds", rest)
    rest = phrases_in_english(rest)
    words = [t for t in analyze(_ASKING_WORDS.sub(" ", rest)) if t not in _filler_terms()]
    # "2pm" is indexed as "2" and "2pm"; asked for, only "2pm" (and its minutes): the bare
    # hour made "2 cats" and "scored 12 goals" answer "2pm" and "12pm" (an adversary).
    hours = {term[:-2] for term in words if _HOUR_TERM.fullmatch(term)}
    words = [t for t in words if t not in hours]
    if len(words) > 1 and _ASKS_WHEN_ONE_IS.search(text):
        # "when is my next dentist appointment?": what the appointment is says which, and
        # "Dentist on 14/1" does not repeat the word: it fell under the floor (an adversary).
        words = [t for t in words if t not in _KIND_OF_EVENT] or words
    words = kin_in_english(rest, words, analyze)
    words += in_english(words, analyze)
    found += _months_named_elsewhere(rest)
    return tuple(dict.fromkeys(words + found + weekly))


_A_MONTH_ALONE_ELSEWHERE = lazy_compile(
    r"(?i)\b(?:"
    + "|".join(
        name
        for names in OTHER_LANGUAGES.values()
        for name in names.split()
        if len(name) > 4 and name not in ("marco", "mayo") or name in ("juni", "juli", "märz")
    )
    + r")\b"
)


def _months_named_elsewhere(text: str) -> list[str]:
    """The month terms of months a question names alone in another language.

    "was habe ich im Januar?", "qué tengo en enero?" found nothing of "Dentist on 14
    January" (a second adversary): the word is kept too, for a fact said in that language.
    """
    return [
        f"dtm{MONTH_OF_ANY_LANGUAGE[found.group().casefold()]:02d}"
        for found in _A_MONTH_ALONE_ELSEWHERE.finditer(text)
    ]


_SAYS_OF_TODAY_IN_PASSING = lazy_compile(
    r"(?i)\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b"
)
_ASKS_OR_REQUESTS = lazy_compile(
    r"(?i)\?|^\W*(?:(?:hey|hi|ok|so|and|also|please|pls)\W+)?(?:what|whats|when|where|which|who|"
    r"how|is|are|am|do|does|did|can|could|will|would|should|any|anything|tell|show|remind|"
    r"list|give|find|check|plan|schedule|agenda)\b|\b(?:plans?|schedule|agenda|on\s+for|"
    r"have\s+on|got\s+on|to\s+do)\b"
)
"""A question, a request, or words of a day's plans: today asked about, not said in passing."""
_WORDS_OF_A_DAY = 2
"""A statement of this many words and "today" ("dentist today", "gym today") is about the day."""
_KIND_OF_EVENT = frozenset({"appoint", "appt"})
_ASKS_WHEN_ONE_IS = lazy_compile(r"(?i)\b(?:when|what\s+time|what\s+day|next|upcoming)\b")


def distinct_terms(text: str) -> list[str]:
    """Distinct analysed words of a text, in first-seen order, none left out, no dates.

    Procedures are keyed by these, so a stored procedure keeps its key.
    """
    return list(dict.fromkeys(analyze(text)))


def entry_terms(key: str, content: str, created: datetime | None = None) -> list[str]:
    """Every term an entry is found by: its words, numbers and dates.

    Numbers written in groups count joined too (`memory.numbers.joined_numbers`), a
    one-valued predicate by every wording of it (`memory.predicates`: "I moved to Lisbon"
    is found by "where do I live?"), and a medicine or a doctor by the words asking for
    it (`memory.health_values.health_wordings`: "meds", "doctor"). The dates
    (`memory.date_terms`) are the day it was saved and those its content names, written
    out or from that day ("next Friday").
    """
    from memory.health_values import health_wordings  # it reads with `analyze`

    written = written_out(content)  # "tmrw", "on sat", "fri 9am": the words they stand for
    words = analyze(written)
    seen = set(words)
    wordings = " ".join(
        (
            every_wording_of(content),
            health_wordings(content, seen),
            money_wordings(content),
            shift_wordings(content),
            diet_wordings(content),
            kin_wordings(content),
        )
    )
    worded = [term for term in analyze(wordings) if term not in seen]
    from memory.month_to_come import month_to_come_terms  # it reads changes with `analyze`

    dated = said_relative_terms(written, created) + date_terms_of(content, created)
    return (
        analyze(key)
        + words
        + worded
        + joined_numbers(fold(content))
        + owner_terms(content)
        + dated
        + month_to_come_terms(content, created, dated)
        + weekly_terms(written)
        + umlauts_spelt_out(content)
    )


_UMLAUT_WORD = lazy_compile(r"(?<!\w)\w*[äöüÄÖÜ]\w*")
"""From a word's start only: unanchored, a run of 200,000 letters without a space was tried
from every one of them (quadratic: an import of one such memory took minutes, found by an
adversary)."""
_SPELT_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def spelt_out(text: str) -> str:
    """`text` with each umlaut written as without the key: "Jürgen" as "Juergen"."""
    return text.translate(_SPELT_OUT)


def umlauts_spelt_out(text: str) -> list[str]:
    """The terms of each word with an umlaut, written as without the key ("Juergen").

    Folding alone makes "Jürgen" "jurgen": found by a new user, "juergen" found nothing.
    """
    if text.isascii():
        return []
    return [
        term for word in _UMLAUT_WORD.findall(text) for term in analyze(word.translate(_SPELT_OUT))
    ]


def index_text(key: str, content: str, created: datetime | None = None) -> str:
    """The derived text the full-text index holds for an entry (key words count too)."""
    return " ".join(entry_terms(key, content, created))


def fts_quote(term: str) -> str:
    """Quote one term as an FTS5 string so no character can act as query syntax."""
    return '"' + term.replace('"', '""') + '"'


def fts_match_expression(terms: list[str]) -> str:
    """An OR of the quoted terms; empty when there is nothing to search for."""
    return " OR ".join(fts_quote(term) for term in terms)
