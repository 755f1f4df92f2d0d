import Foundation
import Testing

/// `herald status BULK --wait` in a real terminal (tmux).
@Suite struct CLIStatusWaitTests {
    /// `status --wait` on a terminal says how far the bulk is while it waits, and leaves only the table behind.
    @Test func statusWaitShowsProgressOnATerminal() throws {
        // Ten times real time: about 4 s to final, long enough to see the line; a recipient the simulated carrier leaves
        // at the network for good (5% each) spends the tracker's follow-up passes, 72 s at this pace (720 s at real time).
        let cli = try PlatformCLI(timeScale: "10")
        let bulk = try #require(try cli.ok(["send", "--to", mobile(81), mobile(82), "--json"]).object()["bulkId"] as? String)
        let ui = try TmuxSession(command: [cli.binary.path, "status", bulk, "--wait", "--data-dir", cli.dataDir.path], width: 120, height: 20,
                                 environment: cli.processEnvironment([:]))
        defer { ui.kill() }
        let shown = try ui.waitUntil(timeout: 20, "the progress line") { $0.contains("of 2 recipients final (ctrl-c stops waiting)") }
        #expect(shown.contains("waiting for \(bulk): "), "\(shown)")
        // With the whole suite running beside it, the tracker's passes come later.
        let done = try ui.waitUntil(timeout: 150, "the table once every recipient is final") { $0.contains("ADDRESS") }
        #expect(!done.contains("recipients final (ctrl-c"), "the progress line is cleared: \(done)")
    }
}
