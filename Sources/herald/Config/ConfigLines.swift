import Foundation

/// Where each key stands in a config.toml text, so a problem can name its line: `[table]` and `[[table]]` headers
/// and `key = value` lines (dotted and quoted keys too). A key set inside an inline table has no line of its own;
/// problems with it name the line of the table.
struct ConfigLines: Sendable {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table = ""
        var arrays: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let number = index + 1
            if line.hasPrefix("[[") , let end = line.range(of: "]]") {
                let name = Self.key(String(line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound]))
                arrays[name, default: 0] += 1
                table = "\(name)[\(arrays[name]!)]"
                record(table, number)
            } else if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                table = Self.key(String(line[line.index(after: line.startIndex)..<end]))
                record(table, number)
            } else if !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") {
                let key = Self.key(String(line[..<equals]))
                guard !key.isEmpty else { continue }
                record(table.isEmpty ? key : "\(table).\(key)", number)
            }
        }
    }

    /// The line `name` (dotted, `books[2].url` for the second `[[books]]`) is set on, else the line of the nearest
    /// table around it that has one; nil when neither is in the text.
    func line(of name: String) -> Int? {
        var parts = name.split(separator: ".")
        while !parts.isEmpty {
            if let line = lines[parts.joined(separator: ".")] { return line }
            parts.removeLast()
        }
        return nil
    }

    private mutating func record(_ name: String, _ number: Int) {
        if lines[name] == nil { lines[name] = number }
    }

    /// `a . "b" ` → `a.b`.
    private static func key(_ text: String) -> String {
        text.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
            .joined(separator: ".")
    }
}
