/// Word-wrapping of already sanitised text into lines of at most `width` columns (used by the
/// composer's preview, the inbox's message view, help and the Deliveries detail). A word longer than a line is cut.
nonisolated enum WrappedText {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var piece = String(word)
                var pieceWidth = TextWidth.of(piece)
                let gap = line.isEmpty ? 0 : 1
                if used + gap + pieceWidth <= width {
                    if gap == 1 { line += " " }
                    line += piece; used += gap + pieceWidth
                    continue
                }
                if !line.isEmpty { out.append(line); line = ""; used = 0 }
                while pieceWidth > width {                        // a very long word (a URL): cut it
                    var head = "", headWidth = 0
                    var rest = Substring(piece)
                    while let c = rest.first, headWidth + TextWidth.of(c) <= width {
                        head.append(c); headWidth += TextWidth.of(c); rest = rest.dropFirst()
                    }
                    if head.isEmpty { head = String(rest.prefix(1)); rest = rest.dropFirst() }
                    out.append(head)
                    piece = String(rest); pieceWidth = TextWidth.of(piece)
                }
                line = piece; used = pieceWidth
            }
            out.append(line)
        }
        return out
    }
}
