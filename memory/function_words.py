"""Words that say nothing of what a text is about, left out of its index terms.

English ones always (`STOP_WORDS`); those of German, Spanish, French, Portuguese and
Italian only in a text written in that language (`function_words_of`).
"""

from __future__ import annotations

STOP_WORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't down during each few for from further had hadn't has hasn't
    have haven't having he he'd he'll he's her here here's hers herself him himself his how
    how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most
    mustn't my myself no nor not of off on once only or other ought our ours ourselves out
    over own same shan't she she'd she'll she's should shouldn't so some such than that
    that's the their theirs them themselves then there there's these they they'd they'll
    they're they've this those through to too under until up very was wasn't we we'd we'll
    we're we've were weren't what what's when when's where where's which while who who's
    whom why why's with won't would wouldn't you you'd you'll you're you've your yours
    yourself yourselves s t d ll m re ve don didn doesn isn wasn
    whats wheres whos hows whens whys thats theres heres youre youve youll theyre
    dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt couldnt wouldnt shouldnt
    u ur
    wetin abeg oya sef shey na
    """.split()
)
"""With the contractions typed without the apostrophe, and "u" for "you": "whats my
address" had "what" for a word and missed the address (found by a new user). And the words
of Nigerian Pidgin that are no English word or name: "wetin" (what), "abeg" (please), "na"
(is; Portuguese "in the"): "abeg wetin dey for April" found a message by "wetin" alone, and
"landlord number abeg" brought along a fuel budget that shared only "na" (a new user, a
nurse in Lagos)."""

FUNCTION_WORDS_BY_LANGUAGE: dict[str, frozenset[str]] = {
    language: frozenset(words.split())
    for language, words in {
        "de": """der das dem des ein eine einen einem einer eines und ist sind bist nicht auf
            fur von zu zum zur im ins um wann wo wer wen wem wie warum wieso welche welcher
            welches ich du er sie wir ihr mein meine meinen meinem meiner dein deine sein
            seine habe hast haben hatte wird werden kann kannst noch schon auch aber oder
            wenn dass gibt lautet uber ueber weisst weiss mich mir dich dir uns euch mit bei aus""",
        "es": """el la de un una unos unas y en que para es esta estan mis tu su sus yo se lo
            del cuando donde quien cual cuales como cuanto cuanta cuantos cuantas tengo
            tiene muy mas pero mi me te le al q porque""",
        "fr": """le la de des un une du et est je il nous vous ils ce cette ces qui quoi
            quand ou dans sur avec ne mes au aux quel quelle quels quelles pourquoi combien
            suis qu c""",
        "pt": """e de da dos das em na um meu minha meus minhas onde quem qual quais tem tenho
            com pelo pela que quando sobre para porque voce ele ela eles elas nao ja muito
            mas seu sua seus suas isso isto esse essa este esta foi sou estao""",
        "it": "gli di la della che quale quali perche cosa ho hai ha mio miei",
        "pl": """jaki jaka jakie jakiego jest sa czy moj moja moje mojego mojej kiedy gdzie
            jak ktory ktora ktore mam masz ile""",
        "nl": """de het een en van op te met voor naar mijn mijne jouw jij ik wij hij zij ze
            wat wanneer waar hoe waarom welke heb hebt heeft hebben ben bent ook maar niet
            nog er dat dit deze aan bij onze ons hoeveel""",
        # Nigerian Pidgin: "dey" (is, at), "wey" (who, which), "dem" (they), "sha" (anyway).
        "pcm": "wetin abeg na dey wey dem una abi sha",
        # Hindi written in Latin letters (Hinglish): "Nani ka birthday kab hai?" found
        # every message holding "ka" and "hai" (a new user, a student in Bengaluru).
        # Vietnamese, its marks folded: "ca đêm tiếp theo của tôi là khi nào?" found a
        # Medicare number by "của" and "tôi" alone (a new user, a nurse in Sydney). Not
        # "la", "co", "ban", "nay", "kia", "em", "anh", "minh": English words, or names.
        "vi": """cua toi khong nao gi cac nhung mot duoc thi voi cho""",
        "hi": """hai hain ka ki ke ko kab kya kitna kitni kitne kaun kahan kaise kyun kyu
            mera meri mere tera teri hoon hun mein bhi aur nahi nahin tha thi hoga hogi yeh
            woh abhi yaar wala wali mujhe tujhe hum apna apni""",
    }.items()
}
"""Function words of German, Spanish, French, Portuguese, Italian, Polish and Dutch (accents
folded),
left out of a text in that language as the English ones are: "wann ist der Zahnarzttermin"
found nothing of "Ich habe am 3. einen Zahnarzttermin" (a multilingual new user), its
question words outweighing the one that said what was asked; "c'est quoi le numéro de la
gardienne?" found the door code by "de la" (a new user, a translator in Montréal). A text is
in a language when it holds two of its words or more (`function_words_of`): alone, many are
English words, names or abbreviations ("Em's phone number", "Della", "fur", "LA", "ER",
"EST"; an adversary saw "Su's phone number" replace "Em's" once "em" and "su" were left out
everywhere). "cual es mi direccion" found every "mi DNI es …", "el pin de mi tarjeta …" and
"mi madre …" by "mi", and not the address (a new user, a nurse in Madrid). Words that are
English too anyway ("die", "son", "man", "will", "hat", "war", "bin", "den", "mon", "ma",
"pour", "no", "sin", "hay", "comment", "con", "dove") and names ("Al", "Mia", "Les",
"Elle", "Los", "Las", "chi") are not here."""

IN_ARABIC_SCRIPT: frozenset[str] = frozenset(
    """
    است هست نيست هستم هستي و در به از كه اين ان را رو با براي من تو ما شما او يك هم كي
    چه چي كجا چقدر چند ايا چرا چطور كدام بود شد مي هاي ها تا بر يا اگر ولي بايد دارم داره
    دارد
    في الي عن مع هذا هذه ذلك التي الذي هو هي انا انت نحن هل ماذا متي اين كيف كم لماذا او
    ثم قد كان كانت لا لم لن ايه امتي فين ازاي كام مين ليه ده دي اللي بتاع عشان مش يا كده
    """.split()
)
"""Persian and Arabic (Egyptian too) function words, as `memory.text.fold` writes them: never
English words or names, so left out of any text. "کی جلسه است؟" (when is the meeting?) found
a SIN and a bank's code by "است" (is) alone (a new user writing Persian). Not "على" (on),
which folds to the name "علي"."""

_LANGUAGES_OF: dict[str, tuple[str, ...]] = {}
for _language, _words in FUNCTION_WORDS_BY_LANGUAGE.items():
    for _word in _words:
        _LANGUAGES_OF[_word] = (*_LANGUAGES_OF.get(_word, ()), _language)


ALSO_IN_THE_LANGUAGE: dict[str, frozenset[str]] = {
    "de": frozenset("die was hat den war man".split()),
    "nl": frozenset("die is in was wie je om".split()),
    "pt": frozenset("o a os as do no ao se".split()),
    "pcm": frozenset("e o make go get".split()),
    "hi": frozenset("main se ho the ye wo par to".split()),
}
"""Function words that are English words too, left out only of a text already read as in
that language by two others: "wie ist die Nummer von Sonepar?" found the workshop's address
by "die" and "ist" (a new user, an electrician in Hamburg), and alone they are "die", "was",
"hat". In Dutch too: "wanneer is de tandarts?" (a new user, a teacher in Utrecht); and in
Portuguese: "o que o Dr. Okafor disse sobre o GLMM?" found a question sharing only "o" and
"que" (a new user, a Brazilian student)."""


def function_words_of(tokens: list[str]) -> frozenset[str]:
    """The function words `tokens` are written with: of each language two or more are of."""
    found: dict[str, set[str]] = {}
    arabic_script = {token for token in tokens if token in IN_ARABIC_SCRIPT}
    for token in tokens:
        for language in _LANGUAGES_OF.get(token, ()):
            found.setdefault(language, set()).add(token)
    if not found:
        return frozenset(arabic_script)
    said = {language for language, words in found.items() if len(words) >= 2}
    also = {
        token
        for language in said
        for token in tokens
        if token in ALSO_IN_THE_LANGUAGE.get(language, ())
    }
    return frozenset(word for language in said for word in found[language]) | also | arabic_script
