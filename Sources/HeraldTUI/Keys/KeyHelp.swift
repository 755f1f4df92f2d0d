/// One line of the help overlay: the keys, what they do, and the action (whether the pane offers it now is asked of it).
nonisolated public struct HelpLine: Sendable, Hashable {
    public var keys: String
    public var description: String
    public var action: Action
}

/// One section of the help: a context's title and its lines.
nonisolated public struct HelpSection: Sendable, Hashable {
    public var title: String
    public var context: KeyContext
    public var lines: [HelpLine]
}

nonisolated public enum KeyHelp {
    static func keyList(_ keys: [Key]) -> String { keys.map(KeyName.name(of:)).joined(separator: ", ") }

    /// The sections shown by `?` in `context`: that context's bindings first, then the inherited ones.
    public static func sections(for context: KeyContext, keyMap: KeyMap = KeyMap()) -> [HelpSection] {
        context.chain.compactMap { level in
            let lines = keyMap.bindings.filter { $0.contexts.contains(level) && !$0.keys.isEmpty }
                .map { HelpLine(keys: keyList($0.keys), description: $0.description, action: $0.action) }
            return lines.isEmpty ? nil : HelpSection(title: level.title, context: level, lines: lines)
        }
    }

    /// The help overlay as text lines, keys in a column `keyColumn` wide.
    public static func overlayLines(for context: KeyContext, keyMap: KeyMap = KeyMap(), keyColumn: Int = 16) -> [String] {
        overlay(for: context, keyMap: keyMap, keyColumn: keyColumn).map(\.text)
    }

    /// The help overlay's lines, each muted when it names a pane's binding the pane does not offer now (`offered`;
    /// nil: all of them): the actions of the context and of every list. The shell's global actions are never muted.
    /// A muted line whose binding says why it cannot run now (`reasons`) ends with the reason.
    public static func overlay(for context: KeyContext, keyMap: KeyMap = KeyMap(), offered: Set<Action>? = nil,
                               reasons: [Action: String] = [:], keyColumn: Int = 16) -> [(text: String, muted: Bool)] {
        var out: [(text: String, muted: Bool)] = []
        for section in sections(for: context, keyMap: keyMap) {
            if !out.isEmpty { out.append(("", false)) }
            out.append((section.title, false))
            for line in section.lines {
                let muted = section.context != .global && offered.map { !$0.contains(line.action) } == true
                let why = muted ? reasons[line.action].map { " — not now: " + $0 } ?? "" : ""
                out.append(("  " + TextFit.pad(line.keys, to: keyColumn) + " " + line.description + why, muted))
            }
        }
        return out
    }

    /// The contents of docs/keys.md for the default bindings.
    public static func markdown(keyMap: KeyMap = KeyMap()) -> String {
        var out = """
        # Herald keys

        Generated from the key table (`Sources/HeraldTUI/Keys/KeyBindings.swift` and the keys each pane declares
        in its own file); do not edit by hand (`make docs` rewrites it with `herald keys --markdown --defaults`;
        `herald keys` lists the keys in effect).

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
