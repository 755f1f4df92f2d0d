import Foundation
import HeraldTestKit
import Testing

/// One run of the built `herald` binary: exit status and both output streams.
struct CLIRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// stdout parsed as a JSON object.
    func json() throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(value as? [String: Any], "stdout is not a JSON object: \(stdout)")
    }
}

/// A private world for the CLI: its own HOME, XDG folders and data folder in a temp directory,
/// so nothing of the user's is read or written; removed with the sandbox.
final class CLISandbox: Sendable {
    private let folder: TempDir
    var root: URL { folder.url }
    var dataDir: URL { root.appendingPathComponent("data") }
    var configFile: URL { root.appendingPathComponent("config/herald/config.toml") }

    init() throws {
        folder = try TempDir("cli")
        try folder.folder("home")
    }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HERALD_") && !$0.key.hasPrefix("XDG_") }
        env["HOME"] = root.appendingPathComponent("home").path
        env["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        env["XDG_DATA_HOME"] = root.appendingPathComponent("xdg-data").path
        env["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        return env
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Runs `herald arguments…` to the end; output goes through files, so nothing can fill a pipe.
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:], stdin: URL? = nil) throws -> CLIRun {
        let process = Process()
        process.executableURL = try HeraldBinary.url()
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { _, new in new }
        let id = UUID().uuidString
        let out = root.appendingPathComponent("out-\(id)"), err = root.appendingPathComponent("err-\(id)")
        try Data().write(to: out)
        try Data().write(to: err)
        let outHandle = try FileHandle(forWritingTo: out), errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        // Foundation may miss a child's exit under load; waiting through ChildExit never blocks a test thread for good.
        let status = try ChildExit(running: process).status(timeout: 300, "herald \(arguments.prefix(2).joined(separator: " "))")
        try outHandle.close()
        try errHandle.close()
        return CLIRun(status: status,
                      stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// `herald contacts …` on this sandbox's data folder.
    func contacts(_ arguments: [String]) throws -> CLIRun {
        try run(["contacts"] + arguments + ["--data-dir", dataDir.path])
    }
}

/// Three people, one of them with diacritics; the second card (from line 8) is broken.
private let bookWithABadCard = """
BEGIN:VCARD
VERSION:3.0
N:Šimić;Đurđa;;;
FN:Đurđa Šimić
TEL;TYPE=CELL:098 123 4567
EMAIL:durda@example.com
END:VCARD
BEGIN:VCARD
VERSION:3.0
NOTE:a card with nothing to import
END:VCARD
BEGIN:VCARD
VERSION:3.0
N:Horvat;Ana;;;
FN:Ana Horvat
ORG:Acme
TEL;TYPE=WORK:+1 415 555 0132
END:VCARD
BEGIN:VCARD
VERSION:4.0
FN:Marko Marić
TEL;VALUE=uri;TYPE=cell:tel:+385-91-765-4321
END:VCARD

"""

@Suite(.serialized) struct CLIContactsTests {
    /// Imports the book above into a fresh sandbox.
    func importedSandbox() throws -> CLISandbox {
        let box = try CLISandbox()
        let file = try box.write("book.vcf", bookWithABadCard)
        let run = try box.contacts(["import", file.path, "--region", "HR", "--json"])
        #expect(run.status == 0, "import failed: \(run.stderr)")
        return box
    }

    @Test func importReportsTheBadCardWithFileAndLineAndKeepsTheRest() throws {
        let box = try CLISandbox()
        let file = try box.write("book.vcf", bookWithABadCard)
        let run = try box.contacts(["import", file.path, "--region", "HR", "--json"])
        #expect(run.status == 0)
        let report = try run.json()
        #expect(report["imported"] as? Int == 3)
        #expect(report["skipped"] as? Int == 1)
        let errors = try #require(report["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors.first?["file"] as? String == file.path)
        #expect(errors.first?["line"] as? Int == 8)
        #expect((errors.first?["message"] as? String)?.isEmpty == false)

        // Human mode: the summary on stdout, the problem located on stderr.
        let again = try box.contacts(["import", file.path, "--region", "HR"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 imported"))
        #expect(again.stderr.contains("\(file.path):8:"))
    }

    @Test func listJSONHasTheDocumentedShapeAndCountIsEveryMatchNotThePage() throws {
        let box = try importedSandbox()
        let all = try box.contacts(["list", "--json"]).json()
        #expect(all["count"] as? Int == 3)
        #expect((all["contacts"] as? [Any])?.count == 3)

        let page = try box.contacts(["list", "--json", "--limit", "1"]).json()
        #expect(page["count"] as? Int == 3)
        let contacts = try #require(page["contacts"] as? [[String: Any]])
        #expect(contacts.count == 1)
        let first = try #require(contacts.first)
        #expect(Set(first.keys) == ["id", "name", "firstName", "lastName", "organization", "note", "phones", "emails", "groups", "fields"])
        #expect(first["name"] as? String == "Ana Horvat")   // first-name order
        #expect(first["organization"] as? String == "Acme")
        let phone = try #require((first["phones"] as? [[String: Any]])?.first)
        #expect(Set(phone.keys) == ["label", "raw", "e164", "valid", "status"])
        #expect(phone["e164"] as? String == "+14155550132")
        #expect(phone["valid"] as? Bool == true)
        #expect(phone["status"] is NSNull)

        let matching = try box.contacts(["list", "--json", "--search", "mar", "--limit", "0"]).json()
        #expect(matching["count"] as? Int == 1)
        #expect((matching["contacts"] as? [Any])?.isEmpty == true)
    }

    @Test func searchIgnoresCaseAndDiacriticsBothWays() throws {
        let box = try importedSandbox()
        for query in ["simic", "ŠIMIĆ", "durda", "Đurđa š"] {
            let result = try box.contacts(["list", "--json", "--search", query]).json()
            let names = (result["contacts"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Đurđa Šimić"], "query \(query)")
        }
        let marko = try box.contacts(["list", "--json", "--search", "marić"]).json()
        #expect((marko["contacts"] as? [[String: Any]])?.first?["name"] as? String == "Marko Marić")
        let none = try box.contacts(["list", "--search", "nobody"])
        #expect(none.status == 0)
        #expect(none.stdout.contains("No contacts match"))
    }

    @Test func showPrintsOnePersonAndRefusesAnUnknownId() throws {
        let box = try importedSandbox()
        let list = try box.contacts(["list", "--json", "--search", "simic"]).json()
        let id = try #require((list["contacts"] as? [[String: Any]])?.first?["id"] as? Int)

        let human = try box.contacts(["show", String(id)])
        #expect(human.status == 0)
        #expect(human.stdout.contains("Đurđa Šimić"))
        #expect(human.stdout.contains("+385981234567"))
        #expect(human.stdout.contains("durda@example.com"))

        let json = try box.contacts(["show", String(id), "--json"]).json()
        #expect(json["id"] as? Int == id)
        #expect(json["lastName"] as? String == "Šimić")
        #expect(json["emails"] as? [String] == ["durda@example.com"])

        let missing = try box.contacts(["show", "999999"])
        #expect(missing.status != 0)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no contact with id 999999"))
    }

    @Test func exportThenImportElsewhereGivesTheSameBook() throws {
        let box = try importedSandbox()
        for format in ["vcard", "csv"] {
            let file = box.root.appendingPathComponent("export.\(format == "vcard" ? "vcf" : "csv")")
            let export = try box.contacts(["export", "--format", format, "-o", file.path])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stderr.contains("3 contacts written"))

            let other = try CLISandbox()
            let imported = try other.contacts(["import", file.path, "--region", "HR", "--json"]).json()
            #expect(imported["imported"] as? Int == 3, "\(format)")
            #expect((imported["errors"] as? [Any])?.isEmpty == true, "\(format): \(imported)")

            // Export writes valid numbers in E.164, so the text as first written does not come back.
            func people(_ s: CLISandbox) throws -> [String] {
                let list = try s.contacts(["list", "--json"]).json()
                return try #require(list["contacts"] as? [[String: Any]]).map { c in
                    var c = c
                    c["id"] = nil   // ids are per database
                    c["phones"] = (c["phones"] as? [[String: Any]])?.map { phone in
                        var phone = phone
                        phone["raw"] = nil
                        return phone
                    }
                    let data = (try? JSONSerialization.data(withJSONObject: c, options: [.sortedKeys])) ?? Data()
                    return String(decoding: data, as: UTF8.self)
                }
            }
            let before = try people(box), after = try people(other)
            if format == "vcard" {
                #expect(after == before)
                let raws = (try other.contacts(["list", "--json"]).json()["contacts"] as? [[String: Any]])?
                    .flatMap { ($0["phones"] as? [[String: Any]]) ?? [] }.compactMap { $0["raw"] as? String }
                #expect(raws == ["+14155550132", "+385981234567", "+385917654321"])
            } else {
                // CSV keeps names, organisation, numbers and emails (labels may read differently).
                #expect(after.count == before.count)
                let names = try other.contacts(["list", "--json"]).json()["contacts"] as? [[String: Any]]
                #expect(names?.compactMap { $0["name"] as? String } == ["Ana Horvat", "Đurđa Šimić", "Marko Marić"])
            }
        }
    }

    @Test func aMissingFileFailsWithAMessageOnStderr() throws {
        let box = try CLISandbox()
        let path = box.root.appendingPathComponent("no-such-book.vcf").path
        let run = try box.contacts(["import", path, "--region", "HR"])
        #expect(run.status != 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(path))
        #expect(run.stderr.contains("no such file"))
    }

    @Test func escapeSequencesInNamesNeverReachTheTerminal() throws {
        let box = try CLISandbox()
        let evil = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Evil\u{1B}]0;pwned\u{07};Eve\u{1B}[31m;;;\r\n"
            + "FN:Eve\u{1B}[31m Evil\u{1B}]0;pwned\u{07}\u{9B}2J\r\nORG:Bad\u{1B}[2JCorp\r\n"
            + "TEL:+385 98 765 4321\r\nEND:VCARD\r\n"
        let file = try box.write("evil.vcf", evil)
        let imported = try box.contacts(["import", file.path, "--region", "HR"])
        #expect(imported.status == 0)
        let list = try box.contacts(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("Eve"))
        let id = try #require((try box.contacts(["list", "--json"]).json()["contacts"] as? [[String: Any]])?.first?["id"] as? Int)
        let show = try box.contacts(["show", String(id)])
        #expect(show.stdout.contains("Evil"))
        for output in [list.stdout, show.stdout] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
            #expect(!output.contains("pwned\u{07}"))
        }
    }

    @Test func anUnknownConfigKeyIsNamedInAWarning() throws {
        let box = try CLISandbox()
        try box.write("config/herald/config.toml", "region = \"HR\"\ncolour = \"red\"\n")
        let file = try box.write("book.vcf", bookWithABadCard)
        let run = try box.contacts(["import", file.path])   // no --region: the config is read
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning"))
        #expect(run.stderr.contains("\"colour\""))
        #expect(run.stdout.contains("3 imported"))   // the region came from the config: national numbers parsed
        let list = try box.contacts(["list", "--json", "--search", "simic"]).json()
        let phone = (list["contacts"] as? [[String: Any]])?.first?["phones"] as? [[String: Any]]
        #expect(phone?.first?["e164"] as? String == "+385981234567")
    }

    @Test func dataDirWorksBeforeTheSubcommandAndFromTheEnvironment() throws {
        let box = try CLISandbox()
        let file = try box.write("book.vcf", bookWithABadCard)
        let before = box.root.appendingPathComponent("before")
        let imported = try box.run(["--data-dir", before.path, "contacts", "import", file.path, "--region", "HR"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: before.appendingPathComponent("herald.sqlite").path))
        let listed = try box.run(["--data-dir", before.path, "contacts", "list", "--json"])
        #expect(try listed.json()["count"] as? Int == 3)

        let fromEnv = try box.run(["contacts", "list", "--json"], extraEnvironment: ["HERALD_DATA_DIR": before.path])
        #expect(try fromEnv.json()["count"] as? Int == 3)
        // The option wins over the environment.
        let empty = box.root.appendingPathComponent("empty")
        let overridden = try box.run(["contacts", "list", "--json", "--data-dir", empty.path],
                                     extraEnvironment: ["HERALD_DATA_DIR": before.path])
        #expect(try overridden.json()["count"] as? Int == 0)
        // Nothing went to the XDG default.
        #expect(!FileManager.default.fileExists(atPath: box.root.appendingPathComponent("xdg-data/herald").path))
    }
}
