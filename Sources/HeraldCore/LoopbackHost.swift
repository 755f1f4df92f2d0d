/// Whether a host name or address stays on this machine: what may carry a password in clear (a relay or a test server
/// on loopback), where anything else crosses a network someone else may read.
public enum LoopbackHost {
    public static func contains(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name = String(name.dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
