import Foundation
import Testing
@testable import HeraldCardDAV

/// The multistatus reader refuses what could make the XML parser expand entities or read another encoding, wherever in
/// the prolog it hides, and still reads honest answers whose prolog is long or mentions a DOCTYPE in a comment.
@Suite struct MultiStatusGuardTests {
    static let root = #"<d:multistatus xmlns:d="DAV:"><d:response><d:href>/a.vcf</d:href><d:status>HTTP/1.1 200 OK</d:status></d:response></d:multistatus>"#
    static let doctype = #"<!DOCTYPE d:multistatus [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>"#

    func refusal(_ data: Data) -> MultiStatus.Problem? {
        do { _ = try MultiStatus.parse(data); return nil } catch { return error }
    }

    @Test func aDoctypeAfterALongCommentOrProcessingInstructionIsRefused() {
        let comment = "<!--" + String(repeating: "x", count: 5000) + "-->"
        let pi = "<?herald " + String(repeating: "y", count: 9000) + "?>"
        for (mark, prolog) in [("", comment), ("", pi), ("", comment + "\n  " + pi), ("\u{FEFF}", comment)] {
            let data = Data((mark + "<?xml version=\"1.0\"?>" + prolog + Self.doctype + Self.root).utf8)
            #expect(refusal(data) == .hostile("it declares a DOCTYPE (entity definitions are refused)"), "\(prolog.prefix(12))")
        }
        // Any declaration, in any case, without an XML declaration first.
        #expect(refusal(Data(("<!doctype x>" + Self.root).utf8)) == .hostile("it declares a DOCTYPE (entity definitions are refused)"))
    }

    @Test func aDocumentInAnotherEncodingIsRefused() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + Self.doctype + Self.root
        let withMark = try #require(xml.data(using: .utf16))   // Foundation writes a byte-order mark
        #expect(refusal(withMark) == .hostile("it is UTF-16 or UTF-32 (a byte-order mark); Herald reads only UTF-8 answers"))
        let bigEndian = try #require(xml.data(using: .utf16BigEndian))
        #expect(refusal(bigEndian) == .hostile("it holds NUL bytes (UTF-16 or UTF-32, or no text); Herald reads only UTF-8 answers"))
        let latin = Data("<?xml version='1.0' encoding='ISO-8859-1'?>\(Self.root)".utf8)
        #expect(refusal(latin) == .hostile("it declares the encoding iso-8859-1; Herald reads only UTF-8 answers"))
        #expect(refusal(Data([0x3C, 0x61, 0xFF, 0x3E])) == .hostile("it is not valid UTF-8; Herald reads only UTF-8 answers"))
    }

    @Test func anHonestAnswerWithALongPrologStillReads() throws {
        let prolog = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- <!DOCTYPE is only words here -->"
            + "<!--" + String(repeating: "z", count: 6000) + "-->\n"
        let parsed = try MultiStatus.parse(Data((prolog + Self.root).utf8))
        #expect(parsed.responses.map(\.href) == ["/a.vcf"])
        let marked = try MultiStatus.parse(Data(([0xEF, 0xBB, 0xBF] as [UInt8]) + Array(Self.root.utf8)))
        #expect(marked.responses.count == 1)
    }
}
