import Foundation
import Testing

/// Bad input to every platform command: a non-zero exit, a message on stderr that says what was
/// wrong and what to do, nothing on stdout, never a crash.
@Suite(.serialized) struct CLIPlatformErrorsTests {
    struct Case: CustomStringConvertible {
        var args: [String]
        /// Every one of these must appear in stderr.
        var says: [String]
        var env: [String: String] = [:]
        var description: String { args.joined(separator: " ") }
    }

    @Test func badInputGetsAClearMessageAndANonZeroExit() throws {
        let cli = try PlatformCLI()
        let ids = try cli.importContacts([("Ana", "Horvat", mobile(41))])
        #expect(ids.count == 1)
        let cases: [Case] = [
            // send
            Case(args: ["send", "--to", mobile(42), "--sender", "Far too long a sender"], says: ["sender ID", "--sender"]),
            Case(args: ["send", "--to", mobile(42), "--sender", "Ana™"], says: ["sender ID", "\"™\"", "--sender"]),
            Case(args: ["send", "--to", mobile(42), "--sender", "12345678901234567"], says: ["sender ID", "--sender"]),
            Case(args: ["send", "--to", mobile(42), "--message", ""], says: ["--message is empty", "herald templates list"]),
            Case(args: ["send", "--to", mobile(42), "--message", "nosuch"], says: ["no message \"nosuch\"", "herald templates list"]),
            Case(args: ["send", "--to", "12"], says: ["no contact with id 12", "country code"]),
            Case(args: ["send", "--to", "+1 555"], says: ["nothing was sent"]),
            Case(args: ["send", "--to", "not a number"], says: ["nothing was sent"]),
            Case(args: ["send", "--to", "999"], says: ["no contact with id 999", "herald contacts list"]),
            Case(args: ["send"], says: ["--to"]),
            Case(args: ["send", "--to", mobile(42), "--field", "SENDER_NAME"], says: ["KEY=VALUE"]),
            Case(args: ["send", "--to", mobile(42), "--field", "NICK=x"], says: ["unknown field", "SENDER_NAME"]),
            // status
            Case(args: ["status", "NO-SUCH-BULK"], says: ["no bulk NO-SUCH-BULK", "--data-dir"]),
            Case(args: ["status", "NO-SUCH-BULK", "--wait", "--json"], says: ["no bulk NO-SUCH-BULK"]),
            // inbox
            Case(args: ["inbox", "list", "--user", "ana", "--from", "yesterday"], says: ["--from", "ISO 8601", "epoch milliseconds"]),
            Case(args: ["inbox", "list", "--user", "ana", "--to", "2026-13-45"], says: ["--to", "ISO 8601"]),
            Case(args: ["inbox", "list", "--user", "ana", "--from", "2026-02-01", "--to", "2026-01-01"], says: ["--from must be before --to"]),
            Case(args: ["inbox", "list", "--user", "ana", "--limit", "0"], says: ["--limit"]),
            Case(args: ["inbox", "list", "--user", ""], says: ["--user"]),
            Case(args: ["inbox", "list"], says: ["--user"]),
            Case(args: ["inbox", "seen", "--user", "", "x"], says: ["--user"]),
            Case(args: ["inbox", "seen", "--user", "ana", "no-such-message"], says: ["no-such-message", "herald inbox list --user ana"]),
            // suggest, share, sandbox
            Case(args: ["suggest", "--count", "0"], says: ["--count"]),
            Case(args: ["share", "email", "--to", "999", "--from", "me@example.org"], says: ["no contact with id 999"]),
            Case(args: ["share", "email", "--from", "me@example.org"], says: ["--to"]),
            Case(args: ["sandbox", "push-inbox", "--user", "", "--body", "x"], says: ["--user"]),
            Case(args: ["sandbox", "push-inbox", "--user", "ana", "--body", ""], says: ["--body"]),
            // environment
            Case(args: ["status", "X"], says: ["HERALD_SANDBOX_TIME_SCALE", "positive number"],
                 env: ["HERALD_SANDBOX_TIME_SCALE": "fast"]),
        ]
        for c in cases {
            let r = try cli.run(c.args, env: c.env)
            #expect(r.status != 0, "\(c) must fail: \(r)")
            #expect(!r.crashed, "\(c) crashed: \(r)")
            for s in c.says { #expect(r.stderr.contains(s), "\(c) should say \(s): \(r)") }
            #expect(r.stderr.split(separator: "\n").count <= 6, "\(c): a short message, not a dump: \(r)")
        }
        // Nothing was sent by any of that.
        let last = try cli.run(["send", "--to", mobile(42), "--json"])
        #expect(last.status == 0, "\(last)")
    }

    @Test func anUnwritableDataFolderIsNamed() throws {
        let cli = try PlatformCLI()
        let file = cli.home.appendingPathComponent("a-file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["status", "X", "--data-dir", file.path], dataDirOption: false)
        #expect(r.status != 0)
        #expect(!r.crashed, "\(r)")
        #expect(r.stderr.contains(file.path), "\(r)")
    }
    /// A log folder that cannot be made is said once, not a silent loss of every log line; the command still works.
    @Test func aLogFolderThatCannotBeMadeIsSaidAndTheCommandStillRuns() throws {
        let cli = try PlatformCLI()
        let file = cli.home.appendingPathComponent("state-is-a-file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let r = try cli.run(["templates", "list"], env: ["XDG_STATE_HOME": file.path])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("herald: warning: cannot make the log folder \(file.path)/herald"), "\(r)")
        #expect(r.stderr.contains("nothing will be logged"), "\(r)")
    }

    /// With --json an error is JSON on stderr too, with the same exit status: a message and, when it says what to
    /// do, that advice as the hint.
    @Test func withJSONAnErrorIsJSONWithItsHint() throws {
        let cli = try PlatformCLI()
        let r = try cli.run(["send", "--to", mobile(61), "--json"], env: ["HERALD_SENDER_NAME": "", "USER": "root", "LOGNAME": "root"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let line = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("{") }, "\(r)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect((error["message"] as? String)?.contains("no sender name fills {SENDER_NAME}") == true, "\(error)")
        #expect((error["hint"] as? String)?.hasPrefix("Set sender_name in") == true, "\(error)")
        // Without --json the same error is a line for people.
        let human = try cli.run(["send", "--to", mobile(61)], env: ["HERALD_SENDER_NAME": "", "USER": "root", "LOGNAME": "root"])
        #expect(human.status == 1)
        #expect(human.stderr.contains("herald: the message says"), "\(human)")
    }
}
