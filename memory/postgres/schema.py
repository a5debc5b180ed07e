"""Schema and migrations of the PostgreSQL store, and the row ↔ entry mapping."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memory.entry import MemoryEntry
from memory.retrieval import RecallFilters, category_filter

COLUMNS = (
    "id, key, content, category, ts, updated_at, session_id, namespace, importance, "
    "superseded_by, pinned, source"
)


DATE_TERMS = "date terms"
"""A step run in Python (`memory.postgres.store`): dates need the analyser's parser."""
IMPLIED_DATE_TERMS = "implied date terms"
"""A step run in Python: the months and years of the dates an entry mentions."""
LETTERS_WITHOUT_MARKS = "letters without marks"
"""A step run in Python: entries with ø, ł, ß and the like are indexed again."""
CONTENT_HASHES = "content hashes"
"""A step run in Python: every row's `write_policy.content_hash`, for exact duplicates."""
NUMBERS_WRITTEN_ALIKE = "numbers written alike"
"""A step run in Python: rows with "1,250" or "9 AM" in them are indexed again."""
TERMS_ADDED = "joined numbers and wordings"
"""A step run in Python: rows with "0176 8888888" or "I moved to …" are indexed again."""
NUMBERS_IN_DOTS = "numbers in dots and slashes"
"""A step run in Python: rows with a number in groups ("555.123.4567") are indexed again."""
CLAIMS_READ_ANEW = "claims read anew"
"""A step run in Python: rows stating a home or an employer are indexed again."""
DOSES_READ_ANEW = "doses read anew"
"""A step run in Python: rows saying what dose the user takes are indexed again."""
SAVED_DAYS_APART = "saved days apart"
"""A step run in Python: every row is indexed again, its saving day under terms of its own."""
LEFT_FOR_THE_NEW = "left for the new, days ahead"
"""A step run in Python: rows leaving one employer for another, or naming a day some days
or weeks ahead or the end of the month, are indexed again."""
DAYS_READ_ANEW = "days read anew"
"""A step run in Python: rows naming a day relative to when they were said are indexed
again ("day after tomorrow", "the deadline is Friday", "on Friday 18 December"), and
those saying what happens every week ("every Monday")."""
SHORT_WORDS_READ = "short words read"
"""A step run in Python: rows with words typed short ("tmrw", "thurs", "appt"), naming a
day relative to when they were said ("on Friday the 18th") or holding a redaction marker
are indexed again."""
DATES_AND_MEDICINES_READ = "dates and medicines read"
"""A step run in Python: rows naming a day and month without the year ("rego due 14/1",
"Mon 7/12"), a weekday before a clock time ("dentist fri 9am"), holding words typed short,
naming a medicine without its amount or a doctor by another name ("my GP"), or an amount
of money are indexed again."""
RANGES_AND_WORDS_READ = "ranges and words read"
"""A step run in Python: rows naming a range of dates ("Away 20/12 to 2/1": the days
between), a score of a date's shape ("Passed 12/12 tests"), a day and month at all, an
amount of money (found by "charge" and "rate" too) or a weight are indexed again."""
CLAIMS_STOPS_AND_DAYS_READ = "claims, stops and days read"
"""A step run in Python: rows stating a home or an employer are indexed again (one said in
one sentence or clause of several is found by "address" and "employer" too), rows saying
a medicine was stopped (found by "medication") or a medicine at all ("tablets", "pills"),
naming a day relatively ("Sat 16th") or a range in other words ("20-23/1")."""
STOPS_AND_SHIFTS_READ = "stops and shifts read"
"""A step run in Python: rows holding a word a medicine's stop is said with ("GP
discontinued my omeprazole" is found by "medication"; "Should I stop the warfarin?" is no
stop) or naming a roster or a shift (found by "shift", "roster" and "rota") are indexed
again."""
STOPS_IN_OTHER_LANGUAGES_READ = "stops in other languages read"
"""A step run in Python: rows saying a medicine was stopped in German, Spanish, French or
Portuguese ("Ich nehme kein Omeprazol mehr" is found by "medication") are indexed again."""
OTHER_LANGUAGES_READ = "other languages read"
"""A step run in Python: rows saying a medicine was stopped in Italian ("Non prendo più
l'omeprazolo" is found by "medication") or naming one in its Italian or Spanish form
("omeprazolo" is found by "omeprazole"), or naming a day and month in another language
("20 de diciembre" is found by "December 20", "el jueves" by "Thursday") are indexed
again."""
MONTHS_TO_COME_READ = "months to come read"
"""A step run in Python: rows saying a change to come from a month named without its year
("the fee goes up to €45 from January" is found by "next year"), or saying "wk" or
"tomoz" (read as "week" and "tomorrow"), are indexed again."""
PLACES_IN_LOWER_CASE_READ = "places in lower case read"
"""A step run in Python: rows stating a home or an employer are indexed again ("I moved to
portobello" is found by "where do I live?"; "moved to oat milk" is no home)."""
STREETS_NAMED_FIRST_READ = "streets named first read"
"""A step run in Python: rows stating a home or an employer are indexed again ("I live at
Rua do Ouro 10" is a home)."""
PEOPLE_BY_TRADE_READ = "people by trade read"
"""A step run in Python: rows naming an accountant, an assistant or a consultant are indexed
again ("accountant" is no longer "account")."""
MAY_AND_PLURALS_READ = "may and plurals read"
"""A step run in Python: rows with "may" after a day's number or a plural such as "loaves"
are indexed again ("8 may be too many" is no 8 May; "loaves" is "loaf")."""
KOREAN_AND_CJK_DATES_READ = "korean and cjk dates read"
"""A step run in Python: rows with Korean words or a date in Korean, Japanese or Chinese are
indexed again ("월세가" is "월세"; "12월 18일" is 18 December)."""
WEEKDAYS_AT_A_TIME_READ = "weekdays at a time read"
"""A step run in Python: rows naming a weekday before "at" and an hour or a part of the day
are indexed again ("dentist tuesday at 3" is the coming Tuesday)."""
WEEKDAYS_WITH_THEIR_DAYS_READ = "weekdays with their days read"
"""A step run in Python: rows naming a weekday before "at" and an hour of two digits, or
before its day of the month, are indexed again ("friday 29 at 11:00" is the 29th)."""
DAYS_ELSEWHERE_READ = "days elsewhere read"
"""A step run in Python: rows naming a day relative to now in Spanish, German, French,
Italian or Portuguese are indexed again ("dentista mañana a las 5" is tomorrow)."""
DOTTED_DAYS_READ = "dotted days read"
"""A step run in Python: rows naming a day and month with a dot and none after are indexed
again ("Aneks to sign on 20.01" is 20 January)."""
NEW_ADDRESSES_READ = "new addresses read"
"""A step run in Python: rows opening a sentence with a new address are indexed again ("New
address is 14 Wattle Ave" is found by "where do I live?")."""
DAYS_AFTER_WORDS_ELSEWHERE_READ = "days after words elsewhere read"
"""A step run in Python: rows naming a day and month after a word of another language that
names a day are indexed again ("cena con Marco il 20.02" is 20 February)."""
MOVES_SAID_OTHERWISE_READ = "moves said otherwise read"
"""A step run in Python: rows saying the user moved in other words are indexed again ("We
just moved into 4 Elm Road" is found by "where do I live?")."""
STREETS_IN_LOWER_CASE_READ = "streets in lower case read"
"""A step run in Python: rows naming a street whose kind is in lower case ("I live at 4521
rue Fabre"), or an e-mail holding a word of denial, are indexed again."""
MEDICINES_OF_MORE_ENDINGS_READ = "medicines of more endings read"
"""A step run in Python: rows saying a medicine of more endings was stopped ("Manny stopped
donepezil") are indexed again."""
HOMES_ELSEWHERE_AND_DIETS_READ = "homes elsewhere and diets read"
"""A step run in Python: rows giving the user's home and its address in another language
("Vivo en calle Mayor 5, Madrid"), or what the user eats ("I eat fish now"), are indexed
again."""
DOTTED_MONTHS_ALIKE_READ = "dotted months alike read"
"""A step run in Python: rows naming a German day before a month written as the English one
("29. April") are indexed again."""
EVENTS_SAID_ON_READ = "events said on read"
"""A step run in Python: rows naming an event, then its day as a fraction's shape ("Dentist
is 10/9"), are indexed again."""
DUTCH_AND_PUFFS_READ = "dutch and puffs read"
"""A step run in Python: rows naming a day of a Dutch month ("4 juni") or the user's home in
Dutch ("ik woon op de Oudegracht 112"), or an inhaler's puffs, are indexed again."""
KIN_AND_ROTAS_READ = "kin and rotas read"
"""A step run in Python: rows naming one of the family in an everyday or another language's
word ("Mãe's birthday"), or a rota's day ("Saturday shift: …"), are indexed again."""
SUMS_IN_THOUSANDS_READ = "sums in thousands read"
"""A step run in Python: rows naming a sum written "50k" or "N50,000" are indexed again."""
SUMS_IN_MILLIONS_READ = "sums in millions read"
"""A step run in Python: rows naming a sum in millions, lakhs or crores ("₦1.2m"), or a
currency's letter before a sum in short ("N50k"), are indexed again."""
DAY_FIRST_BESIDE_READ = "day first beside read"
"""A step run in Python: rows naming a day and month that can only be day first ("15/03")
are indexed again, the others beside it read day first too."""
CZECH_DAYS_AND_OTHER_SCRIPTS_READ = "czech days and other scripts read"
"""A step run in Python: rows naming a day in Czech ("15. července", "zítra"), written in
Arabic, or with another script's digits ("١٥/٢") are indexed again."""
VIETNAMESE_AND_WELSH_DAYS_READ = "vietnamese and welsh days read"
"""A step run in Python: rows naming a day in Vietnamese or Welsh ("thứ Sáu 5/3", "yfory",
"20fed o Fehefin") are indexed again."""
POLISH_DAYS_READ = "polish days read"
"""A step run in Python: rows naming a month, a weekday or a day relative to now in Polish
("12 czerwca", "w piątek", "jutro") are indexed again."""
DAYS_AND_KIN_ELSEWHERE_READ = "days and kin elsewhere read"
"""A step run in Python: rows naming a day relative to now or one of the family in Japanese,
Chinese or Korean ("明日は歯医者", "お母さんの誕生日"), an in-law, or a day and month after a
weekday in another language ("sábado 9/1") are indexed again."""
CLAIMS_AND_CONDITIONS_READ_ANEW = "claims and conditions read anew"
"""A step run in Python: rows stating a home or employer, or naming a health condition,
are indexed again."""


def migrations(dimensions: int) -> list[str]:
    """Schema steps in order; the store records how many it has applied."""
    return [
        f"""
        CREATE TABLE memories (
            id text PRIMARY KEY,
            key text NOT NULL,
            content text NOT NULL,
            category text NOT NULL,
            ts timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            session_id text,
            namespace text NOT NULL,
            importance double precision NOT NULL,
            superseded_by text,
            pinned boolean NOT NULL,
            source text NOT NULL,
            terms text[] NOT NULL,
            tsv tsvector NOT NULL,
            embedding vector({dimensions}),
            embedding_model text
        );
        CREATE INDEX memories_tsv ON memories USING gin (tsv);
        CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops);
        CREATE INDEX memories_namespace_key ON memories (namespace, key);
        CREATE INDEX memories_ts ON memories (ts);
        """,
        # Document frequencies kept by trigger: counting them from the rows that hold a term
        # took most of a recall. One advisory lock per writing transaction orders the
        # counter updates, so concurrent writers queue instead of deadlocking.
        """
        CREATE TABLE term_frequencies (term text PRIMARY KEY, docs bigint NOT NULL);
        INSERT INTO term_frequencies (term, docs)
            SELECT t, count(*) FROM memories, unnest(terms) AS t GROUP BY t;
        CREATE TABLE memory_totals (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            docs bigint NOT NULL
        );
        INSERT INTO memory_totals (docs) SELECT count(*) FROM memories;
        CREATE FUNCTION memchat_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_SCHEMA || '.memchat_count_terms'));
            IF TG_OP <> 'INSERT' THEN
                UPDATE term_frequencies SET docs = docs - 1 WHERE term = ANY(OLD.terms);
            END IF;
            IF TG_OP <> 'DELETE' THEN
                INSERT INTO term_frequencies AS f (term, docs)
                    SELECT t, 1 FROM unnest(NEW.terms) AS t
                    ON CONFLICT (term) DO UPDATE SET docs = f.docs + 1;
            END IF;
            IF TG_OP = 'INSERT' THEN
                UPDATE memory_totals SET docs = docs + 1;
            ELSIF TG_OP = 'DELETE' THEN
                UPDATE memory_totals SET docs = docs - 1;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER memories_count_terms
            AFTER INSERT OR DELETE OR UPDATE OF terms ON memories
            FOR EACH ROW EXECUTE FUNCTION memchat_count_terms();
        -- Row triggers do not see TRUNCATE (an administrator's, say).
        CREATE FUNCTION memchat_forget_counts() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM term_frequencies;
            UPDATE memory_totals SET docs = 0;
            RETURN NULL;
        END $$;
        CREATE TRIGGER memories_truncated AFTER TRUNCATE ON memories
            FOR EACH STATEMENT EXECUTE FUNCTION memchat_forget_counts();
        """,
        DATE_TERMS,
        IMPLIED_DATE_TERMS,
        LETTERS_WITHOUT_MARKS,
        CONTENT_HASHES,
        _COUNT_PER_STATEMENT,
        """
        CREATE TABLE IF NOT EXISTS memory_audit (
            audit_id bigserial PRIMARY KEY,
            at timestamptz NOT NULL,
            action text NOT NULL,
            reason text NOT NULL,
            entry_id text NOT NULL,
            namespace text NOT NULL,
            key text NOT NULL,
            category text NOT NULL,
            content text NOT NULL
        );
        CREATE INDEX IF NOT EXISTS memory_audit_namespace ON memory_audit (namespace, audit_id);
        """,
        NUMBERS_WRITTEN_ALIKE,
        TERMS_ADDED,
        NUMBERS_IN_DOTS,
        CLAIMS_READ_ANEW,
        # A deleted memory brought back from the log keeps its first time and its chat.
        """
        ALTER TABLE memory_audit ADD COLUMN IF NOT EXISTS created timestamptz;
        ALTER TABLE memory_audit ADD COLUMN IF NOT EXISTS session_id text;
        """,
        # "I live in Porto since I lost my job" states a home now (`memory.predicates`),
        # "allergic" is read as "allergies" (`memory.text.SAME_CONDITION`) and "Jürgen"
        # is found as "Juergen" too (`memory.text.umlauts_spelt_out`).
        CLAIMS_AND_CONDITIONS_READ_ANEW,
        # "what's my current dose?" finds "I take 10mg of lisinopril" (`memory.health_values`).
        DOSES_READ_ANEW,
        # "what do I have on today?" asks of what rows name, not of when they were saved.
        SAVED_DAYS_APART,
        # "I left Fintrack, I've been hired by Revolut" says where the user works now; "Rent
        # due in two weeks" names a day.
        LEFT_FOR_THE_NEW,
        # "day after tomorrow" and "the deadline is Friday" name days.
        DAYS_READ_ANEW,
        # "tmrw", "thurs", "appt" read as the words they stand for.
        SHORT_WORDS_READ,
        # "rego due 14/1" and "Mon 7/12" name days without the year; "Ventolin for my
        # asthma" is found by "meds", "My GP is …" by "doctor".
        DATES_AND_MEDICINES_READ,
        # "Away 20/12 to 2/1" is away on 24/12 too; "Passed 12/12 tests" names no day; "$135/hr"
        # is found by "charge", "weighs" by "weight".
        RANGES_AND_WORDS_READ,
        # "Hi! My name is Sam and I live in Porto. I work at Acme." is found by "address";
        # "I'm off lisinopril now" by "medication".
        CLAIMS_STOPS_AND_DAYS_READ,
        # "GP discontinued my omeprazole" is found by "medication"; a roster by "shift".
        STOPS_AND_SHIFTS_READ,
        # "Ya no tomo omeprazol" is found by "medication".
        STOPS_IN_OTHER_LANGUAGES_READ,
        # "Non prendo più l'omeprazolo" is found by "medication", "omeprazolo" by "omeprazole",
        # "20 de diciembre" by "December 20".
        OTHER_LANGUAGES_READ,
        # "the fee goes up to €45 from January", said in December, is found by "next year".
        MONTHS_TO_COME_READ,
        # "I moved to portobello" is found by "where do I live?".
        PLACES_IN_LOWER_CASE_READ,
        # "I live at Rua do Ouro 10" is a home.
        STREETS_NAMED_FIRST_READ,
        # "accountant" is no "account".
        PEOPLE_BY_TRADE_READ,
        # "8 may be too many" is no 8 May; "loaves" is "loaf".
        MAY_AND_PLURALS_READ,
        # "월세가" is "월세"; "12월 18일" is 18 December.
        KOREAN_AND_CJK_DATES_READ,
        # "dentist tuesday at 3" is the coming Tuesday.
        WEEKDAYS_AT_A_TIME_READ,
        # "call with Ferran thursday at 10" too; "friday 29 at 11:00" is the 29th.
        WEEKDAYS_WITH_THEIR_DAYS_READ,
        # "dentista mañana a las 5" is tomorrow.
        DAYS_ELSEWHERE_READ,
        # "on 20.01" is 20 January.
        DOTTED_DAYS_READ,
        # "New address is 14 Wattle Ave" is where the user lives.
        NEW_ADDRESSES_READ,
        # "cena con Marco il 20.02" is 20 February.
        DAYS_AFTER_WORDS_ELSEWHERE_READ,
        # "We just moved into 4 Elm Road" is where the user lives.
        MOVES_SAID_OTHERWISE_READ,
        # "I live at 4521 rue Fabre" is where the user lives.
        STREETS_IN_LOWER_CASE_READ,
        # "Manny stopped donepezil" stops a medicine.
        MEDICINES_OF_MORE_ENDINGS_READ,
        # "Vivo en calle Mayor 5, Madrid" is where the user lives; "I eat fish now" a diet.
        HOMES_ELSEWHERE_AND_DIETS_READ,
        # "Klausur am 29. April" names 29 April.
        DOTTED_MONTHS_ALIKE_READ,
        # "Dentist is 10/9" names 10 September (or 9 October).
        EVENTS_SAID_ON_READ,
        # "vrijdag 4 juni 2027" names 4 June; "ik woon op de …" a home; "2 puffs" a dose.
        DUTCH_AND_PUFFS_READ,
        # "Mãe's birthday" is found by "mother"; "Saturday shift: …" by a Saturday.
        KIN_AND_ROTAS_READ,
        # "my ajo is 50k" and "N50,000" are found by 50000.
        SUMS_IN_THOUSANDS_READ,
        # "明日は歯医者" names tomorrow; "お母さんの誕生日" is found by "mother", not
        # "mother-in-law"; "sábado 9/1" names 9 January.
        DAYS_AND_KIN_ELSEWHERE_READ,
        # "₦1.2m", "Rs 1.2 lakh" and "N50k" are found by 1200000, 120000 and 50000.
        SUMS_IN_MILLIONS_READ,
        # "DSA 10/03, DBMS 12/03, OS 15/03" names 10 and 12 March too.
        DAY_FIRST_BESIDE_READ,
        # "12 czerwca" names 12 June, "w piątek" Friday, "jutro" tomorrow.
        POLISH_DAYS_READ,
        # "15. července" names 15 July, "١٥/٢" 15 February, "مُهِمّ" is found by "مهم".
        CZECH_DAYS_AND_OTHER_SCRIPTS_READ,
        # A message deleted between two of a chat's is found by its chat and time.
        "CREATE INDEX IF NOT EXISTS memory_audit_by_chat "
        "ON memory_audit (session_id, namespace, created);",
        # "thứ Sáu 5/3" names Friday 5 March, "yfory" tomorrow, "20fed o Fehefin" 20 June.
        VIETNAMESE_AND_WELSH_DAYS_READ,
    ]


def _count_function(name: str, tables: str, total: str) -> str:
    """A statement trigger's function: the term counts change by what the statement did."""
    return f"""
        CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_SCHEMA || '.memchat_count_terms'));
            INSERT INTO term_frequencies AS f (term, docs)
                SELECT t, sum(d) FROM ({tables}) AS changes (t, d)
                GROUP BY t HAVING sum(d) <> 0
                ON CONFLICT (term) DO UPDATE SET docs = f.docs + EXCLUDED.docs;
            {total}
            RETURN NULL;
        END $$;
    """


_ADDED = "SELECT unnest(terms), 1 FROM new_rows"
_REMOVED = "SELECT unnest(terms), -1 FROM old_rows"
_COUNT_PER_STATEMENT = (
    # Counting per statement instead of per row: a bulk import's one INSERT counts its
    # terms in one pass (the row trigger took 30% of an import).
    "DROP TRIGGER IF EXISTS memories_count_terms ON memories;"
    "DROP FUNCTION IF EXISTS memchat_count_terms();"
    + _count_function(
        "memchat_count_inserted",
        _ADDED,
        "UPDATE memory_totals SET docs = docs + (SELECT count(*) FROM new_rows);",
    )
    + _count_function(
        "memchat_count_deleted",
        _REMOVED,
        "UPDATE memory_totals SET docs = docs - (SELECT count(*) FROM old_rows);",
    )
    + _count_function("memchat_count_updated", f"{_ADDED} UNION ALL {_REMOVED}", "")
    + """
        DROP TRIGGER IF EXISTS memories_counted_insert ON memories;
        DROP TRIGGER IF EXISTS memories_counted_delete ON memories;
        DROP TRIGGER IF EXISTS memories_counted_update ON memories;
        CREATE TRIGGER memories_counted_insert AFTER INSERT ON memories
            REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION memchat_count_inserted();
        CREATE TRIGGER memories_counted_delete AFTER DELETE ON memories
            REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION memchat_count_deleted();
        CREATE TRIGGER memories_counted_update AFTER UPDATE ON memories
            REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION memchat_count_updated();
    """
)


def escape(text: str) -> str:
    """PostgreSQL text cannot hold NUL; escape it (and the escape character) reversibly."""
    return (
        text.replace("\\", "\\\\").replace("\x00", "\\0")
        if ("\\" in text or "\x00" in text)
        else text
    )


def unescape(text: str) -> str:
    """Undo `escape`."""
    if "\\" not in text:
        return text
    out, chars = [], iter(text)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append("\x00" if following == "0" else following)
        else:
            out.append(char)
    return "".join(out)


def to_entry(row: tuple[Any, ...]) -> MemoryEntry:
    """A row of COLUMNS as an entry."""
    (
        entry_id,
        key,
        content,
        category,
        ts,
        updated,
        session,
        namespace,
        importance,
        superseded,
        pinned,
        source,
    ) = row[:12]
    return MemoryEntry(
        id=entry_id,
        key=unescape(key),
        content=unescape(content),
        category=category,
        timestamp=ts,
        updated_at=updated,
        session_id=session,
        namespace=namespace,
        importance=importance,
        superseded_by=superseded,
        pinned=pinned,
        source=source,
    )


def where(
    *,
    namespace: str | None = None,
    category: str | None = None,
    session_id: str | None = None,
    include_superseded: bool = True,
    since: datetime | None = None,
    until: datetime | None = None,
    exclude_ids: frozenset[str] = frozenset(),
    key: str | None = None,
) -> tuple[str, list[Any]]:
    """A WHERE clause (always present) and its parameters."""
    clauses: list[str] = ["TRUE"]
    params: list[Any] = []
    category = category_filter(category)
    for column, value in (("namespace", namespace), ("category", category), ("key", key)):
        if value is not None:
            clauses.append(f"{column} = %s")
            params.append(escape(value) if column == "key" else value)
    if session_id is not None:
        clauses.append("(session_id = %s OR session_id IS NULL)")
        params.append(session_id)
    if not include_superseded:
        clauses.append("superseded_by IS NULL")
    if since is not None:
        clauses.append("ts >= %s")
        params.append(since)
    if until is not None:
        clauses.append("ts < %s")
        params.append(until)
    if exclude_ids:
        clauses.append("NOT (id = ANY(%s))")
        params.append(list(exclude_ids))
    return " AND ".join(clauses), params


def recall_where(filters: RecallFilters) -> tuple[str, list[Any]]:
    """A recall's filters as SQL."""
    return where(
        namespace=filters.namespace,
        category=filters.category,
        session_id=filters.session_id,
        include_superseded=filters.include_superseded,
        since=filters.since,
        until=filters.until,
        exclude_ids=filters.exclude_ids,
    )


MAX_LEXEME = 200
"""PostgreSQL caps a lexeme at 2 KB; longer terms are cut (the same way on both sides)."""


def lexemes(terms: list[str]) -> list[str]:
    """Terms as stored and queried: cut to MAX_LEXEME, duplicates dropped, sorted."""
    return sorted({term[:MAX_LEXEME] for term in terms})


def tsquery(terms: list[str], *, require_all: bool = False) -> str:
    """A tsquery matching any (or every) one of the analysed terms, each quoted."""
    quoted = ("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)
    return (" & " if require_all else " | ").join(quoted)
