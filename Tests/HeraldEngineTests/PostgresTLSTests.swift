import Foundation
@testable import HeraldEngine
import HeraldEnginePostgres
import HeraldTestKit
import Testing

/// The engine's PostgreSQL connections with TLS as libpq spells it, against a real server with `ssl=on` and a CA made
/// for the test: `verify-full` with the right CA is encrypted, a wrong CA is refused, `disable` stays plain. Runs in
/// the PostgreSQL pass of `make test`.
@Suite(.enabled(if: TestStores.usePostgres), .serialized) struct PostgresTLSTests {
    func encrypted(_ store: PostgresEngineStore) async throws -> Bool? {
        try await store.read { db in try db.value(Bool.self, "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()") }
    }

    @Test func verifyFullWithTheRightCAIsEncryptedAndAWrongCAIsRefused() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        let cluster = try PostgresTestCluster.start(tls: (certificate: certs.serverCertificate, key: certs.serverKey))
        defer { cluster.stop() }
        let base = "postgres://postgres@localhost:\(cluster.port)/herald"

        let verified = try await PostgresEngineStore.open(url: base + "?sslmode=verify-full&sslrootcert=\(certs.caCertificate)")
        #expect(try await encrypted(verified) == true)
        await verified.close()

        await #expect(throws: (any Error).self) {
            let store = try await PostgresEngineStore.open(url: base + "?sslmode=verify-full&sslrootcert=\(certs.otherCACertificate)")
            await store.close()
        }

        let preferred = try await PostgresEngineStore.open(url: base)
        #expect(try await encrypted(preferred) == true, "libpq's default, prefer, takes TLS when offered")
        await preferred.close()

        let plain = try await PostgresEngineStore.open(url: base + "?sslmode=disable")
        #expect(try await encrypted(plain) == false)
        await plain.close()
    }

    @Test func anUnknownSSLModeOrOptionIsRefusedByName() throws {
        #expect(throws: EngineError.self) { try PostgresLocation(parsing: "postgres://u@h/db?sslmode=sometimes") }
        #expect(throws: EngineError.self) { try PostgresLocation(parsing: "postgres://u@h/db?sslcompression=1") }
        let location = try PostgresLocation(parsing: "postgres://u@h/db?sslmode=require&sslrootcert=/ca.pem")
        #expect(location.sslMode == .verifyCA, "require with a root certificate checks it, as libpq does")
    }
}
