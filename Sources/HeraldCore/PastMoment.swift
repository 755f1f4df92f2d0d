import Foundation

/// A moment a question about the past names: a day (`2026-11-20`, its start in a time zone), a day and time
/// (`2026-11-20T14:30`), or a span back from now (`30m`, `12h`, `7d`, `2w`). What `after:`/`before:` in the Deliveries
/// query and `herald audit --since` read.
public enum PastMoment {
    /// The moment `value` names, or nil when it is none of the forms.
    public static func parse(_ value: String, now: Date, timeZone: TimeZone) -> Date? {
        let lower = value.trimmingCharacters(in: .whitespaces).lowercased()
        if let unit = lower.last, let seconds = ["m": 60.0, "h": 3600.0, "d": 86_400.0, "w": 604_800.0][unit] {
            let count = lower.dropLast()
            // Six digits are a span of up to 19,000 years; more is a typing slip, not a moment.
            guard !count.isEmpty, count.count <= 6, count.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Double(count) else {
                return nil
            }
            return now.addingTimeInterval(-n * seconds)
        }
        let parts = lower.split(separator: "t", maxSplits: 1, omittingEmptySubsequences: false)
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2,
              let y = Int(day[0]), let m = Int(day[1]), let d = Int(day[2]) else { return nil }
        var hour = 0, minute = 0
        if parts.count == 2 {
            let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard time.count == 2, time.allSatisfy({ $0.count == 2 }), let h = Int(time[0]), let mi = Int(time[1]),
                  (0..<24).contains(h), (0..<60).contains(mi) else { return nil }
            hour = h
            minute = mi
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: y, month: m, day: d, hour: hour, minute: minute)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }
}
