import Foundation

/// A number that said stop: no invitation is sent to it again, on any terminal of the application, until it is
/// taken off the list.
public struct OptOut: Codable, Sendable, Hashable {
    /// E.164 with the plus ("+385981234567").
    public var number: String
    /// When it opted out (`WireTime`).
    public var since: String
    /// Who put it there: "herald" (by hand) or "reply: STOP" (the person answered).
    public var source: String

    public init(number: String, since: String, source: String) {
        self.number = number
        self.since = since
        self.source = source
    }

    /// Whether the person asked for it (a reply that said stop), not a sender on their behalf.
    public var fromThePerson: Bool { source.hasPrefix(OptOut.replySourcePrefix) }

    /// How the source of an opt-out a reply made begins ("reply: STOP").
    public static let replySourcePrefix = "reply:"

    /// "opted out on 2026-11-26": the reason a send gives for leaving the number out.
    public var reason: String { OptOut.reason(since: WireTime.date(since) ?? Date()) }

    public static func reason(since: Date) -> String {
        "opted out on " + since.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt).year().month().day())
    }
}

/// The answer of `GET /1/social-invite/optouts`.
public struct OptOutList: Codable, Sendable, Hashable {
    public var optOuts: [OptOut]
    public init(optOuts: [OptOut]) { self.optOuts = optOuts }
}

/// The body of an opt-out added by hand.
public struct OptOutBody: Codable, Sendable, Hashable {
    public var source: String?
    public init(source: String? = nil) { self.source = source }
}

/// `GET /1/social-invite/optouts`: every number of the application that opted out, newest first.
public struct ListOptOuts: Endpoint {
    public typealias Response = OptOutList
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/social-invite/optouts"

    public var secret: String
    public init(secret: String) { self.secret = secret }

    public var credential: Credential { .app(secret) }
    public var body: EmptyBody? { nil }
}

/// `PUT /1/social-invite/optouts/{number}`: opts a number out (E.164; kept as it was when already out).
public struct AddOptOut: Endpoint {
    public typealias Response = OptOut
    public static let method = HTTPMethod.put
    public static let path: PathTemplate = "/1/social-invite/optouts/{number}"

    public var secret: String
    public var number: String

    public init(secret: String, number: String) {
        self.secret = secret
        self.number = number
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["number": number] }
    public var body: OptOutBody? { OptOutBody(source: "herald") }
}

/// `DELETE /1/social-invite/optouts/{number}`: takes a number off the list (it may be invited again).
public struct RemoveOptOut: Endpoint {
    public typealias Response = OptOutList
    public static let method = HTTPMethod.delete
    public static let path: PathTemplate = "/1/social-invite/optouts/{number}"

    public var secret: String
    public var number: String

    public init(secret: String, number: String) {
        self.secret = secret
        self.number = number
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["number": number] }
    public var body: EmptyBody? { nil }
}
