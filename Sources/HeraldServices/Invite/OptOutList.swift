import Foundation
import HeraldAPI
import HeraldCore

/// Why an opt-out could not be changed.
public enum OptOutError: Error, Sendable, Hashable, UserFacingError {
    case invalidNumber(String, why: String)
    case notOptedOut(String)
    case platform(String)

    public var userMessage: String {
        switch self {
        case .invalidNumber(let text, let why): return "\"\(text)\" cannot be opted out: \(why)"
        case .notOptedOut(let number): return "\(number) is not opted out"
        case .platform(let why): return why
        }
    }
}

/// The opt-out list: numbers that said stop, kept by the platform (a Herald server's list is the team's). Every send
/// leaves them out with "opted out on DATE".
extension InviteService {
    /// Every opted-out number, newest first.
    public func optOuts() async throws -> [OptOut] {
        do { return try await platform.optOuts() } catch { throw OptOutError.platform("cannot read the opt-out list: \(error.description)") }
    }

    /// Opts numbers out (each checked first: nothing changes when one is not a valid number); answers the entries.
    public func optOut(numbers texts: [String]) async throws -> [OptOut] {
        if let readOnlyReason { throw OptOutError.platform("\(readOnlyReason): nothing was opted out") }
        let numbers = try texts.map(validNumber)
        var added: [OptOut] = []
        for number in numbers {
            do { added.append(try await platform.addOptOut(number: number)) } catch {
                throw OptOutError.platform("cannot opt out \(number): \(error.description)")
            }
        }
        return added
    }

    /// Takes numbers off the list (they may be invited again).
    public func optIn(numbers texts: [String]) async throws {
        if let readOnlyReason { throw OptOutError.platform("\(readOnlyReason): nothing was changed") }
        for number in try texts.map(validNumber) {
            do { try await platform.removeOptOut(number: number) } catch {
                if case .notFound = error { throw OptOutError.notOptedOut(number) }
                throw OptOutError.platform("cannot take \(number) off the list: \(error.description)")
            }
        }
    }

    /// E.164 of a number people typed (with the workspace's region), or an error naming it.
    private func validNumber(_ text: String) throws -> String {
        let number = parser.parse(text)
        guard number.isValid, let e164 = number.e164 else {
            throw OptOutError.invalidNumber(text, why: number.invalidReason ?? "not a phone number")
        }
        return e164
    }
}
