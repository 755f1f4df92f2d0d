import Testing
@testable import HeraldCore

@Suite struct SenderIDTests {
    @Test func numericUpToSixteenDigits() throws {
        #expect(try SenderID.validate("385981234567") == .numeric)
        #expect(try SenderID.validate("+385981234567") == .numeric)
        #expect(try SenderID.validate("1234567890123456") == .numeric)
        #expect(throws: SenderIDError.numericTooLong("12345678901234567", length: 17)) {
            try SenderID.validate("12345678901234567")
        }
        #expect(SenderID.problem("12345678901234567") == "numeric sender IDs are at most 16 digits; \"12345678901234567\" has 17")
    }

    @Test func alphanumericUpToElevenCharacters() throws {
        #expect(try SenderID.validate("InfoSMS") == .alphanumeric)
        #expect(try SenderID.validate("Herald2026") == .alphanumeric)
        #expect(try SenderID.validate("1stChoice") == .alphanumeric)
        #expect(SenderID.problem("HeraldInvites2") == "alphanumeric sender IDs are at most 11 characters; \"HeraldInvites2\" has 14")
    }

    @Test func emptyAndBlank() {
        #expect(throws: SenderIDError.empty) { try SenderID.validate("") }
        #expect(throws: SenderIDError.empty) { try SenderID.validate("   ") }
        #expect(SenderID.problem("")?.contains("empty") == true)
    }

    @Test func onlyLettersAndDigitsNoSpacesNoPunctuation() {
        #expect(throws: SenderIDError.invalidCharacter("Her ald!", character: " ", position: 4)) { try SenderID.validate("Her ald!") }
        #expect(SenderID.problem("Her ald!") == "\"Her ald!\" has a space at position 4; sender IDs are letters A-Z, a-z and digits 0-9 only (a numeric one may start with +)")
        #expect(throws: SenderIDError.invalidCharacter("Herald!", character: "!", position: 7)) { try SenderID.validate("Herald!") }
        #expect(throws: SenderIDError.invalidCharacter(" Herald", character: " ", position: 1)) { try SenderID.validate(" Herald") }
        #expect(throws: SenderIDError.invalidCharacter("+Herald", character: "+", position: 1)) { try SenderID.validate("+Herald") }
        #expect(throws: SenderIDError.invalidCharacter("Herald Inv.", character: " ", position: 7)) { try SenderID.validate("Herald Inv.") }
    }

    @Test func nonGSMSafeCharactersNameTheCharacterAndPosition() {
        #expect(throws: SenderIDError.invalidCharacter("Herald€", character: "€", position: 7)) {
            try SenderID.validate("Herald€")
        }
        #expect(SenderID.problem("Čajna")?.hasPrefix("\"Čajna\" has \"Č\" at position 1") == true)
        #expect(SenderID.problem("Ana\tB")?.contains("U+0009 at position 4") == true)
        #expect(SenderID.problem("Héra") != nil)
    }

    @Test func needsALetterUnlessDigitsOnly() {
        #expect(throws: SenderIDError.noLetter("+")) { try SenderID.validate("+") }
        #expect(throws: SenderIDError.invalidCharacter("12 34", character: " ", position: 3)) { try SenderID.validate("12 34") }
        #expect(throws: SenderIDError.invalidCharacter("123-456", character: "-", position: 4)) { try SenderID.validate("123-456") }
    }

    @Test func validIDHasNoProblemAndKeepsItsText() throws {
        #expect(SenderID.problem("Herald") == nil)
        let id = try SenderID("Herald")
        #expect(id.value == "Herald")
        #expect(id.kind == .alphanumeric)
        #expect(id.description == "Herald")
    }

    @Test func asYouTypeHintsChangeWithTheText() {
        let typed = ["H", "He", "Herald", "HeraldInvit", "HeraldInvite"]
        let problems = typed.map { SenderID.problem($0) }
        #expect(problems[0..<4].allSatisfy { $0 == nil })
        #expect(problems[4]?.contains("has 12") == true)
    }
}
