import Foundation
import HeraldCore
import TOMLKit

/// One key of `config.toml`, declared once (in `ConfigKeys`): its dotted name, what it does, an example value, the
/// variable that overrides it, and how its value is read and checked. The parser, the unknown-key warnings and the
/// reference in docs/config.md are all built from these declarations.
struct ConfigKey<Value: Sendable>: Sendable, ConfigKeyDescription {
    /// Dotted, as in the file: `send.hold_seconds` is `hold_seconds` of `[send]`.
    let name: String
    /// What the key does, one sentence for the reference.
    let help: String
    /// A value as written in TOML, for the reference.
    let example: String
    /// What a value must be, in words ("seconds from 0 to 3600").
    let expectation: String
    /// The environment variable that wins over the file, when there is one.
    let environment: String?
    /// Reads the file's value; throws the message naming the key and what to write.
    let read: @Sendable (any TOMLValueConvertible) throws(ConfigProblem) -> Value
}

/// What the reference and the unknown-key warnings need of a key, whatever its value's type.
protocol ConfigKeyDescription: Sendable {
    var name: String { get }
    var help: String { get }
    var example: String { get }
    var expectation: String { get }
    var environment: String? { get }
    /// Reads the file's value, whatever its type.
    func readValue(_ value: any TOMLValueConvertible) throws(ConfigProblem) -> any Sendable
}

extension ConfigKey {
    func readValue(_ value: any TOMLValueConvertible) throws(ConfigProblem) -> any Sendable { try read(value) }
}

/// A value that cannot be used, in words naming the key (the file is added by the parser).
struct ConfigProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

// The kinds of value a key can hold, each with the message a wrong value gets.
extension ConfigKey where Value == String {
    /// Any string.
    static func string(_ name: String, example: String, environment: String? = nil, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: "\"\(example)\"", expectation: "a string", environment: environment) { value throws(ConfigProblem) in
            guard let text = value.string else { throw ConfigProblem("\(name) must be a string, like \(name) = \"…\"") }
            return text
        }
    }

    /// One of `choices` (any case), read lower-cased; `note` follows the list in the message.
    static func choice(_ name: String, _ choices: [String], note: String = "", environment: String? = nil, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: "\"\(choices[0])\"", expectation: "one of \(choices.joined(separator: ", "))",
                  environment: environment) { value throws(ConfigProblem) in
            guard let text = value.string else { throw ConfigProblem("\(name) must be a string, like \(name) = \"\(choices[0])\"") }
            guard choices.contains(text.lowercased()) else {
                throw ConfigProblem("\(name) \"\(text)\" is not one of \(choices.joined(separator: ", "))\(note)")
            }
            return text.lowercased()
        }
    }

    /// A two-letter country code, read upper-cased.
    static func countryCode(_ name: String, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: "\"HR\"", expectation: "a two-letter country code", environment: nil) { value throws(ConfigProblem) in
            guard let text = value.string else { throw ConfigProblem("\(name) must be a string, like \(name) = \"…\"") }
            let code = text.uppercased()
            guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw ConfigProblem("\(name) \"\(text)\" is not a two-letter country code such as HR, US or NL")
            }
            return code
        }
    }
}

extension ConfigKey where Value == Double {
    /// A number (whole or not) in `range`, of `unit`.
    static func number(_ name: String, _ range: ClosedRange<Double>, unit: String, example: String, environment: String? = nil,
                       _ help: String) -> Self {
        let expectation = "\(unit) from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))"
        return ConfigKey(name: name, help: help, example: example, expectation: expectation, environment: environment) { value throws(ConfigProblem) in
            guard let number = value.double ?? value.int.map(Double.init), range.contains(number) else {
                throw ConfigProblem("\(name) must be \(expectation)")
            }
            return number
        }
    }

    /// A number above zero.
    static func positive(_ name: String, example: String, environment: String? = nil, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: example, expectation: "a positive number", environment: environment) { value throws(ConfigProblem) in
            guard let number = value.double ?? value.int.map(Double.init), number > 0 else {
                throw ConfigProblem("\(name) must be a positive number, like \(example)")
            }
            return number
        }
    }

    private static func text(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int(bound)) : String(bound)
    }
}

extension ConfigKey where Value == Int {
    /// A whole number in `range`; `what` names it in the message ("a port number").
    static func integer(_ name: String, _ range: ClosedRange<Int>, what: String, example: String, _ help: String) -> Self {
        let expectation = "\(what) from \(range.lowerBound) to \(range.upperBound)"
        return ConfigKey(name: name, help: help, example: example, expectation: expectation, environment: nil) { value throws(ConfigProblem) in
            guard let number = value.int, range.contains(number) else { throw ConfigProblem("\(name) must be \(expectation)") }
            return number
        }
    }
}

extension ConfigKey where Value == Bool {
    static func flag(_ name: String, example: Bool, environment: String? = nil, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: String(example), expectation: "true or false", environment: environment) { value throws(ConfigProblem) in
            guard let on = value.bool else { throw ConfigProblem("\(name) must be true or false") }
            return on
        }
    }
}

extension ConfigKey where Value == [String] {
    /// A list of strings, each trimmed, passing `valid` and then read through `map`; `like` is the example the message shows.
    static func list(_ name: String, like example: String, expectation: String, valid: @escaping @Sendable (String) -> Bool,
                     map: @escaping @Sendable (String) -> String = { $0 }, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: example, expectation: expectation, environment: nil) { value throws(ConfigProblem) in
            let items = value.array?.compactMap { item -> String? in
                item.string?.trimmingCharacters(in: .whitespaces)
            } ?? []
            guard let array = value.array, items.count == array.count, items.allSatisfy(valid) else {
                throw ConfigProblem("\(name) must list \(expectation), like \(example)")
            }
            return items.map(map)
        }
    }
}

extension ConfigKey where Value == QuietHours {
    static func quietHours(_ name: String, example: String, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: "\"\(example)\"", expectation: "\"HH:MM-HH:MM\"", environment: nil) { value throws(ConfigProblem) in
            guard let text = value.string else { throw ConfigProblem("\(name) must be a string, like \(name) = \"\(example)\"") }
            do throws(QuietHoursError) { return try QuietHours(parsing: text) } catch { throw ConfigProblem("\(name): \(error.description)") }
        }
    }
}
