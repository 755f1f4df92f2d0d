import Foundation

/// RFC 4180 records from a byte stream: quoted fields with embedded separators, quotes ("") and
/// newlines; LF or CRLF; comma or semicolon separated (chosen from the header line).
struct CSVRecordReader {
    private var stream: ByteStream
    private var buffer: [UInt8] = []
    private var position = 0
    private var finished = false
    private var line = 1
    private var separator: UInt8?
    let maxFieldBytes: Int

    init(_ stream: ByteStream, maxFieldBytes: Int = 1024 * 1024) {
        self.stream = stream
        self.maxFieldBytes = maxFieldBytes
    }

    var bytesRead: Int { stream.bytesRead }

    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        if finished { return false }
        guard let chunk = try stream.nextChunk() else { finished = true; return false }
        buffer = chunk
        position = 0
        if separator == nil { separator = Self.guessSeparator(chunk) }
        return true
    }

    private static func guessSeparator(_ chunk: [UInt8]) -> UInt8 {
        var commas = 0, semis = 0, inQuotes = false
        for b in chunk {
            if b == 0x22 { inQuotes.toggle() } else if !inQuotes {
                if b == 0x0A { break }
                if b == 0x2C { commas += 1 } else if b == 0x3B { semis += 1 }
            }
        }
        return semis > commas ? 0x3B : 0x2C
    }

    /// One record: its fields as bytes, the line it starts on, and whether a field was cut.
    struct Record {
        var fields: [[UInt8]]
        var line: Int
        var truncated: Bool
        var unterminatedQuote: Bool
    }

    mutating func next() throws -> Record? {
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var inQuotes = false
        var quoteJustClosed = false
        var truncated = false
        let startLine = line
        var sawAnything = false
        while try fill() {
            let b = buffer[position]
            position += 1
            sawAnything = true
            if inQuotes {
                if b == 0x22 {
                    inQuotes = false
                    quoteJustClosed = true
                    continue
                }
                if b == 0x0A { line += 1 }
                if field.count < maxFieldBytes { field.append(b) } else { truncated = true }
                continue
            }
            if b == 0x22 {
                if quoteJustClosed { field.append(0x22) } // "" inside quotes
                inQuotes = true
                quoteJustClosed = false
                continue
            }
            quoteJustClosed = false
            if b == separator {
                fields.append(field)
                field = []
            } else if b == 0x0A {
                line += 1
                if field.last == 0x0D { field.removeLast() }
                fields.append(field)
                if fields.count == 1 && fields[0].isEmpty { fields = []; field = []; continue } // blank line
                return Record(fields: fields, line: startLine, truncated: truncated, unterminatedQuote: false)
            } else if field.count < maxFieldBytes {
                field.append(b)
            } else {
                truncated = true
            }
        }
        guard sawAnything, !(fields.isEmpty && field.isEmpty) else { return nil }
        if field.last == 0x0D { field.removeLast() }
        fields.append(field)
        return Record(fields: fields, line: startLine, truncated: truncated, unterminatedQuote: inQuotes)
    }
}
