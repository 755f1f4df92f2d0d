/// The engine's tables on PostgreSQL: the same names and columns as on SQLite (`SQLiteEngineSchema` after all its
/// migrations), so one set of statements serves both. Integers (times in epoch milliseconds, booleans as 0 and 1)
/// are BIGINT; text compares byte by byte (collation "C"), as SQLite's does.
enum PostgresEngineSchema {
    static let migrations: [(version: Int64, ddl: String)] = [(1, version1), (2, version2), (3, version3), (4, version4), (5, version5),
                                                                   (6, version6), (7, version7)]

    private static let text = #"TEXT COLLATE "C""#

    static let version1 = """
        CREATE TABLE meta (key \(text) PRIMARY KEY, value \(text) NOT NULL);
        CREATE TABLE application (
            key \(text) PRIMARY KEY,
            name \(text) NOT NULL,
            secret \(text) NOT NULL UNIQUE,
            code \(text) NOT NULL UNIQUE,
            defaultMessageKey \(text),
            messageEditingAllowed BIGINT NOT NULL DEFAULT 1,
            inboxAuthMode \(text) NOT NULL DEFAULT 'applicationCode',
            createdAt BIGINT NOT NULL);
        CREATE TABLE jwtKey (
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            keyId \(text) NOT NULL,
            secretHex \(text) NOT NULL,
            PRIMARY KEY (applicationKey, keyId));
        CREATE TABLE usedJti (
            applicationKey \(text) NOT NULL,
            jti \(text) NOT NULL,
            expiresAt BIGINT NOT NULL,
            PRIMARY KEY (applicationKey, jti));
        CREATE TABLE message (
            key \(text) PRIMARY KEY,
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            text \(text) NOT NULL,
            placeholder \(text) NOT NULL,
            createdAt BIGINT NOT NULL,
            updatedAt BIGINT NOT NULL);
        CREATE TABLE bulk (
            id \(text) PRIMARY KEY,
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            messageKey \(text) NOT NULL,
            sender \(text) NOT NULL,
            createdAt BIGINT NOT NULL);
        CREATE TABLE sent (
            id \(text) NOT NULL,
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            bulkId \(text) NOT NULL REFERENCES bulk(id) ON DELETE CASCADE,
            position BIGINT NOT NULL,
            address \(text) NOT NULL,
            accepted BIGINT NOT NULL,
            reason \(text),
            text \(text),
            price DOUBLE PRECISION NOT NULL,
            sentAt BIGINT NOT NULL,
            linkCode \(text),
            status \(text) NOT NULL DEFAULT 'MessageWaiting',
            statusAt BIGINT,
            outbox BIGINT NOT NULL DEFAULT 0,
            nextCheckAt BIGINT,
            currency \(text),
            permanentFailure BIGINT NOT NULL DEFAULT 0,
            PRIMARY KEY (applicationKey, id));
        CREATE INDEX sentByBulk ON sent(bulkId, position);
        CREATE INDEX sentDue ON sent(nextCheckAt) WHERE nextCheckAt IS NOT NULL;
        CREATE INDEX sentOutbox ON sent(outbox) WHERE outbox > 0;
        CREATE TABLE shortLink (
            code \(text) PRIMARY KEY,
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            messageId \(text),
            referrer \(text),
            clicks BIGINT NOT NULL DEFAULT 0,
            createdAt BIGINT NOT NULL);
        CREATE UNIQUE INDEX shortLinkByReferrer ON shortLink(applicationKey, referrer) WHERE referrer IS NOT NULL;
        CREATE INDEX shortLinkByMessage ON shortLink(applicationKey, messageId);
        CREATE TABLE inbox (
            id \(text) PRIMARY KEY,
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            externalUserId \(text) NOT NULL,
            title \(text),
            body \(text) NOT NULL,
            topic \(text),
            sentAt BIGINT NOT NULL,
            seen BIGINT NOT NULL DEFAULT 0,
            seenAt BIGINT);
        CREATE INDEX inboxByUser ON inbox(applicationKey, externalUserId, sentAt);
        CREATE TABLE event (
            id BIGSERIAL PRIMARY KEY,
            applicationKey \(text) NOT NULL,
            type \(text) NOT NULL,
            payload \(text) NOT NULL,
            createdAt BIGINT NOT NULL);
        CREATE INDEX eventByApplication ON event(applicationKey, id);
        CREATE TABLE apiKey (
            id \(text) PRIMARY KEY,
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            name \(text) NOT NULL,
            role \(text) NOT NULL,
            hash \(text) NOT NULL UNIQUE,
            createdAt BIGINT NOT NULL,
            revokedAt BIGINT)
        """

    /// Held sends: `outbox` 3 until `notBefore` (as SQLite's v4).
    static let version2 = "ALTER TABLE sent ADD COLUMN notBefore BIGINT"

    /// Numbers that said stop (as SQLite's v5).
    static let version3 = """
        CREATE TABLE optout (
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            msisdn \(text) NOT NULL,
            createdAt BIGINT NOT NULL,
            source \(text) NOT NULL,
            PRIMARY KEY (applicationKey, msisdn))
        """

    /// Email invitations (as SQLite's v6).
    static let version4 = """
        ALTER TABLE sent ADD COLUMN channel \(text) NOT NULL DEFAULT 'sms';
        ALTER TABLE bulk ADD COLUMN subject \(text)
        """

    /// The audit trail (as SQLite's v7): only ever added to. A trigger refuses UPDATE, DELETE and TRUNCATE, whatever
    /// statement asks (statements are split on ";" and a newline: the function's body stays on one line).
    static let version5 = """
        CREATE TABLE audit (
            id BIGSERIAL PRIMARY KEY,
            applicationKey \(text) NOT NULL,
            createdAt BIGINT NOT NULL,
            actor \(text) NOT NULL,
            keyId \(text),
            role \(text) NOT NULL,
            address \(text) NOT NULL,
            action \(text) NOT NULL,
            bulkId \(text),
            subject \(text),
            what \(text) NOT NULL);
        CREATE INDEX auditByApplication ON audit(applicationKey, id);
        CREATE INDEX auditByBulk ON audit(bulkId, id) WHERE bulkId IS NOT NULL;
        CREATE INDEX auditBySubject ON audit(subject, id) WHERE subject IS NOT NULL;
        CREATE FUNCTION herald_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END $$;
        CREATE TRIGGER auditKeepsEntries BEFORE UPDATE OR DELETE ON audit FOR EACH ROW EXECUTE FUNCTION herald_audit_append_only();
        CREATE TRIGGER auditKeepsEveryEntry BEFORE TRUNCATE ON audit FOR EACH STATEMENT EXECUTE FUNCTION herald_audit_append_only()
        """

    /// A key's cap on what it may spend a day, and which key sent each bulk (as SQLite's v8).
    static let version6 = """
        ALTER TABLE apiKey ADD COLUMN maxSpendPerDay DOUBLE PRECISION;
        ALTER TABLE bulk ADD COLUMN keyId \(text);
        CREATE INDEX bulkByKey ON bulk(keyId, createdAt) WHERE keyId IS NOT NULL
        """

    /// Replies kept once and threaded, and one summary per number kept on every write (as SQLite's v9): a message sent
    /// to a number counts in its summary through the trigger (its function's body on one line, as above).
    static let version7 = """
        CREATE TABLE reply (
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            messageId \(text) NOT NULL,
            fromNumber \(text) NOT NULL,
            toNumber \(text),
            text \(text) NOT NULL,
            receivedAt BIGINT NOT NULL,
            price DOUBLE PRECISION,
            currency \(text),
            seen BIGINT NOT NULL DEFAULT 0,
            seenAt BIGINT,
            bulkId \(text),
            invitationMessageId \(text),
            optedOut BIGINT NOT NULL DEFAULT 0,
            storedAt BIGINT NOT NULL,
            PRIMARY KEY (applicationKey, messageId));
        CREATE INDEX replyByNumber ON reply(applicationKey, fromNumber, receivedAt, messageId);
        CREATE TABLE conversation (
            applicationKey \(text) NOT NULL REFERENCES application(key) ON DELETE CASCADE,
            number \(text) NOT NULL,
            lastAt BIGINT NOT NULL,
            lastText \(text) NOT NULL,
            lastIsReply BIGINT NOT NULL,
            unread BIGINT NOT NULL DEFAULT 0,
            replies BIGINT NOT NULL DEFAULT 0,
            sent BIGINT NOT NULL DEFAULT 0,
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
        CREATE FUNCTION herald_sent_in_conversation() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO conversation(applicationKey, number, lastAt, lastText, lastIsReply, unread, replies, sent) VALUES (NEW.applicationKey, NEW.address, NEW.sentAt, COALESCE(NEW.text, ''), 0, 0, 0, 1) ON CONFLICT (applicationKey, number) DO UPDATE SET sent = conversation.sent + 1, lastText = CASE WHEN EXCLUDED.lastAt >= conversation.lastAt THEN EXCLUDED.lastText ELSE conversation.lastText END, lastIsReply = CASE WHEN EXCLUDED.lastAt >= conversation.lastAt THEN 0 ELSE conversation.lastIsReply END, lastAt = CASE WHEN EXCLUDED.lastAt >= conversation.lastAt THEN EXCLUDED.lastAt ELSE conversation.lastAt END; RETURN NULL; END $$;
        CREATE TRIGGER sentInConversation AFTER INSERT ON sent FOR EACH ROW WHEN (NEW.accepted = 1 AND NEW.channel = 'sms') EXECUTE FUNCTION herald_sent_in_conversation()
        """
}
