/// The alphabet an SMS is sent in.
public enum SMSEncoding: String, Sendable, Hashable, Codable {
    /// GSM 03.38 default alphabet, 7-bit septets: 160 per single message, 153 per part.
    case gsm7 = "GSM-7"
    /// UCS-2 (UTF-16 units): 70 per single message, 67 per part.
    case ucs2 = "UCS-2"

    /// Units a message of one segment can hold.
    public var singleSegmentLimit: Int { self == .gsm7 ? 160 : 70 }
    /// Units each part of a concatenated message can hold (the rest is the concatenation header).
    public var multipartSegmentLimit: Int { self == .gsm7 ? 153 : 67 }
}

/// A character that forced UCS-2, with every place it appears.
public struct SMSUCS2Culprit: Sendable, Hashable {
    public let character: Character
    /// Offsets in Characters (grapheme clusters) from the start of the text, ascending.
    public let positions: [Int]
}

/// What an SMS text costs.
public struct SMSMeasurement: Sendable, Hashable {
    public let encoding: SMSEncoding
    /// Number of SMS parts; 0 for an empty text.
    public let segments: Int
    /// Characters (grapheme clusters) in the text.
    public let characters: Int
    /// Units used: septets for GSM-7 (extension characters count 2), UTF-16 units for UCS-2
    /// (characters outside the BMP count 2).
    public let units: Int
    /// Units still free in the last segment before another segment is needed.
    public let unitsLeftInSegment: Int
    /// Capacity of each segment for this text: 160/70 while it fits in one, else 153/67.
    public let segmentLimit: Int
    /// GSM-7 extension characters used (each costs 2 septets); 0 in UCS-2.
    public let extensionCharacters: Int
    /// Characters that are not in the GSM-7 alphabet, distinct, in order of first appearance;
    /// empty when the text is GSM-7.
    public let ucs2Culprits: [SMSUCS2Culprit]
}

/// Counts SMS segments the way carriers do: GSM 03.38 default alphabet plus its extension table
/// when every character fits, else UCS-2. A GSM extension character (escape + char) or a UTF-16
/// surrogate pair is never split across two parts, so a part may end one unit short.
public enum SMSMeter {
    /// The GSM 03.38 default alphabet (basic table), in code order.
    public static let basicTable: [Unicode.Scalar] = Array(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u{1B}ÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
            + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà").unicodeScalars)

    /// The GSM 03.38 extension table (each costs an escape septet plus its own): form feed ^ { } \ [ ~ ] | €.
    public static let extensionTable: [Unicode.Scalar] = Array("\u{0C}^{}\\[~]|€".unicodeScalars)

    private static let basicSet: Set<Unicode.Scalar> = {
        var s = Set(basicTable)
        s.remove("\u{1B}")  // the escape code itself is not a character people write
        return s
    }()
    private static let extensionSet: Set<Unicode.Scalar> = Set(extensionTable)

    /// Septets a scalar costs in GSM-7: 1 (basic), 2 (extension) or nil (not in GSM-7).
    public static func gsmSeptets(_ scalar: Unicode.Scalar) -> Int? {
        if basicSet.contains(scalar) { return 1 }
        if extensionSet.contains(scalar) { return 2 }
        return nil
    }

    /// Whether the whole text can be sent in GSM-7.
    public static func isGSM7(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { gsmSeptets($0) != nil }
    }

    /// Encoding, segments, units and culprits of `text`.
    public static func measure(_ text: String) -> SMSMeasurement {
        var characters = 0
        var culpritOrder: [Character] = []
        var culpritPositions: [Character: [Int]] = [:]
        var septetCosts: [Int] = []
        var extensionCount = 0
        for ch in text {
            var forcesUCS2 = false
            for scalar in ch.unicodeScalars {
                if let cost = gsmSeptets(scalar) {
                    septetCosts.append(cost)
                    if cost == 2 { extensionCount += 1 }
                } else {
                    forcesUCS2 = true
                }
            }
            if forcesUCS2 {
                if culpritPositions[ch] == nil { culpritOrder.append(ch) }
                culpritPositions[ch, default: []].append(characters)
            }
            characters += 1
        }

        let encoding: SMSEncoding
        let costs: [Int]
        if culpritOrder.isEmpty {
            encoding = .gsm7
            costs = septetCosts
        } else {
            encoding = .ucs2
            costs = text.unicodeScalars.map { $0.value > 0xFFFF ? 2 : 1 }
            extensionCount = 0
        }
        let units = costs.reduce(0, +)
        let (segments, leftInLast, limit) = pack(costs, units: units, encoding: encoding)
        return SMSMeasurement(
            encoding: encoding, segments: segments, characters: characters, units: units,
            unitsLeftInSegment: leftInLast, segmentLimit: limit, extensionCharacters: extensionCount,
            ucs2Culprits: culpritOrder.map { SMSUCS2Culprit(character: $0, positions: culpritPositions[$0] ?? []) })
    }

    /// Fills segments greedily with indivisible costs (1 or 2 units).
    private static func pack(_ costs: [Int], units: Int, encoding: SMSEncoding) -> (segments: Int, left: Int, limit: Int) {
        let single = encoding.singleSegmentLimit
        if units == 0 { return (0, single, single) }
        if units <= single { return (1, single - units, single) }
        let part = encoding.multipartSegmentLimit
        var segments = 1
        var used = 0
        for cost in costs {
            if used + cost > part {
                segments += 1
                used = 0
            }
            used += cost
        }
        return (segments, part - used, part)
    }
}
