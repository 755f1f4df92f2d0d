import Foundation
import HeraldCore

/// What the reading thread of an import hands to the writing one, in file order.
enum ImportItem: Sendable {
    /// A person read from `file` (the card or row starting on `line`), with the keys it will be
    /// stored under and the problems met.
    case person(Person, keys: PersonRows.Keys, file: String, line: Int, issues: [ImportIssue])
    /// A card or row that could not be used.
    case skipped(ImportIssue)
    /// A problem that skipped nothing (a file of a folder that cannot be read).
    case issue(ImportIssue)
    /// Bytes read from one source file.
    case bytesRead(Int)
}

/// A bounded hand-over between the thread that reads, parses numbers and folds names and the one
/// that writes to SQLite, so the two halves of an import run on two cores.
final class ImportChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[ImportItem]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int = 8) { self.capacity = capacity }

    /// Queues a chunk, waiting while the queue is full; false when the receiver gave up.
    func send(_ chunk: [ImportItem]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    /// Ends the stream, with the error that stopped the reader if any.
    func finish(error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk; nil at the end. Rethrows the reader's error once the chunks before it are taken.
    func receive() throws -> [ImportItem]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            condition.broadcast()
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the reader to stop (the writer failed).
    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

/// The reading half of an import: sources → records → people with parsed numbers and keys.
struct ImportProducer {
    let parser: PhoneNumberParser
    let channel: ImportChannel
    let chunkSize: Int
    private let phones: PhoneParseCache
    private let folding = FoldingCache()
    /// Parsers for vCard REV dates, made once per import.
    private let dates = RevisionDates()
    /// Read but not yet sent: people wait for their numbers to be parsed (a chunk at a time).
    private var pending: [Pending] = []
    private var stopped = false

    private enum Pending {
        case ready(ImportItem)
        case person(Person, file: String, line: Int, issues: [ImportIssue])
    }

    /// People per chunk handed to the writer (their numbers are parsed together).
    static let defaultChunkSize = 512

    init(parser: PhoneNumberParser, channel: ImportChannel, chunkSize: Int = defaultChunkSize) {
        self.parser = parser
        self.channel = channel
        self.chunkSize = chunkSize
        phones = PhoneParseCache(parser: parser, deferred: true)
        pending.reserveCapacity(chunkSize)
    }

    /// Reads `url` as `format` (already resolved) to the end, then closes the channel.
    mutating func run(_ url: URL, format: ImportFormat) {
        do {
            switch format {
            case .vdir:
                for file in ContactImporter.vcfFiles(in: url) where !stopped {
                    try readVCards(file)
                }
            case .vcard, .auto:
                try readVCards(url)
            case .csv:
                let stream = try Self.open(url)
                var reader = CSVContactReader(records: CSVRecordReader(stream), parser: phones)
                let path = url.path
                while !stopped, let record = try reader.next() { take(record, file: path) }
                emit(.bytesRead(reader.bytesRead))
            }
            flush()
            channel.finish(error: nil)
        } catch {
            flush()
            channel.finish(error: error)
        }
    }

    private mutating func readVCards(_ url: URL) throws {
        let stream: ByteStream
        do { stream = try Self.open(url) } catch {
            emit(.issue(ImportIssue(file: url.path, line: 0, message: "cannot read this file: \(error.localizedDescription)")))
            return
        }
        var reader = VCardReader(lines: LineReader(stream), parser: phones, dates: dates)
        let path = url.path
        while !stopped, let record = try reader.next() { take(record, file: path) }
        emit(.bytesRead(reader.bytesRead))
    }

    static func open(_ url: URL) throws -> ByteStream {
        guard FileManager.default.fileExists(atPath: url.path) else { throw ImportError.notFound(url.path) }
        do { return try ByteStream(fileAt: url) } catch {
            throw ImportError.unreadable(url.path, error.localizedDescription)
        }
    }

    private mutating func take(_ record: SourceRecord, file: String) {
        switch record {
        case .failure(let line, let message):
            emit(.skipped(ImportIssue(file: file, line: line, message: message)))
        case .person(let p, let line, let issues):
            pending.append(.person(p, file: file, line: line,
                                   issues: issues.map { ImportIssue(file: file, line: $0.line, message: $0.message) }))
            if pending.count >= chunkSize { flush() }
        }
    }

    private mutating func emit(_ item: ImportItem) {
        pending.append(.ready(item))
        if pending.count >= chunkSize { flush() }
    }

    /// Parses the chunk's numbers (all cores), folds its names and hands it over.
    private mutating func flush() {
        guard !pending.isEmpty, !stopped else { return }
        var people: [Person] = []
        for case .person(let p, _, _, _) in pending { people.append(p) }
        phones.resolve(&people)
        var next = 0
        var chunk: [ImportItem] = []
        chunk.reserveCapacity(pending.count)
        for item in pending {
            switch item {
            case .ready(let ready):
                chunk.append(ready)
            case .person(_, let file, let line, let issues):
                let p = people[next]
                next += 1
                chunk.append(.person(p, keys: PersonRows.keys(for: p, cache: folding), file: file, line: line, issues: issues))
            }
        }
        pending.removeAll(keepingCapacity: true)
        if !channel.send(chunk) { stopped = true }
    }
}
