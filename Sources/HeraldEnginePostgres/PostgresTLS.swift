import HeraldEngine
import NIOSSL
import PostgresNIO

/// The TLS of a PostgreSQL connection from libpq's `sslmode` and `sslrootcert`.
enum PostgresTLS {
    static func configuration(for location: PostgresLocation) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch location.sslMode {
        case .disable: return .disable
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let path = location.sslRootCert {
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path)) } catch {
                throw EngineError.invalidArgument("cannot read sslrootcert \(path): \(error)")
            }
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            throw EngineError.invalidArgument("cannot set up TLS for PostgreSQL: \(error)")
        }
        return location.sslMode == .prefer ? .prefer(context) : .require(context)
    }
}
