import Foundation

/// The rules of `POST /sms/3/messages` that Infobip's published OpenAPI (SMS 3.x) states in words, beyond what its schema
/// says (`StandInSchema` checks that): a delivery time window's ends, and `sendAt`'s format and horizon. Each violation
/// is a (property path, message) pair for the E400 body.
enum StandInSendOptions {
    static func violations(in request: [String: Any]) -> [(String, String)] {
        var out: [(String, String)] = []
        for (i, message) in ((request["messages"] as? [[String: Any]]) ?? []).enumerated() {
            let options = message["options"] as? [String: Any]
            if let window = options?["deliveryTimeWindow"] as? [String: Any] {
                out += deliveryWindow(window, at: "messages[\(i)].options.deliveryTimeWindow")
            }
        }
        return out
    }

    /// How far ahead `sendAt` may be: "can only be scheduled for no later than 180 days in advance".
    static let maxScheduleAhead: TimeInterval = 180 * 86_400
    static let sendAtFormat = "must be a date-time in the format yyyy-MM-dd'T'HH:mm:ss.SSSZ"
    static let sendAtTooFar = "can only be scheduled for no later than 180 days in advance"

    /// What is wrong with `options.schedule.sendAt` at `now`: its format, or a time more than 180 days ahead. A time in the
    /// past is taken (the bulk is due at once): the published spec sets no lower bound. JSON null counts as absent.
    static func scheduleViolations(in request: [String: Any], now: Date) -> [(String, String)] {
        let value = ((request["options"] as? [String: Any])?["schedule"] as? [String: Any])?["sendAt"]
        guard let value, !(value is NSNull) else { return [] }
        return sendAtViolation(value, now: now).map { [("options.schedule.sendAt", $0)] } ?? []
    }

    /// Why `value` cannot be a `sendAt` at `now`; nil when it can.
    static func sendAtViolation(_ value: Any, now: Date) -> String? {
        guard let text = value as? String, let date = sendAt(text) else { return sendAtFormat }
        return date.timeIntervalSince(now) > maxScheduleAhead ? sendAtTooFar : nil
    }

    /// The instant of a `sendAt` in the published format `yyyy-MM-dd'T'HH:mm:ss.SSSZ` (`2021-08-25T16:00:00.000+0000`):
    /// milliseconds required, the offset `±HHMM`, or as a `date-time` (RFC 3339) `±HH:MM` or `Z`. A date the calendar
    /// does not have (February 30), an hour past 23 or an offset past 18 hours is not one. Nil when it is not one.
    static func sendAt(_ text: String) -> Date? {
        let c = Array(text.utf8)
        guard c.count >= 24 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c[i]) else { return nil }
                value = value * 10 + Int(c[i] - UInt8(ascii: "0"))
            }
            return value
        }
        func has(_ i: Int, _ character: Unicode.Scalar) -> Bool { c[i] == UInt8(ascii: character) }
        guard let year = number(0..<4), has(4, "-"), let month = number(5..<7), has(7, "-"), let day = number(8..<10),
              has(10, "T"), let hour = number(11..<13), has(13, ":"), let minute = number(14..<16), has(16, ":"),
              let second = number(17..<19), has(19, "."), let millis = number(20..<23) else { return nil }
        var offset = 0
        switch c.count - 23 {
        case 1 where has(23, "Z"):
            offset = 0
        case 5 where has(23, "+") || has(23, "-"):
            guard let h = number(24..<26), let m = number(26..<28), h <= 18, m < 60 else { return nil }
            offset = (has(23, "-") ? -1 : 1) * (h * 3600 + m * 60)
        case 6 where (has(23, "+") || has(23, "-")) && has(26, ":"):
            guard let h = number(24..<26), let m = number(27..<29), h <= 18, m < 60 else { return nil }
            offset = (has(23, "-") ? -1 : 1) * (h * 3600 + m * 60)
        default:
            return nil
        }
        guard hour < 24, minute < 60, second < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute,
                                                            second: second)) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return date.addingTimeInterval(Double(millis) / 1000 - Double(offset))
    }

    /// "Properties `from` and `to` should be both provided with the minimum 1 hour difference or omitted."
    private static func deliveryWindow(_ window: [String: Any], at: String) -> [(String, String)] {
        let from = window["from"] as? [String: Any], to = window["to"] as? [String: Any]
        if (from == nil) != (to == nil) { return [(at, "from and to must be both provided or omitted")] }
        if let from, let to, let fh = from["hour"] as? Int, let fm = from["minute"] as? Int, let th = to["hour"] as? Int,
           let tm = to["minute"] as? Int, (th * 60 + tm) - (fh * 60 + fm) < 60 {
            return [(at, "from and to must be at least 1 hour apart")]
        }
        return []
    }
}
