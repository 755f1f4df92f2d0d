import Foundation

/// Reads bytes in chunks from a file (or memory), so large imports never become one String.
struct ByteStream {
    private let next: () throws -> [UInt8]?
    /// Bytes read so far.
    private(set) var bytesRead: Int = 0

    init(fileAt url: URL, chunkSize: Int = 256 * 1024) throws {
        let handle = try FileHandle(forReadingFrom: url)
        next = {
            guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else {
                try? handle.close()
                return nil
            }
            return [UInt8](data)
        }
    }

    init(bytes: [UInt8], chunkSize: Int = 256 * 1024) {
        var offset = 0
        next = {
            guard offset < bytes.count else { return nil }
            let end = min(offset + chunkSize, bytes.count)
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }

    mutating func nextChunk() throws -> [UInt8]? {
        let chunk = try next()
        bytesRead += chunk?.count ?? 0
        return chunk
    }
}

/// Splits a byte stream into lines, numbering them from 1. A line ends at LF, CRLF, a lone CR (old
/// Mac files) or CR CR LF (iPhone exports): after a CR, further CRs and one LF belong to the same
/// break. A line longer than `maxLineBytes` keeps only its start and is flagged.
struct LineReader {
    private var stream: ByteStream
    private var buffer: [UInt8] = []
    private var position = 0
    private var finished = false
    /// The last line ended at a CR: CRs and one LF that follow are part of that break.
    private var afterCR = false
    private(set) var lineNumber = 0
    let maxLineBytes: Int

    init(_ stream: ByteStream, maxLineBytes: Int = 8 * 1024 * 1024) {
        self.stream = stream
        self.maxLineBytes = maxLineBytes
    }

    var bytesRead: Int { stream.bytesRead }

    /// The next line without its terminator, and whether it was cut; nil at the end.
    mutating func next() throws -> (bytes: [UInt8], truncated: Bool)? {
        var line: [UInt8] = []
        var truncated = false
        while true {
            if position >= buffer.count {
                if finished { break }
                guard let chunk = try stream.nextChunk() else {
                    finished = true
                    break
                }
                buffer = chunk
                position = 0
            }
            if afterCR {
                while position < buffer.count, buffer[position] == 0x0D { position += 1 }
                if position >= buffer.count { continue }
                if buffer[position] == 0x0A { position += 1 }
                afterCR = false
                continue
            }
            let slice = buffer[position...]
            if let end = slice.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                append(buffer[position..<end], to: &line, truncated: &truncated)
                afterCR = buffer[end] == 0x0D
                position = end + 1
                lineNumber += 1
                return (line, truncated)
            }
            append(slice, to: &line, truncated: &truncated)
            position = buffer.count
        }
        if line.isEmpty && !truncated { return nil }
        lineNumber += 1
        return (line, truncated)
    }

    private func append(_ bytes: ArraySlice<UInt8>, to line: inout [UInt8], truncated: inout Bool) {
        let room = maxLineBytes - line.count
        if bytes.count <= room {
            line.append(contentsOf: bytes)
        } else {
            if room > 0 { line.append(contentsOf: bytes.prefix(room)) }
            truncated = true
        }
    }
}
