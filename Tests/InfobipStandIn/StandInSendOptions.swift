import Foundation

/// The sender options of `POST /sms/3/messages` checked as Infobip's published OpenAPI (SMS 3.x) states them: where
/// each goes, its type, its enum values and ranges. Each violation is a (property path, message) pair for the E400 body.
enum StandInSendOptions {
    static let timeUnits: Set = ["SECONDS", "MINUTES", "HOURS"]
    static let speedUnits: Set = ["MINUTE", "HOUR", "DAY"]
    static let days: Set = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
    static let transliterations: Set = ["NONE", "TURKISH", "GREEK", "CYRILLIC", "SERBIAN_CYRILLIC", "CENTRAL_EUROPEAN", "BALTIC",
                                        "NON_UNICODE", "PORTUGUESE", "COLOMBIAN", "BULGARIAN_CYRILLIC", "ALL"]
    static let languageCodes: Set = ["NONE", "TR", "ES", "PT", "AUTODETECT"]
    static let recipientTypes: Set = ["BIREYSEL", "TACIR"]

    static func violations(in request: [String: Any]) -> [(String, String)] {
        var out: [(String, String)] = []
        for (i, message) in ((request["messages"] as? [[String: Any]]) ?? []).enumerated() {
            let at = "messages[\(i)]"
            if let content = message["content"] as? [String: Any] {
                if let t = content["transliteration"], !oneOf(t, transliterations) {
                    out.append(("\(at).content.transliteration", "must be one of \(transliterations.sorted())"))
                }
                if let language = content["language"] {
                    if !oneOf((language as? [String: Any])?["languageCode"], languageCodes) {
                        out.append(("\(at).content.language.languageCode", "must be one of \(languageCodes.sorted())"))
                    }
                }
            }
            guard let options = message["options"] as? [String: Any] else { continue }
            if let validity = options["validityPeriod"] {
                let v = validity as? [String: Any]
                if !isInt(v?["amount"]) { out.append(("\(at).options.validityPeriod.amount", "must not be null")) }
                if let unit = v?["timeUnit"], !oneOf(unit, timeUnits) {
                    out.append(("\(at).options.validityPeriod.timeUnit", "must be one of \(timeUnits.sorted())"))
                }
            }
            if let window = options["deliveryTimeWindow"] {
                out += deliveryWindow(window as? [String: Any], at: "\(at).options.deliveryTimeWindow")
            }
            if let campaign = options["campaignReferenceId"] {
                if (campaign as? String).map({ $0.count > 255 }) ?? true {
                    out.append(("\(at).options.campaignReferenceId", "size must be between 0 and 255"))
                }
            }
            if let regional = options["regional"] as? [String: Any] {
                if let dlt = regional["indiaDlt"] {
                    if ((dlt as? [String: Any])?["principalEntityId"] as? String ?? "").isEmpty {
                        out.append(("\(at).options.regional.indiaDlt.principalEntityId", "must not be blank"))
                    }
                }
                if let iys = regional["turkeyIys"] {
                    let t = iys as? [String: Any]
                    if !oneOf(t?["recipientType"], recipientTypes) {
                        out.append(("\(at).options.regional.turkeyIys.recipientType", "must be one of \(recipientTypes.sorted())"))
                    }
                    if let code = t?["brandCode"], !isInt(code) { out.append(("\(at).options.regional.turkeyIys.brandCode", "must be an integer")) }
                }
            }
        }
        let options = request["options"] as? [String: Any]
        if let limit = (options?["schedule"] as? [String: Any])?["sendingSpeedLimit"] {
            let l = limit as? [String: Any]
            if !isInt(l?["amount"]) { out.append(("options.schedule.sendingSpeedLimit.amount", "must not be null")) }
            if let unit = l?["timeUnit"], !oneOf(unit, speedUnits) {
                out.append(("options.schedule.sendingSpeedLimit.timeUnit", "must be one of \(speedUnits.sorted())"))
            }
        }
        if let tracking = options?["tracking"] as? [String: Any] {
            for key in ["shortenUrl", "trackClicks", "removeProtocol"] where tracking[key] != nil && !isBool(tracking[key]) {
                out.append(("options.tracking.\(key)", "must be a boolean"))
            }
        }
        if let conversion = options?["conversionTracking"] as? [String: Any], let use = conversion["useConversionTracking"], !isBool(use) {
            out.append(("options.conversionTracking.useConversionTracking", "must be a boolean"))
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

    /// Days required (at least one), hours 0–23 and minutes 0–59 in UTC, `from` and `to` both or neither.
    private static func deliveryWindow(_ window: [String: Any]?, at: String) -> [(String, String)] {
        var out: [(String, String)] = []
        let days = window?["days"] as? [Any] ?? []
        if days.isEmpty || !days.allSatisfy({ oneOf($0, Self.days) }) {
            out.append(("\(at).days", "must contain at least one of \(Self.days.sorted())"))
        }
        let from = window?["from"] as? [String: Any], to = window?["to"] as? [String: Any]
        if (from == nil) != (to == nil) { out.append((at, "from and to must be both provided or omitted")) }
        for (name, time) in [("from", from), ("to", to)] {
            guard let time else { continue }
            if !isInt(time["hour"], in: 0...23) { out.append(("\(at).\(name).hour", "must be between 0 and 23")) }
            if !isInt(time["minute"], in: 0...59) { out.append(("\(at).\(name).minute", "must be between 0 and 59")) }
        }
        if let from, let to, let fh = from["hour"] as? Int, let fm = from["minute"] as? Int, let th = to["hour"] as? Int,
           let tm = to["minute"] as? Int, (th * 60 + tm) - (fh * 60 + fm) < 60 {
            out.append((at, "from and to must be at least 1 hour apart"))
        }
        return out
    }

    private static func oneOf(_ value: Any?, _ allowed: Set<String>) -> Bool { (value as? String).map(allowed.contains) ?? false }

    private static func isInt(_ value: Any?, in range: ClosedRange<Int> = Int.min...Int.max) -> Bool {
        guard let number = value as? NSNumber, !isBool(number), number.doubleValue == number.doubleValue.rounded() else { return false }
        return range.contains(number.intValue)
    }

    /// JSON's true and false (Foundation reads them as NSNumbers of type "c"; `is Bool` also says yes for 0 and 1).
    private static func isBool(_ value: Any?) -> Bool {
        (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
    }
}
