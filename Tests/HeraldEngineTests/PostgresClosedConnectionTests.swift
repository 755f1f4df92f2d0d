import Foundation
@testable import HeraldEngine
@testable import HeraldEnginePostgres
import HeraldTestKit
import Logging
import NIOPosix
import PostgresNIO
import Testing

/// A statement on a connection that has closed fails at once. The driver drops a query written after its channel
/// was torn down, and its future never completes: a unit of work that checked `isClosed` just before the database
/// went away waited for ever, and `herald serve` never finished its shutdown.
@Suite(.enabled(if: TestStores.usePostgres)) struct PostgresClosedConnectionTests {
    @Test func aStatementOnAClosedConnectionFailsInsteadOfWaitingForEver() async throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: cluster.port, username: "postgres",
                                                             password: nil, database: "herald", tls: .disable)
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(on: NIOSingletons.posixEventLoopGroup.any(),
                                                              configuration: configuration, id: 1, logger: logger)
        try await connection.close()

        // On a thread of its own, as the store runs units: a wait that never ends must not hold the test.
        let answered = DispatchSemaphore(value: 0)
        let outcome = LockedOutcome()
        Thread.detachNewThread {
            let sql = PostgresSQL(connection: connection, logger: logger)
            do { try sql.script(["SELECT 1"]); outcome.set("answered") } catch { outcome.set("\(error)") }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 10) == .success, "the statement was never answered")
        #expect(outcome.value?.contains("closed") == true, "\(outcome.value ?? "nothing")")
    }
}

final class LockedOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?
    func set(_ value: String) { lock.withLock { stored = value } }
    var value: String? { lock.withLock { stored } }
}
