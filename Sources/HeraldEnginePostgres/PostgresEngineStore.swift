import Foundation
import HeraldEngine
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// The engine on PostgreSQL: several `herald serve` replicas on one database behave as one platform.
///
/// - Units of work run on a pool of threads of their own, one connection each, and wait there for PostgreSQL's
///   answers; the cooperative pool only awaits them.
/// - Write units take a transaction-level advisory lock first, so writes are serialised across replicas as
///   SQLite serialises them: a claim is atomic, and event ids are handed out in commit order (a subscriber that
///   reads "after N" never skips an id that commits late).
/// - A unit that stored events sends `NOTIFY herald_events` with its commit; every replica LISTENs and wakes its
///   subscribers at once.
/// - The background carrier work is led by the replica holding a session-level advisory lock on a connection of
///   its own; when that replica dies PostgreSQL ends its session, frees the lock, and the next replica to ask
///   takes it.
public final class PostgresEngineStore: EngineStore, @unchecked Sendable {
    let configuration: PostgresConnection.Configuration
    let threads: NIOThreadPool
    let logger: Logger
    private let idle = NIOLockedValueBox<[PostgresConnection]>([])
    private let nextId = ConnectionIds()
    private let lease = NIOLockedValueBox<PostgresConnection?>(nil)
    private let leaseHeld = NIOLockedValueBox(false)
    private let closed = NIOLockedValueBox(false)

    static let writeLock: Int64 = 0x4865_7261_6c64_0001  // "Herald" 1
    static let carrierLock: Int64 = 0x4865_7261_6c64_0002
    static let migrationLock: Int64 = 0x4865_7261_6c64_0003
    static let eventChannel = "herald_events"

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`), creating or updating the schema.
    /// `connections` bounds the units of work that run at once.
    public static func open(url: String, connections: Int = 8) async throws -> PostgresEngineStore {
        let location = try PostgresLocation(parsing: url)
        let store = PostgresEngineStore(location: location, tls: try PostgresTLS.configuration(for: location), connections: connections)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    private init(location: PostgresLocation, tls: PostgresConnection.Configuration.TLS, connections: Int) {
        configuration = PostgresConnection.Configuration(host: location.host, port: location.port, username: location.user,
                                                         password: location.password, database: location.database, tls: tls)
        threads = NIOThreadPool(numberOfThreads: max(1, connections))
        threads.start()
        var logger = Logger(label: "herald.postgres")
        logger.logLevel = .warning
        self.logger = logger
    }

    public func read<T: Sendable>(_ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T {
        try await unit(begin: ["BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"], work)
    }

    public func write<T: Sendable>(_ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T {
        try await unit(begin: ["BEGIN", "SELECT pg_advisory_xact_lock(\(Self.writeLock))"], work)
    }

    private func unit<T: Sendable>(begin: [String], _ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            let connection = try checkOut()
            let sql = PostgresSQL(connection: connection, logger: logger)
            do {
                try sql.script(begin)
                let result = try work(sql)
                try sql.script(sql.announces ? ["NOTIFY \(Self.eventChannel)", "COMMIT"] : ["COMMIT"])
                checkIn(connection)
                return result
            } catch {
                // A broken connection is dropped; a live one is rolled back and kept.
                if !connection.isClosed, (try? sql.script(["ROLLBACK"])) != nil { checkIn(connection) } else { discard(connection) }
                throw error
            }
        }
    }

    private func checkOut() throws -> PostgresConnection {
        while let connection = idle.withLockedValue({ $0.popLast() }) {
            if !connection.isClosed { return connection }
        }
        return try connect().wait()
    }

    /// A new session. A lock is waited for at most 15 s (then the unit fails as busy, and a request answers 503 with
    /// Retry-After), and a transaction left idle for 30 s is ended by the server, so a replica that hangs inside
    /// one (stopped, cut off) cannot hold every replica's writes for longer.
    private func connect() -> EventLoopFuture<PostgresConnection> {
        let logger = logger
        return PostgresConnection.connect(on: NIOSingletons.posixEventLoopGroup.any(), configuration: configuration,
                                          id: nextId.next(), logger: logger)
            .flatMap { connection in
                connection.answer("SET lock_timeout = '15s'", logger: logger)
                    .flatMap { _ in connection.answer("SET idle_in_transaction_session_timeout = '30s'", logger: logger) }
                    .map { _ in connection }
                    .flatMapError { error in connection.close().flatMapThrowing { throw error } }
            }
            .flatMapErrorThrowing { error in throw PostgresSQL.storeError(error) }
    }

    private func checkIn(_ connection: PostgresConnection) {
        idle.withLockedValue { $0.append(connection) }
    }

    /// Closes a connection, keeping it until it is closed (the driver requires it).
    private func discard(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    deinit {
        guard !closed.withLockedValue({ $0 }) else { return }
        for connection in idle.withLockedValue({ $0 }) { discard(connection) }
        if let held = lease.withLockedValue({ $0 }) { discard(held) }
        threads.shutdownGracefully { _ in }
    }

    // MARK: - Schema

    private func migrate() async throws {
        let connection = try await connect().get()
        defer { discard(connection) }
        do {
            // Replicas starting together migrate one at a time (the lock ends with this connection).
            _ = try await connection.answer("SELECT pg_advisory_lock(\(unescaped: String(Self.migrationLock)))", logger: logger).get()
            _ = try await connection.answer("CREATE TABLE IF NOT EXISTS herald_schema (version BIGINT NOT NULL)", logger: logger).get()
            var current: Int64 = 0
            for row in try await connection.answer("SELECT MAX(version) FROM herald_schema", logger: logger).get().rows {
                current = try row.decode(Int64?.self) ?? 0
            }
            for (version, ddl) in PostgresEngineSchema.migrations where version > current {
                // One statement per request: the schema's statements one by one, in one transaction.
                let statements = ["BEGIN"] + ddl.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                    .filter { !$0.isEmpty } + ["INSERT INTO herald_schema(version) VALUES (\(version))", "COMMIT"]
                for statement in statements { _ = try await connection.answer(PostgresQuery(unsafeSQL: statement), logger: logger).get() }
            }
        } catch {
            throw PostgresSQL.storeError(error)
        }
    }

    // MARK: - Replicas

    public func watchEvents(_ wake: @escaping @Sendable () -> Void) async throws {
        var backoff: UInt64 = 100_000_000
        while !Task.isCancelled {
            do {
                let connection = try await connect().get()
                defer { discard(connection) }
                try await connection.listen(on: Self.eventChannel) { notifications in
                    // Whatever was committed while this listener was away is read by id: wake once on (re)start.
                    wake()
                    backoff = 100_000_000
                    for try await _ in notifications { wake() }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("event listener lost its connection; reconnecting",
                               metadata: ["cause": "\(PlatformEngine.failureText(PostgresSQL.storeError(error)))"])
            }
            try? await Task.sleep(nanoseconds: backoff)
            backoff = min(backoff * 2, 2_000_000_000)
        }
    }

    public func holdsCarrierLease() async -> Bool {
        if let connection = lease.withLockedValue({ $0 }), !connection.isClosed, leaseHeld.withLockedValue({ $0 }) {
            return true
        }
        do {
            let connection: PostgresConnection
            if let kept = lease.withLockedValue({ $0 }), !kept.isClosed {
                connection = kept
            } else {
                connection = try await connect().get()
                lease.withLockedValue { $0 = connection }
            }
            let rows = try await connection.answer("SELECT pg_try_advisory_lock(\(unescaped: String(Self.carrierLock)))",
                                                   logger: logger).get().rows
            var held = false
            for row in rows { held = try row.decode(Bool.self) }
            leaseHeld.withLockedValue { $0 = held }
            return held
        } catch {
            leaseHeld.withLockedValue { $0 = false }
            logger.warning("cannot ask for the carrier lease",
                           metadata: ["cause": "\(PlatformEngine.failureText(PostgresSQL.storeError(error)))"])
            return false
        }
    }

    public func close() async {
        guard closed.withLockedValue({ was in defer { was = true }; return !was }) else { return }
        leaseHeld.withLockedValue { $0 = false }
        let connections = idle.withLockedValue { all -> [PostgresConnection] in defer { all = [] }; return all }
        for connection in connections { try? await connection.close() }
        if let held = lease.withLockedValue({ current -> PostgresConnection? in defer { current = nil }; return current }) {
            try? await held.close()
        }
        try? await threads.shutdownGracefully()
    }
}

/// Connection ids for the driver's logs.
final class ConnectionIds: Sendable {
    private let value = NIOLockedValueBox(0)
    func next() -> Int { value.withLockedValue { $0 += 1; return $0 } }
}
