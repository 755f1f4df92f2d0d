import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldInfobip
import HeraldStore
import TOMLKit

/// The user's `config.toml`. Every key is optional; unknown keys are reported by name and ignored. The plain keys are
/// declared in `ConfigKeys` (one line each, read here as `config.holdSeconds`); `[keys]`, `[[books]]` and
/// `[infobip.send]` have parsers of their own. docs/config.md lists them all.
@dynamicMemberLookup
struct HeraldConfig: Sendable {
    /// The values of the plain keys the file sets, by dotted name (read them as `config.<ConfigKeys property>`).
    private var values: [String: any Sendable] = [:]
    /// The tables the file has, by dotted name (`[smtp]` alone turns the mailer on, to say what it lacks).
    private var tablesPresent: Set<String> = []
    /// Key bindings by action name, passed through to the key map.
    var keys: [String: [String]] = [:]
    /// `[infobip.send]`: what every message carries on Infobip.
    var infobipSend = InfobipSendOptions()
    /// `[[books]]`: the address books contacts come from and are written back to, and how to reach the CardDAV ones.
    var books: [AddressBook] = []
    var bookAccounts: [String: CardDAVAccount] = [:]
    /// `[prices]`: the price of one SMS part by country (see `parsePrices`).
    var prices = PriceTable()
    /// Problems that did not stop loading (unknown keys), each naming the key and its line.
    var warnings: [String] = []
    /// Values the file sets wrong, each naming its line: loading stops at the first, `herald config check` lists them all.
    private(set) var problems: [ConfigError] = []
    /// The file read, and the line each key stands on there.
    private(set) var file: String?
    private(set) var lines = ConfigLines("")

    /// A key declared in `ConfigKeys`; nil when the file does not set it.
    subscript<Value>(dynamicMember key: KeyPath<ConfigKeys, ConfigKey<Value>>) -> Value? {
        get { values[ConfigKeys.shared[keyPath: key].name] as? Value }
        set { values[ConfigKeys.shared[keyPath: key].name] = newValue }
    }

    /// The value of the declared key `name` (dotted), nil when the file does not set it.
    func value(named name: String) -> (any Sendable)? { values[name] }

    /// How many declared keys the file sets.
    var setKeyCount: Int { values.count }

    /// `[invite] numbers = "all-mobiles"`: every mobile of a person is invited (default "one-per-person").
    var inviteAllMobiles: Bool { self.inviteNumbers == "all-mobiles" }

    /// `[smtp]`: the mail server `herald serve` sends the team's email invitations through; nil without the table.
    var smtp: SMTPConfig? {
        guard tablesPresent.contains("smtp") else { return nil }
        var config = SMTPConfig(host: self.smtpHost)
        if let port = self.smtpPort { config.port = port }
        config.username = self.smtpUsername
        config.passwordFile = self.smtpPasswordFile
        config.caFile = self.smtpCAFile
        if let on = self.smtpStartTLS { config.startTLS = on }
        config.from = self.smtpFrom
        if let on = self.smtpClientDisplayNames { config.clientDisplayNames = on }
        config.replyToDomains = self.smtpReplyToDomains
        return config
    }

    /// The value of `key`: its environment variable when set (checked like the file's value), else the file's.
    func number(_ key: KeyPath<ConfigKeys, ConfigKey<Double>>, environment: [String: String]) throws -> Double? {
        let declared = ConfigKeys.shared[keyPath: key]
        guard let variable = declared.environment,
              let text = environment[variable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return self[dynamicMember: key] }
        do throws(ConfigProblem) {
            guard let number = Double(text) else { throw ConfigProblem("\(declared.name) must be \(declared.expectation)") }
            return try declared.read(number)
        } catch {
            throw Output.failure("\(variable)=\(Output.safe(text)) is not valid: \(error.message)")
        }
    }

    /// Loads `url`; a missing file is the empty configuration.
    static func load(from url: URL) throws -> HeraldConfig {
        guard FileManager.default.fileExists(atPath: url.path) else { return HeraldConfig() }
        return try parse(try text(of: url), file: url.path)
    }

    /// The text of the config file at `url`, or why it cannot be read.
    static func text(of url: URL) throws -> String {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ConfigError(file: url.path, message: "cannot read it (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: url.path, message: "it is not UTF-8 text")
        }
        return text
    }

    /// Reads `text` (the file `file`); throws the first value set wrong, unless `keepGoing` (then see `problems`).
    static func parse(_ text: String, file: String, keepGoing: Bool = false) throws -> HeraldConfig {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let e as TOMLParseError {
            throw ConfigError(file: file, message: "\(e.description) at line \(e.source.begin.line), column \(e.source.begin.column)")
        }
        var c = HeraldConfig()
        c.file = file
        c.lines = ConfigLines(text)
        try c.read(table, prefix: "", file: file)
        // In the order of the file: a start names the first wrong line, a check lists them top to bottom.
        c.problems.sort { ($0.line ?? .max) < ($1.line ?? .max) }
        if !keepGoing, let first = c.problems.first { throw first }
        if let keysValue = table["keys"] {
            guard let keys = keysValue.table else { throw ConfigError(file: file, line: c.lines.line(of: "keys"), message: "[keys] must be a table of action = [\"key\", …]") }
            c.keys = try parseKeys(keys, file: file, lines: c.lines)
        }
        if let send = table["infobip"]?.table?["send"] {
            guard let send = send.table else { throw ConfigError(file: file, line: c.lines.line(of: "infobip.send"), message: "[infobip.send] must be a table") }
            c.infobipSend = try parseInfobipSend(send, file: file, lines: c.lines, warnings: &c.warnings)
        }
        if let pricesValue = table["prices"] {
            c.prices = try parsePrices(pricesValue, file: file, lines: c.lines)
        }
        if let booksValue = table["books"] {
            (c.books, c.bookAccounts) = try parseBooks(booksValue, file: file, lines: c.lines, warnings: &c.warnings)
        }
        return c
    }

    /// The dotted names of every table a declared key or a table of its own sits in (`platform`, `infobip`, …).
    private static let sections: Set<String> = {
        var names: Set<String> = []
        for name in ConfigKeys.all.map(\.name) + ConfigKeys.tables {
            var parts = name.split(separator: ".").dropLast()
            while !parts.isEmpty { names.insert(parts.joined(separator: ".")); parts.removeLast() }
        }
        return names
    }()

    /// What may stand directly in the table `prefix` ("" for the top level), sorted: keys and tables.
    private static func known(in prefix: String) -> [String] {
        let all = ConfigKeys.all.map(\.name) + ConfigKeys.tables + sections
        let start = prefix.isEmpty ? "" : prefix + "."
        return Set(all.compactMap { name -> String? in
            guard name.hasPrefix(start) else { return nil }
            let rest = name.dropFirst(start.count)
            return rest.isEmpty || rest.contains(".") ? nil : String(rest)
        }).sorted()
    }

    /// Reads the declared keys of `table` (the table `prefix`), and the tables within it; warns of the rest.
    private mutating func read(_ table: TOMLTable, prefix: String, file: String) throws {
        let declared = Dictionary(ConfigKeys.all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for key in table.keys.sorted() {
            let name = prefix.isEmpty ? key : "\(prefix).\(key)"
            guard let value = table[key], !ConfigKeys.tables.contains(name) else { continue }
            if let declaration = declared[name] {
                do { values[name] = try declaration.readValue(value) } catch {
                    problems.append(ConfigError(file: file, line: lines.line(of: name), message: error.message))
                }
            } else if Self.sections.contains(name) {
                guard let inner = value.table else {
                    throw ConfigError(file: file, line: lines.line(of: name), message: "[\(name)] must be a table")
                }
                tablesPresent.insert(name)
                try read(inner, prefix: name, file: file)
            } else {
                warnings.append("\(ConfigError.place(file, lines.line(of: name))): unknown key \"\(name)\" ignored (known: \(Self.known(in: prefix).joined(separator: ", ")))")
            }
        }
    }

    /// `[keys]`: action = ["key", …] (or a single key).
    private static func parseKeys(_ keys: TOMLTable, file: String, lines: ConfigLines) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for action in keys.keys {
            guard let v = keys[action] else { continue }
            if let s = v.string {
                result[action] = [s]
            } else if let array = v.array {
                var list: [String] = []
                for item in array {
                    guard let s = item.string else {
                        throw ConfigError(file: file, line: lines.line(of: "keys.\(action)"), message: "keys.\(action) must list keys as strings, like [\"q\", \"ctrl-c\"]")
                    }
                    list.append(s)
                }
                result[action] = list
            } else {
                throw ConfigError(file: file, line: lines.line(of: "keys.\(action)"), message: "keys.\(action) must be a key or a list of keys, like [\"q\", \"ctrl-c\"]")
            }
        }
        return result
    }
}

/// A config file that cannot be used; says which file and what to fix.
struct ConfigError: Error, CustomStringConvertible, Equatable {
    let file: String
    var line: Int?
    let message: String

    init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    var description: String { "\(Self.place(file, line)): \(message)" }

    /// `file:line`, or the file alone when the line is not known.
    static func place(_ file: String, _ line: Int?) -> String { line.map { "\(file):\($0)" } ?? file }
}
