import CPhoneNumber
import Testing

/// `hpn_parse` takes numbers written in digits apart, and finds their type and region, without
/// libphonenumber's regular expressions; a mistake there would send an invitation to the wrong number or
/// an SMS to a fax line. Every answer must equal libphonenumber's own.
@Suite struct PhoneParseShortcutTests {
    private static func fields(_ text: String, region: String, reference: Bool) -> [String] {
        var r = hpn_result()
        text.withCString { t in region.withCString { g in reference ? hpn_parse_reference(t, g, &r) : hpn_parse(t, g, &r) } }
        let e164 = withUnsafeBytes(of: r.e164) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let place = withUnsafeBytes(of: r.region) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return ["\(r.error)", "\(r.valid)", "\(r.type)", "\(r.countryCode)", e164, place]
    }

    /// Parses `text` under `region` both ways; counts the comparison and notes a difference.
    private static func compare(_ text: String, region: String, checked: inout Int, mismatches: inout [String]) {
        let fast = fields(text, region: region, reference: false)
        let reference = fields(text, region: region, reference: true)
        checked += 1
        if fast != reference { mismatches.append("\(text) [\(region)]: \(fast) vs \(reference)") }
    }

    /// A xorshift generator: the same numbers on every run.
    private struct Draws {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    @Test func everyCallingCodeAndLengthAgreesWithLibphonenumber() {
        var draws = Draws(state: 0x2545F4914F6CDD1D)
        var checked = 0, mismatches: [String] = []
        for code in 1...999 {
            for _ in 0..<24 {
                // National parts of 1 to 15 digits, a third of them starting with a digit national
                // prefixes use (0, 1, 8), so that both the shortcut and the fallback are exercised.
                var national = ""
                if draws.next(3) == 0 { national += ["0", "1", "8", "06", "15"][draws.next(5)] }
                for _ in 0..<(1 + draws.next(15)) { national += String(draws.next(10)) }
                for region in ["HR", "US", ""] {
                    Self.compare("+\(code)\(national)", region: region, checked: &checked, mismatches: &mismatches)
                }
            }
        }
        #expect(checked > 70_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
    }

    private static func regions() -> [String] {
        var buffer = [CChar](repeating: 0, count: 4096)
        #expect(hpn_supported_regions(&buffer, Int32(buffer.count)) == 1)
        return Self.text(buffer).split(separator: " ").map(String.init)
    }

    /// The C string a buffer holds.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Numbers of every kind libphonenumber knows, in every region, written in E.164 and nationally, and
    /// their neighbours (a digit changed, added or dropped), parsed under their own region, others and none.
    @Test func everyRegionAndTypeAgreesWithLibphonenumber() {
        let regions = Self.regions()
        #expect(regions.count > 200)
        var checked = 0, kinds = Set<String>(), mismatches: [String] = []
        for region in regions {
            for type in HPN_TYPE_FIXED_LINE...HPN_TYPE_VOICEMAIL {
                var e164 = [CChar](repeating: 0, count: 64), national = [CChar](repeating: 0, count: 64)
                guard hpn_example_number(region, Int32(type), &e164, &national, 64) == 1 else { continue }
                var forms: [String] = []
                // E.164, the national format's digits, and the bare national number (which may itself
                // start with the region's national prefix: Russia's 800 numbers and its prefix 8).
                let international = Self.text(e164)
                let code = String(hpn_country_code_for_region(region))
                let bare = String(international.dropFirst(1 + code.count))
                for written in [international, String(Self.text(national).filter(\.isNumber)), bare] {
                    let last = written.last.flatMap(\.wholeNumberValue) ?? 0
                    forms += [written, String(written.dropLast()) + String((last + 1) % 10), written + "5",
                              String(written.dropLast())]
                }
                for text in forms {
                    kinds.insert(Self.fields(text, region: region, reference: true)[2])
                    for parsingRegion in [region, "HR", "US", ""] {
                        Self.compare(text, region: parsingRegion, checked: &checked, mismatches: &mismatches)
                    }
                }
            }
        }
        #expect(checked > 20_000)
        #expect(kinds.count == 12, "every type and unknown: \(kinds.sorted())")
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
    }

    /// Digits written without "+" under every region: national prefixes, international call prefixes,
    /// the region's own calling code, leading zeros, and lengths from 1 to 19.
    @Test func nationalDigitsAgreeWithLibphonenumberInEveryRegion() {
        var draws = Draws(state: 0x9E3779B97F4A7C15)
        var checked = 0, mismatches: [String] = []
        for region in Self.regions() {
            let code = String(hpn_country_code_for_region(region))
            for _ in 0..<60 {
                var text = ["", "", "0", "0", "00", "8", "1", "011", "000", code, "0" + code][draws.next(11)]
                for _ in 0..<(1 + draws.next(16)) { text += String(draws.next(10)) }
                Self.compare(text, region: region, checked: &checked, mismatches: &mismatches)
            }
        }
        #expect(checked > 12_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
    }

    @Test func shortcutAnswersWhatPeopleWrite() {
        #expect(Self.fields("+385981234567", region: "HR", reference: false) == ["0", "1", "1", "385", "+385981234567", "HR"])
        #expect(Self.fields("+14155552671", region: "", reference: false)[3...4] == ["1", "+14155552671"])
        #expect(Self.fields("+999123456", region: "HR", reference: false)[0] == "\(HPN_ERR_INVALID_COUNTRY_CODE)")
        // Written nationally: the national prefix goes, the type and region stay.
        #expect(Self.fields("0981234567", region: "HR", reference: false) == ["0", "1", "1", "385", "+385981234567", "HR"])
        #expect(Self.fields("0112345678", region: "HR", reference: false)[4] == "+385112345678")
        // Italy keeps its leading zero; the United States its area code, whatever kind of line it is.
        #expect(Self.fields("0612345678", region: "IT", reference: false)[4...5] == ["+390612345678", "IT"])
        #expect(Self.fields("2015550123", region: "US", reference: false)[4...5] == ["+12015550123", "US"])
    }
}
