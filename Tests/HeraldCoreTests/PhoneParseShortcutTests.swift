import CPhoneNumber
import Testing

/// `hpn_parse` takes numbers written "+" and digits apart without libphonenumber's regular expressions; a
/// mistake there would send an invitation to the wrong number. Every answer must equal libphonenumber's own.
@Suite struct PhoneParseShortcutTests {
    private static func fields(_ text: String, region: String, reference: Bool) -> [String] {
        var r = hpn_result()
        text.withCString { t in region.withCString { g in reference ? hpn_parse_reference(t, g, &r) : hpn_parse(t, g, &r) } }
        let e164 = withUnsafeBytes(of: r.e164) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let place = withUnsafeBytes(of: r.region) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return ["\(r.error)", "\(r.valid)", "\(r.type)", "\(r.countryCode)", e164, place]
    }

    @Test func everyCallingCodeAndLengthAgreesWithLibphonenumber() {
        var state: UInt64 = 0x2545F4914F6CDD1D
        func next(_ bound: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var checked = 0, mismatches: [String] = []
        for code in 1...999 {
            for _ in 0..<24 {
                // National parts of 1 to 15 digits, a third of them starting with a digit national
                // prefixes use (0, 1, 8), so that both the shortcut and the fallback are exercised.
                var national = ""
                if next(3) == 0 { national += ["0", "1", "8", "06", "15"][next(5)] }
                for _ in 0..<(1 + next(15)) { national += String(next(10)) }
                let text = "+\(code)\(national)"
                for region in ["HR", "US", ""] {
                    let fast = Self.fields(text, region: region, reference: false)
                    let reference = Self.fields(text, region: region, reference: true)
                    checked += 1
                    if fast != reference { mismatches.append("\(text) [\(region)]: \(fast) vs \(reference)") }
                }
            }
        }
        #expect(checked > 70_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(5))")
    }

    @Test func shortcutAnswersWhatPeopleWrite() {
        #expect(Self.fields("+385981234567", region: "HR", reference: false) == ["0", "1", "1", "385", "+385981234567", "HR"])
        #expect(Self.fields("+14155552671", region: "", reference: false)[3...4] == ["1", "+14155552671"])
        #expect(Self.fields("+999123456", region: "HR", reference: false)[0] == "\(HPN_ERR_INVALID_COUNTRY_CODE)")
    }
}
