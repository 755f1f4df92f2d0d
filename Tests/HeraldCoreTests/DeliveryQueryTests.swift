import Foundation
import Testing
import HeraldCore

@Suite struct DeliveryQueryTests {
    typealias Term = DeliveryQuery.Term
    /// 2026-11-28 12:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_867_200)
    let utc = TimeZone(identifier: "UTC")!

    func read(_ text: String) throws -> DeliveryQuery { try DeliveryQuery(text, now: now, timeZone: utc) }

    @Test func fieldsNotsQuotesAndAnyCase() throws {
        let query = try read(#"STATUS:failed reason:"absent subscriber" -Country:hr sender:Herald by:ana bulk:7f3a text:party ana"#)
        #expect(query.terms.map(\.field) == [.status, .reason, .country, .sender, .by, .bulk, .text, .any])
        #expect(query.terms[1] == Term(field: .reason, value: "absent subscriber"))
        #expect(query.terms[2] == Term(field: .country, value: "hr", negated: true, region: "HR"))
        #expect(query.terms[7] == Term(field: .any, value: "ana"))
        #expect(try read(#""Ana Horvat" x"#).terms.map(\.value) == ["Ana Horvat", "x"])
    }

    @Test func statusWordsMapOntoTheLedgersStatuses() throws {
        #expect(try read("status:failed").terms[0].statuses == [.deliveryImpossible, .rejected, .sendFailed])
        #expect(try read("status:impossible").terms[0].statuses == [.deliveryImpossible, .rejected, .sendFailed])
        #expect(try read("status:pending").terms[0].statuses == [.messageWaiting, .unknown, .queued, .scheduled])
        #expect(try read("status:invited").terms[0].statuses == [.deliveredToTerminal, .deliveredToNetwork, .deliveryUncertain])
        #expect(try read("status:Uncertain").terms[0].statuses == [.deliveryUncertain])
        #expect(try read("status:delivered").terms[0].statuses == [.deliveredToTerminal])
        #expect(try read("status:DeliveredToNetwork").terms[0].statuses == [.deliveredToNetwork])
        #expect(try read("status:cancelled").terms[0].statuses == [.cancelled])
    }

    @Test func datesAndSpans() throws {
        #expect(try read("after:2026-11-20").terms[0].date == Date(timeIntervalSince1970: 1_795_132_800))
        #expect(try read("before:2026-11-20T14:30").terms[0].date == Date(timeIntervalSince1970: 1_795_132_800 + 52_200))
        #expect(try read("after:7d").terms[0].date == now.addingTimeInterval(-7 * 86_400))
        #expect(try read("after:12h").terms[0].date == now.addingTimeInterval(-12 * 3600))
        #expect(try read("after:30m").terms[0].date == now.addingTimeInterval(-1800))
        #expect(try read("before:2w").terms[0].date == now.addingTimeInterval(-14 * 86_400))
        // A day starts at midnight where the terminal is.
        let zagreb = try DeliveryQuery("after:2026-11-20", now: now, timeZone: TimeZone(identifier: "Europe/Zagreb")!)
        #expect(zagreb.terms[0].date == Date(timeIntervalSince1970: 1_795_132_800 - 3600))
    }

    @Test func prices() throws {
        #expect(try read("price>:0.05").terms == [Term(field: .priceAbove, value: "0.05", amount: 0.05)])
        #expect(try read("price<:1").terms == [Term(field: .priceBelow, value: "1", amount: 1)])
        #expect(try read("price>0,5").terms == [Term(field: .priceAbove, value: "0,5", amount: 0.5)])
    }

    @Test func aTermBeingTypedIsReadAsFarAsItGoes() throws {
        #expect(try read("status:").isEmpty)
        #expect(try read("after:").isEmpty)
        #expect(try read(#"reason:"absent sub"#).terms == [Term(field: .reason, value: "absent sub")])
        #expect(try read("-").terms == [Term(field: .any, value: "-")])
        // A minus before a digit is part of a number; a colon in a word that names no field is a plain word.
        #expect(try read("-5").terms == [Term(field: .any, value: "-5")])
        #expect(try read("http://x.hr").terms == [Term(field: .any, value: "http://x.hr")])
    }

    @Test func badValuesSayWhatToWrite() {
        #expect(throws: DeliveryQueryError.unknownStatus("fai")) { try read("status:fai") }
        #expect(throws: DeliveryQueryError.unknownCountry("Croatia")) { try read("country:Croatia") }
        #expect(throws: DeliveryQueryError.unknownCountry("QQ")) { try read("country:QQ") }
        #expect(throws: DeliveryQueryError.notADate("after", "yesterday")) { try read("after:yesterday") }
        #expect(throws: DeliveryQueryError.notADate("before", "2026-13-01")) { try read("before:2026-13-01") }
        #expect(throws: DeliveryQueryError.notADate("after", "7y")) { try read("after:7y") }
        #expect(throws: DeliveryQueryError.notAPrice("price>", "cheap")) { try read("price>:cheap") }
        #expect(DeliveryQueryError.unknownStatus("fai").message.contains("status:failed"))
        #expect(DeliveryQueryError.unknownCountry("Croatia").message.contains("country:HR"))
        #expect(DeliveryQueryError.notADate("after", "x").message.contains("after:30m"))
    }

    @Test func networkIsReadButSaysItMatchesNothing() throws {
        let query = try read("network:A1")
        #expect(query.terms == [Term(field: .network, value: "A1")])
        #expect(query.notes.count == 1 && query.notes[0].contains("network"))
        #expect(try read("status:failed").notes.isEmpty)
    }

    @Test func highlightsWhatIsLookedFor() {
        #expect(DeliveryQuery.highlightWords("ana -horvat reason:absent status:failed", now: now) == "ana absent")
        #expect(DeliveryQuery.highlightWords("status:maybe ana", now: now) == "status:maybe ana")
    }
}
