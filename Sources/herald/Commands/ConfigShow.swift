import ArgumentParser
import Foundation
import HeraldCore

/// `herald config show`: the configuration Herald uses, each value with where it came from: the environment
/// variable that overrides it, the file and line, or the default. Secrets are shown as set, never their text.
struct ConfigShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print the configuration in effect, each value with its source (file:line, variable, default).")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON: [{key, value, source}].") var json = false

    struct Entry: Encodable {
        let key: String
        /// The value as TOML writes it; nil when not set.
        let value: String?
        let source: String
    }

    mutating func run() async throws {
        let config = try global.config()
        let entries = Self.entries(config, environment: ProcessInfo.processInfo.environment)
        if json {
            print(try Output.json(entries))
            return
        }
        let width = entries.map(\.key.count).max() ?? 0
        for entry in entries {
            let value = entry.value ?? "(not set)"
            print(Output.safe("\(entry.key.padding(toLength: width, withPad: " ", startingAt: 0))  \(value)  [\(entry.source)]"))
        }
    }

    static func entries(_ config: HeraldConfig, environment: [String: String]) -> [Entry] {
        var entries = ConfigKeys.all.map { key -> Entry in
            let secret = ["api_key", "jwt_secret", "password"].contains { key.name.hasSuffix($0) }
            if let variable = key.environment, let text = environment[variable], !text.trimmingCharacters(in: .whitespaces).isEmpty {
                return Entry(key: key.name, value: secret ? "(set, hidden)" : text, source: "environment \(variable)")
            }
            guard let value = config.value(named: key.name) else { return Entry(key: key.name, value: nil, source: "default") }
            let place = ConfigError.place(config.file ?? "config.toml", config.lines.line(of: key.name))
            return Entry(key: key.name, value: secret ? "(set, hidden)" : Self.toml(value), source: place)
        }
        let file = config.file ?? "config.toml"
        for (action, keys) in config.keys.sorted(by: { $0.key < $1.key }) {
            entries.append(Entry(key: "keys.\(action)", value: toml(keys), source: ConfigError.place(file, config.lines.line(of: "keys.\(action)"))))
        }
        for (i, book) in config.books.enumerated() {
            entries.append(Entry(key: "books[\(i + 1)]", value: "\(book.name) (\(book.kind.rawValue) \(book.location))",
                                 source: ConfigError.place(file, config.lines.line(of: "books[\(i + 1)]"))))
        }
        return entries
    }

    /// A value as TOML writes it.
    static func toml(_ value: any Sendable) -> String {
        switch value {
        case let text as String: return "\"\(text)\""
        case let number as Double: return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case let hours as QuietHours: return "\"\(hours)\""
        case let list as [String]: return "[" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        default: return "\(value)"
        }
    }
}
