import Foundation

/// One message of a `text/event-stream`.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `id:` field; nil when the message set none (the stream's last id stays).
    public var id: String?
    /// The `event:` field ("message" when absent).
    public var event: String
    /// The `data:` lines joined with newlines.
    public var data: String

    public init(id: String?, event: String, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }
}

/// Reads a `text/event-stream` as its bytes arrive, in any pieces (the WHATWG rules): lines end in LF, CRLF
/// or CR; `:` starts a comment (heartbeats); a blank line ends a message; `retry:` sets the reconnect delay.
/// A line longer than `maxLineBytes` is cut, never buffered without bound.
public struct ServerSentEventParser: Sendable {
    public var maxLineBytes: Int
    /// The last `retry:` in milliseconds.
    public private(set) var retry: Int?
    /// The last id seen (what to send as `Last-Event-ID` after a reconnect).
    public private(set) var lastEventId: String?

    /// Bytes of the message being read that a reader holds or has dropped: its lines so far (a cut line counted whole)
    /// and the line under way. A reader bounds a message with it, however its bytes are split into lines.
    public var pendingBytes: Int { lineBytes + heldBytes }

    private var line: [UInt8] = []
    private var lineBytes = 0
    private var heldBytes = 0
    private var lineCut = false
    private var afterCR = false
    private var id: String?
    private var event = ""
    private var data: [String] = []
    private var hasData = false

    public init(maxLineBytes: Int = 1 << 20) { self.maxLineBytes = maxLineBytes }

    /// Feeds bytes; answers the messages they completed.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [ServerSentEvent] where Bytes.Element == UInt8 {
        var out: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A:
                endLine(&out)
            case 0x0D:
                endLine(&out)
                afterCR = true
            default:
                lineBytes += 1
                if line.count < maxLineBytes { line.append(byte) } else { lineCut = true }
            }
        }
        return out
    }

    private mutating func endLine(_ out: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true); lineCut = false; lineBytes = 0 }
        if line.isEmpty {
            heldBytes = 0
            if hasData { out.append(ServerSentEvent(id: id ?? lastEventId, event: event.isEmpty ? "message" : event, data: data.joined(separator: "\n"))) }
            event = ""
            data = []
            hasData = false
            id = nil
            return
        }
        if line.first == 0x3A { return }   // a comment
        heldBytes += lineBytes + 1
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring, value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            var v = text[text.index(after: colon)...]
            if v.first == " " { v = v.dropFirst() }
            value = v
        } else {
            field = text[...]
            value = ""
        }
        switch field {
        case "data":
            data.append(String(value))
            hasData = true
        case "event":
            event = String(value)
        case "id":
            if !value.contains("\u{0}") {
                id = String(value)
                lastEventId = String(value)
            }
        case "retry":
            if !lineCut, let ms = Int(value), ms >= 0 { retry = ms }
        default:
            break
        }
    }
}
