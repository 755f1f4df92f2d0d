import Foundation
import HeraldEngine

/// Where a PostgreSQL database is: `postgres://user[:password]@host[:port]/database` (or `postgresql://`).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

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
    }

    /// The address without its password, for logs and messages.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
