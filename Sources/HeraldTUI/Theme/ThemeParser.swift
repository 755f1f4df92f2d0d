import TOMLKit

/// Reads theme files:
///
/// ```toml
/// name = "mine"
/// base = "default"            # optional: roles not listed come from this theme
/// [roles]
/// accent = { fg = "#5fafff", bg = "default", attrs = ["bold"] }
/// ```
/// Colours are names (`blue`, `bright_red`), `default`, numbers 0–255 or `#rrggbb`.
/// Unknown keys, roles and attributes are refused with a message naming them.
nonisolated public enum ThemeParser {
    static let topLevelKeys: Set<String> = ["name", "description", "base", "roles"]
    static let roleKeys: Set<String> = ["fg", "bg", "attrs"]

    /// A parsed theme file; `base` names the theme its missing roles come from.
    public struct Parsed: Sendable {
        public var theme: Theme
        public var base: String?
    }

    public static func parse(_ text: String, source: String, defaultName: String) throws(ThemeError) -> Parsed {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw ThemeError(source: source, problem: "not valid TOML at line \(error.source.begin.line): \(error.description)")
        } catch {
            throw ThemeError(source: source, problem: "not valid TOML: \(error)")
        }
        let unknown = table.keys.filter { !topLevelKeys.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw ThemeError(source: source, problem: "unknown key(s) \(unknown.joined(separator: ", ")) (allowed: base, description, name, roles)")
        }
        func string(_ key: String) throws(ThemeError) -> String? {
            guard let value = table[key] else { return nil }
            guard let s = value.string else { throw ThemeError(source: source, problem: "\"\(key)\" must be a string") }
            return s
        }
        let name = try string("name") ?? defaultName
        let description = try string("description") ?? ""
        let base = try string("base")
        var roles: [Role: RoleStyle] = [:]
        if let rolesValue = table["roles"] {
            guard let rolesTable = rolesValue.table else { throw ThemeError(source: source, problem: "\"roles\" must be a table") }
            for key in rolesTable.keys.sorted() {
                guard let role = Role(rawValue: key) else {
                    throw ThemeError(source: source, problem: "unknown role \"\(key)\" (known roles: \(Role.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard let entry = rolesTable[key]?.table else {
                    throw ThemeError(source: source, problem: "role \"\(key)\" must be a table like { fg = \"blue\" }")
                }
                roles[role] = try parseRole(entry, role: key, source: source)
            }
        }
        return Parsed(theme: Theme(name: name, description: description, roles: roles), base: base)
    }

    private static func parseRole(_ entry: TOMLTable, role: String, source: String) throws(ThemeError) -> RoleStyle {
        let unknown = entry.keys.filter { !roleKeys.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw ThemeError(source: source, problem: "role \"\(role)\": unknown key(s) \(unknown.joined(separator: ", ")) (allowed: fg, bg, attrs)")
        }
        var style = RoleStyle()
        for key in ["fg", "bg"] {
            guard let value = entry[key] else { continue }
            let color: TerminalColor
            do {
                if let text = value.string { color = try TerminalColor.parse(text) }
                else if let number = value.int { color = try TerminalColor.parse(index: number) }
                else { throw TerminalColor.ParseError(value: value.debugDescription) }
            } catch {
                throw ThemeError(source: source, problem: "role \"\(role)\" \(key): \(error)")
            }
            if key == "fg" { style.fg = color } else { style.bg = color }
        }
        if let attrs = entry["attrs"] {
            guard let array = attrs.array else {
                throw ThemeError(source: source, problem: "role \"\(role)\" attrs must be a list like [\"bold\"]")
            }
            for item in array {
                guard let name = item.string, let attribute = TextAttributes.byName[name] else {
                    throw ThemeError(source: source, problem: "role \"\(role)\": unknown attribute \(item.debugDescription) (known: bold, dim, italic, reverse, underline)")
                }
                style.attributes.insert(attribute)
            }
        }
        return style
    }
}
