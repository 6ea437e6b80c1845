"""Numbered schema migrations, recorded in the database they were applied to.

Each migration is a small function run inside one transaction with its record, so a
crash leaves the schema either before or after it, never half-way.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from desktop_mem.core.db.connection import Connection

Migration = Callable[[Connection], None]
MIGRATIONS: list[tuple[int, str, Migration]] = []


def migration(version: int, name: str) -> Callable[[Migration], Migration]:
    def register(fn: Migration) -> Migration:
        # A gap is allowed (a number kept for a change made elsewhere): migrate() applies
        # every version the profile has not recorded, not only those after its newest.
        assert not MIGRATIONS or MIGRATIONS[-1][0] < version, "migrations are numbered in order"
        MIGRATIONS.append((version, name, fn))
        return fn

    return register


@migration(1, "memories, history, conversations, messages, full-text index")
def _m001(conn: Connection) -> None:
    run_script(
        conn,
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

        CREATE TABLE conversations (
            id          INTEGER PRIMARY KEY,
            title       TEXT NOT NULL DEFAULT '',
            model       TEXT,
            created_at  TEXT NOT NULL,
            updated_at  TEXT NOT NULL
        );

        CREATE TABLE messages (
            id              INTEGER PRIMARY KEY,
            conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
            role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
            content         TEXT NOT NULL,
            status          TEXT NOT NULL DEFAULT 'complete',
            model           TEXT,
            created_at      TEXT NOT NULL
        );
        CREATE INDEX messages_by_conversation ON messages(conversation_id, id);

        CREATE TABLE memories (
            id                INTEGER PRIMARY KEY,
            text              TEXT NOT NULL,
            kind              TEXT NOT NULL DEFAULT 'fact',
            importance        REAL NOT NULL DEFAULT 0.5,
            pinned            INTEGER NOT NULL DEFAULT 0,
            source            TEXT NOT NULL DEFAULT 'user',
            source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
            created_at        TEXT NOT NULL,
            updated_at        TEXT NOT NULL,
            valid_from        TEXT,
            valid_until       TEXT,
            -- what was being said when it was recorded (e.g. the question the user
            -- answered); searched with a lower weight, shown in the memory browser
            context           TEXT,
            content_hash      TEXT NOT NULL
        );
        CREATE INDEX memories_by_kind ON memories(kind);
        CREATE INDEX memories_by_hash ON memories(content_hash);
        CREATE INDEX memories_by_created ON memories(created_at);

        -- Every version a memory has had, newest last: version 1 is how it was created.
        CREATE TABLE memory_history (
            id          INTEGER PRIMARY KEY,
            memory_id   INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            action      TEXT NOT NULL,
            actor       TEXT NOT NULL,
            message_id  INTEGER REFERENCES messages(id) ON DELETE SET NULL,
            text        TEXT NOT NULL,
            kind        TEXT NOT NULL,
            importance  REAL NOT NULL,
            pinned      INTEGER NOT NULL,
            valid_from  TEXT,
            valid_until TEXT,
            changed_at  TEXT NOT NULL,
            UNIQUE (memory_id, version)
        );

        -- The embeddings as int8 (a float32 scale, then a sqlite-vec int8 vector), for
        -- exact rescoring and near-duplicate checks; content_hash says what was embedded.
        CREATE TABLE memory_vectors (
            memory_id    INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
            content_hash TEXT NOT NULL,
            embedding    BLOB NOT NULL
        );

        -- 1-bit codes of the embeddings (signs around the mean), scanned in memory by
        -- desktop_mem/core/db/vectors.py. Apart from memory_vectors so that loading them
        -- reads 128 bytes a memory, not 1,156.
        CREATE TABLE memory_codes (
            memory_id INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
            code      BLOB NOT NULL
        );

        -- Exact row counts kept by triggers: count(*) would scan 4 GB of vectors at 1M.
        CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
        INSERT INTO counters(name, n) VALUES ('memories', 0), ('vectors', 0), ('codes', 0);
        CREATE TRIGGER memories_counted_in AFTER INSERT ON memories
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'memories'; END;
        CREATE TRIGGER memories_counted_out AFTER DELETE ON memories
            BEGIN UPDATE counters SET n = n - 1 WHERE name = 'memories'; END;
        CREATE TRIGGER vectors_counted_in AFTER INSERT ON memory_vectors
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'vectors'; END;
        CREATE TRIGGER vectors_counted_out AFTER DELETE ON memory_vectors
            BEGIN UPDATE counters SET n = n - 1 WHERE name = 'vectors'; END;
        -- 'codes' is a generation: any change tells other processes to reload them.
        CREATE TRIGGER codes_changed_in AFTER INSERT ON memory_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'codes'; END;
        CREATE TRIGGER codes_changed AFTER UPDATE ON memory_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'codes'; END;
        CREATE TRIGGER codes_changed_out AFTER DELETE ON memory_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'codes'; END;

        -- Contentless: the index keeps no second copy of the text. secure-delete makes
        -- a delete remove the row's tokens from the index at once instead of leaving
        -- them in old segments until the next merge.
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            body, context, content='', contentless_delete=1,
            tokenize='porter unicode61 remove_diacritics 2'
        );
        INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1);
        """,
    )


@migration(2, "chat: memories used per answer, message search, message vectors")
def _m002(conn: Connection) -> None:
    run_script(
        conn,
        """
        ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER;
        ALTER TABLE messages ADD COLUMN error TEXT;

        -- The memories each answer was given (the chips under it; a memory's impact).
        CREATE TABLE message_memories (
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            memory_id  INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            rank       INTEGER NOT NULL,
            score      REAL NOT NULL,
            PRIMARY KEY (message_id, memory_id)
        );
        CREATE INDEX message_memories_by_memory ON message_memories(memory_id);

        -- Message search: full text (contentless, like memories_fts) and int8 vectors
        -- compared with sqlite-vec's vec_distance_cosine.
        CREATE VIRTUAL TABLE messages_fts USING fts5(
            content, content='', contentless_delete=1,
            tokenize='porter unicode61 remove_diacritics 2'
        );
        INSERT INTO messages_fts(messages_fts, rank) VALUES ('secure-delete', 1);
        CREATE TABLE message_vectors (
            message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            embedding  BLOB NOT NULL
        );
        """,
    )


@migration(3, "recall tier: message codes and counters, the past messages each answer used")
def _m003(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- 1-bit codes of the message vectors, scanned in memory like memory_codes: the
        -- recall tier searches every message ever written, hundreds of thousands.
        CREATE TABLE message_codes (
            message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            code       BLOB NOT NULL
        );
        INSERT INTO counters(name, n) VALUES
            ('message_vectors', (SELECT count(*) FROM message_vectors)), ('message_codes', 0);
        CREATE TRIGGER message_vectors_counted_in AFTER INSERT ON message_vectors
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'message_vectors'; END;
        CREATE TRIGGER message_vectors_counted_out AFTER DELETE ON message_vectors
            BEGIN UPDATE counters SET n = n - 1 WHERE name = 'message_vectors'; END;
        CREATE TRIGGER message_codes_changed_in AFTER INSERT ON message_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'message_codes'; END;
        CREATE TRIGGER message_codes_changed AFTER UPDATE ON message_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'message_codes'; END;
        CREATE TRIGGER message_codes_changed_out AFTER DELETE ON message_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'message_codes'; END;

        -- The earlier messages each answer was given (the recall tier's chips).
        CREATE TABLE message_recalls (
            message_id  INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            recalled_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            rank        INTEGER NOT NULL,
            score       REAL NOT NULL,
            PRIMARY KEY (message_id, recalled_id)
        );
        CREATE INDEX message_recalls_by_recalled ON message_recalls(recalled_id);
        """,
    )
    # Codes for the vectors stored before (signs around zero until the index first
    # estimates the mean, which then rebuilds them).
    import numpy as np

    dim = None
    rows = conn.execute("SELECT message_id, embedding FROM message_vectors").fetchall()
    for mid, blob in rows:
        vec = np.frombuffer(blob[4:], dtype=np.int8)
        dim = len(vec)
        code = np.packbits(vec > 0, bitorder="little").tobytes()
        conn.execute("INSERT INTO message_codes(message_id, code) VALUES (?, ?)", (mid, code))
    if dim is not None:
        model = conn.execute("SELECT value FROM meta WHERE key = 'embed_model'").fetchone()
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('message_embed_dim', ?)", (str(dim),)
        )
        if model:
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('message_embed_model', ?)",
                (model[0],),
            )


def run_script(conn: Connection, script: str) -> None:
    """Like executescript, but inside the caller's transaction (executescript commits)."""
    import sqlcipher3

    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlcipher3.complete_statement(pending):
            if pending.strip():
                conn.execute(pending)
            pending = ""
    if pending.strip() and not pending.strip().startswith("--"):
        conn.execute(pending)


def applied_versions(conn: Connection) -> set[int]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}


def migrate(conn: Connection) -> list[int]:
    """Apply the pending migrations; returns the versions applied."""
    done = applied_versions(conn)
    newest = max(done, default=0)
    known = MIGRATIONS[-1][0] if MIGRATIONS else 0
    if newest > known:
        from desktop_mem.core.errors import DesktopMemError

        raise DesktopMemError(
            f"This profile was written by a newer desktop-mem (schema {newest}, this one knows "
            f"{known}): upgrade desktop-mem to open it."
        )
    applied = []
    for version, name, fn in MIGRATIONS:
        if version in done:
            continue
        # A table rebuild must not cascade: dropping the old table with foreign keys on
        # would delete every row that refers to it. The switch is a no-op inside a
        # transaction, so it is made around it.
        unchecked = getattr(fn, "rebuilds_tables", False)
        if unchecked:
            conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("BEGIN IMMEDIATE")
        try:
            fn(conn)
            conn.execute(
                "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                (version, name, datetime.now(UTC).isoformat(timespec="seconds")),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        finally:
            if unchecked:
                conn.execute("PRAGMA foreign_keys = ON")
        applied.append(version)
    return applied


@migration(4, "other apps: clients with their permission, and their access log")
def _m004(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- MCP clients (Claude Desktop, Cursor…) by the name they give, with what they may
        -- do: off, read, write (read and write) or delete (read, write and delete).
        CREATE TABLE clients (
            name        TEXT PRIMARY KEY,
            level       TEXT NOT NULL,
            first_seen  TEXT NOT NULL,
            last_seen   TEXT NOT NULL
        );
        -- Every read and write by a client: which tool, which memory, when. Never the
        -- query or the text.
        CREATE TABLE client_access (
            id          INTEGER PRIMARY KEY,
            client      TEXT NOT NULL,
            tool        TEXT NOT NULL,
            memory_id   INTEGER,
            at          TEXT NOT NULL
        );
        CREATE INDEX client_access_memory ON client_access(memory_id);
        CREATE INDEX client_access_client ON client_access(client, at);
        """,
    )


@migration(5, "documents: files and folders as a knowledge tier")
def _m005(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- The user's documents. The path and every passage live here, encrypted like
        -- the memories; the original files are never changed and nothing is cached
        -- outside this database.
        CREATE TABLE documents (
            id           INTEGER PRIMARY KEY,
            path         TEXT NOT NULL UNIQUE,
            title        TEXT NOT NULL,
            kind         TEXT NOT NULL,
            bytes        INTEGER NOT NULL,
            mtime        REAL NOT NULL,
            content_hash TEXT NOT NULL,
            pages        INTEGER,
            folder       TEXT,
            added_at     TEXT NOT NULL,
            indexed_at   TEXT NOT NULL
        );
        CREATE TABLE doc_folders (path TEXT PRIMARY KEY, added_at TEXT NOT NULL);
        CREATE TABLE doc_chunks (
            id          INTEGER PRIMARY KEY,
            document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            seq         INTEGER NOT NULL,
            page        INTEGER,
            heading     TEXT NOT NULL DEFAULT '',
            text        TEXT NOT NULL
        );
        CREATE INDEX doc_chunks_by_document ON doc_chunks(document_id);
        CREATE VIRTUAL TABLE doc_chunks_fts USING fts5(
            content, content='', contentless_delete=1,
            tokenize='porter unicode61 remove_diacritics 2'
        );
        INSERT INTO doc_chunks_fts(doc_chunks_fts, rank) VALUES ('secure-delete', 1);
        CREATE TABLE doc_chunk_vectors (
            chunk_id  INTEGER PRIMARY KEY REFERENCES doc_chunks(id) ON DELETE CASCADE,
            embedding BLOB NOT NULL
        );
        CREATE TABLE doc_chunk_codes (
            chunk_id INTEGER PRIMARY KEY REFERENCES doc_chunks(id) ON DELETE CASCADE,
            code     BLOB NOT NULL
        );
        INSERT INTO counters(name, n) VALUES ('doc_vectors', 0), ('doc_codes', 0);
        CREATE TRIGGER doc_vectors_counted_in AFTER INSERT ON doc_chunk_vectors
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'doc_vectors'; END;
        CREATE TRIGGER doc_vectors_counted_out AFTER DELETE ON doc_chunk_vectors
            BEGIN UPDATE counters SET n = n - 1 WHERE name = 'doc_vectors'; END;
        CREATE TRIGGER doc_codes_changed_in AFTER INSERT ON doc_chunk_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'doc_codes'; END;
        CREATE TRIGGER doc_codes_changed AFTER UPDATE ON doc_chunk_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'doc_codes'; END;
        CREATE TRIGGER doc_codes_changed_out AFTER DELETE ON doc_chunk_codes
            BEGIN UPDATE counters SET n = n + 1 WHERE name = 'doc_codes'; END;
        -- The passages each answer was given (its document chips).
        CREATE TABLE message_documents (
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            chunk_id   INTEGER NOT NULL REFERENCES doc_chunks(id) ON DELETE CASCADE,
            rank       INTEGER NOT NULL,
            score      REAL NOT NULL,
            PRIMARY KEY (message_id, chunk_id)
        );
        CREATE INDEX message_documents_by_chunk ON message_documents(chunk_id);
        """,
    )


@migration(6, "conversations: pinned, and where the title came from")
def _m006(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- pinned conversations stay at the top of the list; title_source says whether
        -- the title is the first message's start (''), the model's ('model') or the
        -- user's ('user'): a title the user gave is never replaced.
        ALTER TABLE conversations ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE conversations ADD COLUMN title_source TEXT NOT NULL DEFAULT '';
        """,
    )


@migration(7, "memories: an index for the pinned ones and the list's order")
def _m007(conn: Connection) -> None:
    # The read path asks for the pinned memories before every answer, and the browser
    # lists pinned first, newest first: without this, each read decrypts every page of
    # the memories table (about 5 ms at 10,000 memories).
    run_script(conn, "CREATE INDEX memories_by_pinned ON memories(pinned, created_at, id);")


@migration(8, "re-indexing with another model: vectors staged in the profile until the switch")
def _m008(conn: Connection) -> None:
    # A new embedding model's vectors for messages and passages are written here first,
    # inside the encrypted profile, so that the old index keeps serving searches until
    # the whole tier is embedded, without holding a large history's vectors in memory.
    run_script(
        conn,
        """
        CREATE TABLE vector_staging (
            tier      TEXT NOT NULL,
            item_id   INTEGER NOT NULL,
            embedding BLOB NOT NULL,
            PRIMARY KEY (tier, item_id)
        );
        """,
    )


@migration(9, "what each answer was given: why each memory was, and which were weaker matches")
def _m009(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- why: 'core' (in every prompt), 'found' (for this message), 'recalled' (learned
        -- from an earlier message found for it); weak: given as a weaker match.
        ALTER TABLE message_memories ADD COLUMN why TEXT NOT NULL DEFAULT 'found';
        ALTER TABLE message_memories ADD COLUMN weak INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE message_recalls ADD COLUMN weak INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE message_documents ADD COLUMN weak INTEGER NOT NULL DEFAULT 0;
        """,
    )


@migration(10, "apps are known by a key, not by the name they give")
def _m010(conn: Connection) -> None:
    # An app registered before keys existed keeps its name, level and log, but has no
    # key (key_hash NULL): until the user gives it one, it connects as unregistered.
    run_script(
        conn,
        """
        -- Registered MCP clients: the user's name for each, what it may do, and the
        -- SHA-256 of the key its configuration carries (the key itself is never stored).
        CREATE TABLE apps (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
            level       TEXT NOT NULL,
            key_hash    TEXT UNIQUE,
            created_at  TEXT NOT NULL,
            last_seen   TEXT,
            label       TEXT NOT NULL DEFAULT ''
        );
        INSERT INTO apps(name, level, key_hash, created_at, last_seen, label)
            SELECT name, level, NULL, first_seen, last_seen, name FROM clients ORDER BY first_seen;
        -- client is now the label the caller gave; app_id the registration (NULL: none)
        ALTER TABLE client_access ADD COLUMN app_id INTEGER REFERENCES apps(id) ON DELETE CASCADE;
        UPDATE client_access SET app_id = (
            SELECT id FROM apps WHERE apps.name = client_access.client COLLATE NOCASE);
        CREATE INDEX client_access_app ON client_access(app_id, at);
        DROP TABLE clients;
        UPDATE meta SET key = 'setting.mcp_unregistered_level',
            value = CASE WHEN value = 'off' THEN 'off' ELSE 'read' END
            WHERE key = 'setting.mcp_default_level';
        """,
    )


# The tables whose ids leave the process (an app's memory id, a message or document a
# window or a script holds): an id once given is never given again.
NEVER_REUSED = ("conversations", "messages", "memories", "documents", "doc_chunks")


def with_autoincrement(conn: Connection, table: str) -> None:
    """Rebuild `table` so that its ids are never reused (SQLite cannot ALTER a table to
    AUTOINCREMENT). The rows keep their ids, so full-text rowids, vectors, codes and
    every reference stay valid; its indexes and triggers are made again from their own
    definitions; the sequence starts at the largest id there is."""
    import re

    (sql,) = conn.execute(
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    if "AUTOINCREMENT" in sql.upper():
        return
    new = f"{table}__rebuilt"
    sql, n = re.subn(
        r"\bid\s+INTEGER\s+PRIMARY\s+KEY\b", "id INTEGER PRIMARY KEY AUTOINCREMENT", sql,
        count=1, flags=re.IGNORECASE,
    )  # fmt: skip
    head = re.match(rf'\s*CREATE\s+TABLE\s+"?{table}"?', sql, flags=re.IGNORECASE)
    if n != 1 or head is None:
        raise RuntimeError(f"the table {table} has no integer id to make AUTOINCREMENT")
    extras = [
        r[0]
        for r in conn.execute(
            "SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') "
            "AND sql IS NOT NULL ORDER BY type, name",
            (table,),
        )
    ]
    columns = ", ".join(f'"{r[1]}"' for r in conn.execute(f'PRAGMA table_info("{table}")'))
    conn.execute(f'CREATE TABLE "{new}"' + sql[head.end() :])
    conn.execute(f'INSERT INTO "{new}" ({columns}) SELECT {columns} FROM "{table}" ORDER BY id')
    conn.execute(f'DROP TABLE "{table}"')
    # Other tables' triggers name this one (sync's journal does); the rename must not
    # re-check them while the table is away: they name it again once it is back.
    conn.execute("PRAGMA legacy_alter_table = ON")
    try:
        conn.execute(f'ALTER TABLE "{new}" RENAME TO "{table}"')
    finally:
        conn.execute("PRAGMA legacy_alter_table = OFF")
    for statement in extras:
        conn.execute(statement)
    top = conn.execute(f'SELECT max(id) FROM "{table}"').fetchone()[0]
    conn.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
    conn.execute("INSERT INTO sqlite_sequence(name, seq) VALUES (?, ?)", (table, int(top or 0)))


@migration(11, "ids are never reused: conversations, messages, memories, documents, passages")
def _m011(conn: Connection) -> None:
    for table in NEVER_REUSED:
        with_autoincrement(conn, table)


_m011.rebuilds_tables = True  # type: ignore[attr-defined]


@migration(12, "documents removed for good from a watched folder stay removed")
def _m012(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- A file the user removed from a watched folder: the folder's re-reading leaves
        -- it out until the user adds that file again.
        CREATE TABLE doc_removed (
            path        TEXT PRIMARY KEY,
            folder      TEXT NOT NULL,
            removed_at  TEXT NOT NULL
        );
        CREATE INDEX doc_removed_by_folder ON doc_removed(folder);
        """,
    )


@migration(13, "messages can be kept but left out of every prompt (a forgotten fact)")
def _m013(conn: Connection) -> None:
    # forgotten = 1: the user asked the assistant to forget what the message says but kept
    # the message to read; it is in no prompt (history or recall) and in no search index.
    run_script(conn, "ALTER TABLE messages ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0;")


@migration(14, "messages not yet learned from: kept to learn from once the model can")
def _m014(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- learn_state of a user message: '' (nothing to learn, or learned), 'pending'
        -- (learning has not succeeded yet: it is tried again), 'failed' (it failed
        -- every time it was tried; the user may retry). learn_error holds the reason
        -- code of the last failure, never text from the conversation.
        ALTER TABLE messages ADD COLUMN learn_state TEXT NOT NULL DEFAULT '';
        ALTER TABLE messages ADD COLUMN learn_attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN learn_error TEXT;
        CREATE INDEX messages_to_learn ON messages(learn_state, id) WHERE learn_state <> '';
        """,
    )


@migration(15, "memories: an index by importance, for the core block of every prompt")
def _m015(conn: Connection) -> None:
    # The read path gives every answer the user's most important durable memories (the
    # core block): without this, each turn would read the whole memories table to find them.
    run_script(conn, "CREATE INDEX memories_by_importance ON memories(importance);")


@migration(16, "answer versions: each message's parent, and which version is shown")
def _m016(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- A conversation is a tree: Regenerate adds another answer to the same question,
        -- Edit another question after the same answer; the earlier versions stay.
        -- parent_id: the message this one follows (NULL: the first); chosen: the
        -- version shown among the messages that follow the same one; shown: on the
        -- path of chosen versions from the first message (what the conversation reads).
        ALTER TABLE messages ADD COLUMN parent_id INTEGER;
        ALTER TABLE messages ADD COLUMN chosen INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE messages ADD COLUMN shown INTEGER NOT NULL DEFAULT 1;
        UPDATE messages SET parent_id = (
            SELECT max(p.id) FROM messages p
            WHERE p.conversation_id = messages.conversation_id AND p.id < messages.id
        );
        CREATE INDEX messages_by_parent ON messages(conversation_id, parent_id);
        """,
    )


@migration(17, "memories about health and safety: always given, unless the user says not")
def _m017(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- care: what kind of care the memory's text calls for (core/memory/care/:
        -- 'health', 'diet', 'access', 'asked'), NULL when none; read from the text when
        -- it is written, and again whenever those rules change (meta 'care_rules').
        -- care_choice: the user's own say, NULL (as recognised), 1 (always given)
        -- or 0 (not always given).
        ALTER TABLE memories ADD COLUMN care TEXT;
        ALTER TABLE memories ADD COLUMN care_choice INTEGER;
        CREATE INDEX memories_given_always ON memories(care) WHERE care IS NOT NULL;
        """,
    )


@migration(18, "the access log: repeated reads counted on one row, for a bounded log")
def _m018(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- An app reading the same memory with the same tool on one day is one row: times
        -- counts them, `at` is the last. 2,000 list calls were 400,000 rows before.
        ALTER TABLE client_access ADD COLUMN times INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX client_access_by_day ON client_access(memory_id, tool, at);
        """,
    )


# What a computer syncs: the records that move between computers and who made them.
SYNCED_SETTINGS = (
    "instructions",
    "auto_memory",
    "use_memory",
    "sleep_consolidation",
    "memory_tokens",
    "recall_tokens",
    "care_notice_seen",
)


@migration(19, "sync: a stable id for every synced record, and what is left to send")
def _m019(conn: Connection) -> None:
    settings = ", ".join(f"'setting.{k}'" for k in SYNCED_SETTINGS)
    recording = "EXISTS (SELECT 1 FROM sync_flags WHERE recording = 1)"
    script = """
        -- A stable id for each memory, conversation and message: two computers can
        -- never make the same one (128 random bits), unlike the row numbers.
        ALTER TABLE memories ADD COLUMN uid TEXT;
        ALTER TABLE conversations ADD COLUMN uid TEXT;
        ALTER TABLE messages ADD COLUMN uid TEXT;
        -- the computer a synced memory was first written on (NULL: this one)
        ALTER TABLE memories ADD COLUMN origin TEXT;
        UPDATE memories SET uid = lower(hex(randomblob(16)));
        UPDATE conversations SET uid = lower(hex(randomblob(16)));
        UPDATE messages SET uid = lower(hex(randomblob(16)));
        CREATE UNIQUE INDEX memories_by_uid ON memories(uid);
        CREATE UNIQUE INDEX conversations_by_uid ON conversations(uid);
        CREATE UNIQUE INDEX messages_by_uid ON messages(uid);

        -- Each version in a memory's history, stamped with the logical clock and the
        -- computer that made it (NULL until it is sent); seq: the file it went in.
        ALTER TABLE memory_history ADD COLUMN sync_clock INTEGER;
        ALTER TABLE memory_history ADD COLUMN sync_device TEXT;
        ALTER TABLE memory_history ADD COLUMN sync_seq INTEGER;
        CREATE INDEX memory_history_by_sync ON memory_history(sync_device, sync_seq);

        -- One row while changes are recorded for sync: none before sync is set up, and
        -- recording = 0 while a computer applies what another sent.
        CREATE TABLE sync_flags (recording INTEGER NOT NULL);

        -- What changed here and is not yet sent: a record's kind and stable id.
        CREATE TABLE sync_dirty (
            kind TEXT NOT NULL,
            uid  TEXT NOT NULL,
            PRIMARY KEY (kind, uid)
        ) WITHOUT ROWID;

        -- The newest version of each synced record known here (a memory's current
        -- fields, its context, a conversation, a message, a setting), or its
        -- tombstone (body NULL: deleted, which wins over any edit). Stamped (clock,
        -- device); seq: the file of this computer it went in.
        CREATE TABLE sync_records (
            kind    TEXT NOT NULL,
            uid     TEXT NOT NULL,
            clock   INTEGER NOT NULL,
            device  TEXT NOT NULL,
            body    TEXT,
            seq     INTEGER,
            parent  TEXT,
            waiting INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (kind, uid)
        );
        CREATE INDEX sync_records_by_device ON sync_records(device, seq);
        CREATE INDEX sync_records_by_parent ON sync_records(parent) WHERE parent IS NOT NULL;
        CREATE INDEX sync_records_waiting ON sync_records(kind) WHERE waiting = 1;

        -- The other computers: what was read of each, and what they said of themselves.
        CREATE TABLE sync_peers (
            device    TEXT PRIMARY KEY,
            name      TEXT NOT NULL DEFAULT '',
            applied   INTEGER NOT NULL DEFAULT 0,
            status    TEXT,
            signing   TEXT,
            agreement TEXT,
            seen_at   TEXT,
            removed   INTEGER NOT NULL DEFAULT 0
        );

        -- What a synced answer was given (memories, earlier messages) by stable id, so
        -- a link is made when both ends have arrived, in whichever order they came.
        CREATE TABLE sync_links (
            message TEXT NOT NULL,
            target  TEXT NOT NULL,
            kind    TEXT NOT NULL,
            rank    INTEGER NOT NULL,
            score   REAL NOT NULL,
            why     TEXT NOT NULL DEFAULT 'found',
            weak    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (message, kind, target)
        ) WITHOUT ROWID;
        CREATE INDEX sync_links_by_target ON sync_links(target);

        -- Memories edited on two computers at once, until the user has seen them.
        CREATE TABLE sync_conflicts (
            uid     TEXT PRIMARY KEY,
            device  TEXT NOT NULL,
            at      TEXT NOT NULL,
            seen    INTEGER NOT NULL DEFAULT 0
        );
    """
    # Only columns that travel: a message shown or learned from here is not a change.
    columns = {
        "memories": "text, kind, importance, pinned, source, source_message_id, created_at, "
        "valid_from, valid_until, context, care_choice",
        "conversations": "title, title_source, pinned, model, created_at, updated_at",
        "messages": "conversation_id, role, content, status, model, created_at, "
        "prompt_tokens, error, parent_id, chosen, forgotten",
    }
    triggers = []
    for table, kind in (
        ("memories", "memory"),
        ("conversations", "conversation"),
        ("messages", "message"),
    ):
        triggers.append(f"""
        CREATE TRIGGER {table}_uid AFTER INSERT ON {table} BEGIN
            UPDATE {table} SET uid = lower(hex(randomblob(16))) WHERE rowid = NEW.rowid AND uid IS NULL;
            INSERT OR IGNORE INTO sync_dirty(kind, uid)
                SELECT '{kind}', uid FROM {table} WHERE rowid = NEW.rowid AND {recording};
        END;
        CREATE TRIGGER {table}_sync_changed AFTER UPDATE OF {columns[table]} ON {table}
            WHEN {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('{kind}', NEW.uid);
        END;
        CREATE TRIGGER {table}_sync_deleted AFTER DELETE ON {table} WHEN {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('{kind}', OLD.uid);
        END;""")
    triggers.append(f"""
        CREATE TRIGGER memory_history_sync AFTER INSERT ON memory_history WHEN {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid)
                SELECT 'memory', uid FROM memories WHERE id = NEW.memory_id;
        END;
        CREATE TRIGGER message_memories_sync AFTER INSERT ON message_memories WHEN {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid)
                SELECT 'message', uid FROM messages WHERE id = NEW.message_id;
        END;
        CREATE TRIGGER settings_sync_set AFTER INSERT ON meta
            WHEN NEW.key IN ({settings}) AND {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('setting', substr(NEW.key, 9));
        END;
        CREATE TRIGGER settings_sync_changed AFTER UPDATE ON meta
            WHEN NEW.key IN ({settings}) AND {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('setting', substr(NEW.key, 9));
        END;
        CREATE TRIGGER settings_sync_cleared AFTER DELETE ON meta
            WHEN OLD.key IN ({settings}) AND {recording} BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('setting', substr(OLD.key, 9));
        END;""")
    run_script(conn, script + "".join(triggers))


@migration(20, "imported history: where a conversation came from, and facts waiting for review")
def _m020(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- origin: the assistant a conversation was imported from ('chatgpt', 'claude'),
        -- NULL for the app's own; origin_key: that export's id for it, so importing the
        -- same export twice (or again after being stopped) adds each conversation once.
        ALTER TABLE conversations ADD COLUMN origin TEXT;
        ALTER TABLE conversations ADD COLUMN origin_key TEXT;
        CREATE UNIQUE INDEX conversations_by_origin ON conversations(origin, origin_key)
            WHERE origin_key IS NOT NULL;

        -- Facts found in imported history (or an imported memories file), proposed to
        -- the user: none is in a prompt until accepted. state: 'waiting', 'accepted',
        -- 'rejected'. said_at: when the user said it (the conversation's date);
        -- duplicate_of: a memory the profile already holds with the same text.
        CREATE TABLE proposals (
            id            INTEGER PRIMARY KEY,
            origin        TEXT NOT NULL,
            text          TEXT NOT NULL,
            content_hash  TEXT NOT NULL,
            kind          TEXT NOT NULL DEFAULT 'fact',
            importance    REAL NOT NULL DEFAULT 0.5,
            valid_from    TEXT,
            valid_until   TEXT,
            said_at       TEXT,
            message_id    INTEGER REFERENCES messages(id) ON DELETE SET NULL,
            duplicate_of  INTEGER REFERENCES memories(id) ON DELETE SET NULL,
            memory_id     INTEGER REFERENCES memories(id) ON DELETE SET NULL,
            state         TEXT NOT NULL DEFAULT 'waiting'
                          CHECK (state IN ('waiting', 'accepted', 'rejected')),
            created_at    TEXT NOT NULL
        );
        CREATE INDEX proposals_by_state ON proposals(state, id);
        CREATE INDEX proposals_by_hash ON proposals(content_hash);
        """,
    )


@migration(21, "imported facts that contradict another: the newer by date replaces the older")
def _m021(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- A proposed fact that says something else about the same thing as a memory
        -- (conflicts_memory) or as another proposed fact (conflicts_proposal), as the
        -- chat's consolidation decided when it was found. Which one replaces which is
        -- decided by date when it is accepted: the newer one is current, the older one
        -- ends where the newer one begins.
        ALTER TABLE proposals ADD COLUMN conflicts_memory INTEGER
            REFERENCES memories(id) ON DELETE SET NULL;
        ALTER TABLE proposals ADD COLUMN conflicts_proposal INTEGER
            REFERENCES proposals(id) ON DELETE SET NULL;
        CREATE INDEX proposals_by_conflict ON proposals(conflicts_proposal)
            WHERE conflicts_proposal IS NOT NULL;
        -- 1: from a memories file, not yet weighed against the rest (that takes the
        -- model, so it waits for the background pass that reads imported messages)
        ALTER TABLE proposals ADD COLUMN weigh INTEGER NOT NULL DEFAULT 0;
        """,
    )


@migration(
    22, "sync: what each computer has taken in of this one's files, and what a merge dropped"
)
def _m022(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- This computer's own change files: how many records each held and when it was
        -- written, so "desktop has not yet received your last 3 changes (since 14:02)"
        -- can be said from what desktop says it has applied. Files written before this
        -- migration are counted from the records still filed under them, with no time.
        CREATE TABLE sync_sent (
            seq        INTEGER PRIMARY KEY,
            records    INTEGER NOT NULL,
            written_at TEXT
        );
        INSERT INTO sync_sent(seq, records, written_at)
            SELECT seq, count(*), NULL FROM sync_records
            WHERE seq IS NOT NULL
              AND device = (SELECT value FROM meta WHERE key = 'sync.device')
              AND seq > coalesce((SELECT CAST(value AS INTEGER) FROM meta
                                  WHERE key = 'sync.snapshot'), 0)
            GROUP BY seq;

        -- When this computer had applied another's files up to `applied` (published in
        -- its status, so the other can say when its changes were taken in here).
        ALTER TABLE sync_peers ADD COLUMN applied_at TEXT;

        -- A deletion's record: the stamp of the version it deleted ("clock device"), so
        -- a computer that edited the record can tell whether the deleter had seen its
        -- edit. NULL for every other record, and for deletions made before this.
        ALTER TABLE sync_records ADD COLUMN prev TEXT;

        -- What a merge dropped: an edit made to a memory deleted on another computer, or
        -- messages written in a conversation deleted on another (each way round), with
        -- its text, kept for the user to copy or keep until they dismiss it. kind:
        -- 'memory_here' (edited here, deleted on `device`), 'memory_there' (edited on
        -- `device`, deleted here), 'message_here', 'message_there'.
        CREATE TABLE sync_lost (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            kind        TEXT NOT NULL,
            uid         TEXT NOT NULL,
            device      TEXT NOT NULL,
            text        TEXT NOT NULL,
            memory_kind TEXT,
            role        TEXT,
            at          TEXT NOT NULL
        );
        """,
    )


@migration(23, "about you: a short profile of the person, each line citing its memories")
def _m023(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- The "about you" profile given in every prompt: one fact a line. by: 'model'
        -- (written by the sleep-time rewrite, replaced by the next one) or 'user' (written
        -- or edited by the user: kept as written, never rewritten). position: the order.
        CREATE TABLE about_lines (
            id          INTEGER PRIMARY KEY,
            text        TEXT NOT NULL,
            by          TEXT NOT NULL DEFAULT 'model' CHECK (by IN ('model', 'user')),
            position    INTEGER NOT NULL DEFAULT 0,
            created_at  TEXT NOT NULL,
            updated_at  TEXT NOT NULL
        );
        -- The memories a line came from. Every line cites at least one.
        CREATE TABLE about_cites (
            line_id    INTEGER NOT NULL REFERENCES about_lines(id) ON DELETE CASCADE,
            memory_id  INTEGER NOT NULL,
            PRIMARY KEY (line_id, memory_id)
        );
        CREATE INDEX about_cites_by_memory ON about_cites(memory_id);
        -- Forgetting reaches the profile in the transaction that deletes the memory, on
        -- every path (the browser, "forget ...", the command line, MCP, a deletion sync
        -- applies, an undo): a line citing a deleted memory goes with it.
        CREATE TRIGGER about_forgets AFTER DELETE ON memories BEGIN
            DELETE FROM about_lines WHERE id IN
                (SELECT line_id FROM about_cites WHERE memory_id = OLD.id);
        END;
        -- Lines the user removed, as the memories they cited (no text): a rewrite drops a
        -- line that cites none but these, so a removed line does not come back.
        CREATE TABLE about_removed (
            removal    INTEGER NOT NULL,
            memory_id  INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            PRIMARY KEY (removal, memory_id)
        );
        CREATE INDEX about_removed_by_memory ON about_removed(memory_id);
        -- Which lines an answer was given (shown under it; gone with the line).
        CREATE TABLE about_given (
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            line_id    INTEGER NOT NULL REFERENCES about_lines(id) ON DELETE CASCADE,
            rank       INTEGER NOT NULL,
            PRIMARY KEY (message_id, line_id)
        );
        -- a line deleted finds the answers that were given it without a scan of them all
        CREATE INDEX about_given_by_line ON about_given(line_id);
        """,
    )


@migration(24, "spaces: memory kept apart by project")
def _m024(conn: Connection) -> None:
    _spaces(conn)
    # every app registered so far keeps what it had: the shared space
    if conn.execute(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'apps'"
    ).fetchone():
        conn.execute("INSERT INTO app_spaces (app_id, space_key) SELECT id, 0 FROM apps")


def _spaces(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- The spaces a person makes ("Work", "Thesis", "客户 A"). The shared space is no
        -- row: a NULL space_id is shared (what applies everywhere). uid: the same on
        -- every synced computer. apart: a space kept apart neither reads nor adds to
        -- the shared space. instruction: its own, given with the user's in its chats.
        -- AUTOINCREMENT: a space taken out never lends its number to the next one made,
        -- which whatever still names the old one (an open chat, a script, a memory's
        -- history) would then take for it.
        CREATE TABLE spaces (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            uid         TEXT NOT NULL UNIQUE,
            name        TEXT NOT NULL,
            instruction TEXT NOT NULL DEFAULT '',
            apart       INTEGER NOT NULL DEFAULT 0,
            created_at  TEXT NOT NULL,
            updated_at  TEXT NOT NULL
        );
        -- Everything has its space. A space with contents cannot be deleted by accident:
        -- its store moves them to the shared space or deletes them first.
        ALTER TABLE memories ADD COLUMN space_id INTEGER REFERENCES spaces(id);
        ALTER TABLE conversations ADD COLUMN space_id INTEGER REFERENCES spaces(id);
        ALTER TABLE documents ADD COLUMN space_id INTEGER REFERENCES spaces(id);
        ALTER TABLE doc_folders ADD COLUMN space_id INTEGER REFERENCES spaces(id);
        ALTER TABLE proposals ADD COLUMN space_id INTEGER REFERENCES spaces(id);
        CREATE INDEX memories_by_space ON memories(space_id) WHERE space_id IS NOT NULL;
        CREATE INDEX conversations_by_space ON conversations(space_id)
            WHERE space_id IS NOT NULL;
        CREATE INDEX documents_by_space ON documents(space_id) WHERE space_id IS NOT NULL;
        -- where a version of a memory was (a move between spaces is a version of its own)
        ALTER TABLE memory_history ADD COLUMN space_id INTEGER;
        -- The spaces each app over MCP (core/clients.py) may use: its level says what it
        -- may do (read, write, delete), these where. space_key 0: the shared space. Every
        -- app starts with the shared space alone (a new one reads it only, its level
        -- being read until the user chooses), so one registered before spaces keeps what
        -- it had.
        CREATE TABLE app_spaces (
            app_id    INTEGER NOT NULL REFERENCES apps(id) ON DELETE CASCADE,
            space_key INTEGER NOT NULL,
            PRIMARY KEY (app_id, space_key)
        );
        CREATE TRIGGER app_spaces_gone AFTER DELETE ON spaces BEGIN
            DELETE FROM app_spaces WHERE space_key = OLD.id;
        END;
        -- Sync (core/sync/capture.py) carries spaces, and which space each memory and
        -- conversation is in.
        CREATE TRIGGER spaces_sync_added AFTER INSERT ON spaces
            WHEN EXISTS (SELECT 1 FROM sync_flags WHERE recording = 1) BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('space', NEW.uid);
        END;
        CREATE TRIGGER spaces_sync_changed AFTER UPDATE OF name, instruction, apart ON spaces
            WHEN EXISTS (SELECT 1 FROM sync_flags WHERE recording = 1) BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('space', NEW.uid);
        END;
        CREATE TRIGGER spaces_sync_deleted AFTER DELETE ON spaces
            WHEN EXISTS (SELECT 1 FROM sync_flags WHERE recording = 1) BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('space', OLD.uid);
        END;
        -- The "about you" profile is built from shared memories: a line citing one that
        -- moves into a space goes, in the transaction that moves it (as when it is
        -- deleted).
        CREATE TRIGGER about_leaves_with_space AFTER UPDATE OF space_id ON memories
            WHEN NEW.space_id IS NOT NULL BEGIN
            DELETE FROM about_lines WHERE id IN
                (SELECT line_id FROM about_cites WHERE memory_id = NEW.id);
        END;
        CREATE TRIGGER memories_space_sync AFTER UPDATE OF space_id ON memories
            WHEN EXISTS (SELECT 1 FROM sync_flags WHERE recording = 1) BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('memory', NEW.uid);
        END;
        CREATE TRIGGER conversations_space_sync AFTER UPDATE OF space_id ON conversations
            WHEN EXISTS (SELECT 1 FROM sync_flags WHERE recording = 1) BEGIN
            INSERT OR IGNORE INTO sync_dirty(kind, uid) VALUES ('conversation', NEW.uid);
        END;
        """,
    )


@migration(25, "the vector codes know each item's space: a move reloads them")
def _m025(conn: Connection) -> None:
    run_script(
        conn,
        """
        -- The codes held in memory carry each item's space (core/db/vectors.py), so a
        -- search within a space is filtered in the scan. An item moved to another space
        -- (a memory, a chat and its messages, a document and its passages) changes its
        -- collection's codes generation, so every process reads them again.
        CREATE TRIGGER codes_space_moved AFTER UPDATE OF space_id ON memories
            WHEN OLD.space_id IS NOT NEW.space_id BEGIN
            UPDATE counters SET n = n + 1 WHERE name = 'codes';
        END;
        CREATE TRIGGER message_codes_space_moved AFTER UPDATE OF space_id ON conversations
            WHEN OLD.space_id IS NOT NEW.space_id BEGIN
            UPDATE counters SET n = n + 1 WHERE name = 'message_codes';
        END;
        CREATE TRIGGER message_codes_conversation_moved
            AFTER UPDATE OF conversation_id ON messages
            WHEN OLD.conversation_id IS NOT NEW.conversation_id BEGIN
            UPDATE counters SET n = n + 1 WHERE name = 'message_codes';
        END;
        CREATE TRIGGER doc_codes_space_moved AFTER UPDATE OF space_id ON documents
            WHEN OLD.space_id IS NOT NEW.space_id BEGIN
            UPDATE counters SET n = n + 1 WHERE name = 'doc_codes';
        END;
        """,
    )
