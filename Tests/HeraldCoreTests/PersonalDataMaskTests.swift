import Testing
import HeraldCore

/// Numbers and addresses as a viewer key sees them: country code, the first group, bullets, the last digits.
@Suite struct PersonalDataMaskTests {
    @Test(arguments: [
        ("+385981234567", "+385 98 ••• 4567"),          // Croatia: 9 national digits
        ("385981234567", "+385 98 ••• 4567"),           // the wire's E.164 without the plus
        ("tel:+385981234567", "+385 98 ••• 4567"),      // the push variant's form
        ("00385981234567", "+385 98 ••• 4567"),
        ("+12015550123", "+1 201 ••• 0123"),            // US: the area code shown, three digits hidden
        ("+447911123456", "+44 791 ••• 3456"),          // UK mobile: the first group cut so three digits stay hidden
        ("+4915123456789", "+49 1512 ••• 6789"),        // Germany: 11 national digits
        ("+31612345678", "+31 6 ••• 5678"),             // Netherlands
        ("+33612345678", "+33 6 ••• 5678"),             // France
    ])
    func phoneNumbersKeepCountryCodeFirstGroupAndLastFour(number: String, masked: String) {
        #expect(PersonalDataMask.mask(number) == masked)
    }

    @Test func shortNumbersHideMostOfTheirDigits() {
        // Niue: 4 national digits: one kept, three hidden, no first group.
        #expect(PersonalDataMask.mask("+6837290") == "+683 ••• 0")
        // Something libphonenumber does not read (a short code): at most a third of the digits kept.
        #expect(PersonalDataMask.mask("12345") == "••• 5")
        #expect(PersonalDataMask.mask("1234") == "••• 4")
        #expect(PersonalDataMask.mask("12") == "12")
        for number in ["+6837290", "+385981234567", "+12015550123", "+4915123456789"] {
            let shown = PersonalDataMask.mask(number).filter(\.isNumber)
            let digits = number.filter(\.isNumber)
            #expect(digits.count - shown.count >= 3, "\(number): fewer than three digits hidden")
        }
    }

    @Test func emailAddressesKeepTheirFirstLetterAndDomain() {
        #expect(PersonalDataMask.mask("ana@example.com") == "a•••@example.com")
        #expect(PersonalDataMask.mask("a@example.com") == "•••@example.com")
        #expect(PersonalDataMask.mask("ivana.horvat+news@mail.example.hr") == "i•••@mail.example.hr")
    }

    @Test func maskingTwiceChangesNothing() {
        for address in ["+385981234567", "ana@example.com", "12345", "+12015550123"] {
            let once = PersonalDataMask.mask(address)
            #expect(PersonalDataMask.mask(once) == once)
            #expect(PersonalDataMask.maskText(once) == once)
        }
    }

    @Test func textKeepsIdsDatesAndPricesButMasksNumbersAndAddresses() {
        #expect(PersonalDataMask.maskText("+385981234567 opted out by replying (reply: STOP)")
                    == "+385 98 ••• 4567 opted out by replying (reply: STOP)")
        #expect(PersonalDataMask.maskText("385981234567 is not a number that takes SMS") == "+385 98 ••• 4567 is not a number that takes SMS")
        #expect(PersonalDataMask.maskText("call +385 98 123 4567 or write to ana@example.com.")
                    == "call +385 98 ••• 4567 or write to a•••@example.com.")
        let plain = "opted out on 2026-11-26; bulk b-20261126-1234567 cost 0.0123 EUR; msg 8f3a1234567bc"
        #expect(PersonalDataMask.maskText(plain) == plain)
        #expect(PersonalDataMask.maskText("absent subscriber") == "absent subscriber")
    }
}
