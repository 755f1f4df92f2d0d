import Foundation
import Testing

/// An email invitation from the real TUI, in tmux: the Composer's email channel sends through the ledger (a toast with
/// the bulk), the mail program gets it once, and Deliveries shows it sent; a hand-over cut short shows uncertain and
/// Deliveries' resend sends it again, as asked.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIShareEmailTests {
    @Test func theComposersEmailChannelSendsThroughTheLedgerAndDeliveriesShowsIt() async throws {
        let (cli, mailbox, _) = try CLIShareEmailTests.workspace()
        let session = try cli.terminal(width: 120)
        defer { session.kill() }
        try session.waitFor(text: "Ivo Test", timeout: 30)
        // Everyone: Ivo (ivo@…), Mia (kill@…: the mail program dies with her message) and Lea, who has no address.
        try session.sendKeys("A")
        try session.sendKeys("3")
        try session.waitFor(text: "SMS", timeout: 10)
        try session.sendKeys("m")
        try session.waitFor(text: "email", timeout: 10)
        try session.sendKeys("C-s")
        // The question itself ("Send 2 email invitations?"), not the pane's title, which says "email invitation" from
        // the moment m switched the channel: an Enter sent before the question is up goes to the message instead.
        try session.waitFor(text: "email invitations?", timeout: 10)
        try session.sendKeys("Enter")
        let toast = try session.waitFor(text: "bulk ", timeout: 20)
        #expect(toast.contains("invitation"), "\(toast)")
        _ = try session.waitUntil(timeout: 10, "both hand-overs") { _ in CLIShareEmailTests.messages(mailbox).count == 2 }

        try session.sendKeys("5")
        try session.waitFor(text: "Deliveries", timeout: 10)
        try session.sendKeys("Enter")
        let rows = try session.waitUntil(timeout: 15, "the bulk's recipients") { $0.contains("ivo@example.org") && $0.contains("kill@example.org") }
        let ivo = rows.split(separator: "\n").first { $0.contains("ivo@example.org") }.map(String.init) ?? ""
        let mia = rows.split(separator: "\n").first { $0.contains("kill@example.org") }.map(String.init) ?? ""
        #expect(ivo.contains("sent"), "\(rows)")
        #expect(mia.contains("uncertain"), "\(rows)")
        // Resend: only the uncertain one goes again, as asked.
        try session.sendKeys("r")
        // The question itself: the address is on the screen already, in the table behind it.
        try session.waitFor(text: "Send again to", timeout: 10)
        try session.sendKeys("y")
        try session.waitFor(text: "resent to 1", timeout: 20)
        _ = try session.waitUntil(timeout: 10, "the resend's hand-over") { _ in CLIShareEmailTests.messages(mailbox).count == 3 }
        #expect(CLIShareEmailTests.messages(mailbox).filter { $0.contains("To: ivo@example.org") }.count == 1)
    }
}
