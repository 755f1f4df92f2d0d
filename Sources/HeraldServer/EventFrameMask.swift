import Foundation
import HeraldAPI
import NIOCore

/// An event-stream frame (`id: N\nevent: TYPE\ndata: JSON\n\n`, as `EventCache` writes it) with the numbers and
/// addresses of its event masked (`PlatformEvent.maskingNumbers`). The JSON is one line (the encoder escapes line
/// breaks), so the frame's `data:` line is the whole event.
enum EventFrameMask {
    static func masked(_ frame: ByteBuffer) -> ByteBuffer {
        let text = String(buffer: frame)
        guard let dataLine = text.range(of: "\ndata: ") else { return frame }
        let head = text[..<dataLine.upperBound]
        var json = text[dataLine.upperBound...]
        while json.last == "\n" { json = json.dropLast() }
        let event: PlatformEvent
        do { event = try HeraldJSON.decode(PlatformEvent.self, from: Data(json.utf8)).maskingNumbers() } catch {
            // Unreadable here: its type alone goes, never its fields unmasked.
            event = .unknown(type: Self.type(in: head) ?? "unknown")
        }
        guard let data = try? HeraldJSON.encode(event) else { return ByteBuffer(string: head + "{}\n\n") }
        return ByteBuffer(string: head + String(decoding: data, as: UTF8.self) + "\n\n")
    }

    /// The `event:` line's type.
    private static func type(in head: Substring) -> String? {
        head.split(separator: "\n").first { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
    }
}
