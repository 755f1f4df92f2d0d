/// A run of cells on one row that shows a link: the terminal may wrap them in an OSC 8 hyperlink to `url`. `text` is
/// what the cells held when the span was marked, so a span something else drew over later is not made a link.
nonisolated public struct LinkSpan: Sendable, Hashable {
    public var y: Int
    public var x: Int
    public var width: Int
    public var url: String
    public var text: String

    public init(y: Int, x: Int, width: Int, url: String, text: String) {
        self.y = y
        self.x = x
        self.width = width
        self.url = url
        self.text = text
    }
}

nonisolated extension Canvas {
    /// The longest URL made a link (longer ones stay plain text).
    public static let maximumLinkLength = 2_048

    /// Marks every http(s) URL written in `rect` as a link span. A URL cut by the edge of `rect` is joined with the
    /// start of the next row when it goes on there (a wrapped URL: both parts link to the whole); one cut by an
    /// ellipsis, or running off the last row, is left plain (its link would be wrong). Only printable ASCII without
    /// spaces or quotes counts as part of a URL.
    public mutating func markLinks(in rect: Rect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        var pending: [(y: Int, x: Int, text: String)] = []     // a URL wrapped over rows so far
        for y in area.y..<area.maxY {
            var x = area.x
            var startsRow = true
            while x < area.maxX {
                let run = urlRun(y: y, from: x, limit: area.maxX)
                guard run.count > 0 else { x += 1; startsRow = false; continue }
                let text = run.text
                let reachesEdge = x + run.count == area.maxX
                if !pending.isEmpty && !(startsRow && x == area.x) { pending = [] }
                if !pending.isEmpty || Self.startsURL(text) {
                    pending.append((y, x, text))
                    if !reachesEdge {
                        finish(pending, cutByEllipsis: cell(x: x + run.count, y: y)?.character == "…")
                        pending = []
                    }
                } else {
                    pending = []
                }
                x += run.count
                startsRow = false
            }
            if let last = pending.last, last.y != y { pending = [] }
        }
    }

    private mutating func finish(_ parts: [(y: Int, x: Int, text: String)], cutByEllipsis: Bool) {
        guard !cutByEllipsis, let first = parts.first, Self.startsURL(first.text) else { return }
        let url = parts.map(\.text).joined()
        guard let safe = Self.linkTarget(url) else { return }
        // Punctuation after the URL ("see https://x.example/a.") is not part of the link.
        var shown = parts.map(\.text)
        var dropped = url.count - safe.count
        while dropped > 0, let last = shown.last {
            let cut = min(dropped, last.count)
            shown[shown.count - 1] = String(last.dropLast(cut))
            dropped -= cut
            if shown[shown.count - 1].isEmpty { shown.removeLast() }
        }
        for (part, text) in zip(parts, shown) {
            // A span the pane marked itself (`markLink`) stands.
            if links.contains(where: { $0.y == part.y && $0.x < part.x + text.count && part.x < $0.x + $0.width }) { continue }
            links.append(LinkSpan(y: part.y, x: part.x, width: text.count, url: safe, text: text))
        }
    }

    /// The URL characters from `x` on row `y` (one column each), up to `limit`.
    private func urlRun(y: Int, from x: Int, limit: Int) -> (text: String, count: Int) {
        var text = ""
        var end = x
        while end < limit, let cell = cell(x: end, y: y), !cell.isContinuation, !cell.isWide,
              Self.isURLCharacter(cell.character) {
            text.append(cell.character)
            end += 1
        }
        return (text, end - x)
    }

    static func startsURL(_ text: String) -> Bool { text.hasPrefix("https://") || text.hasPrefix("http://") }

    static func isURLCharacter(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return ascii > 0x20 && ascii < 0x7F && c != "\"" && c != "<" && c != ">" && c != "`"
    }

    /// `url` as an OSC 8 target: http(s), printable ASCII only (no ESC, BEL or other control), at most
    /// `maximumLinkLength` long, trailing sentence punctuation dropped; nil when it is none of that.
    public static func linkTarget(_ url: String) -> String? {
        var text = Substring(url)
        while let last = text.last, ".,;:!?)]'".contains(last) { text = text.dropLast() }
        guard text.count <= maximumLinkLength, startsURL(String(text)), text.count > "https://".count,
              text.allSatisfy(isURLCharacter) else { return nil }
        return String(text)
    }

    /// Marks `width` cells from `x`,`y` as a link to `url` (when it is a safe link target).
    public mutating func markLink(x: Int, y: Int, width: Int, url: String) {
        guard width > 0, y >= 0, y < height, x >= 0, x + width <= self.width, let safe = Self.linkTarget(url) else { return }
        var text = ""
        for column in x..<(x + width) { if let c = cell(x: column, y: y), !c.isContinuation { text.append(c.character) } }
        links.append(LinkSpan(y: y, x: x, width: width, url: safe, text: text))
    }

    /// The characters the cells of `span` hold now (continuations skipped).
    func text(of span: LinkSpan) -> String {
        var text = ""
        for column in span.x..<min(width, span.x + span.width) {
            if let c = cell(x: column, y: span.y), !c.isContinuation { text.append(c.character) }
        }
        return text
    }
}
