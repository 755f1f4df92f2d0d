import Foundation
import Testing

/// `herald status BULK --wait` in a real terminal (tmux).
@Suite struct CLIStatusWaitTests {
    /// `status --wait` on a terminal says how far the bulk is while it waits, and leaves only the table behind.
    @Test func statusWaitShowsProgressOnATerminal() throws {
        let cli = try PlatformCLI(timeScale: "1")
        let bulk = try #require(try cli.ok(["send", "--to", mobile(81), mobile(82), "--json"]).object()["bulkId"] as? String)
        let ui = try TmuxSession(command: [cli.binary.path, "status", bulk, "--wait", "--data-dir", cli.dataDir.path], width: 120, height: 20,
                                 environment: cli.processEnvironment([:]))
        defer { ui.kill() }
        let shown = try ui.waitUntil(timeout: 20, "the progress line") { $0.contains("of 2 recipients final (ctrl-c stops waiting)") }
        #expect(shown.contains("waiting for \(bulk): "), "\(shown)")
        // The simulated carrier at real time takes about 40 s for both (alone); with the whole suite running beside
        // it, the tracker's passes come later.
        let done = try ui.waitUntil(timeout: 150, "the table once every recipient is final") { $0.contains("ADDRESS") }
        #expect(!done.contains("recipients final (ctrl-c"), "the progress line is cleared: \(done)")
    }
}
