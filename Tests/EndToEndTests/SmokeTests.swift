import Foundation
import Testing

@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct SmokeTests {
    @Test func harnessTypesReadsAndResizes() throws {
        let session = try TmuxSession(command: ["/bin/sh", "-c", "stty -echo; while read line; do echo \"got: $line\"; done"],
                                      width: 40, height: 5)
        try session.sendLiteral("李小龍 👍")
        try session.sendKeys("Enter")
        try session.waitFor(text: "got: 李小龍 👍")
        try session.resize(width: 60, height: 8)
        try session.waitUntil("a 60-column window") { _ in
            (try? session.display("#{window_width}x#{window_height}")) == "60x8"
        }
        #expect(try session.hasExited() == false)
        session.kill()
    }

    @Test func heraldHelpRuns() throws {
        let herald = try HeraldBinary.url()
        // Tall enough for the whole help (53 lines with every subcommand), so USAGE stays on the screen.
        let session = try TmuxSession(command: [herald.path, "--help"], width: 100, height: 70)
        let screen = try session.waitFor(text: "USAGE")
        #expect(screen.contains("herald"))
        try session.waitUntil("herald to exit") { _ in (try? session.hasExited()) == true }
    }
}
