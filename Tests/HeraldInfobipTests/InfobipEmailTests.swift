import Foundation
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Email invitations on the Infobip platform: Infobip carries the SMS only, so an email goes to this machine's mail
/// program, never to Infobip; a held one is held here (not as an Infobip scheduled bulk) and taken back here.
@Suite struct InfobipEmailTests {
    @Test func anEmailGoesToTheMailProgramAndAHeldOneIsHeldAndTakenBackHere() async throws {
        let tempDir = try TempDir("infobip-mail")
        let folder = tempDir.url
        let mailbox = folder.appendingPathComponent("mailbox")
        let program = folder.appendingPathComponent("fake-sendmail")
        try "#!/bin/sh\ncat >> '\(mailbox.path)'\necho '--- end of message ---' >> '\(mailbox.path)'\n"
            .write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        var config = InfobipHarness.config
        config.emailFrom = "ana@example.com"
        let h = try await InfobipHarness(config: config, mailProgram: MailProgram(command: ExternalCommand(program: program.path)))
        var draft = ContactDraft()
        draft.firstName = "Ivo"
        draft.emails = [.init(label: nil, value: "ivo@example.org")]
        let ivo = try await h.workspace.book.add(draft)
        let handed = { ((try? String(contentsOf: mailbox, encoding: .utf8)) ?? "").components(separatedBy: "--- end of message ---").count - 1 }

        let held = try await h.workspace.invites.invite(people: [ivo], options: InviteOptions(sendAt: Date().addingTimeInterval(3600),
                                                                                           email: EmailOptions()))
        let bulk = try #require(held.bulkId)
        #expect(held.recipients.map(\.status) == [.scheduled])
        let taken = try await h.workspace.invites.cancel(bulkId: bulk)
        #expect(taken.cancelled == 1 && taken.left == 0, "\(taken)")
        #expect(await h.state.requests(to: "/sms/1/bulks/status").isEmpty, "an email bulk is not Infobip's to take back")

        let sent = try await h.workspace.invites.invite(people: [ivo], options: InviteOptions(email: EmailOptions()))
        #expect(sent.recipients.map(\.status) == [.deliveredToNetwork], "\(sent.recipients)")
        #expect(handed() == 1)
        #expect(await h.state.requests(to: "/sms/3/messages").isEmpty, "nothing of it went to Infobip")
    }
}
