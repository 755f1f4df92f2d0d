import Foundation

/// One value in or out of a statement, as both SQLite and PostgreSQL hold it (booleans are integers 0 and 1).
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

public typealias SQLArguments = [(any SQLArgument)?]

/// A Swift value that can be bound to a `?`.
public protocol SQLArgument: Sendable {
    var sqlValue: SQLValue { get }
}

extension String: SQLArgument { public var sqlValue: SQLValue { .text(self) } }
extension Int: SQLArgument { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLArgument { public var sqlValue: SQLValue { .integer(self) } }
extension Double: SQLArgument { public var sqlValue: SQLValue { .real(self) } }
extension Bool: SQLArgument { public var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Data: SQLArgument { public var sqlValue: SQLValue { .blob(self) } }
extension SQLValue: SQLArgument { public var sqlValue: SQLValue { self } }

extension Array where Element == (any SQLArgument)? {
    public var sqlValues: [SQLValue] { map { $0?.sqlValue ?? .null } }
}

/// A Swift value a column can be read as.
public protocol SQLDecodable {
    /// nil when the column holds something else (a programming error, reported with the column's name).
    static func decode(_ value: SQLValue) -> Self?
}

extension String: SQLDecodable {
    public static func decode(_ value: SQLValue) -> String? {
        if case .text(let s) = value { return s }
        return nil
    }
}

extension Int64: SQLDecodable {
    public static func decode(_ value: SQLValue) -> Int64? {
        switch value {
        case .integer(let i): return i
        case .real(let d) where d.rounded() == d && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }
}

extension Int: SQLDecodable {
    public static func decode(_ value: SQLValue) -> Int? { Int64.decode(value).map(Int.init) }
}

extension Double: SQLDecodable {
    public static func decode(_ value: SQLValue) -> Double? {
        switch value {
        case .real(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
}

extension Bool: SQLDecodable {
    public static func decode(_ value: SQLValue) -> Bool? { Int64.decode(value).map { $0 != 0 } }
}

extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    public static func decode(_ value: SQLValue) -> Wrapped?? {
        if value == .null { return .some(nil) }
        return Wrapped.decode(value).map { .some($0) }
    }
}

/// A row of a query: its values by column name (any case: PostgreSQL folds unquoted names to lower case) or
/// position.
public struct SQLRow: Sendable {
    /// Column names, lower-cased.
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns.map { $0.lowercased() }
        self.values = values
    }

    public subscript<T: SQLDecodable>(_ name: String) -> T {
        let key = name.lowercased()
        guard let index = columns.firstIndex(of: key) else {
            preconditionFailure("no column \(name) in a row of \(columns.joined(separator: ", "))")
        }
        return decode(values[index], name)
    }

    public subscript<T: SQLDecodable>(_ index: Int) -> T {
        precondition(values.indices.contains(index), "no column \(index) in a row of \(values.count)")
        return decode(values[index], "#\(index)")
    }

    private func decode<T: SQLDecodable>(_ value: SQLValue, _ name: String) -> T {
        guard let decoded = T.decode(value) else { preconditionFailure("column \(name) holds \(value), not \(T.self)") }
        return decoded
    }
}
