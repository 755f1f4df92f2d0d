import Testing
@testable import HeraldCore

@Suite struct PhoneNumberParserTests {
    @Test func usNationalNumberBecomesE164() throws {
        let n = try PhoneNumberParser(defaultRegion: "US").parse("(201) 555-0123")
        #expect(n.e164 == "+12015550123")
        #expect(n.region == "US")
        #expect(n.isValid)
        #expect(n.msisdn == "12015550123")
        #expect(n.raw == "(201) 555-0123")
    }

    @Test func dutchMobileIsInvitable() throws {
        let n = try PhoneNumberParser(defaultRegion: "NL").parse("06 12345678")
        #expect(n.e164 == "+31612345678")
        #expect(n.kind == .mobile)
        #expect(n.isInvitable)
    }

    @Test func reservedUKRangeIsInvalid() throws {
        let n = try PhoneNumberParser(defaultRegion: "US").parse("+44 7700 900123")
        #expect(n.e164 == nil)
        #expect(!n.isValid)
        #expect(!n.isInvitable)
        #expect(n.invalidReason?.contains("not a valid number") == true)
    }

    @Test func tooShortIsInvalid() throws {
        let n = try PhoneNumberParser(defaultRegion: "US").parse("12")
        #expect(!n.isValid)
        #expect(n.invalidReason != nil)
    }

    @Test func nationalNumberWithoutRegionExplainsWhatToDo() throws {
        let n = try PhoneNumberParser(defaultRegion: nil).parse("06 12345678")
        #expect(!n.isValid)
        #expect(n.invalidReason == PhoneNumberParser.noRegionHelp)
        #expect(PhoneNumberParser.noRegionHelp.contains("--region"))
    }

    @Test func internationalNumberNeedsNoRegion() throws {
        let n = try PhoneNumberParser(defaultRegion: nil).parse("+31 6 12345678")
        #expect(n.e164 == "+31612345678")
        #expect(n.region == "NL")
    }

    @Test func telURIsAreUnderstood() throws {
        let p = try PhoneNumberParser(defaultRegion: nil)
        #expect(p.parse("tel:+31-6-12345678").e164 == "+31612345678")
        #expect(p.parse("TEL:+31612345678;ext=12").e164 == "+31612345678")
    }

    @Test func doubleZeroPrefixIsInternational() throws {
        let n = try PhoneNumberParser(defaultRegion: nil).parse("0031 6 12345678")
        #expect(n.e164 == "+31612345678")
    }

    @Test func textWithoutDigitsIsNotANumber() throws {
        let n = try PhoneNumberParser(defaultRegion: "US").parse("call me")
        #expect(n.invalidReason == "not a phone number")
    }

    @Test func lowercaseRegionIsAccepted() throws {
        #expect(try PhoneNumberParser(defaultRegion: "nl").defaultRegion == "NL")
        #expect(try PhoneNumberParser(defaultRegion: "").defaultRegion == nil)
    }

    @Test func unknownRegionIsAClearError() {
        #expect(throws: PhoneRegionError.unknownRegion("XX")) { try PhoneNumberParser(defaultRegion: "XX") }
        #expect(throws: PhoneRegionError.unknownRegion("USA")) { try PhoneNumberParser(defaultRegion: "USA") }
        #expect(PhoneRegionError.unknownRegion("XX").description.contains("two-letter"))
    }

    @Test func regionFromLocale() {
        #expect(PhoneNumberParser.region(fromLocale: "hr_HR.UTF-8") == "HR")
        #expect(PhoneNumberParser.region(fromLocale: "en_US") == "US")
        #expect(PhoneNumberParser.region(fromLocale: "sr_RS@latin") == "RS")
        #expect(PhoneNumberParser.region(fromLocale: "C.UTF-8") == nil)
        #expect(PhoneNumberParser.region(fromLocale: "POSIX") == nil)
        #expect(PhoneNumberParser.region(fromLocale: "") == nil)
        #expect(PhoneNumberParser.region(fromLocale: nil) == nil)
    }

    @Test func regionFromEnvironmentPrefersLCALL() {
        #expect(PhoneNumberParser.regionFromEnvironment(["LANG": "hr_HR.UTF-8"]) == "HR")
        #expect(PhoneNumberParser.regionFromEnvironment(["LC_ALL": "nl_NL.UTF-8", "LANG": "hr_HR.UTF-8"]) == "NL")
        #expect(PhoneNumberParser.regionFromEnvironment(["LC_ALL": "C", "LANG": "hr_HR.UTF-8"]) == "HR")
        #expect(PhoneNumberParser.regionFromEnvironment([:]) == nil)
    }

    @Test func callingCodes() {
        #expect(PhoneNumberParser.callingCode(forRegion: "HR") == 385)
        #expect(PhoneNumberParser.callingCode(forRegion: "us") == 1)
        #expect(PhoneNumberParser.callingCode(forRegion: "XX") == nil)
    }

    @Test func croatianFixedLineCannotReceiveSMS() throws {
        let n = try PhoneNumberParser(defaultRegion: "HR").parse("01 234 5678")
        #expect(n.isValid)
        #expect(n.kind == .fixedLine)
        #expect(!n.isInvitable)
        let m = try PhoneNumberParser(defaultRegion: "HR").parse("091 234 5678")
        #expect(m.e164 == "+385912345678")
        #expect(m.isInvitable)
    }
}
