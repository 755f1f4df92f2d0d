import Foundation
import HeraldAPI
import HeraldCore
import HeraldEmbedded
import HeraldEngine
@_spi(Testing) import HeraldServices

/// A real workspace (its SQLite store and the embedded engine) on a temporary folder with a manual clock; closed and
/// removed with the harness. The one workspace builder of the tests: `WorkspaceHarness()` for the services' tests,
/// `WorkspaceHarness.screens()` for the view-model and pane tests (the bare configuration, a clock that starts now).
public final class WorkspaceHarness: @unchecked Sendable {
    public let dir: TempDir
    public var folder: URL { dir.url }
    public let clock: ManualClock
    public let workspace: Workspace

    public static let hr = try! PhoneNumberParser(defaultRegion: "HR")

    public static func config(tracker: TrackerSettings = .default, jwtKeyId: String? = nil, jwtSecret: String? = nil) -> WorkspaceConfig {
        WorkspaceConfig(region: "HR", sender: "Herald", senderName: "Ana", tracker: tracker,
                        sendRetry: SendRetry(attempts: 4, baseDelay: 0, maxDelay: 0), inboxJWTKeyId: jwtKeyId, inboxJWTSecretHex: jwtSecret)
    }

    public init(config: WorkspaceConfig = WorkspaceHarness.config(), engine: EngineConfig = EngineConfig(), dir: TempDir? = nil,
                clock: ManualClock = ManualClock()) async throws {
        self.dir = try dir ?? TempDir("workspace")
        self.clock = clock
        workspace = try await Workspace.open(dataDirectory: self.dir.url, config: config, engine: engine, clock: clock)
    }

    /// The workspace the screens' tests start from: only a region (no sender name, the slow default retries), on a
    /// manual clock that starts now.
    public static func screens(config: WorkspaceConfig = WorkspaceConfig(region: "HR"),
                               clock: ManualClock = ManualClock(Date())) async throws -> WorkspaceHarness {
        try await WorkspaceHarness(config: config, clock: clock)
    }

    deinit { workspace.close() }

    /// Another workspace on the same data directory (a second Herald process).
    public func reopen(config: WorkspaceConfig = WorkspaceHarness.config(), engine: EngineConfig = EngineConfig()) async throws -> Workspace {
        try await Workspace.open(dataDirectory: dir.url, config: config, engine: engine, clock: clock)
    }

    /// The contact book the Contacts view-model reads.
    public var book: ContactBook { workspace.book }

    /// Stores a person with these numbers (as written, for Croatia).
    @discardableResult
    public func person(_ first: String, _ last: String = "Test", numbers: [String], emails: [String] = []) throws -> Person {
        let p = Person(firstName: first, lastName: last,
                       phones: numbers.map { LabeledPhone(label: "mobile", number: Self.hr.parse($0)) },
                       emails: emails.map { LabeledEmail(label: "home", address: $0) })
        return try workspace.contactStore.insert(p)
    }

    /// Stores a person with these numbers (parsed for the workspace's region).
    @discardableResult
    public func add(_ first: String, _ last: String, _ numbers: String...) throws -> Person {
        let phones = numbers.map { LabeledPhone(label: "mobile", number: workspace.parser.parse($0)) }
        return try workspace.contactStore.insert(Person(firstName: first, lastName: last, phones: phones))
    }

    /// A valid Croatian mobile number, distinct per index.
    public static func mobile(_ i: Int) -> String { "+38591" + String(format: "%07d", 1_000_000 + i) }

    /// People with one mobile number each, stored.
    public func people(_ count: Int, from start: Int = 0) throws -> [Person] {
        try (start..<(start + count)).map { try person("P\($0)", numbers: [Self.mobile($0)]) }
    }

    /// Messages the engine holds for a bulk.
    public func engineMessages(bulkId: String) async throws -> [SentMessage] {
        try await workspace.engine.messages(bulkId: bulkId)
    }
}
