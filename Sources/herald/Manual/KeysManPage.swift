import HeraldTUI

/// herald-keys(5): the key bindings and the `[keys]` table of config.toml, from the same declarations docs/keys.md,
/// `?` and the dispatch read (`herald keys --man`).
enum KeysManPage {
    static func page(keyMap: KeyMap = KeyMap()) -> String {
        var lines = Roff.fileFormatHead("herald-keys", what: "the key bindings of herald(1) and the [keys] table of its config",
                                        synopsis: "[keys] in config.toml: action = [\"key\", ...]")
        lines += [Roff.section("description"),
                  Roff.paragraph("Every binding can be changed under [keys] of config.toml (herald-config(5)), by action name, "
                                 + "for example move_down = [\"j\", \"down\", \"ctrl-n\"]. Key names: a character (j, J, ?), ctrl-x, "
                                 + "alt-x, space, enter, esc, tab, shift-tab, backspace, delete, up, down, left, right, home, end, "
                                 + "pgup, pgdn, f1 to f24. Two actions on one key where both apply stop Herald at start, naming "
                                 + "both. herald keys lists the keys in effect; ? in the screens shows those of the pane.")]
        for context in KeyContext.allCases {
            let rows = keyMap.bindings.filter { $0.contexts.first == context }
            guard !rows.isEmpty else { continue }
            lines.append(Roff.section(context.title))
            for binding in rows {
                let keys = binding.keys.map(KeyName.name(of:)).joined(separator: ", ")
                let also = binding.contexts.dropFirst().map(\.rawValue)
                let text = "\(binding.description) (action \(binding.action.rawValue)"
                    + (also.isEmpty ? ")" : "; also in \(also.joined(separator: ", ")))")
                lines.append(Roff.item(keys.isEmpty ? "(no key)" : keys, text))
            }
        }
        lines += [Roff.section("see also"), "herald(1), herald\\-config(5), herald.keys(1)"]
        return lines.joined(separator: "\n") + "\n"
    }
}
