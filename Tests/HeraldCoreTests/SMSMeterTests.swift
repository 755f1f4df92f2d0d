import Testing
@testable import HeraldCore

@Suite struct SMSMeterTests {
    @Test func tablesHaveTheirGSMSizes() {
        #expect(SMSMeter.basicTable.count == 128)
        #expect(Set(SMSMeter.basicTable).count == 128)
        #expect(SMSMeter.extensionTable.count == 10)
    }

    @Test func emptyTextIsZeroSegments() {
        let m = SMSMeter.measure("")
        #expect(m.segments == 0)
        #expect(m.units == 0)
        #expect(m.encoding == .gsm7)
        #expect(m.unitsLeftInSegment == 160)
    }

    @Test func plainTextIsGSM() {
        let m = SMSMeter.measure("Join me on Herald")
        #expect(m.encoding == .gsm7)
        #expect(m.segments == 1)
        #expect(m.units == 17)
        #expect(m.characters == 17)
        #expect(m.unitsLeftInSegment == 143)
        #expect(m.ucs2Culprits.isEmpty)
    }

    @Test func gsmCharactersPeopleGetWrong() {
        #expect(SMSMeter.gsmSeptets("é") == 1)
        #expect(SMSMeter.gsmSeptets("Ç") == 1)
        #expect(SMSMeter.gsmSeptets("ç") == nil)
        #expect(SMSMeter.gsmSeptets("€") == 2)
        #expect(SMSMeter.gsmSeptets("[") == 2)
        #expect(SMSMeter.gsmSeptets("_") == 1)
        #expect(SMSMeter.gsmSeptets("`") == nil)
        #expect(SMSMeter.gsmSeptets("\u{1B}") == nil)
        #expect(SMSMeter.isGSM7("Ça coûte 5€") == false)  // û is not GSM
        #expect(SMSMeter.isGSM7("Ça coute 5€"))
    }

    @Test func extensionCharactersCountTwice() {
        let m = SMSMeter.measure("5€ {x}")
        #expect(m.encoding == .gsm7)
        #expect(m.characters == 6)
        #expect(m.units == 9)
        #expect(m.extensionCharacters == 3)
    }

    @Test func gsmSegmentBoundaries() {
        #expect(SMSMeter.measure(String(repeating: "a", count: 160)).segments == 1)
        #expect(SMSMeter.measure(String(repeating: "a", count: 160)).unitsLeftInSegment == 0)
        let m161 = SMSMeter.measure(String(repeating: "a", count: 161))
        #expect(m161.segments == 2)
        #expect(m161.segmentLimit == 153)
        #expect(m161.unitsLeftInSegment == 145)
        #expect(SMSMeter.measure(String(repeating: "a", count: 306)).segments == 2)
        #expect(SMSMeter.measure(String(repeating: "a", count: 307)).segments == 3)
    }

    @Test func extensionCharacterIsNotSplitAcrossParts() {
        // 152 septets then "€" (2): the escape would land in part one and the € in part two, so it moves.
        let text = String(repeating: "a", count: 152) + "€" + String(repeating: "a", count: 10)
        let m = SMSMeter.measure(text)
        #expect(m.units == 164)
        #expect(m.segments == 2)
        #expect(m.unitsLeftInSegment == 153 - 12)
    }

    @Test func nonGSMForcesUCS2AndNamesTheCulprits() {
        let m = SMSMeter.measure("Ça va? ça, ça! ✓ ç")
        #expect(m.encoding == .ucs2)
        #expect(m.ucs2Culprits.map(\.character) == ["ç", "✓"])
        #expect(m.ucs2Culprits[0].positions == [7, 11, 17])
        #expect(m.ucs2Culprits[1].positions == [15])
        #expect(m.units == 18)
        #expect(m.unitsLeftInSegment == 52)
        #expect(m.extensionCharacters == 0)
    }

    @Test func decomposedAccentIsReportedAsTheWholeCharacter() {
        let m = SMSMeter.measure("Cafe\u{301}")
        #expect(m.encoding == .ucs2)
        #expect(m.characters == 4)
        #expect(m.units == 5)
        #expect(m.ucs2Culprits.map(\.positions) == [[3]])
    }

    @Test func ucs2SegmentBoundaries() {
        #expect(SMSMeter.measure(String(repeating: "ж", count: 70)).segments == 1)
        let m71 = SMSMeter.measure(String(repeating: "ж", count: 71))
        #expect(m71.segments == 2)
        #expect(m71.unitsLeftInSegment == 67 * 2 - 71)
        #expect(SMSMeter.measure(String(repeating: "ж", count: 134)).segments == 2)
        #expect(SMSMeter.measure(String(repeating: "ж", count: 135)).segments == 3)
    }

    @Test func charactersOutsideTheBMPCountTwo() {
        let m = SMSMeter.measure("Hi 😀")
        #expect(m.encoding == .ucs2)
        #expect(m.characters == 4)
        #expect(m.units == 5)
        #expect(m.ucs2Culprits.first?.character == "😀")
        #expect(m.ucs2Culprits.first?.positions == [3])
    }

    @Test func surrogatePairIsNotSplitAcrossParts() {
        let text = String(repeating: "ж", count: 66) + "😀" + String(repeating: "ж", count: 5)
        let m = SMSMeter.measure(text)
        #expect(m.units == 73)
        #expect(m.segments == 2)
        #expect(m.unitsLeftInSegment == 67 - 7)
    }

    @Test func windowsLineEndingsAreTwoGSMSeptets() {
        let m = SMSMeter.measure("a\r\nb")
        #expect(m.encoding == .gsm7)
        #expect(m.characters == 3)
        #expect(m.units == 4)
    }
}
