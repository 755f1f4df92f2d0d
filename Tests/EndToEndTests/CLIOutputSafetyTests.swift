import Foundation
import Testing

/// What `herald` prints on stdout stays free of terminal controls even when a contact's card carries them (a vCard,
/// a CSV or a CardDAV server may): `contacts edit --print-card` and `contacts export` to stdout drop them and keep the
/// layout, and only a file the user names with `-o` gets every byte as stored.
@Suite struct CLIOutputSafetyTests {
    /// A window-title write and a clipboard write in the name, CSI colours and a C1 CSI in the organisation.
    static let hostileCard = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Evil;Eve\u{1B}]0;owned\u{07};;;\r\n"
        + "FN:Eve\u{1B}]52;c;SGVsbG8=\u{07} Evil\u{202E}lave\r\nORG:Acme\u{1B}[31m\u{9B}1m Ltd\r\n"
        + "TEL;TYPE=CELL:+385911234567\r\nEMAIL:eve@example.com\r\nEND:VCARD\r\n"

    @Test func aCardsEscapeSequencesReachAFileNamedWithOButNeverStdout() throws {
        let box = try CLISandbox()
        let file = try box.write("evil.vcf", Self.hostileCard)
        let imported = try box.contacts(["import", file.path, "--region", "HR"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try box.contacts(["list", "--json"])
        let list = try listed.json()
        let id = try #require((list["contacts"] as? [[String: Any]])?.first?["id"] as? Int)
        // JSON keeps the name whole for scripts, the right-to-left override written as an escape a terminal ignores.
        #expect(listed.stdout.contains("\\u202e") && !listed.stdout.unicodeScalars.contains("\u{202E}"), "\(listed.stdout)")
        #expect((list["contacts"] as? [[String: Any]])?.first?["name"] as? String == "Eve\u{1B}]52;c;SGVsbG8=\u{07} Evil\u{202E}lave")

        let card = try box.contacts(["edit", String(id), "--print-card"])
        #expect(card.status == 0, "\(card.stderr)")
        #expect(HostileServerTests.controls(in: card.stdout).isEmpty, "the card printed a control character: \(card.stdout.debugDescription)")
        #expect(card.stdout.contains("Acme Ltd") && card.stdout.contains("+385911234567"), "\(card.stdout)")

        for format in ["vcard", "csv"] {
            let shown = try box.contacts(["export", "--format", format])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(HostileServerTests.controls(in: shown.stdout.replacingOccurrences(of: "\r\n", with: "\n")).isEmpty,
                    "\(format) on stdout carried a control character: \(shown.stdout.debugDescription)")
            // The layout is kept: CRLF line ends (vCard and CSV both say so), every field there.
            #expect(shown.stdout.contains("Acme Ltd") && shown.stdout.contains("eve@example.com"), "\(format): \(shown.stdout)")
            #expect(shown.stdout.hasSuffix("\r\n") && !shown.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\r"),
                    "\(format): \(shown.stdout.debugDescription)")

            let out = box.root.appendingPathComponent("export-\(format)")
            let written = try box.contacts(["export", "--format", format, "-o", out.path])
            #expect(written.status == 0 && written.stdout.isEmpty, "\(written.stderr)")
            let bytes = try String(contentsOf: out, encoding: .utf8)
            #expect(bytes.contains("Acme\u{1B}[31m\u{9B}1m Ltd"), "-o keeps the bytes as stored (\(format)): \(bytes.debugDescription)")
        }
    }
}
