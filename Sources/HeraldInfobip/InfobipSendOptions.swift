import Foundation

/// What a sender sets on Infobip for every message (`[infobip.send]`), put on the wire exactly where and as Infobip's
/// SMS API v3 names it: validity period, delivery time window, campaign reference and regional fields per message;
/// transliteration and language in the content; sending speed limit, URL shortening and click tracking, and conversion
/// tracking for the request. Values are checked against the published limits when they are set.
public struct InfobipSendOptions: Sendable, Hashable {
    /// How long Infobip keeps trying (at most 48 hours).
    public var validity: InfobipSendRequest.ValidityPeriod?
    /// Days and UTC hours messages may be delivered in.
    public var deliveryWindow: InfobipSendRequest.DeliveryTimeWindow?
    public var campaignReferenceId: String?
    public var indiaDlt: InfobipSendRequest.IndiaDlt?
    public var turkeyIys: InfobipSendRequest.TurkeyIys?
    public var transliteration: String?
    public var languageCode: String?
    /// At most this many messages a minute, hour or day.
    public var speedLimit: InfobipSendRequest.SpeedLimit?
    public var tracking: InfobipSendRequest.Tracking?
    public var conversionTrackingName: String?

    public init() {}

    public static let timeUnits = ["SECONDS", "MINUTES", "HOURS"]
    public static let speedUnits = ["MINUTE", "HOUR", "DAY"]
    public static let days = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
    public static let transliterations = ["NONE", "TURKISH", "GREEK", "CYRILLIC", "SERBIAN_CYRILLIC", "CENTRAL_EUROPEAN",
                                          "BALTIC", "NON_UNICODE", "PORTUGUESE", "COLOMBIAN", "BULGARIAN_CYRILLIC", "ALL"]
    public static let languageCodes = ["NONE", "TR", "ES", "PT", "AUTODETECT"]
    public static let turkeyRecipientTypes = ["BIREYSEL", "TACIR"]
    public static let campaignReferenceLimit = 255

    /// Whether nothing is set (the request stays as it was).
    public var isEmpty: Bool { self == InfobipSendOptions() }

    /// Puts the options on every message of `request` and on the request.
    public func apply(to request: inout InfobipSendRequest) {
        guard !isEmpty else { return }
        let perMessage = InfobipSendRequest.MessageOptions(
            validityPeriod: validity, deliveryTimeWindow: deliveryWindow, campaignReferenceId: campaignReferenceId,
            regional: indiaDlt == nil && turkeyIys == nil ? nil : .init(indiaDlt: indiaDlt, turkeyIys: turkeyIys))
        let hasMessageOptions = perMessage != InfobipSendRequest.MessageOptions()
        for i in request.messages.indices {
            if hasMessageOptions { request.messages[i].options = perMessage }
            request.messages[i].content.transliteration = transliteration
            request.messages[i].content.language = languageCode.map { .init(languageCode: $0) }
        }
        var options = request.options ?? InfobipSendRequest.Options()
        if let speedLimit {
            var schedule = options.schedule ?? InfobipSendRequest.Schedule()
            schedule.sendingSpeedLimit = speedLimit
            options.schedule = schedule
        }
        options.tracking = tracking
        options.conversionTracking = conversionTrackingName.map { .init(useConversionTracking: true, conversionTrackingName: $0) }
        request.options = options
    }

    // MARK: parsing the values people write

    /// "90m", "2h", "3600s" (or a plain number of minutes) as Infobip's validity period; at most 48 hours.
    public static func validity(_ text: String) throws(InfobipOptionError) -> InfobipSendRequest.ValidityPeriod {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, unit: String, seconds: Int)] = [("s", "SECONDS", 1), ("m", "MINUTES", 60), ("h", "HOURS", 3_600)]
        let unit = units.first { trimmed.hasSuffix($0.suffix) } ?? ("", "MINUTES", 60)
        guard let amount = Int(trimmed.dropLast(unit.suffix.count)), amount > 0 else {
            throw InfobipOptionError("\"\(text)\" is not a period: write it like \"90m\", \"2h\" or \"3600s\"")
        }
        guard amount <= 48 * 3_600 / unit.seconds else {
            throw InfobipOptionError("\"\(text)\" is longer than Infobip's 48 hours")
        }
        return .init(amount: amount, timeUnit: unit.unit)
    }

    /// "100/minute", "5000/hour", "20000/day" as a sending speed limit.
    public static func speedLimit(_ text: String) throws(InfobipOptionError) -> InfobipSendRequest.SpeedLimit {
        let parts = text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let amount = Int(parts[0]), amount > 0, speedUnits.contains(parts[1].uppercased()) else {
            throw InfobipOptionError("\"\(text)\" is not a speed: write it like \"100/minute\", \"5000/hour\" or \"20000/day\"")
        }
        return .init(amount: amount, timeUnit: parts[1].uppercased())
    }

    /// "08:30" as a time of day (UTC, as Infobip takes it).
    public static func time(_ text: String) throws(InfobipOptionError) -> InfobipSendRequest.DeliveryTime {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else {
            throw InfobipOptionError("\"\(text)\" is not a time of day: write it like \"08:30\" (UTC)")
        }
        return .init(hour: hour, minute: minute)
    }

    /// A delivery time window from day names and optional UTC hours: at least one day; from and to both or neither,
    /// at least an hour apart.
    public static func deliveryWindow(days names: [String], from: String?, to: String?)
        throws(InfobipOptionError) -> InfobipSendRequest.DeliveryTimeWindow {
        let days = names.map { $0.uppercased() }
        guard !days.isEmpty else { throw InfobipOptionError("name at least one day, like [\"MONDAY\", \"FRIDAY\"]") }
        if let wrong = days.first(where: { !Self.days.contains($0) }) {
            throw InfobipOptionError("\"\(wrong)\" is not a day (\(Self.days.joined(separator: ", ")))")
        }
        switch (from, to) {
        case (nil, nil): return .init(days: days, from: nil, to: nil)
        case (let from?, let to?):
            let start = try time(from), end = try time(to)
            let minutes = (end.hour * 60 + end.minute) - (start.hour * 60 + start.minute)
            guard minutes >= 60 else { throw InfobipOptionError("from \(from) to \(to) is less than the hour Infobip asks for") }
            return .init(days: days, from: start, to: end)
        default: throw InfobipOptionError("set both delivery_from and delivery_to, or neither")
        }
    }

    /// `value` when it is one of `allowed` (any case), sent as Infobip spells it.
    public static func oneOf(_ value: String, _ allowed: [String]) throws(InfobipOptionError) -> String {
        guard allowed.contains(value.uppercased()) else {
            throw InfobipOptionError("\"\(value)\" is not one of \(allowed.joined(separator: ", "))")
        }
        return value.uppercased()
    }
}

/// A sender option that does not fit Infobip's published limits; says what to write instead.
public struct InfobipOptionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
