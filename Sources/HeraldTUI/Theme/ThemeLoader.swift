import Foundation

/// Finds and loads themes: user themes in `$XDG_CONFIG_HOME/herald/themes/NAME.toml` shadow the
/// built-ins of the same name; built-ins come from the repository's `themes/` folder (found through
/// `HERALD_THEMES_DIR` or next to the executable) and, when that is not there, from the copy
/// compiled into the binary.
nonisolated public struct ThemeLoader: Sendable {
    public let userDirectory: URL?
    public let builtinDirectory: URL?

    public init(userDirectory: URL?, builtinDirectory: URL?) {
        self.userDirectory = userDirectory
        self.builtinDirectory = builtinDirectory
    }

    /// The loader for this process: directories from the environment and the executable's location.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executablePath: String? = CommandLine.arguments.first) {
        self.init(userDirectory: Self.userThemesDirectory(environment: environment),
                  builtinDirectory: Self.findBuiltinDirectory(environment: environment, executablePath: executablePath))
    }

    /// `$XDG_CONFIG_HOME/herald/themes`, or `~/.config/herald/themes`.
    public static func userThemesDirectory(environment: [String: String]) -> URL? {
        if let config = environment["XDG_CONFIG_HOME"], !config.isEmpty {
            return URL(fileURLWithPath: config).appendingPathComponent("herald/themes")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/herald/themes")
    }

    /// `HERALD_THEMES_DIR`, else a `themes/` (or `share/herald/themes/`) folder holding
    /// `default.toml` in the executable's folder or one of its parents.
    public static func findBuiltinDirectory(environment: [String: String], executablePath: String?) -> URL? {
        let fm = FileManager.default
        if let dir = environment["HERALD_THEMES_DIR"], !dir.isEmpty { return URL(fileURLWithPath: dir) }
        guard let executablePath, !executablePath.isEmpty else { return nil }
        var dir = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            for candidate in ["themes", "share/herald/themes"] {
                let url = dir.appendingPathComponent(candidate)
                if fm.fileExists(atPath: url.appendingPathComponent("default.toml").path) { return url }
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        return nil
    }

    /// Names of every theme that can be loaded, sorted (a theme folder that cannot be listed adds none;
    /// `load` of a name not found says which folder and why).
    public func availableNames() -> [String] {
        listing().names
    }

    /// The theme names, and "FOLDER cannot be listed (why)" for each folder that exists and cannot be listed.
    private func listing() -> (names: [String], problems: [String]) {
        var names = Set(BuiltinThemes.sources.keys)
        var problems: [String] = []
        for dir in [builtinDirectory, userDirectory].compactMap({ $0 }) {
            guard FileManager.default.fileExists(atPath: dir.path) else { continue }   // no user themes: nothing to list
            do {
                let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
                for file in files where file.hasSuffix(".toml") { names.insert(String(file.dropLast(5))) }
            } catch {
                problems.append("\(dir.path) cannot be listed (\(error.localizedDescription))")
            }
        }
        return (names.sorted(), problems)
    }

    /// Loads the theme `name`; a user theme with `base = "…"` gets its missing roles from that theme.
    public func load(_ name: String) throws(ThemeError) -> Theme {
        try load(name, visited: [])
    }

    private func load(_ name: String, visited: Set<String>) throws(ThemeError) -> Theme {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw ThemeError(source: name, problem: "not a theme name")
        }
        guard !visited.contains(name) else {
            throw ThemeError(source: name, problem: "themes name each other as base in a loop: \(visited.sorted().joined(separator: ", "))")
        }
        let (text, source) = try findText(name)
        let parsed = try ThemeParser.parse(text, source: source, defaultName: name)
        var theme = parsed.theme
        if let base = parsed.base {
            let baseTheme = try load(base, visited: visited.union([name]))
            theme.roles = baseTheme.roles.merging(theme.roles) { _, own in own }
        } else if !theme.missingRoles.isEmpty, theme.roles.count < Role.allCases.count {
            let missing = theme.missingRoles.map(\.rawValue).joined(separator: ", ")
            throw ThemeError(source: source, problem: "missing role(s) \(missing); list them or add base = \"default\"")
        }
        return theme
    }

    private func findText(_ name: String) throws(ThemeError) -> (String, String) {
        for dir in [userDirectory, builtinDirectory].compactMap({ $0 }) {
            let url = dir.appendingPathComponent(name + ".toml")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            do { return (try String(contentsOf: url, encoding: .utf8), url.path) } catch {
                throw ThemeError(source: url.path, problem: "cannot be read: \(error.localizedDescription)")
            }
        }
        if let embedded = BuiltinThemes.sources[name] { return (embedded, "built-in \(name)") }
        let (names, problems) = listing()
        let unlisted = problems.isEmpty ? "" : "; " + problems.joined(separator: "; ")
        throw ThemeError(source: name, problem: "no such theme (available: \(names.joined(separator: ", ")))\(unlisted)")
    }
}
