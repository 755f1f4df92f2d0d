import Foundation
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Answers shaped as Infobip's published schema allows, not only as its examples show them.
@Suite struct InfobipWireTests {
    @Test func aLogsAnswerWithoutResultsHasNoLogsInsteadOfFailing() throws {
        let empty = try JSONDecoder().decode(InfobipLogsResponse.self, from: Data(#"{"cursor": {"limit": 1000}}"#.utf8))
        #expect(empty.results.isEmpty)
        #expect(empty.cursor?.limit == 1000)
        let some = try JSONDecoder().decode(InfobipLogsResponse.self, from: Data(#"{"results": [{"messageId": "m-1", "messageCount": 2}]}"#.utf8))
        #expect(some.results.map(\.messageId) == ["m-1"])
        #expect(some.results.first?.messageCount == 2)
    }
}

/// Waits Infobip asks for are kept, with jitter on top, so replicas told the same wait do not return together.
@Suite struct InfobipBackoffTests {
    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [Double] = []
        func add(_ s: Double) { lock.withLock { all.append(s) } }
        var values: [Double] { lock.withLock { all } }
    }

    @Test func aRetryAfterIsWaitedWithUpToAQuarterMoreAtRandom() async throws {
        let state = StandInState()
        let (url, task) = try await InfobipStandIn.start(state: state)
        defer { task.cancel() }
        await state.fail("/sms/3/logs", status: 429, headers: ["Retry-After": "1"],
                         body: #"{"errorCode":"E429","description":"Too many requests sent."}"#, times: 4)
        let waits = Waits()
        let http = InfobipHTTP(baseURL: url, authorization: "App \(state.apiKey)", keySource: "test", attempts: 5, maxRetryWait: 2,
                               sleep: { waits.add($0) })
        _ = try await http.call(.get, "/sms/3/logs", query: [("limit", "1")])
        #expect(waits.values.count == 4)
        #expect(waits.values.allSatisfy { (1.0...1.25).contains($0) }, "\(waits.values)")
        #expect(Set(waits.values).count > 1, "jittered, not the same wait each time: \(waits.values)")
    }
}
