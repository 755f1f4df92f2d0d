import HeraldCore
import Testing

/// What counts as this machine, where a password or key may go in clear: loopback addresses and localhost names,
/// never a public name that merely starts like one.
@Suite struct LoopbackHostTests {
    @Test(arguments: ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST.", "api.localhost", "::1", "[::1]"])
    func staysOnThisMachine(_ host: String) {
        #expect(LoopbackHost.contains(host))
    }

    @Test(arguments: ["127.0.0.1.example.com", "127.0.0.1.nip.io", "localhost.example.com", "10.0.0.1", "example.com",
                      "::2", "127.0.0.256", ""])
    func leavesIt(_ host: String) {
        #expect(!LoopbackHost.contains(host))
    }
}
