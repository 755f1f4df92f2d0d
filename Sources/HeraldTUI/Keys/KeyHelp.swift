/// One line of the help overlay: the keys and what they do.
nonisolated public struct HelpLine: Sendable, Hashable {
    public var keys: String
    public var description: String
}

/// One section of the help: a context's title and its lines.
nonisolated public struct HelpSection: Sendable, Hashable {
    public var title: String
    public var lines: [HelpLine]
}

/// Help overlay content, status-bar hints and docs/keys.md, all generated from the key map.
nonisolated public enum KeyHelp {
    static func keyList(_ keys: [Key]) -> String { keys.map(KeyName.name(of:)).joined(separator: ", ") }

    /// The sections shown by `?` in `context`: that context's bindings first, then the inherited ones.
    public static func sections(for context: KeyContext, keyMap: KeyMap = KeyMap()) -> [HelpSection] {
        context.chain.compactMap { level in
            let lines = keyMap.bindings.filter { $0.contexts.contains(level) && !$0.keys.isEmpty }
                .map { HelpLine(keys: keyList($0.keys), description: $0.description) }
            return lines.isEmpty ? nil : HelpSection(title: level.title, lines: lines)
        }
    }

    /// The help overlay as text lines, keys in a column `keyColumn` wide.
    public static func overlayLines(for context: KeyContext, keyMap: KeyMap = KeyMap(), keyColumn: Int = 16) -> [String] {
        var out: [String] = []
        for section in sections(for: context, keyMap: keyMap) {
            if !out.isEmpty { out.append("") }
            out.append(section.title)
            for line in section.lines {
                out.append("  " + TextFit.pad(line.keys, to: keyColumn) + " " + line.description)
            }
        }
        return out
    }

    /// Which of `overlayLines(for:)` name a pane's binding that the pane does not offer now (`offered`): the actions
    /// of the context itself and of every list; the shell's own global actions are always there.
    public static func unavailableLines(for context: KeyContext, keyMap: KeyMap = KeyMap(), offered: Set<Action>) -> Set<Int> {
        var result = Set<Int>()
        var index = 0
        for level in context.chain {
            let bindings = keyMap.bindings.filter { $0.contexts.contains(level) && !$0.keys.isEmpty }
            guard !bindings.isEmpty else { continue }
            if index > 0 { index += 1 }           // the blank line between sections
            index += 1                            // the section's title
            for binding in bindings {
                if level != .global && !offered.contains(binding.action) { result.insert(index) }
                index += 1
            }
        }
        return result
    }

    /// Status-bar hints for `context`: (key label, short label) pairs, most specific first.
    public static func hints(for context: KeyContext, keyMap: KeyMap = KeyMap()) -> [(key: String, label: String)] {
        var result: [(String, String)] = []
        var used = Set<Action>()
        for level in context.chain {
            for binding in keyMap.bindings where binding.contexts.contains(level) {
                guard let hint = binding.hint, let key = binding.keys.first, !used.contains(binding.action) else { continue }
                used.insert(binding.action)
                result.append((KeyName.label(of: key), hint))
            }
        }
        return result
    }

    /// The hints as status-bar segments ("key" in the key style, then the label).
    public static func hintSegments(for context: KeyContext, keyMap: KeyMap = KeyMap()) -> [StatusSegment] {
        hints(for: context, keyMap: keyMap).flatMap { hint in
            [StatusSegment(" " + hint.key, style: Style(.statusBarKey)), StatusSegment(" " + hint.label + " ")]
        }
    }

    /// The contents of docs/keys.md for the default bindings.
    public static func markdown(keyMap: KeyMap = KeyMap()) -> String {
        var out = """
        # Herald keys

        Generated from the key table in `Sources/HeraldTUI/Keys/KeyBindings.swift`; do not edit by hand
        (`make docs` rewrites it with `herald keys --markdown --defaults`; `herald keys` lists the keys in effect).

        Any binding can be changed in `$XDG_CONFIG_HOME/herald/config.toml` under `[keys]`, by action
        name, for example `move_down = ["j", "down", "ctrl-n"]`. Key names: a character (`j`, `J`, `?`),
        `ctrl-x`, `alt-x`, `space`, `enter`, `esc`, `tab`, `shift-tab`, `backspace`, `delete`, `up`,
        `down`, `left`, `right`, `home`, `end`, `pgup`, `pgdn`, `f1`…`f24`.

        """
        for context in KeyContext.allCases {
            let rows = keyMap.bindings.filter { $0.contexts.first == context }
            guard !rows.isEmpty else { continue }
            out += "\n## \(context.title)\n\n| Keys | Action | What it does | Also in |\n|---|---|---|---|\n"
            for binding in rows {
                let keys = binding.keys.map { "`\(KeyName.name(of: $0))`" }.joined(separator: " ")
                let also = binding.contexts.dropFirst().map(\.rawValue).joined(separator: ", ")
                out += "| \(keys) | `\(binding.action.rawValue)` | \(binding.description) | \(also) |\n"
            }
        }
        return out
    }
}
