import Foundation

/// A throwaway certificate authority and a server certificate it signed for `localhost` and `127.0.0.1`, made with
/// the real `openssl` in a fresh folder under `/tmp`; `remove()` deletes it. A second, unrelated CA is made too, for
/// tests that must see a certificate refused.
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caCertificate: String { directory.appendingPathComponent("ca.pem").path }
    public var serverCertificate: String { directory.appendingPathComponent("server.pem").path }
    public var serverKey: String { directory.appendingPathComponent("server.key").path }
    /// A CA that signed nothing here.
    public var otherCACertificate: String { directory.appendingPathComponent("other-ca.pem").path }

    public static func make() throws -> TestCertificates {
        let directory = URL(fileURLWithPath: "/tmp/herald-certs-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let certs = TestCertificates(directory: directory)
        do {
            try certs.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Herald Test CA",
                               "-keyout", "ca.key", "-out", "ca.pem"])
            try certs.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Another CA",
                               "-keyout", "other-ca.key", "-out", "other-ca.pem"])
            try certs.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr"])
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(to: directory.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
            try certs.openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                               "-extfile", "san.ext", "-out", "server.pem"])
        } catch {
            certs.remove()
            throw error
        }
        return certs
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgresTestClusterError("openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: said, as: UTF8.self))")
        }
    }
}
