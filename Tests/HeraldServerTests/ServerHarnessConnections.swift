@testable import HeraldServer
import HeraldTestKit

/// The server's connection counts, which only a test may read (the kit builds without testability for the bench).
extension ServerHarness {
    /// Connections the server counts as open now.
    var connections: Int { server.connections.current }

    /// Connections the server counts for one client address now.
    func connections(from address: String) -> Int { server.connections.held(by: address) }
}
