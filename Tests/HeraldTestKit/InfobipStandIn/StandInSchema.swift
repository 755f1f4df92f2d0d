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

    /// What does not hold in `value`, each violation with its property path (`messages[0].content.text`). The path is
    /// only spelled out for a violation: a request that holds costs no strings.
    func violations(of value: Any) -> [(String, String)] {
        var path: [PathStep] = []
        var out: [(String, String)] = []
        check(value, &path, &out)
        return out.sorted { $0.0 < $1.0 }
    }

    enum PathStep {
        case key(String)
        case index(Int)
    }

    private static func spelled(_ path: [PathStep]) -> String {
        path.reduce(into: "") { text, step in
            switch step {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let i): text += "[\(i)]"
            }
        }
    }

    private func check(_ value: Any, _ path: inout [PathStep], _ out: inout [(String, String)]) {
        func refuse(_ why: String) { out.append((Self.spelled(path), why)) }
        switch self {
        case .string(let maxLength, let oneOf, let notBlank):
            guard let text = value as? String else { return refuse("must be a string") }
            if let oneOf, !oneOf.contains(text) { return refuse("must be one of \(oneOf.sorted())") }
            if notBlank && text.allSatisfy({ $0 == " " }) { return refuse("must not be blank") }
            if let maxLength, text.count > maxLength { refuse("size must be between 0 and \(maxLength)") }
        case .integer(let range):
            guard let number = value as? NSNumber, !Self.isBool(number), number.doubleValue == number.doubleValue.rounded(),
                  abs(number.doubleValue) <= Double(Int32.max) else { return refuse("must be an integer") }
            if let range, !range.contains(number.intValue) { refuse("must be between \(range.lowerBound) and \(range.upperBound)") }
        case .boolean:
            if !Self.isBool(value) { refuse("must be a boolean") }
        case .array(let item, let minItems):
            guard let items = value as? [Any] else { return refuse("must be an array") }
            if items.count < minItems { return refuse("must not be empty") }
            for (i, element) in items.enumerated() {
                path.append(.index(i))
                if element is NSNull { refuse("must not be null") } else { item.check(element, &path, &out) }
                path.removeLast()
            }
        case .object(let properties, let required):
            guard let object = value as? [String: Any] else { return refuse("must be an object") }
            for key in required where object[key] == nil || object[key] is NSNull {
                path.append(.key(key))
                refuse("must not be null")
                path.removeLast()
            }
            for (key, property) in object {
                path.append(.key(key))
                if let schema = properties[key] {
                    if !(property is NSNull) { schema.check(property, &path, &out) }
                } else {
                    refuse("is not a property of this object in Infobip's published schema")
                }
                path.removeLast()
            }
        }
    }

    /// JSON's true and false (Foundation reads them as NSNumbers of type "c"; `is Bool` also says yes for 0 and 1).
    static func isBool(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return number.objCType.pointee == CChar(UInt8(ascii: "c"))
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
    /// The stand-in asks for a sender, where Infobip would use the account's default one (Herald always names one).
    private static let message = StandInSchema.object([
        "sender": .string(notBlank: true),
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
    ], required: ["sender", "destinations", "content"])

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
