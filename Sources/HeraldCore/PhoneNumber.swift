import Foundation
import CPhoneNumber

/// What libphonenumber says a number is.
public enum PhoneNumberKind: String, Sendable, Hashable, Codable {
    case fixedLine = "fixed-line"
    case mobile
    case fixedLineOrMobile = "fixed-line-or-mobile"
    case tollFree = "toll-free"
    case premiumRate = "premium-rate"
    case sharedCost = "shared-cost"
    case voip
    case personal
    case pager
    case uan
    case voicemail
    case unknown

    init(cValue: Int32) {
        switch cValue {
        case Int32(HPN_TYPE_FIXED_LINE): self = .fixedLine
        case Int32(HPN_TYPE_MOBILE): self = .mobile
        case Int32(HPN_TYPE_FIXED_LINE_OR_MOBILE): self = .fixedLineOrMobile
        case Int32(HPN_TYPE_TOLL_FREE): self = .tollFree
        case Int32(HPN_TYPE_PREMIUM_RATE): self = .premiumRate
        case Int32(HPN_TYPE_SHARED_COST): self = .sharedCost
        case Int32(HPN_TYPE_VOIP): self = .voip
        case Int32(HPN_TYPE_PERSONAL_NUMBER): self = .personal
        case Int32(HPN_TYPE_PAGER): self = .pager
        case Int32(HPN_TYPE_UAN): self = .uan
        case Int32(HPN_TYPE_VOICEMAIL): self = .voicemail
        default: self = .unknown
        }
    }

    /// Whether a number of this kind can receive an SMS invitation.
    public var canReceiveSMS: Bool {
        switch self {
        case .mobile, .fixedLineOrMobile, .personal, .voip: return true
        default: return false
        }
    }
}

/// A phone number as it was written and as libphonenumber understood it.
/// An invalid number keeps its raw text and the reason; it just cannot be invited.
public struct PhoneNumber: Sendable, Hashable, Codable {
    public var raw: String
    /// E.164 ("+385981234567") when the number parsed and is valid.
    public var e164: String?
    public var kind: PhoneNumberKind
    /// ISO region of the number ("HR"), nil when unknown.
    public var region: String?
    /// Why the number is not valid; nil when valid.
    public var invalidReason: String?

    public init(raw: String, e164: String?, kind: PhoneNumberKind, region: String?, invalidReason: String?) {
        self.raw = raw
        self.e164 = e164
        self.kind = kind
        self.region = region
        self.invalidReason = invalidReason
    }

    public var isValid: Bool { e164 != nil && invalidReason == nil }

    /// Valid and of a kind that receives SMS.
    public var isInvitable: Bool { isValid && kind.canReceiveSMS }

    /// E.164 without the plus, as the wire protocol writes addresses ("385981234567").
    public var msisdn: String? { e164.map { String($0.dropFirst()) } }
}

/// Errors about regions, raised before any number is looked at.
public enum PhoneRegionError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownRegion(String)

    public var description: String {
        switch self {
        case .unknownRegion(let r):
            return "unknown region \"\(r)\": use a two-letter ISO country code such as HR, US or NL"
        }
    }
}

/// Parses phone numbers with libphonenumber, relative to a default region.
public struct PhoneNumberParser: Sendable {
    /// Two-letter ISO region used for national numbers; nil when none is known.
    public let defaultRegion: String?

    /// The message given when a national number arrives and no region is set.
    public static let noRegionHelp =
        "national number without a country code and no default region: pass --region CC, set region = \"CC\" in config.toml, or set LANG (for example en_US.UTF-8)"

    public init(defaultRegion: String?) throws {
        if let region = defaultRegion?.uppercased(), !region.isEmpty {
            guard region.count == 2, hpn_is_supported_region(region) == 1 else {
                throw PhoneRegionError.unknownRegion(region)
            }
            self.defaultRegion = region
        } else {
            self.defaultRegion = nil
        }
    }

    /// The region implied by a POSIX locale value such as "hr_HR.UTF-8" or "en_US", if any.
    public static func region(fromLocale value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        let base = value.split(separator: ".").first.map(String.init) ?? value
        let noModifier = base.split(separator: "@").first.map(String.init) ?? base
        let parts = noModifier.split(separator: "_")
        guard parts.count >= 2 else { return nil }
        let region = parts[1].uppercased()
        guard region.count == 2, hpn_is_supported_region(region) == 1 else { return nil }
        return region
    }

    /// The default region from the environment: `LC_ALL`, then `LANG`.
    public static func regionFromEnvironment(_ env: [String: String]) -> String? {
        region(fromLocale: env["LC_ALL"]) ?? region(fromLocale: env["LC_MESSAGES"]) ?? region(fromLocale: env["LANG"])
    }

    /// Parses one number. Never throws: problems become `invalidReason`.
    public func parse(_ raw: String) -> PhoneNumber {
        // Most numbers reach here as plain digits ("+385981234567", "0981234567"): nothing to trim or strip.
        let plain = Self.isPlainDigits(raw)
        var text = plain ? raw : raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if !plain, text.lowercased().hasPrefix("tel:") {
            text = String(text.dropFirst(4))
            if let semi = text.firstIndex(of: ";") { text = String(text[..<semi]) }
        }
        if text.hasPrefix("00") { text = "+" + text.dropFirst(2) }
        if !plain && !text.contains(where: \.isNumber) {
            return PhoneNumber(raw: raw, e164: nil, kind: .unknown, region: nil, invalidReason: "not a phone number")
        }
        let international = text.hasPrefix("+")
        if !international && defaultRegion == nil {
            return PhoneNumber(raw: raw, e164: nil, kind: .unknown, region: nil, invalidReason: Self.noRegionHelp)
        }
        var result = hpn_result()
        text.withCString { t in
            (defaultRegion ?? "").withCString { r in hpn_parse(t, r, &result) }
        }
        if result.error != Int32(HPN_OK) {
            let reason: String
            switch result.error {
            case Int32(HPN_ERR_INVALID_COUNTRY_CODE): reason = "unknown country calling code"
            case Int32(HPN_ERR_TOO_SHORT_AFTER_IDD), Int32(HPN_ERR_TOO_SHORT): reason = "too short to be a phone number"
            case Int32(HPN_ERR_TOO_LONG): reason = "too long to be a phone number"
            default: reason = "not a phone number"
            }
            return PhoneNumber(raw: raw, e164: nil, kind: .unknown, region: nil, invalidReason: reason)
        }
        let e164 = withUnsafeBytes(of: result.e164) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let region = withUnsafeBytes(of: result.region) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let kind = PhoneNumberKind(cValue: result.type)
        let knownRegion = region == "ZZ" ? nil : region
        if result.valid == 0 {
            return PhoneNumber(raw: raw, e164: nil, kind: kind, region: knownRegion,
                               invalidReason: "not a valid number for \(knownRegion ?? "its country code") (\(e164))")
        }
        return PhoneNumber(raw: raw, e164: e164, kind: kind, region: knownRegion, invalidReason: nil)
    }

    /// Whether `raw` is ASCII digits, with at most a leading "+".
    private static func isPlainDigits(_ raw: String) -> Bool {
        var utf8 = raw.utf8[...]
        if utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty else { return false }
        for b in utf8 where b < UInt8(ascii: "0") || b > UInt8(ascii: "9") { return false }
        return true
    }

    /// An E.164 number as people read it ("+385 91 234 5678"); the E.164 text itself when it cannot be formatted.
    /// Formatting is a libphonenumber parse (tens of µs); the screens ask for the same numbers again
    /// and again, so answers are kept (up to 20,000).
    public static func readable(_ e164: String) -> String {
        if let known = ReadableCache.shared.get(e164) { return known }
        var buffer = [CChar](repeating: 0, count: 64)
        guard hpn_format_international(e164, &buffer, Int32(buffer.count)) == 1 else { return e164 }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        ReadableCache.shared.set(e164, text)
        return text
    }

    /// Country calling code of a region ("HR" → 385), nil when unknown.
    public static func callingCode(forRegion region: String) -> Int? {
        if let code = callingCodes[region] { return code }
        let code = hpn_country_code_for_region(region.uppercased())
        return code == 0 ? nil : Int(code)
    }

    /// The calling code of every region libphonenumber supports, asked once: the import looks one up
    /// for every number.
    private static let callingCodes: [String: Int] = {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard hpn_supported_regions(&buffer, Int32(buffer.count)) == 1 else { return [:] }
        var codes: [String: Int] = [:]
        let list = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for region in list.split(separator: " ").map(String.init) {
            let code = hpn_country_code_for_region(region)
            if code != 0 { codes[region] = Int(code) }
        }
        return codes
    }()
}

/// Formatted numbers already asked for (thread-safe; emptied when full).
private final class ReadableCache: @unchecked Sendable {
    static let shared = ReadableCache()
    private let lock = NSLock()
    private var formatted: [String: String] = [:]

    func get(_ e164: String) -> String? { lock.withLock { formatted[e164] } }

    func set(_ e164: String, _ text: String) {
        lock.withLock {
            if formatted.count >= 20_000 { formatted.removeAll(keepingCapacity: true) }
            formatted[e164] = text
        }
    }
}
