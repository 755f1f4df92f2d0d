import Foundation
import HeraldTestKit
import Testing

/// The terminal handed over and taken back: a real vim and a real nano edit the Composer's message,
/// and ctrl-z suspends Herald to a real interactive shell that `fg` resumes.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIEditorTests {
    @Test(.enabled(if: Self.installed("vim"), "vim is not installed (make test installs it)"))
    func aRealVimEditsTheMessageAndNoneOfItsTerminalRepliesArriveAsKeys() throws {
        let (cli, session) = try Self.composer(editor: "vim")
        defer { session.kill() }
        try session.sendKeys("e")
        // vim has the terminal: it asks the terminal things (version, cursor) as it starts.
        _ = try session.waitUntil(timeout: 15, "vim on the message") { $0.hasPrefix("Hi {RECEIVER_NAME}, {SENDER_NAME} invites you to Herald: <>\n~") }
        try session.sendLiteral("ggdGiHello from vim, {RECEIVER_NAME} <>")
        try session.sendKeys("Escape")
        try session.sendLiteral(":wq")
        try session.sendKeys("Enter")
        let back = try session.waitUntil(timeout: 15, "the Composer with vim's text") { $0.contains("│Hello from vim, {RECEIVER_NAME} <>") }
        // A reply meant for vim read as keys would have switched panes (digits) or typed into the message.
        #expect(back.contains("Composer — SMS invitation"))
        #expect(back.contains("*modified*"))
        #expect(!back.contains("$EDITOR exited"))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try session.capture().contains("Composer — SMS invitation"))
        _ = cli
    }

    @Test func repliesToAnEditorThatQuitAtOnceAreThrownAwayNotReadAsKeys() throws {
        // A real program that asks the terminal for the cursor position and its attributes, edits, and
        // exits before the answers arrive: read as keys they would open help ("?") and switch panes (digits).
        let folder = try TempDir("quick-editor")
        let editor = folder.file("editor")
        try "#!/bin/sh\nprintf '\\033[6n\\033[c' > /dev/tty\nsed -i 's/^Hi/Hey/' \"$1\"\n".write(to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        let (cli, session) = try Self.composer(editor: editor.path)
        defer { session.kill() }
        try session.sendKeys("e")
        _ = try session.waitUntil(timeout: 15, "the edited text") { $0.contains("│Hey {RECEIVER_NAME}") }
        Thread.sleep(forTimeInterval: 0.5)
        let screen = try session.capture()
        #expect(screen.contains("Composer — SMS invitation"))
        #expect(!screen.contains("Keys — "))
        _ = cli
    }

    @Test(.enabled(if: Self.installed("nano"), "nano is not installed (make test installs it)"))
    func aRealNanoEditsTheMessage() throws {
        let (cli, session) = try Self.composer(editor: "nano")
        defer { session.kill() }
        try session.sendKeys("e")
        _ = try session.waitUntil(timeout: 15, "nano on the message") { $0.contains("GNU nano") && $0.contains("invites you to Herald") }
        try session.sendKeys("C-k")
        try session.sendLiteral("Written in nano <>")
        try session.sendKeys("C-o")
        _ = try session.waitFor(text: "File Name to Write", timeout: 10)
        try session.sendKeys("Enter")
        _ = try session.waitFor(text: "Wrote", timeout: 10)
        try session.sendKeys("C-x")
        let back = try session.waitUntil(timeout: 15, "the Composer with nano's text") { $0.contains("│Written in nano <>") }
        #expect(back.contains("Composer — SMS invitation"))
        _ = cli
    }

    @Test func ctrlZSuspendsHeraldToTheShellAndFgBringsItBackWhole() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567")])
        var environment = cli.processEnvironment([:])
        environment["PS1"] = "shell$ "
        let session = try TmuxSession(command: ["bash", "--norc", "--noprofile", "-i"], width: 100, height: 30,
                                      environment: environment)
        defer { session.kill() }
        _ = try session.waitFor(text: "shell$", timeout: 10)
        try session.sendLiteral("'\(cli.binary.path)' --data-dir '\(cli.dataDir.path)'")
        try session.sendKeys("Enter")
        _ = try session.waitUntil(timeout: 30, "Herald on Contacts") { $0.contains("Contacts —") && $0.contains("Ana Horvat") }
        try session.sendKeys("C-z")
        let stopped = try session.waitUntil(timeout: 10, "the shell's job report") { $0.contains("Stopped") }
        #expect(!stopped.contains("Contacts —"), "the screen is the shell's again")
        #expect(!stopped.contains("[?"), "no terminal reply leaked into the shell")
        try session.sendLiteral("fg")
        try session.sendKeys("Enter")
        let resumed = try session.waitUntil(timeout: 10, "Herald repainted") { $0.contains("Contacts —") && $0.contains("Ana Horvat") }
        #expect(resumed.contains("1 Contacts │ 2 Share"))
        try session.sendKeys("3")
        _ = try session.waitFor(text: "Composer — SMS invitation", timeout: 10)
        try session.sendKeys("q")
        _ = try session.waitFor(text: "shell$", timeout: 10)
    }

    /// Herald on a workspace with one person, its Composer open and loaded, `$EDITOR` set to `editor`.
    static func composer(editor: String) throws -> (PlatformCLI, TmuxSession) {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567")])
        let session = try cli.terminal(environment: ["EDITOR": editor, "VISUAL": ""])
        _ = try session.waitFor(text: "5 Deliveries", timeout: 30)
        try session.sendKeys("3")
        _ = try session.waitUntil(timeout: 15, "the Composer with its message") { $0.contains("│Hi {RECEIVER_NAME}") }
        return (cli, session)
    }

    static func installed(_ program: String) -> Bool {
        ["/usr/bin", "/bin", "/usr/local/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
