import Foundation
import HeraldTestKit
import Testing

/// The real binary in tmux on the demo workspace: `/` in Deliveries narrows the bulks to the query, `b` breaks what
/// it matches down by reason and `d` by country, and `:export` writes what is shown to a file.
@Suite(.serialized) struct UIDeliveriesQueryTests {
    /// "12 recipients in 4 bulks" on the query bar: the number of recipients.
    static func matched(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"(\d+) recipients? in \d+ bulks?"#, options: .regularExpression) else { return nil }
        return Int(screen[range].prefix { $0.isNumber })
    }

    @Test func slashNarrowsTheBulksBBreaksThemDownAndExportWritesThem() async throws {
        let ui = try await HeraldUISession.start(width: 120, height: 30)
        try await ui.waitForFirstFrame()
        try await ui.keys("5")
        _ = try await ui.waitUntil("the Deliveries pane", timeout: 20) { $0.contains("Deliveries —") && $0.contains("Progress") }
        // One failure for certain (the simulated carrier's own are left to chance): a number that replied STOP is
        // refused by the platform, with its reason, when a bulk is sent to it from another process.
        let stop = try await ui.runHerald(["sandbox", "reply", "--data-dir", ui.dataDir.path, "--from", "+385911234599", "--text", "STOP"])
        #expect(stop.status == 0, "\(stop.output)")
        let sent = try await ui.runHerald(["send", "--data-dir", ui.dataDir.path, "--to", "+385911234599", "+385911234598", "--json"])
        #expect(sent.status == 0, "\(sent.output)")
        try await ui.keys("/")
        try await ui.type("status:failed")
        // The whole query typed and answered (a part of it, "status:", matches everything).
        let narrowed = try await ui.waitUntil("failed recipients matched", timeout: 30) {
            $0.contains("/status:failed") && (Self.matched($0) ?? 0) > 0
        }
        #expect(narrowed.contains("Deliveries —"), "\(narrowed)")
        try await ui.keys("Enter")
        // A word that is not a state says what to write instead.
        try await ui.keys("/")
        try await ui.type(" -status:nope")
        _ = try await ui.waitFor("status:nope is not a state")
        for _ in 0..<" -status:nope".count { try await ui.keys("BSpace") }
        try await ui.keys("Enter")
        let count = try #require(Self.matched(try await ui.waitUntil("the query again") { Self.matched($0) != nil }))
        try await ui.keys("b")
        let breakdown = try await ui.waitUntil("the breakdown by reason") { $0.contains("breakdown by reason") && $0.contains("opted out") }
        #expect(breakdown.contains("Share") && breakdown.contains("Last seen"), "\(breakdown)")
        try await ui.keys("d")
        // The demo's people have numbers of several countries: a row per country, the shares adding up.
        // Waited for whole: a capture may fall between the lines of one frame's update.
        _ = try await ui.waitUntil("the breakdown by country") {
            $0.contains("breakdown by country") && $0.contains("the query's \(count) recipient") && $0.contains("Country")
                && $0.contains("%")
        }
        try await ui.keys("Enter")
        _ = try await ui.waitUntil("the group's recipients") { $0.contains("Country “") && $0.contains("Number") && $0.contains("can be resent") }
        try await ui.keys("Escape", "Escape")
        _ = try await ui.waitUntil("the breakdown closed") { !$0.contains("breakdown by") && $0.contains("Progress") }
        let file = ui.folder.appendingPathComponent("failed.csv")
        try await ui.keys(":")
        try await ui.type("export \(file.path)")
        try await ui.keys("Enter")
        _ = try await ui.waitFor("exported ", timeout: 15)
        let csv = try String(contentsOf: file, encoding: .utf8)
        let rows = csv.split(separator: "\r\n")
        #expect(rows.first?.hasPrefix("bulk,time,sent_by,number,name,country") == true, "\(rows.first ?? "")")
        #expect(rows.count - 1 >= count, "every failed recipient matched is in the file (failures only grow)")
    }
}
