import Foundation
import HeraldAPI
import HeraldHTTP
import HeraldServer
import HeraldTestKit
import Testing

/// A server over HTTPS with a certificate from a throwaway CA: a client that trusts the CA file gets answers, one
/// that does not is refused with a message naming what to set; a certificate file that cannot be used stops the start.
@Suite struct ServerTLSTests {
    @Test func aClientTrustingTheCAFileIsAnsweredAndOtherwiseTheCertificateIsRefused() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.tls = ServerTLSFiles(certificatePath: certs.serverCertificate, keyPath: certs.serverKey)
        let s = try await ServerHarness(options: options)
        defer { s.stop() }
        #expect(s.url.scheme == "https")
        let trusted = try HTTPTransport(baseURL: s.url, caFile: certs.caCertificate)
        let session = try await trusted.send(try GetServerSession(key: s.viewer).request())
        #expect(session.status == 200)
        for caFile in [nil, certs.otherCACertificate] {
            let untrusted = try HTTPTransport(baseURL: s.url, caFile: caFile, timeout: 3)
            await #expect {
                _ = try await untrusted.send(try GetServerSession(key: s.viewer).request())
            } throws: { error in
                "\(error)".contains("does not trust") && "\(error)".contains("ca_file")
            }
        }
    }

    @Test func aKeyThatIsNotTheCertificatesStopsTheStartWithTheReason() async throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.tls = ServerTLSFiles(certificatePath: certs.serverCertificate, keyPath: certs.directory.appendingPathComponent("ca.key").path)
        await #expect(throws: ServerTLSError.self) { _ = try await ServerHarness(options: options) }
        options.tls = ServerTLSFiles(certificatePath: "/nonexistent.pem", keyPath: certs.serverKey)
        await #expect(throws: ServerTLSError.self) { _ = try await ServerHarness(options: options) }
    }
}
