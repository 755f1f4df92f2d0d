import Foundation

/// Reads the dates typed in the inbox's from/to fields: `2024-05-01` (a whole day) or a full
/// ISO 8601 time such as `2024-05-01T09:30:00Z`. An empty field means "no bound".
nonisolated public struct InboxDateParser: Sendable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone = .current) { self.timeZone = timeZone }

    /// Which end of the range a date is for: a day given alone starts the range at its first instant
    /// and ends it after its last one (so "to 2024-05-01" includes that day).
    public enum Bound: Sendable { case from, to }

    /// The instant `text` names for `bound`; nil for an empty field; throws with a message for anything else.
    public func parse(_ text: String, as bound: Bound) throws(InboxDateError) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let day = day(trimmed) {
            guard bound == .to else { return day }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(byAdding: .day, value: 1, to: day)
        }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: trimmed) { return date }
        }
        throw InboxDateError(text: trimmed)
    }

    /// A strict YYYY-MM-DD at midnight in `timeZone`.
    private func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let dayNumber = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(dayNumber) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: dayNumber)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == dayNumber else { return nil }   // 2024-02-31 is refused
        return date
    }

    /// A date as the fields show it: the day alone when it is midnight, else the full time.
    public func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let dayText = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        if c.hour == 0 && c.minute == 0 && c.second == 0 { return dayText }
        return dayText + String(format: " %02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }
}

/// A date field that could not be read.
nonisolated public struct InboxDateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let text: String
    public var description: String {
        "\"\(text)\" is not a date: type 2024-05-01 or 2024-05-01T09:30:00Z"
    }
}
