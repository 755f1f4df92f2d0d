import Foundation

/// A time as people read it on a wall clock: "09:00" on the day it is, "12-01 09:00" on another day (the held bulks,
/// the send confirmation, a recipient's quiet hours). Plain digits, no formatter: cheap enough for a frame.
public enum WallClock {
    /// "09:00" in `zone`.
    public static func time(_ date: Date, in zone: TimeZone = .current) -> String {
        let c = calendar(zone).dateComponents([.hour, .minute], from: date)
        return "\(two(c.hour)):\(two(c.minute))"
    }

    /// "09:00" when `date` falls on the same day as `now` in `zone`, else "12-01 09:00".
    public static func timeOrDay(_ date: Date, now: Date = Date(), in zone: TimeZone = .current) -> String {
        let calendar = calendar(zone)
        guard !calendar.isDate(date, inSameDayAs: now) else { return time(date, in: zone) }
        let c = calendar.dateComponents([.month, .day], from: date)
        return "\(two(c.month))-\(two(c.day)) " + time(date, in: zone)
    }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    private static func two(_ n: Int?) -> String {
        let v = n ?? 0
        return v < 10 ? "0\(v)" : "\(v)"
    }
}
