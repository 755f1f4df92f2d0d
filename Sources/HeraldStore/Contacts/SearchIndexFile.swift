import Foundation
import GRDB
import Logging

/// The search index saved next to the database, so a new process (`herald contacts list --search`,
/// the UI's first keystroke) does not read and sort every person again. The file is only used for
/// the database it was built from (its epoch): as it is when nobody changed the contacts since, else
/// brought up to date with the people changed since (`SearchIndex.caughtUp`). Saving is best effort: a
/// folder that cannot take the file only costs the next process a rebuild.
enum SearchIndexFile {
    private static let magic: UInt64 = 0x4845_5241_4C44_5332    // "HERALDS2"

    /// Which contacts an index is for.
    struct Stamp {
        /// Tells this database from another one at the same path.
        let epoch: Int64
        let generation: Int64
        /// How many people there are, and the highest id: with the generation, what a saved index must match to be
        /// taken as it is (a copy of the database put back in place may repeat a generation).
        let count: Int64
        let maxId: Int64

        init(_ db: Database) throws {
            epoch = try Int64.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'contacts_epoch'") ?? 0
            generation = try PersonRows.generation(db)
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(MAX(id), 0) FROM person")
            count = row?[0] ?? 0
            maxId = row?[1] ?? 0
        }
    }

    static func save(_ index: SearchIndex, epoch: Int64, to path: String) {
        var data = Data()
        func put<T>(_ value: T) { withUnsafeBytes(of: value) { data.append(contentsOf: $0) } }
        func put<T>(array: [T]) {
            put(Int64(array.count))
            array.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        put(magic)
        put(epoch)
        put(index.generation)
        put(index.changeSeq)
        put(array: index.ids)
        put(array: index.text)
        put(array: index.textStart)
        put(array: index.digits)
        put(array: index.digitStart)
        put(array: index.lastRank)
        let temporary = path + ".\(getpid()).tmp"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            unlink(temporary)
            // Only the next process's start is slower: it builds the index itself.
            Logger(label: "herald.search").notice("the search index cannot be saved for the next process",
                                                   metadata: ["file": "\(path)", "cause": "\(error.localizedDescription)"])
        }
    }

    /// The index saved for the database of `epoch`, whatever its generation; nil when there is none, or it is
    /// another database's, or it does not hold together.
    static func load(_ path: String, epoch: Int64) -> SearchIndex? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            // Only a rebuild is lost: the index is made again from the database.
            Logger(label: "herald.search").notice("the saved search index cannot be read; building it again",
                                                   metadata: ["file": "\(path)", "cause": "\(error.localizedDescription)"])
            return nil
        }
        var reader = Reader(data: data)
        guard reader.value(UInt64.self) == magic, reader.value(Int64.self) == epoch,
              let generation = reader.value(Int64.self), let changeSeq = reader.value(Int64.self),
              let ids = reader.array(Int64.self), let text = reader.array(UInt8.self),
              let textStart = reader.array(Int32.self), let digits = reader.array(UInt8.self),
              let digitStart = reader.array(Int32.self), let lastRank = reader.array(Int32.self),
              reader.isAtEnd, textStart.count == ids.count + 1,
              digitStart.count == ids.count + 1, lastRank.count == ids.count,
              textStart.first == 0, digitStart.first == 0,
              zip(textStart, textStart.dropFirst()).allSatisfy({ $0 < $1 }),
              zip(digitStart, digitStart.dropFirst()).allSatisfy({ $0 < $1 }),
              textStart.last.map({ Int($0) == text.count }) == true, digitStart.last.map({ Int($0) == digits.count }) == true,
              lastRank.allSatisfy({ $0 >= 0 && Int($0) < ids.count })
        else { return nil }
        return SearchIndex(generation: generation, changeSeq: changeSeq, ids: ids, text: text, textStart: textStart,
                           digits: digits, digitStart: digitStart, lastRank: lastRank)
    }

    /// Reads fixed-size values and arrays from the file's bytes, refusing anything that runs past the end.
    private struct Reader {
        let data: Data
        var offset = 0

        var isAtEnd: Bool { offset == data.count }

        mutating func value<T>(_: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard offset + size <= data.count else { return nil }
            defer { offset += size }
            return data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }

        mutating func array<T>(_: T.Type) -> [T]? {
            guard let count = value(Int64.self), count >= 0 else { return nil }
            let bytes = Int(count) * MemoryLayout<T>.stride
            guard bytes >= 0, offset + bytes <= data.count else { return nil }
            defer { offset += bytes }
            return [T](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
                if let target = buffer.baseAddress, bytes > 0 {
                    data.withUnsafeBytes { raw in
                        if let source = raw.baseAddress { _ = memcpy(target, source + offset, bytes) }
                    }
                }
                initialized = Int(count)
            }
        }
    }
}
