import Foundation
import Testing

/// Shell completion as a user gets it: bash sources the script `herald --generate-completion-script bash` prints and
/// completes subcommands, options and the live values of the data folder (contact ids, bulk ids, books, themes);
/// zsh and fish get the same values with what they are (a contact's name, a bulk's time and message).
@Suite struct CLICompletionTests {
    /// The words bash completes for `line` (the last word being typed), with the completion script sourced.
    static func bash(_ box: CLISandbox, _ words: [String], environment: [String: String]) throws -> [String] {
        let binDir = try HeraldBinary.url().deletingLastPathComponent().path
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            source <(herald --generate-completion-script bash)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _herald herald "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let environment = box.environment.merging(environment) { _, new in new }.merging(["PATH": binDir + ":/usr/bin:/bin"]) { _, new in new }
        let run = try ProgramRun("/bin/bash", ["-c", script], environment: environment, withErrors: false)
        return run.output.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsAndWhatIsInTheDataFolder() throws {
        let box = try CLISandbox()
        let data = ["HERALD_DATA_DIR": box.dataDir.path]
        try box.write("config/herald/config.toml", """
            [[books]]
            name = "family"
            path = "\(box.root.appendingPathComponent("family").path)"
            """)
        try box.write("family/.keep", "")
        try box.write("people.vcf", """
            BEGIN:VCARD\nVERSION:3.0\nFN:Ana Horvat\nN:Horvat;Ana;;;\nTEL;TYPE=CELL:+385981234567\nEND:VCARD
            BEGIN:VCARD\nVERSION:3.0\nFN:Ivo Kos\nN:Kos;Ivo;;;\nTEL;TYPE=CELL:+385981234568\nEND:VCARD
            """)
        #expect(try box.contacts(["import", box.root.appendingPathComponent("people.vcf").path]).status == 0)
        let listed = try box.contacts(["list", "--json"])
        let ids = Set(try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])["contacts"]
            .flatMap { $0 as? [[String: Any]] }?.compactMap { ($0["id"] as? Int).map(String.init) } ?? [])
        #expect(ids.count == 2, "\(listed.stdout)")

        #expect(Set(try Self.bash(box, ["herald", "con"], environment: data)) == ["contacts", "config"])
        #expect(Set(try Self.bash(box, ["herald", "contacts", "show", ""], environment: data)) == ids)
        #expect(try Self.bash(box, ["herald", "contacts", "list", "--book", ""], environment: data) == ["family"])
        #expect(Set(try Self.bash(box, ["herald", "--theme", ""], environment: data)).isSuperset(of: ["default", "light", "monochrome"]))

        let send = try box.run(["send", "--now", "--json", "--to", "+385981234567"],
                               extraEnvironment: data.merging(["HERALD_HOLD_SECONDS": "0", "HERALD_SENDER_NAME": "Ana"]) { a, _ in a })
        let bulk = try #require((try JSONSerialization.jsonObject(with: Data(send.stdout.utf8)) as? [String: Any])?["bulkId"] as? String,
                                "\(send.stdout)\(send.stderr)")
        #expect(try Self.bash(box, ["herald", "status", ""], environment: data) == [bulk])
    }

    @Test func zshAndFishSeeWhatEachValueIs() throws {
        let box = try CLISandbox()
        try box.write("one.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Horvat\nN:Horvat;Ana;;;\nTEL;TYPE=CELL:+385981234567\nEND:VCARD\n")
        #expect(try box.contacts(["import", box.root.appendingPathComponent("one.vcf").path]).status == 0)
        let ask = ["---completion", "contacts", "show", "--", "positional@0", "3", "0", "herald", "contacts", "show", ""]
        let data = ["HERALD_DATA_DIR": box.dataDir.path]
        let zsh = try box.run(ask, extraEnvironment: data.merging(["SAP_SHELL": "zsh"]) { a, _ in a })
        #expect(zsh.stdout.split(separator: "\n").contains { $0.hasSuffix(":Ana Horvat") }, "\(zsh.stdout)\(zsh.stderr)")
        let fish = try box.run(ask, extraEnvironment: data.merging(["SAP_SHELL": "fish"]) { a, _ in a })
        #expect(fish.stdout.split(separator: "\n").contains { $0.hasSuffix("\tAna Horvat") }, "\(fish.stdout)\(fish.stderr)")
        // No data folder yet: nothing offered, nothing created.
        let empty = box.root.appendingPathComponent("nothing-here")
        let none = try box.run(ask, extraEnvironment: ["HERALD_DATA_DIR": empty.path, "SAP_SHELL": "fish"])
        #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !FileManager.default.fileExists(atPath: empty.path))
    }
}
