import Foundation
import GRDB
import HeraldLocks

/// The engine's SQLite file and its migrations. Times are stored as epoch milliseconds.
enum SQLiteEngineSchema {
    static func open(at url: URL) throws -> DatabasePool {
        try PrivateFolder.create(url.deletingLastPathComponent())
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(15)
        defer { PrivateFolder.tightenDatabase(at: url.path) }
        return try MigrationGate.open(path: url.path) {
            try DatabasePool(path: url.path, configuration: config)
        } migrate: { pool in
            try migrator.migrate(pool)
        } isCurrent: { pool in
            try pool.read { db in try migrator.hasCompletedMigrations(db) }
        }
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE application (
                    key TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    secret TEXT NOT NULL UNIQUE,
                    code TEXT NOT NULL UNIQUE,
                    defaultMessageKey TEXT,
                    messageEditingAllowed INTEGER NOT NULL DEFAULT 1,
                    inboxAuthMode TEXT NOT NULL DEFAULT 'applicationCode',
                    createdAt INTEGER NOT NULL);
                CREATE TABLE jwtKey (
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    keyId TEXT NOT NULL,
                    secretHex TEXT NOT NULL,
                    PRIMARY KEY (applicationKey, keyId));
                CREATE TABLE usedJti (
                    applicationKey TEXT NOT NULL,
                    jti TEXT NOT NULL,
                    expiresAt INTEGER NOT NULL,
                    PRIMARY KEY (applicationKey, jti));
                CREATE TABLE message (
                    key TEXT PRIMARY KEY NOT NULL,
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    text TEXT NOT NULL,
                    placeholder TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    updatedAt INTEGER NOT NULL);
                CREATE TABLE bulk (
                    id TEXT PRIMARY KEY NOT NULL,
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    messageKey TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    createdAt INTEGER NOT NULL);
                CREATE TABLE sent (
                    id TEXT NOT NULL,
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    bulkId TEXT NOT NULL REFERENCES bulk(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    address TEXT NOT NULL,
                    accepted INTEGER NOT NULL,
                    reason TEXT,
                    text TEXT,
                    price REAL NOT NULL,
                    sentAt INTEGER NOT NULL,
                    linkCode TEXT,
                    PRIMARY KEY (applicationKey, id));
                CREATE INDEX sentByBulk ON sent(bulkId, position);
                CREATE TABLE shortLink (
                    code TEXT PRIMARY KEY NOT NULL,
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    messageId TEXT,
                    referrer TEXT,
                    clicks INTEGER NOT NULL DEFAULT 0,
                    createdAt INTEGER NOT NULL);
                CREATE UNIQUE INDEX shortLinkByReferrer ON shortLink(applicationKey, referrer) WHERE referrer IS NOT NULL;
                CREATE INDEX shortLinkByMessage ON shortLink(applicationKey, messageId);
                CREATE TABLE inbox (
                    id TEXT PRIMARY KEY NOT NULL,
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    externalUserId TEXT NOT NULL,
                    title TEXT,
                    body TEXT NOT NULL,
                    topic TEXT,
                    sentAt INTEGER NOT NULL,
                    seen INTEGER NOT NULL DEFAULT 0,
                    seenAt INTEGER);
                CREATE INDEX inboxByUser ON inbox(applicationKey, externalUserId, sentAt);
                """)
        }
        m.registerMigration("v2-stored-statuses-events-keys") { db in
            // Statuses are stored as the carrier reports them; `outbox` marks messages committed but not yet
            // handed to the carrier; `nextCheckAt` is when the carrier's next report is due (NULL: final).
            try db.execute(sql: """
                ALTER TABLE sent ADD COLUMN status TEXT NOT NULL DEFAULT 'MessageWaiting';
                ALTER TABLE sent ADD COLUMN statusAt INTEGER;
                ALTER TABLE sent ADD COLUMN outbox INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE sent ADD COLUMN nextCheckAt INTEGER;
                UPDATE sent SET status = 'Rejected' WHERE accepted = 0;
                UPDATE sent SET nextCheckAt = sentAt WHERE accepted = 1;
                CREATE INDEX sentDue ON sent(nextCheckAt) WHERE nextCheckAt IS NOT NULL;
                CREATE INDEX sentOutbox ON sent(outbox) WHERE outbox = 1;
                CREATE TABLE event (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    applicationKey TEXT NOT NULL,
                    type TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    createdAt INTEGER NOT NULL);
                CREATE INDEX eventByApplication ON event(applicationKey, id);
                CREATE TABLE apiKey (
                    id TEXT PRIMARY KEY NOT NULL,
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    role TEXT NOT NULL,
                    hash TEXT NOT NULL UNIQUE,
                    createdAt INTEGER NOT NULL,
                    revokedAt INTEGER);
                """)
        }
        m.registerMigration("v3-carrier-details") { db in
            // `outbox` 2: handed to the carrier, its answer not stored yet (a crash there is reconciled, not resent).
            // The carrier's own price, currency and whether a failure is for good.
            try db.execute(sql: """
                ALTER TABLE sent ADD COLUMN currency TEXT;
                ALTER TABLE sent ADD COLUMN permanentFailure INTEGER NOT NULL DEFAULT 0;
                DROP INDEX sentOutbox;
                CREATE INDEX sentOutbox ON sent(outbox) WHERE outbox > 0;
                """)
        }
        m.registerMigration("v4-held-sends") { db in
            // `outbox` 3: held until `notBefore` (the undo window, a scheduled send); then 1, handed over as any other.
            try db.execute(sql: "ALTER TABLE sent ADD COLUMN notBefore INTEGER;")
        }
        m.registerMigration("v5-optouts") { db in
            // Numbers that said stop, per application (by hand, or a reply with a stop word).
            try db.execute(sql: """
                CREATE TABLE optout (
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    msisdn TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    source TEXT NOT NULL,
                    PRIMARY KEY (applicationKey, msisdn));
                """)
        }
        m.registerMigration("v6-email") { db in
            // Email invitations: a bulk with a subject, its messages handed to the mailer instead of the carrier.
            try db.execute(sql: """
                ALTER TABLE sent ADD COLUMN channel TEXT NOT NULL DEFAULT 'sms';
                ALTER TABLE bulk ADD COLUMN subject TEXT;
                """)
        }
        m.registerMigration("v7-audit") { db in
            // Who sent, moved, took back, resent, changed an opt-out or a key: only ever added to (the triggers refuse
            // a change or a removal, whatever statement asks for it).
            try db.execute(sql: """
                CREATE TABLE audit (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    applicationKey TEXT NOT NULL,
                    createdAt INTEGER NOT NULL,
                    actor TEXT NOT NULL,
                    keyId TEXT,
                    role TEXT NOT NULL,
                    address TEXT NOT NULL,
                    action TEXT NOT NULL,
                    bulkId TEXT,
                    subject TEXT,
                    what TEXT NOT NULL);
                CREATE INDEX auditByApplication ON audit(applicationKey, id);
                CREATE INDEX auditByBulk ON audit(bulkId, id) WHERE bulkId IS NOT NULL;
                CREATE INDEX auditBySubject ON audit(subject, id) WHERE subject IS NOT NULL;
                CREATE TRIGGER auditKeepsEntries BEFORE UPDATE ON audit
                    BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
                CREATE TRIGGER auditKeepsEveryEntry BEFORE DELETE ON audit
                    BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
                """)
        }
        m.registerMigration("v8-spend-caps") { db in
            // A key's cap on what it may spend a day (`serve keys create --max-spend-per-day`), and which key sent each
            // bulk, so that today's spend of a key is one indexed look-up.
            try db.execute(sql: """
                ALTER TABLE apiKey ADD COLUMN maxSpendPerDay REAL;
                ALTER TABLE bulk ADD COLUMN keyId TEXT;
                CREATE INDEX bulkByKey ON bulk(keyId, createdAt) WHERE keyId IS NOT NULL;
                """)
        }
        m.registerMigration("v9-conversations") { db in
            // Replies people sent back, each kept once under the carrier's id, threaded to the latest invitation sent to
            // the number before it; and one summary per number (`conversation`), kept on every write so the list of
            // conversations is one indexed read. A message sent to a number counts in its summary (the trigger), so
            // no send path has to remember it.
            try db.execute(sql: """
                CREATE TABLE reply (
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    messageId TEXT NOT NULL,
                    fromNumber TEXT NOT NULL,
                    toNumber TEXT,
                    text TEXT NOT NULL,
                    receivedAt INTEGER NOT NULL,
                    price REAL,
                    currency TEXT,
                    seen INTEGER NOT NULL DEFAULT 0,
                    seenAt INTEGER,
                    bulkId TEXT,
                    invitationMessageId TEXT,
                    optedOut INTEGER NOT NULL DEFAULT 0,
                    storedAt INTEGER NOT NULL,
                    PRIMARY KEY (applicationKey, messageId));
                CREATE INDEX replyByNumber ON reply(applicationKey, fromNumber, receivedAt, messageId);
                CREATE TABLE conversation (
                    applicationKey TEXT NOT NULL REFERENCES application(key) ON DELETE CASCADE,
                    number TEXT NOT NULL,
                    lastAt INTEGER NOT NULL,
                    lastText TEXT NOT NULL,
                    lastIsReply INTEGER NOT NULL,
                    unread INTEGER NOT NULL DEFAULT 0,
                    replies INTEGER NOT NULL DEFAULT 0,
                    sent INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (applicationKey, number));
                CREATE INDEX conversationByLast ON conversation(applicationKey, lastAt, number) WHERE replies > 0;
                CREATE INDEX conversationUnread ON conversation(applicationKey, unread) WHERE unread > 0;
                CREATE INDEX sentByAddress ON sent(applicationKey, address, sentAt, id);
                INSERT INTO conversation(applicationKey, number, lastAt, lastText, lastIsReply, unread, replies, sent)
                    SELECT applicationKey, address, MAX(sentAt), '', 0, 0, 0, COUNT(*) FROM sent
                    WHERE accepted = 1 AND channel = 'sms' GROUP BY applicationKey, address;
                UPDATE conversation SET lastText = COALESCE((SELECT s.text FROM sent s
                    WHERE s.applicationKey = conversation.applicationKey AND s.address = conversation.number AND s.accepted = 1
                    AND s.channel = 'sms' ORDER BY s.sentAt DESC LIMIT 1), '');
                CREATE TRIGGER sentInConversation AFTER INSERT ON sent WHEN NEW.accepted = 1 AND NEW.channel = 'sms'
                BEGIN
                    INSERT INTO conversation(applicationKey, number, lastAt, lastText, lastIsReply, unread, replies, sent)
                    VALUES (NEW.applicationKey, NEW.address, NEW.sentAt, COALESCE(NEW.text, ''), 0, 0, 0, 1)
                    ON CONFLICT(applicationKey, number) DO UPDATE SET
                        sent = conversation.sent + 1,
                        lastText = CASE WHEN excluded.lastAt >= conversation.lastAt THEN excluded.lastText ELSE conversation.lastText END,
                        lastIsReply = CASE WHEN excluded.lastAt >= conversation.lastAt THEN 0 ELSE conversation.lastIsReply END,
                        lastAt = CASE WHEN excluded.lastAt >= conversation.lastAt THEN excluded.lastAt ELSE conversation.lastAt END;
                END;
                """)
        }
        return m
    }
}
