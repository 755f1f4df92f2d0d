import Foundation
import HeraldAPI

/// Writing man pages (roff, the `man` macros): the pages of section 5 Herald generates from its own declarations
/// (`herald-config(5)` from the config keys, `herald-keys(5)` from the key table); section 1 comes from the commands
/// through swift-argument-parser's generate-manual (scripts/generate.sh).
enum Roff {
    /// The date the pages carry: this release's, so a page changes only when what it says does.
    static let date = "2026-11-26"

    /// The page's title line.
    static func title(_ name: String, section: Int, manual: String) -> String {
        ".TH \"\(name.uppercased())\" \"\(section)\" \"\(date)\" \"Herald \(HeraldVersion.number)\" \"\(manual)\""
    }

    /// `text` safe in a roff line: backslashes written out, a leading dot or quote neutralised.
    static func escape(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    /// The head of a page of section 5: its title, NAME (`name - what`) and SYNOPSIS.
    static func fileFormatHead(_ name: String, what: String, synopsis: String) -> [String] {
        [title(name, section: 5, manual: "File Formats Manual"), section("name"), escape("\(name) - \(what)"),
         section("synopsis"), escape(synopsis)]
    }

    /// A section heading.
    static func section(_ name: String) -> String { ".SH \"\(name.uppercased())\"" }

    /// A paragraph of plain text.
    static func paragraph(_ text: String) -> String { ".PP\n" + escape(text) }

    /// A tagged paragraph: `tag` in bold, then its text.
    static func item(_ tag: String, _ text: String) -> String { ".TP\n.B \(escape(tag))\n" + escape(text) }
}
