import Foundation
import XCTest
@testable import HeraldCore

/// Quiet hours in the recipient's local time: when a message may leave, for numbers and zones people have.
final class QuietHoursTests: XCTestCase {
    // MARK: Reading the range

    func testReadsARangeAcrossMidnightAndGivesItBack() throws {
        let quiet = try QuietHours(parsing: "21:00-08:00")
        XCTAssertEqual(quiet.description, "21:00-08:00")
        XCTAssertEqual(quiet.startMinute, 21 * 60)
        XCTAssertEqual(quiet.endMinute, 8 * 60)
        XCTAssertTrue(quiet.wrapsMidnight)
    }

    func testReadsARangeWithinOneDayAndLooseSpelling() throws {
        let lunch = try QuietHours(parsing: "12:30-13:30")
        XCTAssertEqual(lunch.description, "12:30-13:30")
        XCTAssertFalse(lunch.wrapsMidnight)
        XCTAssertEqual(try QuietHours(parsing: " 8:05 - 9:15 ").description, "08:05-09:15")
        XCTAssertEqual(try QuietHours(parsing: "00:00-23:59").description, "00:00-23:59")
    }

    func testMalformedRangesNameTheValue() {
        let values = ["", "21:00", "9pm-8am", "21:00-08:00-09:00", "21:0-08:00", "21.00-08.00", "-08:00",
                      "121:00-08:00", "２１:００-08:00"]
        for value in values {
            expectError(value, .malformed, mentioning: "not a range of times")
        }
    }

    func testAnHourPast23IsRefused() {
        expectError("25:00-08:00", .hourOutOfRange(25), mentioning: "hour 25")
        expectError("21:00-24:00", .hourOutOfRange(24), mentioning: "hour 24")
    }

    func testAMinutePast59IsRefused() {
        expectError("21:60-08:00", .minuteOutOfRange(60), mentioning: "minute 60")
        expectError("21:00-08:75", .minuteOutOfRange(75), mentioning: "minute 75")
    }

    func testAnEmptyRangeIsRefused() {
        expectError("08:00-08:00", .emptyRange, mentioning: "same time")
        expectError("8:00-08:00", .emptyRange, mentioning: "same time")
    }

    func testAControlCharacterInTheValueDoesNotReachTheTerminal() {
        do throws(QuietHoursError) {
            _ = try QuietHours(parsing: "21:00\u{1B}[2J-08:00")
            XCTFail("a range with an escape sequence was accepted")
        } catch {
            XCTAssertFalse(error.description.contains("\u{1B}"), error.description)
        }
    }

    // MARK: Time zones from the number

    func testACroatianNumberIsInZagreb() {
        XCTAssertEqual(identifiers("+385912345678"), ["Europe/Zagreb"])
        XCTAssertEqual(identifiers("385912345678"), ["Europe/Zagreb"], "E.164 without the plus")
    }

    func testAnAreaCodeOfNewYorkIsInNewYork() {
        XCTAssertEqual(identifiers("+12125550100"), ["America/New_York"])
    }

    func testAPrefixThatDoesNotPinTheZoneGivesEveryZone() {
        // Idaho's 208 2xx spans Mountain and Pacific time; 208 255 is Pacific only.
        XCTAssertEqual(identifiers("+12082001234"), ["America/Boise", "America/Los_Angeles"])
        XCTAssertEqual(identifiers("+12082551234"), ["America/Los_Angeles"])
    }

    func testAnUnknownPrefixOrSomethingElseHasNoZone() {
        for number in ["+80012345678", "+999123456", "", "+", "+385 91 234 5678", "tel:+385912345678", "+38591x"] {
            XCTAssertEqual(PhoneTimeZones.zones(forE164: number), [], number)
        }
    }

    // MARK: When a message may leave

    func testAMessageInTheQuietNightWaitsForEightInTheMorningLocalTime() throws {
        let quiet = try QuietHours(parsing: "21:00-08:00")
        let zagreb = PhoneTimeZones.zones(forE164: "+385912345678")
        let sent = try utc("2026-06-10T19:30:00Z")  // 21:30 in Zagreb
        let leaves = quiet.nextAllowed(after: sent, in: zagreb)
        XCTAssertEqual(leaves, try utc("2026-06-11T06:00:00Z"))
        XCTAssertEqual(try local(leaves, "Europe/Zagreb"), "2026-06-11 08:00")
    }

    func testAMessageInOpenHoursLeavesAtOnce() throws {
        let quiet = try QuietHours(parsing: "21:00-08:00")
        let zagreb = PhoneTimeZones.zones(forE164: "+385912345678")
        let sent = try utc("2026-06-10T18:59:59Z")  // 20:59:59 in Zagreb
        XCTAssertEqual(quiet.nextAllowed(after: sent, in: zagreb), sent)
        let eight = try utc("2026-06-11T06:00:00Z")
        XCTAssertEqual(quiet.nextAllowed(after: eight, in: zagreb), eight, "08:00 itself is open")
        XCTAssertTrue(quiet.isQuiet(try utc("2026-06-10T19:00:00Z"), in: try zone("Europe/Zagreb")), "21:00 is quiet")
    }

    func testAQuietMiddayWaitsUntilItEndsTheSameDay() throws {
        let lunch = try QuietHours(parsing: "12:30-13:30")
        let newYork = PhoneTimeZones.zones(forE164: "+12125550100")
        let sent = try utc("2026-01-15T17:45:00Z")  // 12:45 EST
        let leaves = lunch.nextAllowed(after: sent, in: newYork)
        XCTAssertEqual(try local(leaves, "America/New_York"), "2026-01-15 13:30")
        let early = try utc("2026-01-15T12:00:00Z")  // 07:00 EST, not quiet at lunch
        XCTAssertEqual(lunch.nextAllowed(after: early, in: newYork), early)
    }

    func testAUSNumberAtDawnWaitsForEightInNewYork() throws {
        let quiet = try QuietHours(parsing: "21:00-08:00")
        let newYork = PhoneTimeZones.zones(forE164: "+12125550100")
        let leaves = quiet.nextAllowed(after: try utc("2026-01-15T12:00:00Z"), in: newYork)  // 07:00 EST
        XCTAssertEqual(leaves, try utc("2026-01-15T13:00:00Z"))
        XCTAssertEqual(try local(leaves, "America/New_York"), "2026-01-15 08:00")
    }

    func testSeveralZonesWaitForTheHoursOpenInAllOfThem() throws {
        let quiet = try QuietHours(parsing: "21:00-08:00")
        let idaho = PhoneTimeZones.zones(forE164: "+12082001234")  // Boise (Mountain) and Los Angeles (Pacific)
        // 05:00 in Los Angeles, 06:00 in Boise: 08:00 in Boise is still 07:00 in Los Angeles.
        let morning = quiet.nextAllowed(after: try utc("2026-07-01T12:00:00Z"), in: idaho)
        XCTAssertEqual(try local(morning, "America/Los_Angeles"), "2026-07-01 08:00")
        XCTAssertEqual(try local(morning, "America/Boise"), "2026-07-01 09:00")
        // 20:30 in Los Angeles is open there, but it is 21:30 in Boise: the message waits for the next morning.
        let evening = try utc("2026-07-02T03:30:00Z")
        XCTAssertEqual(quiet.nextAllowed(after: evening, in: [try zone("America/Los_Angeles")]), evening)
        let nextMorning = quiet.nextAllowed(after: evening, in: idaho)
        XCTAssertEqual(try local(nextMorning, "America/Los_Angeles"), "2026-07-02 08:00")
        // 19:30 in Los Angeles, 20:30 in Boise: open in both.
        let open = try utc("2026-07-02T02:30:00Z")
        XCTAssertEqual(quiet.nextAllowed(after: open, in: idaho), open)
    }

    func testZonesWhoseOpenHoursNeverMeetFollowTheFirstZone() throws {
        // Open 10:00-18:00: 09:00-17:00 UTC in London (summer), 01:00-09:00 UTC in Tokyo. Never both.
        let quiet = try QuietHours(parsing: "18:00-10:00")
        let london = try zone("Europe/London"), tokyo = try zone("Asia/Tokyo")
        let sent = try utc("2026-07-01T20:00:00Z")
        let londonFirst = quiet.nextAllowed(after: sent, in: [london, tokyo])
        XCTAssertEqual(try local(londonFirst, "Europe/London"), "2026-07-02 10:00")
        let tokyoFirst = quiet.nextAllowed(after: sent, in: [tokyo, london])
        XCTAssertEqual(try local(tokyoFirst, "Asia/Tokyo"), "2026-07-02 10:00")
    }

    func testNoZoneMeansNoWait() throws {
        let sent = try utc("2026-06-10T23:00:00Z")
        XCTAssertEqual(try QuietHours(parsing: "21:00-08:00").nextAllowed(after: sent, in: []), sent)
    }

    // MARK: Daylight saving time

    func testTheNightTheClocksGoForwardEndsAtEightSummerTime() throws {
        // Europe moves to summer time on 2026-03-29 at 02:00 local (01:00 UTC): 08:00 that morning is 06:00 UTC.
        let quiet = try QuietHours(parsing: "21:00-08:00")
        let zagreb = PhoneTimeZones.zones(forE164: "+385912345678")
        let leaves = quiet.nextAllowed(after: try utc("2026-03-28T21:00:00Z"), in: zagreb)  // 22:00 CET
        XCTAssertEqual(leaves, try utc("2026-03-29T06:00:00Z"))
        XCTAssertEqual(try local(leaves, "Europe/Zagreb"), "2026-03-29 08:00")
    }

    func testQuietHoursEndingInTheSkippedHourEndWhenTheClocksJump() throws {
        // 01:00-02:30 on 2026-03-29: at 02:00 the clocks read 03:00, past the end, so 01:00 UTC is open.
        let quiet = try QuietHours(parsing: "01:00-02:30")
        let zagreb = [try zone("Europe/Zagreb")]
        let leaves = quiet.nextAllowed(after: try utc("2026-03-29T00:30:00Z"), in: zagreb)
        XCTAssertEqual(leaves, try utc("2026-03-29T01:00:00Z"))
        XCTAssertEqual(try local(leaves, "Europe/Zagreb"), "2026-03-29 03:00")
    }

    func testTheNightTheClocksGoBackEndsAtEightWinterTime() throws {
        // Back to winter time on 2026-10-25: 08:00 that morning is 07:00 UTC.
        let quiet = try QuietHours(parsing: "21:00-08:00")
        let leaves = quiet.nextAllowed(after: try utc("2026-10-24T20:00:00Z"), in: [try zone("Europe/Zagreb")])
        XCTAssertEqual(leaves, try utc("2026-10-25T07:00:00Z"))
        XCTAssertEqual(try local(leaves, "Europe/Zagreb"), "2026-10-25 08:00")
    }

    // MARK: Helpers

    private func expectError(_ value: String, _ problem: QuietHoursError.Problem, mentioning words: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        do throws(QuietHoursError) {
            let quiet = try QuietHours(parsing: value)
            XCTFail("\"\(value)\" was read as \(quiet)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.problem, problem, value, file: file, line: line)
            XCTAssertTrue(error.description.contains("\"\(value)\""), "value not named: \(error)",
                          file: file, line: line)
            XCTAssertTrue(error.description.contains(words), "\(error)", file: file, line: line)
        }
    }

    private func identifiers(_ number: String) -> [String] {
        PhoneTimeZones.zones(forE164: number).map(\.identifier)
    }

    private func zone(_ identifier: String, file: StaticString = #filePath, line: UInt = #line) throws -> TimeZone {
        try XCTUnwrap(TimeZone(identifier: identifier), identifier, file: file, line: line)
    }

    private func utc(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Date {
        try XCTUnwrap(ISO8601DateFormatter().date(from: text), text, file: file, line: line)
    }

    /// The wall-clock time a user would be told: "2026-03-29 08:00".
    private func local(_ date: Date, _ identifier: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try zone(identifier)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
