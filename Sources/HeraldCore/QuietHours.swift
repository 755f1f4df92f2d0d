import Foundation

/// Hours of the recipient's local day in which no invitation leaves, such as "21:00-08:00" (across midnight) or
/// "12:30-13:30". The start is quiet, the end is not: with "21:00-08:00" a message may leave at 08:00 sharp.
///
/// Local time is the zone's wall clock at that instant, daylight saving time included: on a day the clocks
/// move, 08:00 comes an hour earlier or later by UTC, and quiet hours that end inside a skipped hour end when
/// the clocks jump past it.
public struct QuietHours: Sendable, Hashable, CustomStringConvertible {
    /// When quiet hours begin, in minutes after local midnight (0...1439); that minute is quiet.
    public let startMinute: Int
    /// When they end, in minutes after local midnight (0...1439); the first minute a message may leave.
    public let endMinute: Int

    /// How far ahead `nextAllowed(after:in:)` looks for a time open in every zone at once.
    public static let searchHorizon: TimeInterval = 48 * 3600

    private static let secondsPerDay = 86_400

    /// Reads "HH:MM-HH:MM" (an hour may be one digit, "8:00"; spaces around the dash are allowed). The range wraps
    /// midnight when the end is earlier than the start.
    /// - Throws: `QuietHoursError` naming the value: not two times joined by "-", an hour past 23, a minute past 59,
    ///   or a start equal to the end.
    public init(parsing text: String) throws(QuietHoursError) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let start = Self.clock(parts[0].trimmingCharacters(in: .whitespaces)),
              let end = Self.clock(parts[1].trimmingCharacters(in: .whitespaces))
        else { throw QuietHoursError(value: text, problem: .malformed) }
        for time in [start, end] where time.hour > 23 {
            throw QuietHoursError(value: text, problem: .hourOutOfRange(time.hour))
        }
        for time in [start, end] where time.minute > 59 {
            throw QuietHoursError(value: text, problem: .minuteOutOfRange(time.minute))
        }
        startMinute = start.hour * 60 + start.minute
        endMinute = end.hour * 60 + end.minute
        guard startMinute != endMinute else { throw QuietHoursError(value: text, problem: .emptyRange) }
    }

    /// The range as it is written in config.toml: "21:00-08:00".
    public var description: String { "\(Self.format(startMinute))-\(Self.format(endMinute))" }

    /// Whether quiet hours run across midnight ("21:00-08:00").
    public var wrapsMidnight: Bool { startMinute > endMinute }

    /// Whether `instant` falls in quiet hours on the wall clock of `zone`.
    public func isQuiet(_ instant: Date, in zone: TimeZone) -> Bool {
        let local = instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
        guard local.isFinite else { return false }
        let day = Double(Self.secondsPerDay)
        let secondOfDay = local - (local / day).rounded(.down) * day
        let start = Double(startMinute * 60), end = Double(endMinute * 60)
        return wrapsMidnight ? (secondOfDay >= start || secondOfDay < end) : (secondOfDay >= start && secondOfDay < end)
    }

    /// The earliest instant at or after `instant` that is outside quiet hours in every one of `zones`: for a
    /// number whose prefix leaves several zones possible, the hours open in all of them. `instant` itself when
    /// `zones` is empty (nothing known about the recipient's clock) or when it is already open everywhere.
    ///
    /// When the zones' open hours do not overlap within `searchHorizon` (48 hours), no time suits them all, and the
    /// answer is the earliest instant outside quiet hours in the first zone: waiting would not help, and the first
    /// zone is the one the caller put first (libphonenumber lists a prefix's zones alphabetically, so without a
    /// better guess this is a stable choice rather than a likelier one).
    public func nextAllowed(after instant: Date, in zones: [TimeZone]) -> Date {
        guard let first = zones.first else { return instant }
        return earliestOpen(from: instant, in: zones) ?? earliestOpen(from: instant, in: [first]) ?? instant
    }

    /// The earliest instant in [`instant`, `instant` + `searchHorizon`] open in every zone, nil when there is none.
    private func earliestOpen(from instant: Date, in zones: [TimeZone]) -> Date? {
        if zones.allSatisfy({ !isQuiet(instant, in: $0) }) { return instant }
        let since1970 = instant.timeIntervalSince1970.rounded(.up)
        guard since1970.isFinite, abs(since1970) < 1e15 else { return nil }
        // The answer is a moment one zone turns open while the others already are: look only at those moments.
        let from = Int(since1970), horizon = from + Int(Self.searchHorizon)
        var candidates: [Int] = []
        for zone in zones { openings(of: zone, from: from, through: horizon, into: &candidates) }
        for second in candidates.sorted() {
            let date = Date(timeIntervalSince1970: Double(second))
            if date >= instant, zones.allSatisfy({ !isQuiet(date, in: $0) }) { return date }
        }
        return nil
    }

    /// Appends the whole seconds in [`from`, `through`] at which `zone`'s wall clock may leave quiet hours: each
    /// time it reads the end of quiet hours, and each clock change (which may jump past the end).
    private func openings(of zone: TimeZone, from: Int, through: Int, into candidates: inout [Int]) {
        var segmentStart = from
        while segmentStart <= through {
            // Between two clock changes the zone's offset is constant, so its wall clock is plain arithmetic.
            let date = Date(timeIntervalSince1970: Double(segmentStart))
            var segmentEnd = through + 1
            if let change = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970.rounded(.up),
               change.isFinite, change > Double(segmentStart), change <= Double(through) {
                segmentEnd = Int(change)
            }
            if segmentStart > from { candidates.append(segmentStart) }
            let local = segmentStart + zone.secondsFromGMT(for: date)
            let secondOfDay = ((local % Self.secondsPerDay) + Self.secondsPerDay) % Self.secondsPerDay
            let day = Self.secondsPerDay
            var opening = segmentStart + ((endMinute * 60 - secondOfDay) % day + day) % day
            while opening < segmentEnd {
                candidates.append(opening)
                opening += Self.secondsPerDay
            }
            segmentStart = segmentEnd
        }
    }

    /// Hour and minute of "HH:MM" or "H:MM" in ASCII digits, not yet checked against 23 and 59.
    private static func clock(_ text: String) -> (hour: Int, minute: Int)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, (1...2).contains(fields[0].utf8.count), fields[1].utf8.count == 2,
              fields.allSatisfy({ field in field.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
              let hour = Int(fields[0]), let minute = Int(fields[1])
        else { return nil }
        return (hour, minute)
    }

    /// "08:05" for 485 minutes after midnight.
    private static func format(_ minutes: Int) -> String {
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// A quiet-hours range that cannot be read, with the value as it was given and what to write instead.
public struct QuietHoursError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the value.
    public enum Problem: Sendable, Equatable {
        /// Not two times "HH:MM" joined by "-".
        case malformed
        /// An hour past 23.
        case hourOutOfRange(Int)
        /// A minute past 59.
        case minuteOutOfRange(Int)
        /// The start equals the end, which leaves no quiet hours (or no open ones).
        case emptyRange
    }

    /// The text that was given.
    public let value: String
    /// What is wrong with it.
    public let problem: Problem

    /// Makes the error for `value`.
    public init(value: String, problem: Problem) {
        self.value = value
        self.problem = problem
    }

    /// The message shown to the user, naming the value.
    public var description: String {
        let quoted = "quiet hours \"\(TerminalSafeText.sanitize(value))\""
        let example = "write HH:MM-HH:MM in the recipient's local time, such as \"21:00-08:00\""
        switch problem {
        case .malformed:
            return "\(quoted) are not a range of times: \(example)"
        case .hourOutOfRange(let hour):
            return "\(quoted): hour \(hour) does not exist (hours run 00 to 23): \(example)"
        case .minuteOutOfRange(let minute):
            return "\(quoted): minute \(minute) does not exist (minutes run 00 to 59): \(example)"
        case .emptyRange:
            return "\(quoted) start and end at the same time, so they cover nothing or the whole day: \(example)"
        }
    }
}
