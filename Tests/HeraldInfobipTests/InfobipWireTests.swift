import Foundation
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
