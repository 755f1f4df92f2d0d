import AsyncHTTPClient
import Foundation
import HeraldAPI
import HeraldCore
import NIOCore
import NIOSSL

/// The HTTP client a terminal reaches its server with: the system's trusted roots plus, when given, the CA
/// certificates of a PEM file (`[platform] ca_file`, `HERALD_PLATFORM_CA_FILE`) for a server with its own CA. One client
/// per CA file for the life of the process.
public enum ServerTrust {
    nonisolated(unsafe) private static var clients: [String: HTTPClient] = [:]
    private static let lock = NSLock()

    /// The client that trusts `caFile` too (the shared client when nil); throws `.invalidRequest` naming the file when
    /// it holds no readable certificate. With a CA file, a refused certificate fails the request at once (the pool's
    /// default would try the handshake again until the request's deadline).
    public static func client(caFile: String?) throws(APIError) -> HTTPClient {
        guard let caFile else { return .shared }
        let certificates: [NIOSSLCertificate]
        do { certificates = try NIOSSLCertificate.fromPEMFile(caFile) } catch {
            throw APIError.invalidRequest("cannot read the CA file \(caFile): \(error)")
        }
        guard !certificates.isEmpty else { throw APIError.invalidRequest("the CA file \(caFile) holds no PEM certificate") }
        return lock.withLock {
            if let made = clients[caFile] { return made }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(certificates)]
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = tls
            configuration.connectionPool.retryConnectionEstablishment = false
            let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[caFile] = made
            return made
        }
    }

    /// Whether sending a key to `url` crosses a network in cleartext: plain http to a host that is not loopback.
    public static func sendsKeysInCleartext(_ url: URL) -> Bool {
        guard url.scheme?.lowercased() == "http", let host = url.host else { return false }
        return !LoopbackHost.contains(host)
    }

    /// A TLS failure in words a person can act on; nil when `error` is not one.
    static func describe(_ error: any Error, url: String) -> String? {
        let text = String(describing: error)
        guard error is NIOSSLError || text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("handshakeFailed")
                || text.contains("NIOSSL") else { return nil }
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate verify failed") {
            return """
                the server at \(url) presented a certificate this terminal does not trust: give its CA in [platform] ca_file \
                or HERALD_PLATFORM_CA_FILE (\(text))
                """
        }
        return "the TLS handshake with \(url) failed: \(text)"
    }
}
