import TOMLKit

/// A key map problem, naming what was wrong and where.
nonisolated public struct KeyMapError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The bindings in effect: the defaults with the user's `[keys]` overrides applied.
nonisolated public struct KeyMap: Sendable {
    public private(set) var bindings: [KeyBinding]
    private var lookup: [KeyContext: [Key: Action]] = [:]

    public init(bindings: [KeyBinding] = KeyBindings.defaults) {
        self.bindings = bindings
        rebuild()
    }

    /// The defaults with `overrides` (action name → key names) replacing the keys of those actions.
    public init(overrides: [String: [String]], source: String = "config") throws(KeyMapError) {
        var bindings = KeyBindings.defaults
        for (name, keyNames) in overrides.sorted(by: { $0.key < $1.key }) {
            let action = Action(name)
            guard bindings.contains(where: { $0.action == action }) else {
                throw KeyMapError("\(source): [keys] has unknown action \"\(name)\" (known: \(KeyBindings.names.joined(separator: ", ")))")
            }
            var keys: [Key] = []
            for keyName in keyNames {
                do { keys.append(try KeyName.parse(keyName)) } catch {
                    throw KeyMapError("\(source): [keys] \(name): \(error)")
                }
            }
            for i in bindings.indices where bindings[i].action == action { bindings[i].keys = keys }
        }
        self.init(bindings: bindings)
        if let conflict = conflicts().first { throw KeyMapError("\(source): [keys] \(conflict)") }
    }

    /// Reads the overrides from a parsed `[keys]` table: action = ["key", …] (or a single string).
    public static func overrides(from table: TOMLTable, source: String = "config") throws(KeyMapError) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for key in table.keys {
            guard let value = table[key] else { continue }
            if let single = value.string { result[key] = [single]; continue }
            guard let array = value.array else {
                throw KeyMapError("\(source): [keys] \(key) must be a list of key names like [\"j\", \"down\"]")
            }
            var names: [String] = []
            for item in array {
                guard let name = item.string else {
                    throw KeyMapError("\(source): [keys] \(key) must be a list of key names like [\"j\", \"down\"]")
                }
                names.append(name)
            }
            result[key] = names
        }
        return result
    }

    private mutating func rebuild() {
        lookup = [:]
        for binding in bindings {
            for context in binding.contexts {
                for key in binding.keys where lookup[context, default: [:]][key] == nil {
                    lookup[context, default: [:]][key] = binding.action
                }
            }
        }
    }

    /// The action `key` triggers in `context` (the most specific context wins), or nil.
    public func action(for key: Key, in context: KeyContext) -> Action? {
        for level in context.chain {
            if context.isTextEntry && level != context && key.isPrintable { return nil }
            if let action = lookup[level]?[key] { return action }
        }
        return nil
    }

    /// The first key that triggers `action` in `context` now (for hints), nil when none does.
    public func key(for action: Action, in context: KeyContext) -> Key? {
        for binding in bindings where binding.action == action {
            if let key = binding.keys.first(where: { self.action(for: $0, in: context) == action }) { return key }
        }
        return nil
    }

    /// Keys of `action`, in the order of the table.
    public func keys(for action: Action) -> [Key] {
        bindings.first { $0.action == action }?.keys ?? []
    }

    /// Two actions on one key in the same context (messages for the user), empty when all is well.
    public func conflicts() -> [String] {
        var seen: [KeyContext: [Key: Action]] = [:]
        var problems: [String] = []
        for binding in bindings {
            for context in binding.contexts {
                for key in binding.keys {
                    if let other = seen[context]?[key], other != binding.action {
                        problems.append("\"\(KeyName.name(of: key))\" is bound to both \(other.rawValue) and \(binding.action.rawValue) (\(context.rawValue))")
                    }
                    seen[context, default: [:]][key] = binding.action
                }
            }
        }
        return problems
    }
}

nonisolated extension Key {
    /// True for keys that type a character.
    public var isPrintable: Bool {
        switch self {
        case .char, .paste: return true
        default: return false
        }
    }
}
