import Foundation

/// A request body as Infobip's published OpenAPI (SMS 3.x, schema `SmsRequestEnvelope` and what it refers to) describes
/// it: each object's properties with their types, the required ones, enum values, lengths and ranges, encoded by hand
/// (the spec carries no licence to vendor it). Every request the stand-in takes is checked against it whole; what does
/// not hold is answered as Infobip's E400, one violation per property (`messages[0].options.validityPeriod.amount`).
///
/// One rule is stricter than Infobip: a property the spec does not name is refused. Infobip ignores one, so a field Herald
/// put in the wrong place (a request option inside a message) would do nothing there, silently; here a test sees it.
/// Rules the schema cannot say (a time window's ends an hour apart, `sendAt`'s format and horizon) are
/// `StandInSendOptions`'.
indirect enum StandInSchema: Sendable {
    case string(maxLength: Int? = nil, oneOf: Set<String>? = nil, notBlank: Bool = false)
    case integer(ClosedRange<Int>? = nil)
    case boolean
    case array(StandInSchema, minItems: Int = 0)
    case object([String: StandInSchema], required: Set<String> = [])

    /// What does not hold in `value` at `path`, in the order the properties are named.
    func violations(of value: Any, at path: String) -> [(String, String)] {
        switch self {
        case .string(let maxLength, let oneOf, let notBlank):
            guard let text = value as? String else { return [(path, "must be a string")] }
            if let oneOf, !oneOf.contains(text) { return [(path, "must be one of \(oneOf.sorted())")] }
            if notBlank && text.trimmingCharacters(in: .whitespaces).isEmpty { return [(path, "must not be blank")] }
            if let maxLength, text.count > maxLength { return [(path, "size must be between 0 and \(maxLength)")] }
            return []
        case .integer(let range):
            guard let number = value as? NSNumber, !Self.isBool(number), number.doubleValue == number.doubleValue.rounded(),
                  abs(number.doubleValue) <= Double(Int32.max) else { return [(path, "must be an integer")] }
            if let range, !range.contains(number.intValue) {
                return [(path, "must be between \(range.lowerBound) and \(range.upperBound)")]
            }
            return []
        case .boolean:
            return Self.isBool(value) ? [] : [(path, "must be a boolean")]
        case .array(let item, let minItems):
            guard let items = value as? [Any] else { return [(path, "must be an array")] }
            if items.count < minItems { return [(path, "must not be empty")] }
            return items.enumerated().flatMap { i, element in
                element is NSNull ? [("\(path)[\(i)]", "must not be null")] : item.violations(of: element, at: "\(path)[\(i)]")
            }
        case .object(let properties, let required):
            guard let object = value as? [String: Any] else { return [(path, "must be an object")] }
            let at = { (key: String) in path.isEmpty ? key : "\(path).\(key)" }
            var out = required.sorted().filter { object[$0] == nil || object[$0] is NSNull }.map { (at($0), "must not be null") }
            for key in object.keys.sorted() {
                guard let schema = properties[key] else {
                    out.append((at(key), "is not a property of this object in Infobip's published schema"))
                    continue
                }
                guard let property = object[key], !(property is NSNull) else { continue }
                out += schema.violations(of: property, at: at(key))
            }
            return out
        }
    }

    /// JSON's true and false (Foundation reads them as NSNumbers of type "c"; `is Bool` also says yes for 0 and 1).
    static func isBool(_ value: Any?) -> Bool {
        (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false
    }

    // MARK: - POST /sms/3/messages

    static let timeUnits: Set = ["SECONDS", "MINUTES", "HOURS"]
    static let speedUnits: Set = ["MINUTE", "HOUR", "DAY"]
    static let days: Set = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]
    static let transliterations: Set = ["NONE", "TURKISH", "GREEK", "CYRILLIC", "SERBIAN_CYRILLIC", "CENTRAL_EUROPEAN", "BALTIC",
                                        "NON_UNICODE", "PORTUGUESE", "COLOMBIAN", "BULGARIAN_CYRILLIC", "ALL"]
    static let languageCodes: Set = ["NONE", "TR", "ES", "PT", "AUTODETECT"]
    static let recipientTypes: Set = ["BIREYSEL", "TACIR"]

    /// `DeliveryTime`: UTC.
    private static let deliveryTime = StandInSchema.object(["hour": .integer(0...23), "minute": .integer(0...59)],
                                                          required: ["hour", "minute"])

    /// `SmsMessage` with text content (`SmsTextContent`; the binary content of the spec's `oneOf` Herald never sends).
    private static let message = StandInSchema.object([
        "sender": .string(),
        "destinations": .array(.object(["to": .string(maxLength: 64, notBlank: true), "messageId": .string(maxLength: 200),
                                        "networkId": .integer()], required: ["to"]), minItems: 1),
        "content": .object([
            "text": .string(),
            "transliteration": .string(oneOf: transliterations),
            "language": .object(["languageCode": .string(oneOf: languageCodes), "singleShift": .boolean, "lockingShift": .boolean]),
        ], required: ["text"]),
        "options": .object([
            "platform": .object(["entityId": .string(maxLength: 255), "applicationId": .string(maxLength: 255)]),
            "validityPeriod": .object(["amount": .integer(), "timeUnit": .string(oneOf: timeUnits)], required: ["amount"]),
            "deliveryTimeWindow": .object(["days": .array(.string(oneOf: days), minItems: 1), "from": deliveryTime, "to": deliveryTime],
                                          required: ["days"]),
            "campaignReferenceId": .string(maxLength: 255),
            "regional": .object([
                "indiaDlt": .object(["contentTemplateId": .string(), "principalEntityId": .string(notBlank: true), "telemarketerId": .string()],
                                    required: ["principalEntityId"]),
                "turkeyIys": .object(["brandCode": .integer(), "recipientType": .string(oneOf: recipientTypes)], required: ["recipientType"]),
                "southKorea": .object(["title": .string(maxLength: 66), "resellerCode": .integer()]),
            ]),
            "flash": .boolean,
        ]),
        "webhooks": .object([
            "delivery": .object(["url": .string(), "intermediateReport": .boolean, "notify": .boolean]),
            "contentType": .string(),
            "callbackData": .string(maxLength: 4000),
        ]),
    ], required: ["destinations", "content"])

    /// `SmsRequestEnvelope`: the messages, and the options of the whole request (`SmsMessageRequestOptions`).
    static let smsSend = StandInSchema.object([
        "messages": .array(message, minItems: 1),
        "options": .object([
            "schedule": .object([
                "bulkId": .string(maxLength: 100),
                "sendAt": .string(),
                "sendingSpeedLimit": .object(["amount": .integer(), "timeUnit": .string(oneOf: speedUnits)], required: ["amount"]),
            ]),
            "tracking": .object(["shortenUrl": .boolean, "trackClicks": .boolean, "trackingUrl": .string(), "removeProtocol": .boolean,
                                 "customDomain": .string()]),
            "includeSmsCountInResponse": .boolean,
            "conversionTracking": .object(["useConversionTracking": .boolean, "conversionTrackingName": .string()]),
        ]),
    ], required: ["messages"])
}
