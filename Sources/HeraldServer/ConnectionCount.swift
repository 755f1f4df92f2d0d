import Foundation
import NIOCore

/// The connections a server has open, in all and per client, shared by every connection's guard. A client may hold
/// at most `perClient` of the `limit`, so one address that opens sockets and sends nothing cannot take every slot
/// from the others.
final class ConnectionCount: @unchecked Sendable {
    enum Admission: Equatable {
        case admitted
        /// `limit` connections are open already.
        case full
        /// This client holds its share already.
        case clientFull
    }

    let limit: Int
    let perClient: Int
    private let lock = NSLock()
    private var open = 0
    /// Only clients with a connection open: at most `limit` entries.
    private var byClient: [String: Int] = [:]

    init(limit: Int, perClient: Int) {
        self.limit = limit
        self.perClient = min(limit, max(1, perClient))
    }

    /// Counts a new connection of `client`; nothing is counted unless it is admitted.
    func admit(_ client: String) -> Admission {
        lock.withLock {
            guard open < limit else { return .full }
            let held = byClient[client, default: 0]
            guard held < perClient else { return .clientFull }
            open += 1
            byClient[client] = held + 1
            return .admitted
        }
    }

    func release(_ client: String) {
        lock.withLock {
            open -= 1
            let held = byClient[client, default: 1] - 1
            byClient[client] = held > 0 ? held : nil
        }
    }

    var current: Int { lock.withLock { open } }

    /// Connections `client` holds now.
    func held(by client: String) -> Int { lock.withLock { byClient[client, default: 0] } }

    /// What a connection from `address` is counted as: its IPv4 address, or the /64 network of an IPv6 one (one host
    /// is usually given a whole /64, so counting single IPv6 addresses would be no limit at all). An IPv4 client on a
    /// dual-stack socket (`::ffff:a.b.c.d`) counts as its IPv4 address.
    static func client(of address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        guard case .v6(let v6) = address else { return address.ipAddress ?? "unknown" }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        guard bytes.count == 16 else { return address.ipAddress ?? "unknown" }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
