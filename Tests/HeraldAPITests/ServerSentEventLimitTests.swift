import Testing
@testable import HeraldAPI

/// How much of an unfinished message the event-stream parser holds, so a reader can bound it in bytes.
@Suite struct ServerSentEventLimitTests {
    @Test func pendingBytesCountTheUnfinishedMessageAndEndWithIt() {
        var parser = ServerSentEventParser(maxLineBytes: 16)
        #expect(parser.feed(Array("data: ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 1000)).isEmpty)
        #expect(parser.pendingBytes == 1006, "a cut line still counts whole")
        _ = parser.feed(Array("\ndata: more\n".utf8))
        #expect(parser.pendingBytes == 1007 + 11)
        // Heartbeats hold nothing; the blank line ends the message and what it held.
        _ = parser.feed(Array(": ping\n".utf8))
        #expect(parser.pendingBytes == 1018)
        #expect(parser.feed(Array("\n".utf8)).count == 1)
        #expect(parser.pendingBytes == 0)
    }
}
