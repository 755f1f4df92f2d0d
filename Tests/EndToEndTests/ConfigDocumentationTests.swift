import Foundation
import Testing

/// The documentation tells the truth about config.toml: every key the real binary knows is documented in the
/// configuration reference, docs/config.md, and every key the config examples of README.md and docs/*.md set is one the
/// binary knows. The binary's knowledge is read from what it says of an unknown key in each table ("unknown key …
/// ignored (known: …)"), so the test follows the parser, not a copy of it.
@Suite struct ConfigDocumentationTests {
    static let tables = ["", "ui", "notify", "platform", "infobip", "infobip.send", "share", "inbox", "invite", "send", "smtp"]

    /// The keys the binary knows, per table ("" is the top level).
    func knownKeys() throws -> [String: Set<String>] {
        let box = try CLISandbox()
        var text = "zz_unknown = 1\n"
        for table in Self.tables where !table.isEmpty { text += "[\(table)]\nzz_unknown = 1\n" }
        try box.write("config/herald/config.toml", text)
        let run = try box.run(["templates", "list", "--data-dir", box.dataDir.path])
        var known: [String: Set<String>] = [:]
        for line in run.stderr.split(separator: "\n") where line.contains("zz_unknown") {
            guard let open = line.range(of: "(known: "), let close = line.range(of: ")", options: .backwards) else { continue }
            let table = line.contains("\"zz_unknown\"") ? "" : line.split(separator: "\"")[1].split(separator: ".").dropLast().joined(separator: ".")
            known[table] = Set(line[open.upperBound..<close.lowerBound].components(separatedBy: ", "))
        }
        return known
    }

    @Test func everyKeyTheParserKnowsIsInTheReferenceAndEveryKeyTheDocsSetIsKnown() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let pages = try (["README.md"] + docs).map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
        #expect(pages.count > 2 && pages.contains { $0.0 == "docs/config.md" }, "\(pages.map(\.0))")
        let known = try knownKeys()
        #expect(Set(known.keys) == Set(Self.tables), "a warning per table: \(known)")
        for (table, keys) in known {
            for key in keys where (table != "" || !Self.tables.contains(key) && key != "keys") && !Self.tables.contains("\(table).\(key)") {
                let spelled = [" \(key) =", "\n\(key) =", "# \(key) =", "`\(key)`", "\(table).\(key)", "[\(table)] \(key)", "[[\(key)]]"]
                #expect(spelled.contains { reference.contains($0) }, "\(table.isEmpty ? "" : "[\(table)] ")\(key) is not documented in docs/config.md")
            }
        }
        // Every `key = value` line of the TOML examples of every page, in the table it stands in.
        var examples = 0
        for (page, text) in pages {
            var table = ""
            var inTOML = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("```") { inTOML = line == "```toml"; table = ""; continue }
                guard inTOML else { continue }
                if line.hasPrefix("["), let end = line.firstIndex(of: "]") { table = String(line[line.index(after: line.startIndex)..<end]); continue }
                let setting = line.hasPrefix("# ") ? String(line.dropFirst(2)) : line
                guard let eq = setting.range(of: " = ") else { continue }
                let key = String(setting[..<eq.lowerBound])
                guard key.allSatisfy({ $0.isLowercase || $0 == "_" }), Self.tables.contains(table) else { continue }
                examples += 1
                #expect(known[table]?.contains(key) == true, "\(page) sets \(table.isEmpty ? "" : "[\(table)] ")\(key), which Herald does not know")
            }
        }
        #expect(examples > 50, "the pages' TOML examples set \(examples) keys")
    }

    /// The reference of every plain key in docs/config.md is what the binary prints from the declarations its parser
    /// reads (`herald config keys --markdown`, written there by `make docs`), and a value out of a declared range stops
    /// every command with the key and what it takes.
    @Test func theKeyReferenceIsGeneratedFromTheParsersDeclarations() throws {
        let box = try CLISandbox()
        let run = try box.run(["config", "keys", "--markdown"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("| `send.hold_seconds` | seconds from 0 to 3600 | `10` | `HERALD_HOLD_SECONDS` |"), "\(run.stdout)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/config.md"), encoding: .utf8)
        #expect(reference.contains(run.stdout), "docs/config.md is out of date: run make docs (scripts/generate.sh) and commit it")
        for (setting, said) in [("[send]\nhold_seconds = 9000", "send.hold_seconds must be seconds from 0 to 3600"),
                                ("[smtp]\nport = \"587\"", "smtp.port must be a port number from 1 to 65535"),
                                ("region = \"Croatia\"", "region \"Croatia\" is not a two-letter country code")] {
            try box.write("config/herald/config.toml", setting + "\n")
            let refused = try box.run(["templates", "list", "--data-dir", box.dataDir.path])
            #expect(refused.status == 1 && refused.stderr.contains(said), "\(setting): \(refused.stderr)")
        }
    }

    /// `[infobip.send]` values are held to Infobip's published limits when the file is read: a wrong one stops every
    /// command with the key and what to write; right ones load without a word.
    @Test func infobipSenderOptionsOutsideThePublishedLimitsAreRefusedWithTheKey() throws {
        let box = try CLISandbox()
        for (setting, said) in [("validity = \"72h\"", "infobip.send.validity: \"72h\" is longer than Infobip's 48 hours"),
                                ("speed_limit = \"10/week\"", "infobip.send.speed_limit: \"10/week\" is not a speed"),
                                ("delivery_days = [\"MONDAY\"]\ndelivery_from = \"08:00\"", "set both delivery_from and delivery_to"),
                                ("turkey_iys_recipient_type = \"PERSON\"", "is not one of BIREYSEL, TACIR")] {
            try box.write("config/herald/config.toml", "[infobip.send]\n\(setting)\n")
            let run = try box.run(["templates", "list", "--data-dir", box.dataDir.path])
            #expect(run.status != 0 && run.stderr.contains(said), "\(setting): \(run.stderr)")
            #expect(run.status == 1, "a clean failure, not a crash: \(run.status)")
        }
        try box.write("config/herald/config.toml", """
            [infobip.send]
            validity = "2h"
            delivery_days = ["MONDAY", "FRIDAY"]
            delivery_from = "08:00"
            delivery_to = "17:00"
            speed_limit = "100/minute"
            campaign = "summer"
            transliteration = "central_european"
            """)
        let fine = try box.run(["templates", "list", "--data-dir", box.dataDir.path])
        #expect(fine.status == 0 && !fine.stderr.contains("infobip"), "\(fine.stderr)")
    }
}
