import Foundation
import HeraldEngine

/// Where a PostgreSQL database is: `postgres://user[:password]@host[:port]/database` (or `postgresql://`), with TLS
/// as libpq spells it: `?sslmode=disable|prefer|require|verify-ca|verify-full&sslrootcert=PATH` (default `prefer`).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode`.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// Plain connections only.
        case disable
        /// TLS when the server offers it, no certificate check (libpq's default).
        case prefer
        /// TLS or no connection; the certificate is checked against `sslrootcert` when one is given (as libpq does).
        case require
        /// TLS, the certificate signed by the CA of `sslrootcert`, which it requires (as libpq does): with the system's
        /// roots and no name check, any publicly issued certificate for any host would pass.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate names the host.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var sslMode: SSLMode
    /// A PEM file of the CA certificates to trust for the server's certificate.
    public var sslRootCert: String?

    public init(parsing url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw EngineError.invalidArgument("a PostgreSQL address looks like postgres://user@host:5432/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw EngineError.invalidArgument("the PostgreSQL address has no host: postgres://user@HOST:5432/database")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw EngineError.invalidArgument("the PostgreSQL address names no database: postgres://user@host:5432/DATABASE")
        }
        guard let user = components.user, !user.isEmpty else {
            throw EngineError.invalidArgument("the PostgreSQL address names no user: postgres://USER@host:5432/database")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw EngineError.invalidArgument("the PostgreSQL port \(port) is not a port")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.removingPercentEncoding ?? database
        var mode = SSLMode.prefer
        var rootCert: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let parsed = SSLMode(rawValue: value) else {
                    throw EngineError.invalidArgument("""
                        sslmode=\(item.value ?? "") is not understood: use \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))
                        """)
                }
                mode = parsed
            case "sslrootcert":
                guard let value = item.value, !value.isEmpty else { throw EngineError.invalidArgument("sslrootcert needs a file path") }
                rootCert = value
            default:
                throw EngineError.invalidArgument("the PostgreSQL option \(item.name) is not understood: Herald takes sslmode and sslrootcert")
            }
        }
        if mode == .require, rootCert != nil { mode = .verifyCA }
        if mode == .verifyCA, rootCert == nil {
            throw EngineError.invalidArgument("""
                sslmode=verify-ca needs sslrootcert=FILE, the CA that signed the server's certificate (as libpq requires); \
                to check the server against the system's CAs use sslmode=verify-full, which also checks its name
                """)
        }
        self.sslMode = mode
        self.sslRootCert = rootCert
    }

    /// The address without its password, for logs and messages.
    public var description: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (sslMode == .prefer ? "" : "?sslmode=\(sslMode.rawValue)")
    }
}
