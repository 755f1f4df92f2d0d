import Foundation
import HeraldCore
import HeraldEmbedded
@_spi(Testing) import HeraldServices

/// A real workspace (its SQLite store and the embedded engine) on a temporary folder, on a manual clock that starts
/// now; closed and removed at the end. The one workspace builder of the view-model and pane tests.
public final class TestWorkspace {
    public let folder: URL
    public let workspace: Workspace
    public let clock: ManualClock

    public init(config: WorkspaceConfig = WorkspaceConfig(region: "HR"), clock: ManualClock = ManualClock(Date())) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-ui-test-\(UUID().uuidString)")
        self.clock = clock
        workspace = try await Workspace.open(dataDirectory: folder, config: config, clock: clock)
    }

    deinit {
        workspace.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The contact book the Contacts view-model reads.
    public var book: ContactBook { workspace.book }

    /// Stores a person with these numbers (parsed for the workspace's region).
    @discardableResult
    public func add(_ first: String, _ last: String, _ numbers: String...) throws -> Person {
        let phones = numbers.map { LabeledPhone(label: "mobile", number: workspace.parser.parse($0)) }
        return try workspace.contactStore.insert(Person(firstName: first, lastName: last, phones: phones))
    }
}
