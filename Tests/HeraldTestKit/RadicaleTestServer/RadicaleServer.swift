import Foundation

/// A real Radicale (Debian's `radicale`) on a free loopback port, with a throwaway storage folder and an htpasswd
/// user; the address book collection `/ana/contacts/` is made at start. Stopped and removed with the value. For the
/// CardDAV tests and the bench.
public final class RadicaleServer: @unchecked Sendable {
    private let dir: TempDir
    public var folder: URL { dir.url }
    public let port: Int
    let process = Process()
    public var collection: URL { URL(string: "http://127.0.0.1:\(port)/ana/contacts/")! }
    /// Where the collection's cards are stored: a card file put here is served as it is.
    public var collectionFolder: URL { folder.appendingPathComponent("storage/collection-root/ana/contacts") }
    public static let user = "ana", password = "s3cret"

    public init() throws {
        dir = try TempDir("radicale")
        let folder = dir.url
        let books = folder.appendingPathComponent("storage/collection-root/ana/contacts")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try Data(#"{"tag": "VADDRESSBOOK", "D:displayname": "contacts"}"#.utf8).write(to: books.appendingPathComponent(".Radicale.props"))
        try Data("\(Self.user):\(Self.password)\n".utf8).write(to: folder.appendingPathComponent("users"))
        port = try Self.freePort()
        try Data("""
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = htpasswd
            htpasswd_filename = \(folder.path)/users
            htpasswd_encryption = plain
            [storage]
            filesystem_folder = \(folder.path)/storage
            [logging]
            level = warning
            """.utf8).write(to: folder.appendingPathComponent("config"))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/radicale")
        process.arguments = ["--config", folder.appendingPathComponent("config").path]
        process.standardOutput = FileHandle.nullDevice
        let log = folder.appendingPathComponent("log")
        try Data().write(to: log)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        try Self.waitForPort(port, process: process, log: log)
    }

    deinit {
        // SIGKILL: Radicale waits for kept-alive connections before it stops on SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    /// A port nobody listens on now (the kernel's choice for port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public static func waitForPort(_ port: Int, process: Process, log: URL) throws {
        for _ in 0..<200 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(fd)
            if connected { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw NSError(domain: "RadicaleServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "radicale did not start: \(said)"])
    }
}
