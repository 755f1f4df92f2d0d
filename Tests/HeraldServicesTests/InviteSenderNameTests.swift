import Foundation
import HeraldCore
import Testing
@testable import HeraldServices

/// An invitation never leaves with a blank {SENDER_NAME}, whichever screen or command sends it; and a person with
/// two mobiles gets one SMS unless every mobile is asked for.
@Suite struct InviteSenderNameTests {
    static func config(senderName: String?, allMobiles: Bool = false) -> WorkspaceConfig {
        var config = WorkspaceHarness.config()
        config.senderName = senderName
        config.requireSenderName = true
        config.inviteAllMobiles = allMobiles
        return config
    }

    @Test func aMessageUsingTheSenderNameIsRefusedWithoutOneAndNothingIsWritten() async throws {
        let h = try await WorkspaceHarness(config: Self.config(senderName: nil))
        await #expect(throws: InviteError.self) { try await h.workspace.invites.invite(numbers: ["+385911234567"]) }
        #expect(try h.workspace.ledger.bulks().isEmpty, "nothing was queued or sent")
        let given = try await h.workspace.invites.invite(numbers: ["+385911234567"],
                                                         options: InviteOptions(fields: [ClientField.senderName.rawValue: "Zoë"]))
        #expect(given.recipients.count == 1)
    }

    @Test func aPersonWithTwoMobilesGetsOneSMSByDefaultAndEachWhenAskedFor() async throws {
        let one = try await WorkspaceHarness(config: Self.config(senderName: "Ana"))
        let zora = try one.person("Zora", numbers: ["091 444 4444", "098 555 5555"])
        let sent = try await one.workspace.invites.invite(person: zora)
        #expect(sent.recipients.map(\.address) == ["+385914444444"])
        #expect(sent.skipped.map(\.address) == ["+385985555555"])
        let all = try await WorkspaceHarness(config: Self.config(senderName: "Ana", allMobiles: true))
        let both = try await all.workspace.invites.invite(person: try all.person("Zora", numbers: ["091 444 4444", "098 555 5555"]))
        #expect(both.recipients.count == 2)
    }
}
