import Foundation

/// What a CardDAV answer may be before the XML parser sees it: UTF-8 (as DAV servers send it; libxml2 would otherwise
/// switch to UTF-16 on a byte-order mark or to any declared encoding, hiding markup from a byte scan), and a prolog
/// without a document type declaration, read declaration by declaration to the root element however long its
/// comments and processing instructions are. A DOCTYPE can appear nowhere else in a well-formed document.
enum XMLPrologGuard {
    enum Refusal: Error, Equatable {
        case notUTF8(String)
        case doctype
    }

    static func check(_ data: Data) throws(Refusal) {
        let bytes = [UInt8](data)
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw .notUTF8("it is UTF-16 or UTF-32 (a byte-order mark)")
        }
        // NUL is no XML character: a document holding one is another encoding (UTF-16 without a mark) or no XML at all.
        if bytes.contains(0) { throw .notUTF8("it holds NUL bytes (UTF-16 or UTF-32, or no text)") }
        if String(validating: bytes[i...], as: UTF8.self) == nil { throw .notUTF8("it is not valid UTF-8") }
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case UInt8(ascii: "<"):
                if has("<?", at: i, in: bytes) {
                    guard let end = find("?>", after: i + 2, in: bytes) else { return }   // unfinished: the parser says so
                    if has("<?xml", at: i, in: bytes) { try declaredEncoding(bytes[i..<end]) }
                    i = end + 2
                } else if has("<!--", at: i, in: bytes) {
                    guard let end = find("-->", after: i + 4, in: bytes) else { return }
                    i = end + 3
                } else if has("<!", at: i, in: bytes) {
                    // <!DOCTYPE (in any case: libxml2 is strict, but a refusal costs nothing), or any other declaration.
                    throw .doctype
                } else {
                    return   // the root element: the prolog is over
                }
            default:
                return       // text before the root: not well-formed, which the parser reports
            }
        }
    }

    /// The `encoding` of an XML declaration, when given, must name UTF-8 (or its subset US-ASCII).
    private static func declaredEncoding(_ declaration: ArraySlice<UInt8>) throws(Refusal) {
        let text = String(decoding: declaration, as: UTF8.self).lowercased()
        guard let key = text.range(of: "encoding") else { return }
        let rest = text[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\"" || $0 == "'" }
        let name = rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" }
        guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(name)) else {
            throw .notUTF8("it declares the encoding \(name.prefix(40).filter { $0.isLetter || $0.isNumber || $0 == "-" })")
        }
    }

    private static func has(_ token: String, at i: Int, in bytes: [UInt8]) -> Bool {
        let t = Array(token.utf8)
        return i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t)
    }

    private static func find(_ token: String, after i: Int, in bytes: [UInt8]) -> Int? {
        let t = Array(token.utf8)
        var j = i
        while j + t.count <= bytes.count {
            if bytes[j] == t[0], bytes[j..<(j + t.count)].elementsEqual(t) { return j }
            j += 1
        }
        return nil
    }
}
