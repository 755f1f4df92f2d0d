import Foundation
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

/// Attention: which notices a bulk or an inbox calls for (pure rules), and that each is given once, by whichever
/// watcher on the data folder claims it first, after a restart too (a real SQLite store).
@Suite struct AttentionTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: the rules

    @Test func aThresholdIsAShareOrACountAndAnythingElseIsRefused() {
        #expect(FailureThreshold(parsing: "10%") == .percent(10))
        #expect(FailureThreshold(parsing: " 2.5 % ") == .percent(2.5))
        #expect(FailureThreshold(parsing: "25") == .count(25))
        for bad in ["0%", "-5%", "101%", "0", "-3", "ten", "", "%", "nan%", "1e400%"] {
            #expect(FailureThreshold(parsing: bad) == nil, "\(bad)")
        }
        #expect(FailureThreshold.percent(10).isReached(failed: 1, recipients: 10))
        #expect(!FailureThreshold.percent(10).isReached(failed: 1, recipients: 11))
        #expect(!FailureThreshold.percent(10).isReached(failed: 0, recipients: 0))
        #expect(FailureThreshold.count(3).isReached(failed: 3, recipients: 1000))
        #expect(!FailureThreshold.count(3).isReached(failed: 2, recipients: 2))
    }

    @Test func aBulkIsSettledWhenNoRecipientCanChangeAndNotWhenAllWereTakenBack() {
        let open = BulkTally(bulkId: "b1", recipients: 10, invited: 8, failed: 1, cancelled: 0, open: 1)
        #expect(AttentionRules.bulkNotices(open, threshold: .percent(50), at: Self.at).isEmpty)
        let settled = BulkTally(bulkId: "b1", recipients: 10, invited: 8, failed: 1, cancelled: 1, open: 0)
        let notices = AttentionRules.bulkNotices(settled, threshold: .percent(50), at: Self.at)
        #expect(notices.map(\.kind) == [.bulkSettled])
        #expect(notices.first?.line == "bulk b1 settled: 10 recipients: 8 invited, 1 failed, 1 cancelled")
        // Polling gave up on an SMS stuck at the network: nothing will change any more, so the bulk is settled.
        let stuck = BulkTally(bulkId: "b3", recipients: 4, invited: 4, failed: 0, cancelled: 0, open: 1, polled: false)
        #expect(AttentionRules.bulkNotices(stuck, threshold: nil, at: Self.at).map(\.body)
                == ["4 recipients: 4 invited, 1 never confirmed (polling ended)"])
        let takenBack = BulkTally(bulkId: "b2", recipients: 3, invited: 0, failed: 0, cancelled: 3, open: 0)
        #expect(AttentionRules.bulkNotices(takenBack, threshold: .count(1), at: Self.at).isEmpty)
    }

    @Test func failuresAreANoticeFromTheThresholdOnEvenWhileTheBulkIsOpen() {
        let below = BulkTally(bulkId: "b", recipients: 20, invited: 0, failed: 1, cancelled: 0, open: 19)
        #expect(AttentionRules.bulkNotices(below, threshold: .percent(10), at: Self.at).isEmpty)
        let over = BulkTally(bulkId: "b", recipients: 20, invited: 0, failed: 2, cancelled: 0, open: 18)
        let notices = AttentionRules.bulkNotices(over, threshold: .percent(10), at: Self.at)
        #expect(notices.map(\.kind) == [.bulkFailures])
        #expect(notices.first?.line == "bulk b: 2 recipients failed: 10% of 20, over the threshold of 10%")
        #expect(AttentionRules.bulkNotices(over, threshold: nil, at: Self.at).isEmpty)
    }

    @Test func noticeTextFromOutsideCarriesNoControlCharacters() throws {
        let message = InboxMessage(messageId: "m", title: "Hi\u{1B}]0;pwned\u{07} there", body: "b", topic: nil, sendDateTime: Self.at)
        let notice = try #require(AttentionRules.inboxNotice(user: "ana\u{1B}[2J", arrived: [message], at: Self.at))
        #expect(!notice.line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(notice.title.hasPrefix("new message for ana"))
    }

    @Test func onlyUnseenLoudMessagesSinceTheBaselineAreNews() {
        let base = Self.at
        let messages = [
            InboxMessage(messageId: "old", title: nil, body: "x", topic: nil, sendDateTime: base.addingTimeInterval(-1)),
            InboxMessage(messageId: "seen", title: nil, body: "x", topic: nil, sendDateTime: base.addingTimeInterval(5), seen: true),
            InboxMessage(messageId: "quiet", title: nil, body: "x", topic: nil, sendDateTime: base.addingTimeInterval(5), silent: true),
            InboxMessage(messageId: "b", title: nil, body: "x", topic: nil, sendDateTime: base.addingTimeInterval(9)),
            InboxMessage(messageId: "a", title: nil, body: "x", topic: nil, sendDateTime: base.addingTimeInterval(2)),
        ]
        #expect(AttentionRules.newInboxMessages(messages, since: base).map(\.messageId) == ["a", "b"])
    }

    // MARK: once, on a real store

    /// Ten recipients: the first failure reaches 10% (one notice), the second is no news, the bulk settling is one
    /// notice; a second watcher on the same folder (another process, or this one restarted) gives none of them again.
    @Test func thresholdAndSettledAreEachGivenOnceAcrossARestart() async throws {
        let h = try await WorkspaceHarness()
        let numbers = (1...10).map(WorkspaceHarness.mobile)
        let sent = try await h.workspace.invites.invite(numbers: numbers)
        let bulk = try #require(sent.bulkId)
        let watcher = h.workspace.attention(AttentionSettings(failures: .percent(10)))
        #expect(await watcher.considerBulks([bulk]).isEmpty)

        _ = try h.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [DeliveryUpdate(address: numbers[0], messageId: nil, status: .deliveryImpossible)])
        #expect(await watcher.considerBulks([bulk]).map(\.kind) == [.bulkFailures])
        _ = try h.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [DeliveryUpdate(address: numbers[1], messageId: nil, status: .deliveryImpossible)])
        #expect(await watcher.considerBulks([bulk]).isEmpty)

        _ = try h.workspace.ledger.applyDeliveryInfos(bulkId: bulk, numbers.dropFirst(2).map {
            DeliveryUpdate(address: $0, messageId: nil, status: .deliveredToTerminal)
        })
        let settled = await watcher.considerBulks([bulk])
        #expect(settled.map(\.kind) == [.bulkSettled])
        #expect(settled.first?.body == "10 recipients: 8 invited, 2 failed")
        #expect(await watcher.considerBulks([bulk]).isEmpty)

        let reopened = try await h.reopen()
        defer { reopened.close() }
        let again = reopened.attention(AttentionSettings(failures: .percent(10)))
        #expect(await again.considerBulks([bulk]).isEmpty)
    }

    /// The change feed's batch names the bulks to count: a settled bulk is found from it, not from a rescan.
    @Test func aBatchOfTheChangeFeedLeadsToTheNotice() async throws {
        let h = try await WorkspaceHarness()
        try await h.workspace.feed.start()
        let sent = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(1)])
        let bulk = try #require(sent.bulkId)
        _ = try h.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [DeliveryUpdate(address: WorkspaceHarness.mobile(1), messageId: nil, status: .deliveredToTerminal)])
        let change = try #require(try await h.workspace.feed.check())
        let notices = await h.workspace.attention(AttentionSettings()).consider(change)
        #expect(notices.map(\.kind) == [.bulkSettled] && notices.first?.subject == bulk)
    }

    /// Two watchers claiming the same notices at once (two processes' worth): each notice is won exactly once.
    @Test func twoWatchersRacingGiveEachNoticeOnce() async throws {
        let h = try await WorkspaceHarness()
        var bulks: [String] = []
        for i in 0..<20 {
            let sent = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(100 + i)])
            let bulk = try #require(sent.bulkId)
            _ = try h.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [DeliveryUpdate(address: WorkspaceHarness.mobile(100 + i), messageId: nil, status: .deliveryImpossible)])
            bulks.append(bulk)
        }
        let other = try await h.reopen()
        defer { other.close() }
        let a = h.workspace.attention(AttentionSettings(failures: .count(1))), b = other.attention(AttentionSettings(failures: .count(1)))
        async let fromA = a.considerBulks(Set(bulks))
        async let fromB = b.considerBulks(Set(bulks))
        let all = await fromA + fromB
        #expect(all.count == 40)        // settled and failures, for each of 20 bulks
        #expect(Set(all.map { "\($0.kind.rawValue) \($0.subject)" }).count == 40)
    }

    /// An inbox: what was there before it was first followed is not news; a message pushed later is, once, here and
    /// after a restart (even one pushed before the watcher's first look).
    @Test func anInboxMessageIsNewsOnceAndTheFirstLookIsABaseline() async throws {
        let h = try await WorkspaceHarness()
        _ = try await h.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Old", body: "old news", at: h.clock.now().addingTimeInterval(-60))
        let watcher = h.workspace.attention(AttentionSettings(inboxUsers: ["ana"]))
        h.clock.advance(by: 5)
        _ = try await h.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Your invite", body: "Open https://x.example/r/1",
                                                   at: h.clock.now())
        let notice = try #require(await watcher.readInbox(user: "ana"))
        #expect(notice.kind == .inboxMessage)
        #expect(notice.line == "new message for ana: Your invite")
        #expect(await watcher.readInbox(user: "ana") == nil)
        let reopened = try await h.reopen()
        defer { reopened.close() }
        #expect(await reopened.attention(AttentionSettings(inboxUsers: ["ana"])).readInbox(user: "ana") == nil)
    }

    /// The notice command gets the title and body as two arguments, and one that hangs is stopped in time.
    @Test func theNoticeCommandGetsTitleAndBodyAndIsStoppedWhenItHangs() async throws {
        let dir = try TempDir()
        let record = dir.url.appendingPathComponent("args")
        let script = dir.url.appendingPathComponent("record.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let notice = AttentionNotice(kind: .bulkSettled, subject: "b", title: "bulk b settled", body: "2 recipients: $(rm -rf /) `x`", at: Self.at)
        #expect(await NoticeCommand(ExternalCommand(program: script.path, arguments: ["--from", "herald"])).run(notice) == .succeeded)
        #expect(try String(contentsOf: record, encoding: .utf8) == "--from\nherald\nbulk b settled\n2 recipients: $(rm -rf /) `x`\n")

        let hang = dir.url.appendingPathComponent("hang.sh")
        try "#!/bin/sh\nsleep 30\n".write(to: hang, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hang.path)
        let started = Date()
        let outcome = await NoticeCommand(ExternalCommand(program: hang.path), timeout: 0.5).run(notice)
        #expect(outcome == .failed("\(hang.path) ran longer than 0.5 s and was stopped"))
        #expect(Date().timeIntervalSince(started) < 10)
        let missing = await NoticeCommand(ExternalCommand(program: "/nonexistent/notify")).run(notice)
        guard case .failed = missing else { Issue.record("a missing program is a failure: \(missing)"); return }
    }
}
