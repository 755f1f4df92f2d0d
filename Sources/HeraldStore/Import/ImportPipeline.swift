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
    /// A vCard 4 group card, applied once every person is stored (its members may come after it).
    case groupCard(GroupCard)
}

/// A bounded hand-over of chunks between two stages of an import running on their own threads: the one
/// that reads, the one that parses numbers and folds names, and the one that writes to SQLite.
final class ImportChannel<Chunk>: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Chunk] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int = 8) { self.capacity = capacity }

    /// Queues a chunk, waiting while the queue is full; false when the receiver gave up.
    func send(_ chunk: Chunk) -> Bool {
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
    func receive() throws -> Chunk? {
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

    /// Tells the sender to stop (the receiver failed or stopped).
    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

/// Lowers the calling thread's priority a little (nice 5; on Linux a thread's own), for the stages before an
/// import's writer: they wait for it anyway, so on a busy machine it is the one that should get a core, and
/// they leave the rest of the process (a screen) its share. Best effort: a refusal changes only the timing.
func yieldToImportWriter() {
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
}

/// What the reading stage hands to the keying one: people as read (their numbers not parsed yet), and
/// the rest in file order.
enum ReadItem: Sendable {
    case ready(ImportItem)
    case person(Person, file: String, line: Int, issues: [ImportIssue])
}

/// The reading stage of an import: sources → records, a chunk at a time to the keying stage.
struct ImportProducer {
    let channel: ImportChannel<[ReadItem]>
    let chunkSize: Int
    /// Notes numbers only: the keying stage parses them.
    private let phones: PhoneParseCache
    /// Parsers for vCard REV dates, made once per import.
    private let dates = RevisionDates()
    /// Read but not yet handed on.
    private var pending: [ReadItem] = []
    private var stopped = false

    /// People per chunk (their numbers are parsed together).
    static let defaultChunkSize = 512

    init(parser: PhoneNumberParser, channel: ImportChannel<[ReadItem]>, chunkSize: Int = defaultChunkSize) {
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
        case .group(let card, _):
            emit(.groupCard(card))
        }
    }

    private mutating func emit(_ item: ImportItem) {
        pending.append(.ready(item))
        if pending.count >= chunkSize { flush() }
    }

    private mutating func flush() {
        guard !pending.isEmpty, !stopped else { return }
        if !channel.send(pending) { stopped = true }
        pending.removeAll(keepingCapacity: true)
    }
}

/// The keying stage of an import: parses each chunk's numbers (on all cores), works out the keys people are
/// stored, sorted, searched and matched by, and hands the chunk to the writer. On a thread of its own, so
/// that reading the next chunk and writing the last one go on meanwhile.
struct ImportKeyer {
    let input: ImportChannel<[ReadItem]>
    let output: ImportChannel<[ImportItem]>
    private let phones: PhoneParseCache
    private let folding = FoldingCache()

    init(parser: PhoneNumberParser, input: ImportChannel<[ReadItem]>, output: ImportChannel<[ImportItem]>) {
        self.input = input
        self.output = output
        phones = PhoneParseCache(parser: parser)
    }

    /// Keys every chunk the reader sends, then closes the output with the reader's error if any.
    func run() {
        do {
            while let read = try input.receive() {
                if !output.send(key(read)) {
                    input.cancel()   // the writer stopped: so does the reader
                    return
                }
            }
            output.finish(error: nil)
        } catch {
            output.finish(error: error)
        }
    }

    private func key(_ read: [ReadItem]) -> [ImportItem] {
        var people: [Person] = []
        people.reserveCapacity(read.count)
        for case .person(let p, _, _, _) in read { people.append(p) }
        phones.resolve(&people)
        var next = 0
        var chunk: [ImportItem] = []
        chunk.reserveCapacity(read.count)
        for item in read {
            switch item {
            case .ready(let ready):
                chunk.append(ready)
            case .person(_, let file, let line, let issues):
                let p = people[next]
                next += 1
                chunk.append(.person(p, keys: PersonRows.keys(for: p, cache: folding), file: file, line: line, issues: issues))
            }
        }
        return chunk
    }
}
