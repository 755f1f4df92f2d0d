import Foundation
import HeraldCore
import HeraldStore

/// What the demo seeder put in a workspace.
public struct DemoReport: Sendable, Hashable {
    public var people: Int
    public var inboxMessages: Int
    public var bulkIds: [String]
    public var user: String
}

/// Fills a workspace with demo data: generated people, a seeded inbox for a demo user, and a few
/// bulks already sent so deliveries are in flight. Idempotent: a workspace that already has people
/// or bulks is not seeded twice.
public struct DemoSeeder: Sendable {
    public var people: Int
    public var seed: UInt64
    public var user: String
    /// Sizes of the bulks sent (people per bulk).
    public var bulkSizes: [Int]

    public init(people: Int = 300, seed: UInt64 = 42, user: String = "demo", bulkSizes: [Int] = [6, 12, 20]) {
        self.people = people
        self.seed = seed
        self.user = user
        self.bulkSizes = bulkSizes
    }

    @discardableResult
    public func seed(_ workspace: Workspace) async throws -> DemoReport {
        if try workspace.contacts.count() == 0, people > 0 {
            let parser = workspace.parser.defaultRegion == nil ? try PhoneNumberParser(defaultRegion: "HR") : workspace.parser
            // The generator writes numbers as people type them; parse them as an import would.
            let generated = AddressBookGenerator(seed: seed).people(count: people).map { person in
                var p = person
                p.phones = p.phones.map { LabeledPhone(label: $0.label, number: parser.parse($0.number.raw)) }
                return p
            }
            _ = try ContactImporter(database: workspace.database, parser: parser, clock: workspace.clock)
                .importPeople(generated, source: "demo")
        }
        let inbox = try await workspace.connection.sandbox?.seedDemoInbox(user: user) ?? 0
        var bulkIds: [String] = []
        if try workspace.ledger.bulks(limit: 1).isEmpty {
            let invitable = try workspace.contacts.people().filter { !$0.invitableNumbers.isEmpty }
            var offset = 0
            for size in bulkSizes where offset < invitable.count {
                let group = Array(invitable[offset..<min(offset + size, invitable.count)])
                offset += group.count
                // The demo's history: it left at once, without the undo window a person's own sends wait.
                let result = try await workspace.invites.invite(people: group, options: InviteOptions(now: true))
                bulkIds += result.bulkIds
            }
        } else {
            bulkIds = try workspace.ledger.bulks().map(\.bulkId)
        }
        await workspace.tracker.refresh()
        return DemoReport(people: try workspace.contacts.count(), inboxMessages: inbox, bulkIds: bulkIds, user: user)
    }
}

extension Workspace {
    /// A throwaway workspace full of demo data (`DemoSeeder`), in a fresh temporary folder removed on
    /// `close()`, or in `directory` when given (kept).
    public static func demo(directory: URL? = nil, platform: any PlatformConnector, config: WorkspaceConfig = WorkspaceConfig(),
                            seeder: DemoSeeder = DemoSeeder(), clock: any HeraldClock = SystemClock()) async throws -> (Workspace, DemoReport) {
        let folder = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-demo-\(UUID().uuidString.lowercased())")
        let workspace = try await Workspace.open(dataDirectory: folder, platform: platform, config: config, clock: clock,
                                                removeOnClose: directory == nil)
        do {
            let report = try await seeder.seed(workspace)
            return (workspace, report)
        } catch {
            workspace.close()
            throw error
        }
    }
}
