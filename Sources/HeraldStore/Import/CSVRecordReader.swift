import Foundation

/// RFC 4180 records from a byte stream: quoted fields with embedded separators, quotes ("") and
/// newlines; LF or CRLF; comma or semicolon separated (chosen from the header line).
///
/// Work and memory stay bounded per record: a field keeps its first `maxFieldBytes`, a record its
/// first `maxFields` fields, and a quote that is still open after `maxRecordBytes` (or at the end
/// of the file) fails its record, and reading goes on at the line after the record's first one, so
/// one stray quote does not swallow the rows after it.
struct CSVRecordReader {
    private var stream: ByteStream
    private var buffer: [UInt8] = []
    private var position = 0
    private var finished = false
    private var line = 1
    private var separator: UInt8?
    let maxFieldBytes: Int
    let maxFields: Int
    let maxRecordBytes: Int
    /// The chunks the current record was read from (the first from `recordStart`), kept while the
    /// record is shorter than `maxRecordBytes`, to read it again when its quote never closes.
    private var recordChunks: [[UInt8]] = []
    private var recordStart = 0
    private var keepingRecord = true

    init(_ stream: ByteStream, maxFieldBytes: Int = 1024 * 1024, maxFields: Int = FieldLimits.fieldsPerRow,
         maxRecordBytes: Int = 8 * 1024 * 1024) {
        self.stream = stream
        self.maxFieldBytes = maxFieldBytes
        self.maxFields = maxFields
        self.maxRecordBytes = maxRecordBytes
    }

    var bytesRead: Int { stream.bytesRead }

    private mutating func fill() throws -> Bool {
        if position < buffer.count { return true }
        if finished { return false }
        guard let chunk = try stream.nextChunk() else { finished = true; return false }
        buffer = chunk
        position = 0
        if keepingRecord { recordChunks.append(chunk) }
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

    /// Why a record's quoted field did not close.
    enum UnclosedQuote: Equatable {
        /// The file ended inside it.
        case endOfFile
        /// It ran over `maxRecordBytes`.
        case tooLong
    }

    /// One record: its fields as bytes (the first `maxFields`), how many fields it had, the line
    /// it starts on, whether a field was cut, and whether a quote did not close (then the record
    /// ends there and the reader goes on at `resumedAt`, the line after `line`, when it could).
    struct Record {
        var fields: [[UInt8]]
        var fieldCount: Int
        var line: Int
        var truncated: Bool
        var unclosedQuote: UnclosedQuote?
        var resumedAt: Int?

        var unterminatedQuote: Bool { unclosedQuote != nil }
    }

    mutating func next() throws -> Record? {
        var fields: [[UInt8]] = []
        var fieldCount = 0
        var field: [UInt8] = []
        var inQuotes = false
        var quoteJustClosed = false
        var truncated = false
        let startLine = line
        var sawAnything = false
        var spanned = 0
        startKeeping()

        func endField() {
            fieldCount += 1
            if fields.count < maxFields { fields.append(field) }
            field = []
        }

        while try fill() {
            let b = buffer[position]
            position += 1
            sawAnything = true
            spanned += 1
            if spanned > maxRecordBytes {
                if inQuotes {
                    endField()
                    let resumed = rewind(startLine: startLine)
                    return Record(fields: fields, fieldCount: fieldCount, line: startLine, truncated: truncated,
                                  unclosedQuote: .tooLong, resumedAt: resumed)
                }
                // An unquoted record this long is only cut; it is never read again.
                if keepingRecord {
                    keepingRecord = false
                    recordChunks.removeAll()
                }
            }
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
                if quoteJustClosed && field.count < maxFieldBytes { field.append(0x22) } // "" inside quotes
                inQuotes = true
                quoteJustClosed = false
                continue
            }
            quoteJustClosed = false
            if b == separator {
                endField()
            } else if b == 0x0A {
                line += 1
                if field.last == 0x0D { field.removeLast() }
                endField()
                if fieldCount == 1 && fields[0].isEmpty { // blank line
                    fields = []
                    fieldCount = 0
                    spanned = 0
                    startKeeping()
                    continue
                }
                return Record(fields: fields, fieldCount: fieldCount, line: startLine, truncated: truncated,
                              unclosedQuote: nil, resumedAt: nil)
            } else if field.count < maxFieldBytes {
                field.append(b)
            } else {
                truncated = true
            }
        }
        guard sawAnything, !(fieldCount == 0 && field.isEmpty) else { return nil }
        if field.last == 0x0D { field.removeLast() }
        endField()
        if inQuotes {
            let resumed = rewind(startLine: startLine)
            return Record(fields: fields, fieldCount: fieldCount, line: startLine, truncated: truncated,
                          unclosedQuote: .endOfFile, resumedAt: resumed)
        }
        return Record(fields: fields, fieldCount: fieldCount, line: startLine, truncated: truncated,
                      unclosedQuote: nil, resumedAt: nil)
    }

    /// Starts keeping the bytes of a record that starts at `position`.
    private mutating func startKeeping() {
        keepingRecord = true
        recordChunks.removeAll(keepingCapacity: true)
        recordChunks.append(buffer)
        recordStart = position
    }

    /// Makes the reader go on at the line after the current record's first line (the quote that
    /// opened on it is taken for a stray one). Returns that line's number, or nil when the record's
    /// bytes were not kept or there is no such line (reading then goes on where it stopped).
    private mutating func rewind(startLine: Int) -> Int? {
        guard keepingRecord, !recordChunks.isEmpty else { return nil }
        // The record's bytes: from `recordStart` of the first chunk, then every later chunk whole
        // (the last one is the buffer being read, so its unread bytes come along).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordChunks.reduce(0) { $0 + $1.count })
        for (i, chunk) in recordChunks.enumerated() {
            if i == 0 {
                if recordStart < chunk.count { bytes.append(contentsOf: chunk[recordStart...]) }
            } else {
                bytes.append(contentsOf: chunk)
            }
        }
        recordChunks.removeAll(keepingCapacity: true)
        keepingRecord = false
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        buffer = Array(bytes[(newline + 1)...])
        position = 0
        line = startLine + 1
        return line
    }
}
