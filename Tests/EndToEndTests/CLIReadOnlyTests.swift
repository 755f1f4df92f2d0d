import Foundation
import Testing

/// Read-only mode on the command line (`--read-only`, `HERALD_READ_ONLY`, `read_only` in config.toml): a command that
/// changes something refuses, saying why, before it writes anything; reads (and a send's dry run) work as ever.
@Suite struct CLIReadOnlyTests {
    /// Rows of the local ledger and contacts (`sqlite3` on the data folder's database).
    static func counts(_ cli: PlatformCLI) throws -> String {
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [cli.dataDir.appendingPathComponent("herald.sqlite").path,
                            "SELECT (SELECT count(*) FROM bulk) || ' ' || (SELECT count(*) FROM invitation) || ' ' || "
                                + "(SELECT count(*) FROM pending_send) || ' ' || (SELECT count(*) FROM person);"]
        let out = Pipe()
        sqlite.standardOutput = out
        try sqlite.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sqlite.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aSendRefusesAndWritesNothingToTheLedger() throws {
        let cli = try PlatformCLI()
        try cli.ok(["contacts", "list", "--json"])   // the workspace exists: the refusal is not for want of one
        #expect(try Self.counts(cli) == "0 0 0 0")
        for args in [["--read-only", "send", "--to", mobile(1)], ["send", "--to", mobile(1), "--read-only"]] {
            let refused = try cli.run(args)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("read-only mode"), "\(refused)")
            #expect(refused.stderr.contains("it does not send invitations"), "\(refused)")
            #expect(!refused.crashed)
        }
        let byEnvironment = try cli.run(["send", "--to", mobile(2)], env: ["HERALD_READ_ONLY": "1"])
        #expect(byEnvironment.status == 1)
        #expect(byEnvironment.stderr.contains("read-only mode"), "\(byEnvironment)")
        #expect(try Self.counts(cli) == "0 0 0 0", "a refused send wrote to the ledger")
        // Reading and a dry run are what a support desk does: they work.
        let dry = try cli.run(["--read-only", "send", "--to", mobile(3), "--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout.contains("Dry run: nothing was sent."), "\(dry)")
        #expect(try cli.run(["--read-only", "contacts", "list", "--json"]).status == 0)
        #expect(try cli.run(["--read-only", "optout", "list", "--json"]).status == 0)
        #expect(try Self.counts(cli) == "0 0 0 0")
        // Without read-only mode the same send goes out.
        try cli.ok(["send", "--to", mobile(1)])
        let after = try Self.counts(cli)
        #expect(after.hasPrefix("1 1 "), "\(after)")
    }

    @Test func contactAndOptOutChangesRefuseByFlagEnvironmentAndConfig() throws {
        let cli = try PlatformCLI()
        let config = cli.home.appendingPathComponent("config/herald")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let refusals: [([String], [String: String], String)] = [
            (["--read-only", "contacts", "add", "Zoë Horvat", "--phone", mobile(5)], [:], "add contacts"),
            (["contacts", "delete", "1"], ["HERALD_READ_ONLY": "true"], "delete contacts"),
            (["optout", "add", mobile(6)], ["HERALD_READ_ONLY": "yes"], "opt numbers out"),
        ]
        for (args, env, change) in refusals {
            let run = try cli.run(args, env: env)
            #expect(run.status == 1, "\(args): \(run)")
            #expect(run.stderr.contains("read-only mode") && run.stderr.contains("it does not \(change)"), "\(args): \(run)")
        }
        try "read_only = true\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let byConfig = try cli.run(["optout", "remove", mobile(6)])
        #expect(byConfig.status == 1)
        #expect(byConfig.stderr.contains("it does not take numbers off the opt-out list"), "\(byConfig)")
        // HERALD_READ_ONLY=0 turns the file's read-only off; a value it does not know is said, not guessed.
        let allowed = try cli.run(["contacts", "add", "Zoë Horvat", "--phone", mobile(5), "--region", "HR"], env: ["HERALD_READ_ONLY": "0"])
        #expect(allowed.status == 0, "\(allowed)")
        let unknown = try cli.run(["contacts", "add", "Ivo", "--phone", mobile(7)], env: ["HERALD_READ_ONLY": "maybe"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("HERALD_READ_ONLY=maybe is not understood"), "\(unknown)")
        #expect(try Self.counts(cli) == "0 0 0 1")
    }
}
