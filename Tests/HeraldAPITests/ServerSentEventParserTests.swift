import Foundation
import HeraldAPI
import Testing

@Suite struct ServerSentEventParserTests {
    @Test func messagesAreReadWhateverPiecesTheBytesArriveIn() {
        let stream = "retry: 2000\n\nid: 1\nevent: ready\ndata: {\"a\":1}\n\n: heartbeat\n\nid: 2\r\nevent: x\r\ndata: one\r\ndata: two\r\n\r\n"
        let whole = { () -> [ServerSentEvent] in var p = ServerSentEventParser(); return p.feed(Array(stream.utf8)) }()
        #expect(whole == [ServerSentEvent(id: "1", event: "ready", data: "{\"a\":1}"),
                          ServerSentEvent(id: "2", event: "x", data: "one\ntwo")])
        // One byte at a time (a CRLF split across two reads included) gives the same messages.
        var parser = ServerSentEventParser()
        var piecewise: [ServerSentEvent] = []
        for byte in stream.utf8 { piecewise += parser.feed([byte]) }
        #expect(piecewise == whole)
        #expect(parser.retry == 2000)
        #expect(parser.lastEventId == "2")
    }

    @Test func commentsAndIncompleteMessagesGiveNothing() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array(": heartbeat\n\nevent: only\n\ndata: unfinished\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [ServerSentEvent(id: nil, event: "message", data: "unfinished")])
    }

    @Test func anEndlessLineIsCutNotKept() {
        var parser = ServerSentEventParser(maxLineBytes: 16)
        let events = parser.feed(Array(("data: " + String(repeating: "x", count: 10_000) + "\n\n").utf8))
        #expect(events.count == 1)
        #expect(events[0].data.count == 10)
    }
}
