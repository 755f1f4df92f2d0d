/// What a theme gives one role; unset colours fall back to the `text` role's.
nonisolated public struct RoleStyle: Sendable, Hashable {
    public var fg: TerminalColor?
    public var bg: TerminalColor?
    public var attributes: TextAttributes
    public init(fg: TerminalColor? = nil, bg: TerminalColor? = nil, attributes: TextAttributes = []) {
        self.fg = fg; self.bg = bg; self.attributes = attributes
    }
}

/// Concrete colours and attributes for one cell, ready for the terminal.
nonisolated public struct ResolvedStyle: Sendable, Hashable {
    public var fg: TerminalColor
    public var bg: TerminalColor
    public var attributes: TextAttributes
    public init(fg: TerminalColor = .default, bg: TerminalColor = .default, attributes: TextAttributes = []) {
        self.fg = fg; self.bg = bg; self.attributes = attributes
    }
}

/// A named mapping from roles to colours and attributes.
nonisolated public struct Theme: Sendable, Hashable {
    public var name: String
    public var description: String
    public var roles: [Role: RoleStyle]

    public init(name: String, description: String = "", roles: [Role: RoleStyle]) {
        self.name = name; self.description = description; self.roles = roles
    }

    /// The built-in monochrome theme's attributes per role: what tells roles apart when no colour can.
    static let attributesWithoutColour: [Role: TextAttributes] = {
        guard let text = BuiltinThemes.sources["monochrome"],
              let parsed = try? ThemeParser.parse(text, source: "built-in monochrome", defaultName: "monochrome") else { return [:] }
        return parsed.theme.roles.mapValues(\.attributes)
    }()

    /// Roles the theme leaves out.
    public var missingRoles: [Role] { Role.allCases.filter { roles[$0] == nil } }

    private func foreground(_ role: Role) -> TerminalColor { roles[role]?.fg ?? roles[.text]?.fg ?? .default }
    private func background(_ role: Role) -> TerminalColor { roles[role]?.bg ?? roles[.text]?.bg ?? .default }

    /// The colours and attributes of `style`, converted to what a terminal of `depth` shows.
    public func resolve(_ style: Style, depth: ColorDepth = .truecolor) -> ResolvedStyle {
        let fg = foreground(style.role)
        let bg: TerminalColor
        switch style.background {
        case .none: bg = background(style.role)
        case .foregroundOf(let role)?: bg = foreground(role)
        case .backgroundOf(let role)?: bg = background(role)
        }
        var attributes = (roles[style.role]?.attributes ?? []).union(style.attributes)
        // Without colours (NO_COLOR) a cursor row or a selection drawn in colour alone would vanish: the monochrome
        // theme's attributes for the role stand in for them.
        if depth == .none { attributes.formUnion(Self.attributesWithoutColour[style.role] ?? []) }
        return ResolvedStyle(fg: ColorDownsampler.convert(fg, to: depth), bg: ColorDownsampler.convert(bg, to: depth),
                             attributes: attributes)
    }
}
