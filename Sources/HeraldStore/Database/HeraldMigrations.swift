import Foundation
import GRDB
import Logging

/// The explicit schema history of `herald.sqlite`. Never edit a shipped migration: add a new one.
enum HeraldMigrations {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-contacts") { db in
            try db.execute(sql: """
                CREATE TABLE person (
                    id INTEGER PRIMARY KEY,
                    uid TEXT,
                    first_name TEXT NOT NULL DEFAULT '',
                    last_name TEXT NOT NULL DEFAULT '',
                    formatted_name TEXT NOT NULL DEFAULT '',
                    organization TEXT,
                    has_photo INTEGER NOT NULL DEFAULT 0,
                    revision_ms INTEGER,
                    created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL,
                    sort_first TEXT NOT NULL,
                    sort_last TEXT NOT NULL,
                    search_key TEXT NOT NULL,
                    phone_key TEXT NOT NULL
                );
                CREATE INDEX person_uid ON person(uid) WHERE uid IS NOT NULL;
                CREATE INDEX person_sort_first ON person(sort_first, id);
                CREATE INDEX person_sort_last ON person(sort_last, id);
                CREATE TABLE phone (
                    id INTEGER PRIMARY KEY,
                    person_id INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    label TEXT,
                    raw TEXT NOT NULL,
                    e164 TEXT,
                    kind TEXT NOT NULL,
                    region TEXT,
                    invalid_reason TEXT
                );
                CREATE INDEX phone_person ON phone(person_id, position);
                CREATE INDEX phone_e164 ON phone(e164) WHERE e164 IS NOT NULL;
                CREATE TABLE email (
                    id INTEGER PRIMARY KEY,
                    person_id INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    label TEXT,
                    address TEXT NOT NULL,
                    address_norm TEXT NOT NULL
                );
                CREATE INDEX email_person ON email(person_id, position);
                CREATE INDEX email_norm ON email(address_norm);
                CREATE TABLE store_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
                INSERT INTO store_meta(key, value) VALUES ('contacts_generation', 0);
                """)
        }
        m.registerMigration("v1-ledger") { db in
            try db.execute(sql: """
                CREATE TABLE bulk (
                    bulk_id TEXT PRIMARY KEY,
                    created_ms INTEGER NOT NULL,
                    message_key TEXT,
                    message_text TEXT,
                    sender TEXT,
                    recipient_count INTEGER NOT NULL,
                    passes_done INTEGER NOT NULL DEFAULT 0,
                    next_poll_ms INTEGER,
                    last_polled_ms INTEGER
                );
                CREATE TABLE invitation (
                    id INTEGER PRIMARY KEY,
                    msisdn TEXT NOT NULL,
                    person_id INTEGER REFERENCES person(id) ON DELETE SET NULL,
                    bulk_id TEXT,
                    message_id TEXT,
                    correlator TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    created_ms INTEGER NOT NULL,
                    updated_ms INTEGER NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 1,
                    error TEXT
                );
                CREATE INDEX invitation_msisdn ON invitation(msisdn, created_ms, id);
                CREATE INDEX invitation_person ON invitation(person_id, created_ms, id);
                CREATE INDEX invitation_bulk ON invitation(bulk_id);
                CREATE INDEX invitation_message ON invitation(message_id) WHERE message_id IS NOT NULL;
                CREATE INDEX invitation_status ON invitation(status);
                """)
        }
        m.registerMigration("v1-caches") { db in
            try db.execute(sql: """
                CREATE TABLE suggestion_history (
                    person_id INTEGER PRIMARY KEY REFERENCES person(id) ON DELETE CASCADE,
                    last_suggested_ms INTEGER NOT NULL,
                    seen INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE template_cache (
                    message_key TEXT PRIMARY KEY,
                    application_key TEXT,
                    text TEXT NOT NULL,
                    placeholder TEXT,
                    client_placeholder TEXT,
                    fetched_ms INTEGER NOT NULL
                );
                CREATE TABLE inbox_message (
                    user_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    title TEXT,
                    body TEXT NOT NULL,
                    topic TEXT,
                    sent_ms INTEGER NOT NULL,
                    seen INTEGER NOT NULL DEFAULT 0,
                    silent INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (user_id, message_id)
                );
                CREATE INDEX inbox_user_sent ON inbox_message(user_id, sent_ms);
                """)
        }
        m.registerMigration("v2-send-journal-and-seen-outbox") { db in
            // A send in flight: written in the same transaction as its queued ledger rows, owned by
            // the lease of the process that sends it (see SendLease), removed once the platform answered.
            // Seen marks are queued here before the local mark and cleared once the platform took them.
            try db.execute(sql: """
                CREATE TABLE pending_send (
                    id TEXT PRIMARY KEY,
                    owner TEXT,
                    payload TEXT NOT NULL,
                    created_ms INTEGER NOT NULL
                );
                CREATE TABLE seen_outbox (
                    user_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    timestamp_delta INTEGER NOT NULL,
                    queued_ms INTEGER NOT NULL,
                    PRIMARY KEY (user_id, message_id)
                );
                INSERT INTO pending_send (id, owner, payload, created_ms)
                    SELECT substr(key, length('invite.pending.') + 1), NULL, value, 0
                    FROM setting WHERE key LIKE 'invite.pending.%';
                DELETE FROM setting WHERE key LIKE 'invite.pending.%';
                """)
            // The seen queue of earlier versions (one JSON object: user → [{messageId, timestampDelta}]).
            // Removed only once carried over: one that cannot be parsed stays in `setting` as it was
            // (its marks are not lost, and failing the migration would leave the whole database unopenable).
            if let text = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'inbox.pendingSeen'") {
                guard let queue = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [[String: Any]]] else {
                    Logger(label: "herald.store").warning(
                        "the seen marks an earlier version queued cannot be read: they stay as they were (setting inbox.pendingSeen)")
                    return
                }
                for (user, marks) in queue {
                    for mark in marks {
                        guard let id = mark["messageId"] as? String else { continue }
                        let delta = (mark["timestampDelta"] as? NSNumber)?.int64Value ?? 0
                        try db.execute(sql: """
                            INSERT OR IGNORE INTO seen_outbox (user_id, message_id, timestamp_delta, queued_ms)
                            VALUES (?, ?, ?, 0)
                            """, arguments: [user, id, delta])
                    }
                }
                try db.execute(sql: "DELETE FROM setting WHERE key = 'inbox.pendingSeen'")
            }
        }
        m.registerMigration("v3-ledger-change-feed") { db in
            // The change feed: one counter for the whole ledger, stamped by triggers on every row a
            // write inserts or changes, whichever process writes it. "What changed since N" is then an
            // index range, and "did anything change" one read of `ledger_clock`. The bulk index gains
            // the status column so counts per bulk come from the index alone.
            try db.execute(sql: """
                CREATE TABLE ledger_clock (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
                INSERT INTO ledger_clock (id, seq) VALUES (1, 0);
                ALTER TABLE invitation ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE bulk ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX invitation_change ON invitation(change_seq);
                CREATE INDEX bulk_change ON bulk(change_seq);
                DROP INDEX invitation_bulk;
                CREATE INDEX invitation_bulk_status ON invitation(bulk_id, status);
                """)
            for table in ["invitation", "bulk"] {
                let key = table == "invitation" ? "id" : "bulk_id"
                let stamp = """
                    UPDATE ledger_clock SET seq = seq + 1 WHERE id = 1;
                    UPDATE \(table) SET change_seq = (SELECT seq FROM ledger_clock WHERE id = 1) WHERE \(key) = NEW.\(key);
                    """
                let watched = table == "invitation"
                    ? "status, bulk_id, message_id, error, updated_ms, person_id"
                    : "passes_done, next_poll_ms, last_polled_ms, recipient_count, message_text, message_key"
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_feed_insert AFTER INSERT ON \(table) BEGIN \(stamp) END;
                    CREATE TRIGGER \(table)_feed_update AFTER UPDATE OF \(watched) ON \(table) BEGIN \(stamp) END;
                    """)
            }
        }
        m.registerMigration("v4-team-bulks") { db in
            // On a Herald server a terminal also holds its colleagues' bulks (from the server's events):
            // `sent_here` says which ones this workspace sent.
            try db.execute(sql: "ALTER TABLE bulk ADD COLUMN sent_here INTEGER NOT NULL DEFAULT 1")
        }
        m.registerMigration("v5-carrier-details") { db in
            // What the carrier charged (Infobip tells), and whether its failure is for good.
            try db.execute(sql: """
                ALTER TABLE invitation ADD COLUMN price REAL;
                ALTER TABLE invitation ADD COLUMN currency TEXT;
                ALTER TABLE invitation ADD COLUMN permanent INTEGER NOT NULL DEFAULT 0;
                """)
        }
        m.registerMigration("v6-inbox-kept-unread") { db in
            // Marked unread here (the platform has no "unseen"): shown unread until opened or marked seen again.
            try db.execute(sql: "ALTER TABLE inbox_message ADD COLUMN kept_unread INTEGER NOT NULL DEFAULT 0")
        }
        m.registerMigration("v7-chosen-sms-number") { db in
            // The number a person's invitations go to, chosen in the detail view (E.164); NULL: Herald picks.
            try db.execute(sql: "ALTER TABLE person ADD COLUMN sms_number TEXT")
        }
        m.registerMigration("v8-unused-contact-indexes") { db in
            // No query looks people up by UID or emails by their normalised address: an import matches
            // them in memory (MatchIndex reads both tables in order). Each index cost every import a
            // B-tree insert per person or email.
            try db.execute(sql: "DROP INDEX person_uid; DROP INDEX email_norm")
        }
        m.registerMigration("v9-resend-of") { db in
            // A resend's bulk names the bulk whose failed numbers it sent again.
            try db.execute(sql: "ALTER TABLE bulk ADD COLUMN resend_of TEXT")
        }
        m.registerMigration("v10-sent-text") { db in
            // The text as the platform sent it (fields filled, link made), for Deliveries' recipient detail.
            try db.execute(sql: "ALTER TABLE invitation ADD COLUMN text TEXT")
        }
        m.registerMigration("v11-person-note") { db in
            // A contact's note (vCard NOTE), kept from imports and set with `contacts add|edit --note`.
            try db.execute(sql: "ALTER TABLE person ADD COLUMN note TEXT")
        }
        m.registerMigration("v12-address-books") { db in
            // `[[books]]`: the address books contacts come from and are written back to (a vdir folder: one card
            // file each; a CardDAV collection: one resource each, with its sync token). A card is a person's link to
            // its book: the file or resource (href) and how it was when read (etag); a CardDAV card also keeps the
            // server's text (raw) and whether it changed here since (dirty: 1 changed, 2 new). A card deleted here
            // keeps its bytes in book_trash for an undo; a CardDAV one leaves a tombstone until the server is told.
            // A card changed on both sides keeps the server's version and Herald's goes to book_conflict.
            try db.execute(sql: """
                CREATE TABLE book (name TEXT PRIMARY KEY, kind TEXT NOT NULL, location TEXT NOT NULL, sync_token TEXT);
                CREATE TABLE book_card (
                    person_id INTEGER PRIMARY KEY REFERENCES person(id) ON DELETE CASCADE,
                    book TEXT NOT NULL REFERENCES book(name) ON DELETE CASCADE ON UPDATE CASCADE,
                    href TEXT NOT NULL,
                    etag TEXT NOT NULL,
                    raw BLOB,
                    dirty INTEGER NOT NULL DEFAULT 0
                );
                CREATE UNIQUE INDEX book_card_href ON book_card(book, href);
                CREATE TABLE book_trash (
                    person_id INTEGER PRIMARY KEY,
                    book TEXT NOT NULL,
                    href TEXT NOT NULL,
                    etag TEXT NOT NULL,
                    card BLOB NOT NULL,
                    deleted_ms INTEGER NOT NULL
                );
                CREATE TABLE book_tombstone (
                    book TEXT NOT NULL REFERENCES book(name) ON DELETE CASCADE,
                    href TEXT NOT NULL,
                    etag TEXT NOT NULL,
                    PRIMARY KEY (book, href)
                );
                CREATE TABLE book_conflict (
                    person_id INTEGER PRIMARY KEY REFERENCES person(id) ON DELETE CASCADE,
                    book TEXT NOT NULL,
                    card BLOB NOT NULL,
                    at_ms INTEGER NOT NULL
                );
                """)
        }
        m.registerMigration("v13-held-sends") { db in
            // When a held bulk leaves (the undo window, a scheduled send): the platform holds it until then.
            try db.execute(sql: "ALTER TABLE bulk ADD COLUMN send_at_ms INTEGER")
        }
        m.registerMigration("v14-books-left-out") { db in
            // A book left out of config.toml is kept, its people linked and their unsynced changes with them, until it
            // comes back; 0 while it is out.
            try db.execute(sql: "ALTER TABLE book ADD COLUMN configured INTEGER NOT NULL DEFAULT 1")
        }
        m.registerMigration("v15-clicks") { db in
            // How often each invitation's own link was opened; a change of it reaches the screens as a status change does.
            try db.execute(sql: """
                ALTER TABLE invitation ADD COLUMN clicks INTEGER NOT NULL DEFAULT 0;
                DROP TRIGGER invitation_feed_update;
                CREATE TRIGGER invitation_feed_update AFTER UPDATE OF status, bulk_id, message_id, error, updated_ms, person_id, clicks
                ON invitation BEGIN
                    UPDATE ledger_clock SET seq = seq + 1 WHERE id = 1;
                    UPDATE invitation SET change_seq = (SELECT seq FROM ledger_clock WHERE id = 1) WHERE id = NEW.id;
                END;
                """)
        }
        m.registerMigration("v16-person-changes") { db in
            // Which people changed what the search index holds (keys and sort names), whichever process wrote it: an
            // index a few changes behind takes just those people again instead of reading the whole book. Only the
            // latest changes are kept (see `PersonRows.bumpGeneration`); an index older than them is built again.
            // The epoch tells this database from another one at the same path (a saved index belongs to one).
            try db.execute(sql: """
                CREATE TABLE person_change (seq INTEGER PRIMARY KEY, person_id INTEGER NOT NULL);
                CREATE TRIGGER person_change_insert AFTER INSERT ON person
                BEGIN INSERT INTO person_change (person_id) VALUES (NEW.id); END;
                CREATE TRIGGER person_change_update AFTER UPDATE OF search_key, phone_key, sort_first, sort_last ON person
                BEGIN INSERT INTO person_change (person_id) VALUES (NEW.id); END;
                CREATE TRIGGER person_change_delete AFTER DELETE ON person
                BEGIN INSERT INTO person_change (person_id) VALUES (OLD.id); END;
                INSERT INTO store_meta (key, value) VALUES ('contacts_epoch', abs(random()));
                """)
        }
        m.registerMigration("v17-delivery-query") { db in
            // What the Deliveries query looks in (see LedgerQuery): the country of each number (its ISO region, from
            // the number; NULL for an email or a number no region owns), filled at insert and here for the rows there
            // are; who sent each bulk (this workspace's sender name, or the server key's name of a colleague's
            // bulk; NULL when not known, as for the bulks sent before). Indexes for the terms that narrow most, holding
            // what a count per bulk needs (status, bulk, time) so that it never reads the rows; the status index gains
            // those columns in place of its own. And one in time order for exports.
            try db.execute(sql: """
                ALTER TABLE invitation ADD COLUMN country TEXT;
                ALTER TABLE bulk ADD COLUMN sent_by TEXT;
                DROP INDEX invitation_status;
                CREATE INDEX invitation_status ON invitation(status, bulk_id, created_ms);
                CREATE INDEX invitation_country ON invitation(country, status, bulk_id, created_ms) WHERE country IS NOT NULL;
                CREATE INDEX invitation_created ON invitation(created_ms, id);
                """)
            // Whether a later invitation went to the same number (a resend would not take this one again): kept at
            // insert, so that "how many can be retried" is a column, not a look-up per row. A breakdown of failures
            // reads one small index holding all it needs (partial: failed rows only; the WHERE is LedgerFilter's).
            try db.execute(sql: """
                ALTER TABLE invitation ADD COLUMN superseded INTEGER NOT NULL DEFAULT 0;
                UPDATE invitation SET superseded = 1 WHERE EXISTS (
                    SELECT 1 FROM invitation j WHERE j.msisdn = invitation.msisdn
                    AND (j.created_ms > invitation.created_ms OR (j.created_ms = invitation.created_ms AND j.id > invitation.id)));
                CREATE INDEX invitation_failed ON invitation(error COLLATE NOCASE, status, permanent, superseded, country,
                                                             created_ms, bulk_id, msisdn)
                    WHERE status IN ('DeliveryImpossible','Rejected','SendFailed');
                """)
            try LedgerCountries.backfill(db)
        }
        m.registerMigration("v18-groups-and-segments") { db in
            // A person's groups (vCard CATEGORIES, a CSV's labels, a tag given in Herald): the name as written and
            // folded as names are (one row per folded name), found by the folded name through its index. `via` is the
            // UID of the vCard 4 group card (KIND:group) that made the person a member, NULL for the person's own.
            // Saved segments: a Contacts query kept under a name (folded), evaluated when used.
            try db.execute(sql: """
                CREATE TABLE person_group (
                    person_id INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    folded TEXT NOT NULL,
                    via TEXT,
                    PRIMARY KEY (person_id, folded)
                ) WITHOUT ROWID;
                CREATE INDEX person_group_folded ON person_group(folded, person_id);
                CREATE TABLE saved_segment (
                    folded TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    query TEXT NOT NULL,
                    saved_ms INTEGER NOT NULL
                );
                """)
        }
        m.registerMigration("v19-bulk-estimate") { db in
            // What a bulk was estimated to cost when it was sent (`herald status` shows it beside the reported
            // price): the sum over its recipients of the send's estimate, NULL when none was made or none priced.
            try db.execute(sql: """
                ALTER TABLE bulk ADD COLUMN estimate REAL;
                ALTER TABLE bulk ADD COLUMN estimate_currency TEXT;
                """)
        }
        m.registerMigration("v20-person-fields") { db in
            // A person's own fields (a CSV column Herald has no place for, a vCard X- property, a field set in Herald),
            // a message's {SHIRT_SIZE}: one JSON object of name → value beside the person, NULL when none, so an
            // import writes no row more than before and a person is read with one column more. Never searched by.
            try db.execute(sql: "ALTER TABLE person ADD COLUMN custom_fields TEXT")
        }
        return m
    }
}
