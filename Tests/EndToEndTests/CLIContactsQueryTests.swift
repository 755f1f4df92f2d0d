import Foundation
import Testing

private let mailBook = """
BEGIN:VCARD
VERSION:3.0
N:Đurđević;Ana;;;
FN:Ana Đurđević
EMAIL;TYPE=WORK:ana@acme.example
EMAIL;TYPE=HOME:ana.d@mail.example
TEL:+385 91 111 1111
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Anamarija\tEvil\u{1B}[2J Tab
EMAIL:anamarija@example.org
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Ana Nomail
TEL:+385 91 222 2222
END:VCARD

"""

/// `herald contacts query`: the address completion mutt, neomutt and aerc ask a program for, as khard answers it.
@Suite(.serialized) struct CLIContactsQueryTests {
    func sandbox() throws -> CLISandbox {
        let box = try CLISandbox()
        let file = try box.write("mail.vcf", mailBook)
        let run = try box.contacts(["import", file.path, "--region", "HR"])
        #expect(run.status == 0, "import failed: \(run.stderr)")
        return box
    }

    @Test func muttGetsAFirstLineThenAddressNameAndLabelPerEmailAndNobodyWithoutOne() throws {
        let box = try sandbox()
        let run = try box.contacts(["query", "--mutt", "ana"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "3 email addresses matching \"ana\":")
        let rows = Set(lines.dropFirst().filter { !$0.isEmpty })
        #expect(rows.contains("ana@acme.example\tAna Đurđević\twork"))
        #expect(rows.contains("ana.d@mail.example\tAna Đurđević\thome"))
        #expect(rows.count == 3)
        #expect(!run.stdout.contains("Nomail"))
        // A name carrying a tab or an escape cannot add a column or reach the terminal.
        let hostile = try #require(rows.first { $0.hasPrefix("anamarija@example.org\t") })
        #expect(hostile.split(separator: "\t", omittingEmptySubsequences: false).count == 3)
        #expect(!run.stdout.contains("\u{1B}"))
    }

    @Test func aercGetsAddressAndNameAndAccentsAndCaseAreIgnored() throws {
        let box = try sandbox()
        let run = try box.contacts(["query", "DURDEVIC"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").sorted() == ["ana.d@mail.example\tAna Đurđević", "ana@acme.example\tAna Đurđević"])
    }

    /// `contacts list --search` takes the query language of `/` in Contacts.
    @Test func listSearchTakesFieldsNotsAndStates() throws {
        let box = try sandbox()
        func names(_ query: String) throws -> [String] {
            let list = try box.contacts(["list", "--json", "--search", query]).json()
            return (list["contacts"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        }
        #expect(try names("email:acme") == ["Ana Đurđević"])
        #expect(try names("ana -email:example") == ["Ana Nomail"])
        #expect(try names(#"name:"ana nomail""#) == ["Ana Nomail"])
        #expect(try names("phone:+38591 -phone:2222") == ["Ana Đurđević"])
        #expect(try names("status:not-invited ana").count == 3)
        #expect(try names("-status:not-invited").isEmpty)
        let bad = try box.contacts(["list", "--search", "status:maybe"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--search: status:maybe is not a state: use status:invited, status:pending, status:failed or status:not-invited"))
    }

    @Test func noMatchSaysSoOnTheFirstLineForMuttAndPrintsNothingForAerc() throws {
        let box = try sandbox()
        let mutt = try box.contacts(["query", "--mutt", "zzz"])
        #expect(mutt.status == 0 && mutt.stdout == "No email address matches \"zzz\".\n")
        let aerc = try box.contacts(["query", "zzz"])
        #expect(aerc.status == 0 && aerc.stdout.isEmpty)
    }
}
