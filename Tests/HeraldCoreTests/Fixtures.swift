import Foundation
@testable import HeraldCore

/// Shared builders for Core tests.
enum Fixtures {
    /// 2026-01-01T00:00:00Z, ManualClock's default start.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static func parser(_ region: String? = "HR") -> PhoneNumberParser {
        // "HR" and nil are always accepted; a failure here is a test bug, reported by the test itself.
        (try? PhoneNumberParser(defaultRegion: region)) ?? { preconditionFailure("parser for \(region ?? "nil")") }()
    }

    static func phone(_ raw: String, region: String? = "HR", label: String? = "mobile") -> LabeledPhone {
        LabeledPhone(label: label, number: parser(region).parse(raw))
    }

    static func person(_ id: Int64, _ first: String = "", _ last: String = "", phones: [String] = [],
                       emails: [String] = [], createdAt: Date? = nil, updatedAt: Date? = nil,
                       revision: Date? = nil) -> Person {
        Person(id: id, firstName: first, lastName: last, phones: phones.map { phone($0) },
               emails: emails.map { LabeledEmail(label: nil, address: $0) }, revision: revision,
               createdAt: createdAt, updatedAt: updatedAt)
    }

    static func invitation(_ msisdn: String, personId: Int64?, status: DeliveryStatus, at seconds: TimeInterval,
                           bulkId: String? = nil, id: Int64? = nil) -> InvitationInfo {
        InvitationInfo(id: id, msisdn: msisdn, personId: personId, bulkId: bulkId, correlator: "c-\(msisdn)-\(seconds)",
                       status: status, createdAt: now.addingTimeInterval(seconds),
                       updatedAt: now.addingTimeInterval(seconds))
    }
}
