import Foundation
import Testing

/// `herald audit` on a terminal's own platform: what this terminal did, under its sender name, from "local"; a bulk's
/// story with --bulk; wrong options refused with what to write.
@Suite struct CLIAuditTests {
    @Test func theTerminalsOwnTrailNamesItsSenderAndRefusesWrongOptions() throws {
        let cli = try PlatformCLI()
        let bulk = try #require(try cli.ok(["send", "--to", mobile(51), mobile(52), "--json"]).object()["bulkId"] as? String)
        _ = try cli.ok(["optout", "add", mobile(53)])
        let entries = try #require(try cli.ok(["audit", "--json"]).array() as? [[String: Any]])
        #expect(entries.compactMap { $0["action"] as? String } == ["opt-out-add", "send"], "\(entries)")
        #expect(entries.allSatisfy { $0["actor"] as? String == "Ana" && $0["role"] as? String == "local" && $0["address"] as? String == "local" })
        #expect(entries[1]["bulkId"] as? String == bulk)
        #expect(try cli.ok(["audit", "--bulk", bulk, "--json"]).array().count == 1)
        #expect(try cli.ok(["audit", "--since", "1h", "--action", "opt-out-add", "--json"]).array().count == 1)
        #expect(try cli.ok(["audit", "--limit", "1", "--json"]).array().count == 1)
        let table = try cli.ok(["audit"]).stdout
        #expect(table.contains("WHEN") && table.contains("opt-out-add") && table.contains("\(mobile(53)): opted out (herald)"), "\(table)")
        for (args, says) in [(["--since", "last week"], "--since last week is not a time"), (["--action", "delete"], "--action delete is not an action"),
                             (["--limit", "0"], "--limit 0: give a number from 1 to 100000")] {
            let refused = try cli.run(["audit"] + args)
            #expect(refused.status == 1 && refused.stderr.contains(says) && !refused.crashed, "\(args): \(refused)")
        }
    }
}
