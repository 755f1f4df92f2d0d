/// One build of Herald: its release, the commit it was built from, when, and for what platform (`herald --version`,
/// a server's `/health`).
public struct HeraldBuild: Codable, Sendable, Hashable {
    /// What a build made without the repository's `.git` says its commit is.
    public static let unknownCommit = "unknown"

    public var version: String
    /// The full commit id (hex), or `unknownCommit`.
    public var commit: String
    /// When it was built (ISO 8601, UTC); nil where it is not told.
    public var date: String?
    /// Operating system and processor (`linux-x86_64`); nil where it is not told.
    public var platform: String?
    /// The wire version it speaks (`HeraldVersion.wire`).
    public var wire: Int

    public init(version: String = HeraldVersion.number, commit: String = HeraldBuild.unknownCommit, date: String? = nil,
                platform: String? = HeraldBuild.thisPlatform, wire: Int = HeraldVersion.wire) {
        self.version = version
        self.commit = commit
        self.date = date
        self.platform = platform
        self.wire = wire
    }

    /// `herald 0.9.0 (commit 1a2b…)`: what `herald --version` prints.
    public var line: String { "herald \(version) (commit \(commit))" }

    /// The platform this code was compiled for.
    public static var thisPlatform: String {
        #if os(Linux)
        let os = "linux"
        #elseif os(macOS)
        let os = "macos"
        #else
        let os = "unknown"
        #endif
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "arm64"
        #else
        let arch = "unknown"
        #endif
        return "\(os)-\(arch)"
    }
}

/// `GET /health`: whether the server answers, and which Herald it runs (absent from servers before wire 1).
public struct ServerHealth: Codable, Sendable, Hashable {
    public var status: String
    public var version: String?
    public var commit: String?
    public var wire: Int?

    public init(status: String, version: String? = nil, commit: String? = nil, wire: Int? = nil) {
        self.status = status
        self.version = version
        self.commit = commit
        self.wire = wire
    }

    public init(ok build: HeraldBuild) {
        self.init(status: "ok", version: build.version, commit: build.commit, wire: build.wire)
    }
}

public struct GetServerHealth: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = ServerHealth
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/health"

    /// Sent along; the server answers this without one.
    public var key: String
    public init(key: String) { self.key = key }

    public var credential: Credential { .app(key) }
    public var body: EmptyBody? { nil }
}
