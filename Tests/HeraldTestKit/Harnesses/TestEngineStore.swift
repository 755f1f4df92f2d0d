import Foundation

/// The store a test engine runs on.
public enum TestEngineStore: Sendable {
    /// A SQLite file in the harness's temporary folder.
    case sqlite
    /// A fresh database of the test process's throwaway PostgreSQL cluster.
    case postgres

    /// The store `HERALD_TEST_ENGINE_STORE` names: `postgres`, or `sqlite` (the default).
    public static let chosen: TestEngineStore =
        ProcessInfo.processInfo.environment["HERALD_TEST_ENGINE_STORE"] == "postgres" ? .postgres : .sqlite

    /// A fresh database when the store is PostgreSQL; nil on SQLite.
    public func newPostgresDatabase() throws -> String? {
        guard self == .postgres else { return nil }
        return try TestStores.cluster.get().createDatabase("engine_\(TestStores.counter.next())")
    }
}

/// The PostgreSQL cluster of the test process.
public enum TestStores {
    /// Whether the engine tests run on PostgreSQL (`HERALD_TEST_ENGINE_STORE=postgres`).
    public static var usePostgres: Bool { TestEngineStore.chosen == .postgres }

    /// One cluster for the whole test process, started on first use and removed when the process exits.
    static let cluster: Result<PostgresTestCluster, any Error> = {
        do {
            let cluster = try PostgresTestCluster.start()
            TestStoresExit.cluster = cluster
            atexit { TestStoresExit.cluster?.stop() }
            return .success(cluster)
        } catch {
            return .failure(error)
        }
    }()

    static let counter = LockedCounter()
}

/// The cluster `atexit` stops (a C callback cannot capture it).
enum TestStoresExit {
    nonisolated(unsafe) static var cluster: PostgresTestCluster?
}
