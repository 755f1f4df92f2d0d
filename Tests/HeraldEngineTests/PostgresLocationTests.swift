import Foundation
@testable import HeraldEngine
import HeraldEnginePostgres
import Testing

/// PostgreSQL addresses read as libpq reads them, without a server: what would check nothing is refused with words.
@Suite struct PostgresLocationTests {
    func refusal(_ url: String) -> String? {
        do { _ = try PostgresLocation(parsing: url); return nil } catch { return "\(error)" }
    }

    @Test func verifyCAWithoutARootFileIsRefusedAsLibpqDoes() throws {
        // The system's roots with no name check would take any publicly issued certificate for any host.
        let said = try #require(refusal("postgres://u@db.example.org/herald?sslmode=verify-ca"))
        #expect(said.contains("sslmode=verify-ca needs sslrootcert=FILE"), "\(said)")
        #expect(said.contains("sslmode=verify-full"), "\(said)")
        let withRoot = try PostgresLocation(parsing: "postgres://u@db.example.org/herald?sslmode=verify-ca&sslrootcert=/etc/ca.pem")
        #expect(withRoot.sslMode == .verifyCA && withRoot.sslRootCert == "/etc/ca.pem")
        // verify-full checks the name, so the system's roots are a real check.
        #expect(try PostgresLocation(parsing: "postgres://u@db.example.org/herald?sslmode=verify-full").sslMode == .verifyFull)
    }
}
