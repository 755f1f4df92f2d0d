import Foundation
import Testing

/// `herald send --missing leave-out|fallback --fallback FIELD=TEXT` on the real binary: a choice that contradicts
/// itself, or a fallback that is a blank, is refused before anything is sent; a dry run's JSON names the personal
/// fields and who lacks one (none for the default message).
@Suite struct CLISendMissingFieldsTests {
    @Test func contradictoryOrBlankChoicesAreRefusedAndNothingIsSent() throws {
        let cli = try PlatformCLI()
        let cases: [([String], String)] = [
            (["--fallback", "TEAM=Green"], "--fallback needs --missing fallback"),
            (["--missing", "fallback"], "--missing fallback needs --fallback FIELD=TEXT"),
            (["--missing", "leave-out", "--fallback", "TEAM=Green"], "--missing leave-out leaves them out"),
            (["--missing", "sometimes"], "--missing sometimes is not leave-out or fallback"),
            (["--missing", "fallback", "--fallback", "TEAM=  "], "a fallback is never a blank"),
            (["--missing", "fallback", "--fallback", "=x"], "is not FIELD=TEXT"),
        ]
        for (flags, said) in cases {
            let r = try cli.run(["send", "--to", mobile(81)] + flags)
            #expect(r.status != 0, "\(flags)")
            #expect(r.stderr.contains(said), "\(flags): \(r.stderr)")
        }
        let dry = try cli.ok(["send", "--to", mobile(81), "--missing", "leave-out", "--dry-run", "--json"]).object()
        #expect(dry["personalFields"] as? [String] == [])
        #expect((dry["missing"] as? [Any])?.isEmpty == true)
        #expect(((dry["recipients"] as? [[String: Any]])?.first?["missingFields"] as? [String]) == [])
        // Nothing of the refused sends was queued or sent: the number is not on its way.
        #expect(((try cli.ok(["send", "--to", mobile(81), "--dry-run", "--json"]).object()["recipients"]) as? [Any])?.count == 1)
    }
}
