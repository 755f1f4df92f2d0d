/// Text attributes, combined with those the theme gives a role.
nonisolated public struct TextAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let italic = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let reverse = TextAttributes(rawValue: 1 << 4)

    /// Names used in theme files.
    public static let byName: [String: TextAttributes] = [
        "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse,
    ]
}

/// Where a background colour comes from when it is not the role's own.
nonisolated public enum Paint: Sendable, Hashable {
    case foregroundOf(Role)
    case backgroundOf(Role)
}

/// How a cell looks: a role (foreground, background and attributes from the theme), extra
/// attributes, and optionally a background borrowed from another role.
nonisolated public struct Style: Sendable, Hashable {
    public var role: Role
    public var attributes: TextAttributes
    public var background: Paint?

    public init(_ role: Role = .text, _ attributes: TextAttributes = [], background: Paint? = nil) {
        self.role = role
        self.attributes = attributes
        self.background = background
    }

    public static let text = Style(.text)

    /// This style with `extra` attributes added.
    public func adding(_ extra: TextAttributes) -> Style {
        Style(role, attributes.union(extra), background: background)
    }

    /// This style drawn over another role's background (e.g. highlighted text on a selected row).
    public func on(_ paint: Paint) -> Style { Style(role, attributes, background: paint) }
}
