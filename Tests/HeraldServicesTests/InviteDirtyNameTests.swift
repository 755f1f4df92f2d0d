import Foundation
import HeraldCore
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldServices

/// A name that came with control characters or escape sequences (from a card, a CSV file or a CardDAV server) is
/// cleaned before it leaves: everyone of the send is sent to, and the name arrives without them.
@Suite struct InviteDirtyNameTests {
    @Test func aNameWithEscapeAndBellIsCleanedAndEveryoneIsSentTo() async throws {
        let h = try await WorkspaceHarness(config: InviteSenderNameTests.config(senderName: "Ana"))
        let people = [
            try h.person("Marko", "Horvat", numbers: [WorkspaceHarness.mobile(1)]),
            try h.person("Iv\u{1B}[31mo\u{7}", "Ko\u{9B}2Jva\u{2028}\u{202E}č", numbers: [WorkspaceHarness.mobile(2)]),
            try h.person("Mia", "Babić", numbers: [WorkspaceHarness.mobile(3)]),
        ]
        let result = try await h.workspace.invites.invite(people: people)
        #expect(result.recipients.count == 3)
        #expect(result.recipients.allSatisfy { $0.status != .rejected && $0.reason == nil }, "\(result.recipients)")
        let bulkId = try #require(result.bulkId)
        let stored = try await h.engineMessages(bulkId: bulkId)
        #expect(stored.map(\.accepted) == [true, true, true])
        let texts = stored.compactMap(\.text)
        #expect(texts.contains { $0.hasPrefix("Hi Ivo Kova č, Ana invites you") }, "\(texts)")
        #expect(texts.allSatisfy { TerminalSafeText.isAlreadySafe($0) }, "\(texts)")
    }

    @Test func fieldsAreCleanedAndCutToTheWireLimitTheCustomTextKeepsItsLines() {
        let data = ClientDataCleaning.clientData(from: [
            ClientField.senderName.rawValue: "A\u{7}na\nHorvat",
            ClientField.customText.rawValue: "line one\u{1B}[2K\nline two",
        ])
        #expect(data == ["Ana Horvat", "", "line one\nline two"])
        let long = ClientDataCleaning.clientData(from: [ClientField.receiverName.rawValue: String(repeating: "ž", count: 2000)])
        #expect(long[1].count == 1600)
    }
}
