import Foundation
import Testing

/// `herald config check` and `herald config show` on the real binary: a user finds every mistake of config.toml in
/// one run, each with its line, and sees where each value in effect came from.
@Suite struct CLIConfigTests {
    @Test func checkListsEveryProblemWithItsLineAndExitsNonZero() throws {
        let box = try CLISandbox()
        try box.write("config/herald/config.toml", """
            region = "Croatia"
            colour = "blue"
            theme = "nosuch"

            [platform]
            api_key_file = "/nonexistent/server.key"
            time_scale = -1
            kind = "carrier-pigeon"
            speed = 3

            [send]
            hold_seconds = 9000
            quiet_hours = "late"

            [smtp]
            port = "587"

            [keys]
            jump = ["j"]
            """)
        let run = try box.run(["config", "check", "--data-dir", box.dataDir.path])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let file = box.configFile.path
        for said in ["\(file):1: region \"Croatia\" is not a two-letter country code",
                     "\(file):2: unknown key \"colour\" ignored",
                     "\(file):3: theme nosuch: no such theme",
                     "\(file):6: platform.api_key_file names /nonexistent/server.key, which does not exist",
                     "\(file):7: platform.time_scale must be a positive number",
                     "\(file):8: platform.kind \"carrier-pigeon\" is not one of embedded, infobip",
                     "\(file):9: unknown key \"platform.speed\" ignored",
                     "\(file):12: send.hold_seconds must be seconds from 0 to 3600",
                     "\(file):13: send.quiet_hours:",
                     "\(file):16: smtp.port must be a port number from 1 to 65535",
                     "\(file):18: [keys] has unknown action \"jump\""] {
            #expect(run.stdout.contains(said), "missing \(said) in:\n\(run.stdout)")
        }
        #expect(run.stderr.contains("11 problems in the configuration"), "\(run.stderr)")
        // A start stops at the first wrong value, naming its line too.
        let start = try box.run(["templates", "list", "--data-dir", box.dataDir.path])
        #expect(start.status == 1 && start.stderr.contains("\(file):1: region \"Croatia\" is not a two-letter country code"), "\(start.stderr)")

        try box.write("config/herald/config.toml", "region = \"HR\"\n[send]\nhold_seconds = 5\n")
        let clean = try box.run(["config", "check", "--data-dir", box.dataDir.path])
        #expect(clean.status == 0 && clean.stdout.contains("no problems (2 keys set)"), "\(clean.stdout)\(clean.stderr)")
    }

    @Test func showSaysWhereEachValueCameFromAndHidesSecrets() throws {
        let box = try CLISandbox()
        try box.write("config/herald/config.toml", """
            sender = "Herald"

            [infobip]
            api_key = "file-secret-123"

            [send]
            hold_seconds = 5
            """)
        let run = try box.run(["config", "show", "--json", "--data-dir", box.dataDir.path],
                              extraEnvironment: ["HERALD_HOLD_SECONDS": "3", "HERALD_SENDER_NAME": "Ana"])
        #expect(run.status == 0, "\(run.stderr)")
        struct Entry: Decodable, Equatable { let key: String; let value: String?; let source: String }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(run.stdout.utf8))
        let byKey = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byKey["sender"] == Entry(key: "sender", value: "\"Herald\"", source: "\(box.configFile.path):1"))
        #expect(byKey["send.hold_seconds"] == Entry(key: "send.hold_seconds", value: "3", source: "environment HERALD_HOLD_SECONDS"))
        #expect(byKey["sender_name"] == Entry(key: "sender_name", value: "Ana", source: "environment HERALD_SENDER_NAME"))
        #expect(byKey["infobip.api_key"]?.value == "(set, hidden)" && !run.stdout.contains("file-secret-123"), "\(run.stdout)")
        #expect(byKey["signature"] == Entry(key: "signature", value: nil, source: "default"))
    }

    @Test func aProfileHasItsOwnConfigAndDataAndConfigPicksAnyFile() throws {
        let box = try CLISandbox()
        try box.write("config/herald/config.toml", "sender = \"Home\"\n")
        try box.write("config/herald/profiles/work.toml", "sender = \"Work\"\n")
        try box.write("elsewhere.toml", "sender = \"Other\"\n")
        func sender(_ arguments: [String], _ environment: [String: String] = [:]) throws -> String? {
            let run = try box.run(["config", "show", "--json"] + arguments, extraEnvironment: environment)
            let entries = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
            return entries?.first { $0["key"] as? String == "sender" }?["value"] as? String
        }
        #expect(try sender([]) == "\"Home\"")
        #expect(try sender(["--profile", "work"]) == "\"Work\"")
        #expect(try sender([], ["HERALD_PROFILE": "work"]) == "\"Work\"")
        #expect(try sender(["--config", box.root.appendingPathComponent("elsewhere.toml").path]) == "\"Other\"")

        // A contact added under the profile is not in the default data folder, and the other way round.
        let card = try box.write("ana.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Horvat\nN:Horvat;Ana;;;\nEND:VCARD\n")
        #expect(try box.run(["contacts", "import", card.path, "--profile", "work"]).status == 0)
        #expect(try box.run(["contacts", "list", "--profile", "work"]).stdout.contains("Ana Horvat"))
        #expect(!(try box.run(["contacts", "list"]).stdout.contains("Ana Horvat")))

        let bad = try box.run(["contacts", "list", "--profile", "../escape"])
        #expect(bad.status != 0 && bad.stderr.contains("is not a name of letters, digits"), "\(bad.stderr)")
    }
}
