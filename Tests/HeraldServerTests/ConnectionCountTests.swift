import NIOCore
@testable import HeraldServer
import Testing

/// How connections are counted per client: an IPv4 address each, a whole IPv6 /64 as one client (a host is usually
/// given a /64, so one address each would be no share at all), and an IPv4 client on a dual-stack socket as IPv4.
@Suite struct ConnectionCountTests {
    @Test func clientsAreIPv4AddressesAndIPv6Networks() throws {
        #expect(ConnectionCount.client(of: try SocketAddress(ipAddress: "192.0.2.7", port: 1)) == "192.0.2.7")
        let one = ConnectionCount.client(of: try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 1))
        let other = ConnectionCount.client(of: try SocketAddress(ipAddress: "2001:db8:1:2:ffff:1:2:3", port: 1))
        #expect(one == other)
        #expect(one == "2001:db8:1:2::/64")
        #expect(ConnectionCount.client(of: try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1)) != one)
        #expect(ConnectionCount.client(of: try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)) == "192.0.2.7")
        #expect(ConnectionCount.client(of: nil) == "unknown")
    }

    @Test func aClientGetsItsShareTheCapHoldsForAllAndAReleaseGivesASlotBack() {
        let count = ConnectionCount(limit: 4, perClient: 2)
        #expect(count.admit("a") == .admitted)
        #expect(count.admit("a") == .admitted)
        #expect(count.admit("a") == .clientFull)
        #expect(count.admit("b") == .admitted)
        #expect(count.admit("c") == .admitted)
        #expect(count.admit("d") == .full)
        count.release("a")
        #expect(count.held(by: "a") == 1)
        #expect(count.admit("a") == .admitted)
        #expect(count.current == 4)
    }
}
