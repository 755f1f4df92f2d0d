import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

/// Several workspaces on one data folder (each with its own database connections and send lease, as
/// separate processes have): sends, opens and reconciliations that overlap.
@Suite struct InviteConcurrencyTests {
    @Test func concurrentSendsOfOverlappingNumbersInviteEachNumberOnce() async throws {
        let h = try await WorkspaceHarness()
        let others = [try await h.reopen(), try await h.reopen(), try await h.reopen()]
        defer { others.forEach { $0.close() } }
        let all = [h.workspace] + others
        let numbers = (0..<120).map(WorkspaceHarness.mobile)
        // Each sender takes a different 80-number window of the 120: every number is wanted by two or more.
        let results = try await withThrowingTaskGroup(of: InviteResult.self) { group in
            for (i, ws) in all.enumerated() {
                let mine = (0..<80).map { numbers[(i * 20 + $0) % numbers.count] }
                group.addTask { try await ws.invites.invite(numbers: mine) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let sent = results.flatMap(\.recipients).map(\.address)
        #expect(sent.count == numbers.count)
        #expect(Set(sent) == Set(numbers))
        var perAddress: [String: Int] = [:]
        for bulk in Set(results.flatMap(\.bulkIds)) {
            for m in try await h.engineMessages(bulkId: bulk) where m.accepted { perAddress[m.address, default: 0] += 1 }
        }
        #expect(perAddress.count == numbers.count)
        #expect(perAddress.values.allSatisfy { $0 == 1 })
    }

    @Test func openingWhileAnotherWorkspaceWaitsForThePlatformLeavesItsRowsAlone() async throws {
        let h = try await WorkspaceHarness()
        let gate = GatedPlatform(h.workspace.platform)
        let sender = InviteService(platform: gate, ledger: h.workspace.ledger, contacts: h.workspace.contacts,
                                   templates: h.workspace.templates, lease: try SendLease.take(for: h.workspace.database),
                                   bus: h.workspace.bus, parser: WorkspaceHarness.hr,
                                   settings: InviteSettings(sender: "Herald"), clock: h.clock)
        let numbers = (0..<30).map(WorkspaceHarness.mobile)
        let sending = Task { try await sender.invite(numbers: numbers) }
        await gate.waitUntilCalled()
        #expect(try h.workspace.ledger.queuedInvitations().count == 30)

        // Another process opens the folder while the send waits for its answer.
        let opener = try await h.reopen()
        defer { opener.close() }
        #expect(opener.reconciledOnOpen.otherProcess == 30)
        #expect(opener.reconciledOnOpen.failed == 0)
        #expect(try opener.ledger.queuedInvitations().count == 30)

        gate.open()
        let result = try await sending.value
        #expect(result.recipients.count == 30)
        #expect(result.recipients.allSatisfy { $0.status == .messageWaiting })
        #expect(try h.workspace.ledger.queuedInvitations().isEmpty)
        #expect(try await h.engineMessages(bulkId: try #require(result.bulkId)).count == 30)
    }

    @Test func aSendWhoseProcessIsGoneIsReplayedOnceByTheNextOpen() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(3)
        // A process journaled and queued a send, the platform took it, and the process died before
        // recording the answer (its lease file is gone).
        let send = PendingSend(id: "dead-1", messageKey: try await h.workspace.templates.defaultMessageKey(), messageText: nil,
                               sender: "Herald",
                               destinations: people.enumerated().map { i, p in
                                   .init(address: String(p.invitableNumbers[0].dropFirst()), messageId: "hc-dead-\(i)")
                               },
                               personIds: [:])
        _ = try h.workspace.ledger.claim(send.destinations.map { QueuedRecipient(msisdn: "+" + $0.address, personId: nil, correlator: $0.messageId!) },
                                         policy: .default, owner: "p1-gone", chunkSize: 1000) { _ in (send.id, try send.encoded()) }
        let accepted = try await h.workspace.platform.sendInvitation(send.body(now: Date()))

        let a = try await h.reopen()
        let b = try await h.reopen()
        defer { a.close(); b.close() }
        #expect(a.reconciledOnOpen.reconciled == 3)
        #expect(a.reconciledOnOpen.summary.contains("completed 3 invitations"))
        #expect(b.reconciledOnOpen.isEmpty)
        let rows = try people.flatMap { try a.ledger.invitations(for: $0) }
        #expect(rows.allSatisfy { $0.status == .messageWaiting && $0.bulkId == accepted.bulkId })
        #expect(try await h.engineMessages(bulkId: accepted.bulkId).count == 3)
        #expect(try a.ledger.queuedSnapshot().sends.isEmpty)
    }

    @Test func eightWorkspacesOpeningANewFolderAtOnceShareOneApplication() async throws {
        let dir = try TempDir()
        let url = dir.url
        let workspaces = try await withThrowingTaskGroup(of: Workspace.self) { group in
            for _ in 0..<8 {
                group.addTask { try await Workspace.open(dataDirectory: url, config: WorkspaceHarness.config(), clock: ManualClock()) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        defer { workspaces.forEach { $0.close() } }
        #expect(Set(workspaces.map(\.credentials.applicationKey)).count == 1)
    }
}

/// Holds every send until opened, to catch a process in the middle of its platform call.
final class GatedPlatform: MessagingPlatform, @unchecked Sendable {
    let inner: any MessagingPlatform
    private let lock = NSLock()
    private var called = false
    private var isOpen = false

    init(_ inner: any MessagingPlatform) { self.inner = inner }

    func open() { lock.withLock { isOpen = true } }

    func waitUntilCalled() async {
        while !lock.withLock({ called }) { try? await Task.sleep(nanoseconds: 2_000_000) }
    }

    func sendInvitation(_ body: SendInvitationBody) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        lock.withLock { called = true }
        while !lock.withLock({ isOpen }) { try? await Task.sleep(nanoseconds: 2_000_000) }
        return try await inner.sendInvitation(body)
    }
    func deliveryInfos(bulkId: String) async throws(APIError) -> [DeliveryInfo] { try await inner.deliveryInfos(bulkId: bulkId) }
    func bulkSchedule(bulkId: String) async throws(APIError) -> BulkSchedule { try await inner.bulkSchedule(bulkId: bulkId) }
    func rescheduleBulk(bulkId: String, sendAt: Date) async throws(APIError) -> BulkSchedule {
        try await inner.rescheduleBulk(bulkId: bulkId, sendAt: sendAt)
    }
    func cancelBulk(bulkId: String) async throws(APIError) -> BulkSchedule { try await inner.cancelBulk(bulkId: bulkId) }
    func optOuts() async throws(APIError) -> [OptOut] { try await inner.optOuts() }
    func addOptOut(number: String) async throws(APIError) -> OptOut { try await inner.addOptOut(number: number) }
    func removeOptOut(number: String) async throws(APIError) { try await inner.removeOptOut(number: number) }
    func getMessage(key: String) async throws(APIError) -> ApplicationMessage { try await inner.getMessage(key: key) }
    func createMessage(_ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage { try await inner.createMessage(body) }
    func updateMessage(key: String, _ body: ApplicationMessageBody) async throws(APIError) -> ApplicationMessage {
        try await inner.updateMessage(key: key, body)
    }
    func fetchInbox(externalUserId: String, filter: InboxFilter, auth: InboxAuth) async throws(APIError) -> InboxResponse {
        try await inner.fetchInbox(externalUserId: externalUserId, filter: filter, auth: auth)
    }
    func markSeen(externalUserId: String, messages: [SeenBody.SeenMessage]) async throws(APIError) {
        try await inner.markSeen(externalUserId: externalUserId, messages: messages)
    }
    func referralLink(_ subject: GetReferralLink.Subject) async throws(APIError) -> ReferralLink { try await inner.referralLink(subject) }
    func applicationSettings() async throws(APIError) -> ApplicationSettings { try await inner.applicationSettings() }
    func updateApplicationSettings(_ body: ApplicationSettingsBody) async throws(APIError) -> ApplicationSettings {
        try await inner.updateApplicationSettings(body)
    }
}
