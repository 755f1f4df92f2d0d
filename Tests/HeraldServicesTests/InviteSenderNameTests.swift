import Foundation
import HeraldCore
import HeraldEngine
import HeraldTestKit
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

    @Test func aNameKeptByTheScreensFillsTheNextSendsOfTheWorkspace() async throws {
        let h = try await WorkspaceHarness(config: Self.config(senderName: nil))
        await #expect(throws: InviteError.self) { try await h.workspace.invites.invite(numbers: ["+385911234567"]) }
        try h.workspace.invites.saveSenderName("Ana Horvat")
        #expect(h.workspace.invites.savedSenderName == "Ana Horvat")
        let sent = try await h.workspace.invites.invite(numbers: ["+385911234567"])
        #expect(sent.recipients.count == 1)
        #expect(try await Self.storedTexts(h).first?.contains("Ana Horvat invites you") == true)
    }

    /// The dry run's text is the text the platform stores, byte for byte, but for each message's own link code; and a
    /// number without a name reads "Hi, …", never "Hi , …".
    @Test func thePreviewIsTheStoredTextWithTheLinkInItsRealForm() async throws {
        let h = try await WorkspaceHarness(config: Self.config(senderName: "Ana"))
        let zora = try h.person("Zora", numbers: ["091 444 4444"])
        let targets: [InviteTarget] = [.person(zora), .number("+385915550000")]
        let preview = try await h.workspace.invites.preview(targets, link: h.workspace.linkExample)
        _ = try await h.workspace.invites.invite(targets)
        let stored = try await Self.storedTexts(h)
        #expect(stored.count == 2)
        let example = h.workspace.linkExample
        #expect(example.hasPrefix("https://herald.invalid/r/") && example.count == "https://herald.invalid/r/".count + 8)
        let shown = preview.recipients.map(\.text).sorted()
        let sent = stored.map { text in
            // Each message's own code is made when the send is accepted: put the example's in its place.
            guard let range = text.range(of: "https://herald.invalid/r/") else { return text }
            let code = text[range.upperBound...].prefix(8)
            return text.replacingOccurrences(of: "https://herald.invalid/r/" + code, with: example)
        }.sorted()
        #expect(sent == shown)
        #expect(shown.contains { $0.hasPrefix("Hi, Ana invites you") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("Hi Zora") }, "\(shown)")
    }

    /// The texts the embedded platform stored, in no particular order.
    static func storedTexts(_ h: WorkspaceHarness) async throws -> [String] {
        try await h.workspace.engine.store.read { db in try db.rows("SELECT text FROM sent", []).map { $0["text"] as String } }
    }
}
