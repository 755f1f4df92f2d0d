import Foundation
import GRDB
import HeraldLocks

/// The engine's own SQLite file and its migrations. Times are stored as epoch milliseconds.
enum EngineDatabase {
    static func open(at url: URL) throws -> DatabasePool {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(15)
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
        return m
    }
}
