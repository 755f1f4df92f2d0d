import Foundation

/// When a send leaves, as people write it: `2026-12-01 09:00`, `2026-12-01T09:00`, `09:00` (the next such time),
/// `+2h`, `+90m`, `+1d`, `+30s`. Clock times are read in the given time zone. A time in the past or more than 180 days
/// ahead (the platforms' limit) is refused, naming the value.
public enum SendTime {
    /// The furthest ahead a send may be held.
    public static let maxAhead: TimeInterval = 180 * 24 * 3600

    /// The instant `text` names, checked against `now`.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone) throws(SendTimeError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let date: Date
        if trimmed.hasPrefix("+") {
            date = now.addingTimeInterval(try offset(String(trimmed.dropFirst()), text: text))
        } else if let full = clock(trimmed, timeZone: timeZone) {
            date = full
        } else if let time = timeOfDay(trimmed) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            guard let next = calendar.nextDate(after: now.addingTimeInterval(-1), matching: DateComponents(hour: time.hour, minute: time.minute),
                                               matchingPolicy: .nextTime) else {
                throw SendTimeError("\"\(text)\" names no time in \(timeZone.identifier)")
            }
            date = next
        } else {
            throw SendTimeError("\"\(text)\" is not a time: write it like \"2026-12-01 09:00\", \"09:00\" or \"+2h\"")
        }
        return try check(date, text: text, now: now, timeZone: timeZone)
    }

    /// A time zone by its name ("Europe/Zagreb", "UTC"), or an error naming it.
    public static func timeZone(named name: String) throws(SendTimeError) -> TimeZone {
        guard let zone = TimeZone(identifier: name.trimmingCharacters(in: .whitespaces)) else {
            throw SendTimeError("\"\(name)\" is not a time zone: write it like \"Europe/Zagreb\" or \"America/New_York\"")
        }
        return zone
    }

    /// `date` when it is neither past nor more than 180 days ahead.
    public static func check(_ date: Date, text: String, now: Date, timeZone: TimeZone) throws(SendTimeError) -> Date {
        if date < now {
            throw SendTimeError("\"\(text)\" (\(describe(date, in: timeZone))) is in the past")
        }
        if date > now.addingTimeInterval(maxAhead) {
            throw SendTimeError("\"\(text)\" (\(describe(date, in: timeZone))) is more than 180 days ahead")
        }
        return date
    }

    /// "2026-12-01 09:00 CET" in `timeZone` (with seconds when it is not on the minute: an undo window's end).
    public static func describe(_ date: Date, in timeZone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        let onTheMinute = Int(date.timeIntervalSince1970.rounded()) % 60 == 0
        f.dateFormat = onTheMinute ? "yyyy-MM-dd HH:mm zzz" : "yyyy-MM-dd HH:mm:ss zzz"
        return f.string(from: date)
    }

    private static func offset(_ body: String, text: String) throws(SendTimeError) -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = body.last, let seconds = units[Character(unit.lowercased())], let amount = Double(body.dropLast()),
              amount > 0, amount.isFinite else {
            throw SendTimeError("\"\(text)\" is not a delay: write it like \"+30m\", \"+2h\" or \"+1d\"")
        }
        return amount * seconds
    }

    private static func clock(_ text: String, timeZone: TimeZone) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.isLenient = false
        for format in ["yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss"] {
            f.dateFormat = format
            if let date = f.date(from: text) { return date }
        }
        return nil
    }

    private static func timeOfDay(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }
}

/// A send time that cannot be used; says which value and why.
public struct SendTimeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
