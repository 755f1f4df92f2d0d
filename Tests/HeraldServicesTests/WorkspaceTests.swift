import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

@Suite struct WorkspaceTests {
    @Test func openCreatesBothFilesBootstrapsOnceAndKeepsTheCredentials() async throws {
        let h = try await WorkspaceHarness()
        let fm = FileManager.default
        #expect(fm.fileExists(atPath: h.dir.path("herald.sqlite")))
        #expect(fm.fileExists(atPath: h.dir.path("engine.sqlite")))
        #expect(try h.workspace.settings.string("platform.application_key") == h.workspace.credentials.applicationKey)
        let again = try await h.reopen()
        #expect(again.credentials == h.workspace.credentials)
        let settings = try await again.platform.applicationSettings()
        #expect(settings.applicationKey == h.workspace.credentials.applicationKey)
    }

    @Test func aBadRegionIsAClearErrorNotACrash() async throws {
        let dir = try TempDir()
        var config = WorkspaceHarness.config()
        config.region = "XX"
        do {
            _ = try await Workspace.open(dataDirectory: dir.url, config: config, clock: ManualClock())
            Issue.record("XX is not a region")
        } catch let error as WorkspaceError {
            #expect(error.userMessage.contains("unknown region \"XX\""))
        }
    }

    @Test func backgroundWorkStartedFromTheUIThreadIsNotUIWork() async throws {
        // The launcher starts tracking from the UI thread; the tracker's passes run on the pool and must
        // not carry the UI thread's mark (they did: every pass was logged as storage touched on the UI thread).
        let h = try await WorkspaceHarness()
        _ = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(1)])
        let ui = UIThreadGuard()
        ui.run { h.workspace.startTracking() }
        try await Task.sleep(for: .milliseconds(500))         // its first pass reads the ledger at once
        #expect(ui.violations.isEmpty, "\(ui.violations)")
        h.workspace.close()
    }

    @Test func theDemoHasPeopleAnInboxAndBulksInFlight() async throws {
        let clock = ManualClock()
        var config = WorkspaceHarness.config()
        config.holdSeconds = 10      // a person's sends wait; the demo's history left at once all the same
        let (ws, report) = try await Workspace.demo(config: config, clock: clock)
        defer { ws.close() }
        #expect(report.people == 300)
        for bulk in report.bulkIds {
            #expect(try ws.ledger.recipients(ofBulk: bulk).allSatisfy { $0.status != .scheduled })
        }
        #expect(try ws.contacts.count() == 300)
        #expect(report.bulkIds.count == 3)
        #expect(await ws.tracker.trackedBulks().count == 3)
        let inbox = try await ws.inbox.fetch(user: report.user, filter: InboxFilter(limit: 100))
        #expect(inbox.counts.total == report.inboxMessages)
        #expect(inbox.counts.unread > 0 && inbox.counts.unread < inbox.counts.total)
        #expect(Set(inbox.messages.compactMap(\.topic)).count >= 3)
        let span = (inbox.messages.first?.sendDateTime.timeIntervalSince(inbox.messages.last?.sendDateTime ?? Date())) ?? 0
        #expect(span > 14 * 86_400)
        // Seeding again changes nothing.
        let second = try await DemoSeeder().seed(ws)
        #expect(second.bulkIds.count == 3)
        #expect(try ws.ledger.bulks().count == 3)
        let folder = ws.dataDirectory
        ws.close()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
