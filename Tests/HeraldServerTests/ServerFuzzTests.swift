import Foundation
import HeraldAPI
@testable import HeraldServer
import HeraldTestKit
import Testing

/// Every route of a real server driven with random and extreme values in its path, query, headers and body: each
/// request is answered 2xx or 4xx, never 5xx, and the server is alive after each. The seed is printed; set
/// `HERALD_FUZZ_SEED` to replay one, `HERALD_FUZZ_ROUNDS` for more.
@Suite struct ServerFuzzTests {
    /// Values as they go on the wire (already percent-encoded where they sit in a request target).
    static let targetValues = [
        "", "0", "-1", "1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999999",
        "1e308", "-1e308", "NaN", "Infinity", "0x10", "1.5", String(repeating: "a", count: 10_000), "%00", "a%00b", "%1B%5D0%3Bx%07",
        "%1B%5D52%3Bc%3BSGVsbG8%3D%07", "%FF%FE", "%C3%28", "%", "%zz", "..%2F..%2Fetc", "%E2%80%AE", "%C2%9B31m", "demo", "+385981234567",
    ]

    static let jsonValues: [String] = [
        "0", "-1", "1e308", "-1e308", "9223372036854775808", "18446744073709551616", "1.5", "true", "null", "[]", "{}",
        #""""#, #""\u0000""#, #""a\u0000b""#, #""\u001b]0;owned\u0007""#, #""\u009b31m""#, #""\ud800""#,
        "\"\(String(repeating: "x", count: 10_000))\"", #""Herald""#, #""385981234567""#, invalidUTF8Marker,
    ]

    /// Stands for a JSON string holding bytes that are not UTF-8 (swapped in as bytes, which a Swift string cannot hold).
    static let invalidUTF8Marker = #""INVALID-UTF8""#

    static let queryNames = ["dateTimeFrom", "dateTimeTo", "limit", "messageTopic", "messageId", "referrer", "after", "lastEventId",
                             "x%00y", String(repeating: "q", count: 300)]

    @Test func theRequestThatEndedTheServerIsA400NamingTheField() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        for field in ["dateTimeFrom", "dateTimeTo"] {
            for key in [s.viewer, s.sender] {
                let answer = try await s.raw(.get, "/mobile/1/user/demo/inbox/apns/messages", key: key,
                                             query: [field: "9223372036854775807"])
                #expect(answer.status == 400)
                #expect(String(decoding: answer.body, as: UTF8.self).contains(field))
            }
        }
        #expect(try await s.raw(.get, "/health").status == 200)
    }

    @Test func everyRouteAnswersRandomAndExtremeValuesWith2xxOr4xxAndStaysUp() async throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.authFailuresPerMinute = 100_000
        options.clicksPerMinute = 100_000
        let s = try await ServerHarness(options: options)
        defer { s.stop() }
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["HERALD_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        let rounds = environment["HERALD_FUZZ_ROUNDS"].flatMap(Int.init) ?? 4
        var random = SeededGenerator(seed: seed)
        let keys = [s.sender, s.sender, s.viewer, s.admin, "hk_junk", "not-a-key\u{7F}"]
        var sent = 0
        for round in 0..<rounds {
            for route in ServerRoutes.all {
                for _ in 0..<3 {
                    let request = Self.request(route.method, route.path, keys: keys, applicationKey: s.applicationKey, round: round,
                                               random: &random)
                    let connection = try RawConnection(port: s.port)
                    connection.send(request)
                    let status = await connection.status(timeout: 15)
                    connection.close()
                    sent += 1
                    #expect(status.map { (200..<500).contains($0) } == true,
                            "seed \(seed): \(status.map(String.init) ?? "no answer") for \(String(decoding: request.prefix(300), as: UTF8.self))")
                    if sent % 20 == 0 { #expect(try await s.raw(.get, "/health").status == 200, "seed \(seed): server down") }
                }
            }
        }
        #expect(try await s.raw(.get, "/health").status == 200, "seed \(seed)")
        print("fuzz: \(sent) requests over \(ServerRoutes.all.count) routes, seed \(seed)")
    }

    /// One request for a route: its path parameters, query, headers and body filled with values drawn from the lists.
    static func request(_ method: HTTPMethod, _ template: PathTemplate, keys: [String], applicationKey: String, round: Int,
                        random: inout SeededGenerator) -> [UInt8] {
        var path = template.description
        while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            let name = path[path.index(after: open)..<close]
            let value = name == "applicationKey" && Bool.random(using: &random) ? applicationKey : targetValues.randomElement(using: &random)!
            path.replaceSubrange(open...close, with: value.isEmpty ? "x" : value)
        }
        var query: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            query.append("\(queryNames.randomElement(using: &random)!)=\(targetValues.randomElement(using: &random)!)")
        }
        var head = "\(method.rawValue) \(path)\(query.isEmpty ? "" : "?" + query.joined(separator: "&")) HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n"
        let key = keys.randomElement(using: &random)!
        switch Int.random(in: 0..<5, using: &random) {
        case 0: head += "Authorization: Bearer \(targetValues.randomElement(using: &random)!.prefix(2000))\r\n"
        case 1: head += "Authorization: App \(key)\r\nLast-Event-ID: \(targetValues.randomElement(using: &random)!.prefix(100))\r\n"
        default: head += "Authorization: App \(key)\r\n"
        }
        head += "X-Request-Id: \(targetValues.randomElement(using: &random)!.prefix(200))\r\n"
        guard method == .post || method == .put else { return Array((head + "\r\n").utf8) }
        let fields = ["messageKey", "sender", "key", "text", "placeholder", "externalUserId", "messageEditingAllowed", "inboxAuthMode",
                      "defaultMessageKey"]
        var members = fields.filter { _ in Bool.random(using: &random) }.map { "\"\($0)\": \(jsonValues.randomElement(using: &random)!)" }
        let destination = "{\"address\": \(jsonValues.randomElement(using: &random)!), \"messageId\": \(jsonValues.randomElement(using: &random)!), "
            + "\"clientData\": [\(jsonValues.randomElement(using: &random)!)]}"
        members.append("\"recipients\": {\"destinations\": [\(destination)]}")
        members.append("\"messages\": [{\"messageId\": \(jsonValues.randomElement(using: &random)!), \"timestampDelta\": \(jsonValues.randomElement(using: &random)!)}]")
        var body = "{" + members.joined(separator: ", ") + "}"
        if round % 2 == 1, Bool.random(using: &random) { body = String(body.prefix(Int.random(in: 0...body.count, using: &random))) }
        let bytes = Array(body.replacingOccurrences(of: invalidUTF8Marker, with: "\"\u{1}\u{2}\"").utf8).map { $0 == 1 ? 0xFF : $0 == 2 ? 0xFE : $0 }
        return Array((head + "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\n\r\n").utf8) + bytes
    }
}
