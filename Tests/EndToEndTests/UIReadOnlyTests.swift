import Foundation
import Testing

/// `herald --read-only` in the real TUI, in tmux: the status bar says "read-only", a key that would send, invite or
/// edit does nothing but say why, `?` lists such keys greyed with the reason, and nothing reaches the ledger.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIReadOnlyTests {
    @Test func sendAndInviteKeysSayWhyAndHelpGreysThem() async throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234571")])
        let session = try TmuxSession(command: [cli.binary.path, "--read-only", "--data-dir", cli.dataDir.path], width: 140, height: 36,
                                      environment: cli.processEnvironment([:]))
        defer { session.kill() }
        let contacts = try session.waitFor(text: "Ana Horvat", timeout: 30)
        #expect(contacts.contains("read-only"), "the status bar does not say read-only:\n\(contacts)")
        #expect(!contacts.contains("I invite"), "the footer offers invite:\n\(contacts)")
        // A palette command that changes something says why too (:tag puts people in a group).
        try session.sendKeys(":")
        try session.sendLiteral("tag friends")
        try session.sendKeys("Enter")
        try session.waitFor(text: "read-only mode", timeout: 10)
        try session.sendKeys("Escape")
        // Contacts: invite and edit say why and do nothing.
        try session.sendKeys("Space", "I")
        try session.waitFor(text: "read-only mode", timeout: 10)
        try await Task.sleep(for: .milliseconds(700))      // a confirmation, were one coming, would be up by now
        #expect(!(try session.capture()).contains("Send 1 SMS invitation"))
        // The Composer: ctrl-s says why, and no confirmation comes.
        try session.sendKeys("3")
        try session.waitFor(text: "Composer", timeout: 10)
        try session.sendKeys("C-s")
        try session.waitFor(text: "read-only mode", timeout: 10)
        try await Task.sleep(for: .milliseconds(700))
        let refused = try session.capture()
        #expect(!refused.contains("Send 1 SMS invitation"), "\(refused)")
        // ? lists the send key greyed, with the reason.
        try session.sendKeys("?")
        let help = try session.waitFor(text: "Send the invitations", timeout: 10)
        let line = help.split(separator: "\n").first { $0.contains("Send the invitations") }.map(String.init) ?? ""
        #expect(line.contains("not now: read-only mode"), "\(help)")
        let edit = help.split(separator: "\n").first { $0.contains("Edit the message") }.map(String.init) ?? ""
        #expect(edit.contains("not now: read-only mode"), "\(help)")
        // Greyed: the line is drawn in the muted style, unlike a key that can run (the next message to start from).
        let styled = try session.captureWithEscapes().split(separator: "\n").map(String.init)
        let sendStyle = Self.style(before: "Send the invitations", in: styled)
        let freeStyle = Self.style(before: "The next message to start from", in: styled)
        #expect(sendStyle != nil && freeStyle != nil && sendStyle != freeStyle,
                "the send line is not greyed: \(sendStyle.debugDescription) vs \(freeStyle.debugDescription)")
        try session.sendKeys("Escape")
        // Nothing was written: no bulk, no invitation in the ledger (Ana is the one person imported), no group.
        #expect(try CLIReadOnlyTests.counts(cli) == "0 0 0 1")
        let listed = try cli.ok(["contacts", "list", "--json"]).stdout
        #expect(!listed.contains("friends"), "\(listed)")
    }

    /// The last SGR sequence (colours, attributes) before `text` on the screen line that holds it: how it is drawn.
    static func style(before text: String, in lines: [String]) -> String? {
        guard let line = lines.first(where: { $0.contains(text) }), let at = line.range(of: text) else { return nil }
        let head = line[..<at.lowerBound]
        guard let escape = head.range(of: "\u{1B}[", options: .backwards) else { return nil }
        return String(head[escape.lowerBound...].prefix { $0 != "m" })
    }
}
