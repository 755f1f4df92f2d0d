import Testing
@testable import HeraldCore

/// Which of a person's numbers an SMS invitation goes to.
@Suite struct SMSNumberChoiceTests {
    let hr = try! PhoneNumberParser(defaultRegion: "HR")
    let us = try! PhoneNumberParser(defaultRegion: "US")

    func person(_ phones: [(String?, PhoneNumber)]) -> Person {
        Person(firstName: "Ana", lastName: "Horvat", phones: phones.map { LabeledPhone(label: $0.0, number: $0.1) })
    }

    @Test func aNumberLabelledFaxOrPagerIsNeverInvitedEvenWhenItIsAMobile() {
        let p = person([("work fax", hr.parse("+385 91 234 5678")), ("pager", hr.parse("+385 92 111 2222")),
                        ("homefax", hr.parse("+385 98 765 4321")), ("mobile", hr.parse("+385 95 000 1111"))])
        #expect(p.invitableNumbers == ["+385950001111"])
        let reasons = p.smsPlan.skipped.map(\.reason)
        #expect(reasons.count == 3)
        #expect(reasons[0] == "labelled work fax: a fax cannot receive SMS")
        #expect(reasons[1] == "labelled pager: a pager cannot receive SMS")
    }

    @Test func labelsAreReadWhateverTheirCaseOrScript() {
        let labels = ["HomeFAX", "Work Fax", "PAGER", "Téléfax", "ПЕЙДЖЕР pager", "Mobile", "Faks", "Радни"]
        let refused = labels.map { LabeledPhone(label: $0, number: hr.parse("+385 91 234 5678")).labelRefusesSMS }
        #expect(refused == ["labelled homefax: a fax cannot receive SMS", "labelled work fax: a fax cannot receive SMS",
                            "labelled pager: a pager cannot receive SMS", "labelled téléfax: a fax cannot receive SMS",
                            "labelled пейджер pager: a pager cannot receive SMS", nil, nil, nil])
    }

    @Test func aChosenNumberIsTheOnlyOneInvitedWhileItCanTakeAnSMS() {
        let maybe = us.parse("(201) 555-0123")
        var p = person([("home", maybe), ("cell", hr.parse("+385 91 234 5678")), ("fax", hr.parse("+385 92 111 2222"))])
        #expect(p.smsCapableNumbers.sorted() == ["+12015550123", "+385912345678"])     // never the fax
        p.smsNumber = "+12015550123"
        #expect(p.invitableNumbers == ["+12015550123"])
        #expect(p.smsPlan.skipped.first { $0.address == "+385912345678" }?.reason == "not the number chosen for invitations")
        #expect(p.smsPlan.skipped.first { $0.address == "+385921112222" }?.reason == "labelled fax: a fax cannot receive SMS")
        p.smsNumber = "+385921112222"                    // a fax cannot be chosen: Herald's own plan holds
        #expect(p.invitableNumbers == ["+385912345678"])
        p.smsNumber = "+385999999999"                    // a number the person no longer has is ignored
        #expect(p.invitableNumbers == ["+385912345678"])
    }

    @Test func aMobileIsPreferredAndAFixedLineIsSkippedWithItsReason() {
        let p = person([("work", hr.parse("+385 1 4567 890")), ("mobile", hr.parse("+385 91 234 5678"))])
        #expect(p.invitableNumbers == ["+385912345678"])
        #expect(p.smsPlan.skipped.map(\.address) == ["+38514567890"])
        #expect(p.smsPlan.skipped[0].reason.contains("cannot receive SMS"))
    }

    @Test func aNumberThatMayBeAMobileIsInvitedOnlyWhenThePersonHasNoMobile() {
        let maybe = us.parse("(201) 555-0123")
        #expect(maybe.kind == .fixedLineOrMobile)
        #expect(person([("home", maybe)]).invitableNumbers == ["+12015550123"])
        let both = person([("home", maybe), ("cell", hr.parse("+385 91 234 5678"))])
        #expect(both.invitableNumbers == ["+385912345678"])
        #expect(both.smsPlan.skipped.first?.reason == "may not be a mobile; the mobile number is invited instead")
    }

    @Test func anInvalidNumberIsSkippedWithTheParsersReasonAndDuplicatesCountOnce() {
        let p = person([(nil, hr.parse("12")), ("mobile", hr.parse("+385 91 234 5678")), ("other", hr.parse("091 234 5678"))])
        #expect(p.invitableNumbers == ["+385912345678"])
        #expect(p.smsPlan.skipped.count == 1)
        #expect(p.smsPlan.skipped[0].address == "12")
    }
    @Test func aPersonWithTwoMobilesGetsOneSMSUnlessEveryMobileIsAskedFor() {
        let p = person([("mobile", hr.parse("+385 91 234 5678")), ("work mobile", hr.parse("+385 98 765 4321"))])
        #expect(p.invitableNumbers == ["+385912345678"])
        let other = p.smsPlan.skipped.first { $0.address == "+385987654321" }
        #expect(other?.reason == "one SMS per person: +385912345678 is invited ([invite] numbers = \"all-mobiles\" sends to each)")
        #expect(other?.mayBeChosen == true)
        #expect(p.smsCapableNumbers == ["+385912345678", "+385987654321"])
        #expect(p.smsPlan(allMobiles: true).numbers == ["+385912345678", "+385987654321"])
        // The number the user chose wins over the first.
        var chosen = p
        chosen.smsNumber = "+385987654321"
        #expect(chosen.invitableNumbers == ["+385987654321"])
    }
}
