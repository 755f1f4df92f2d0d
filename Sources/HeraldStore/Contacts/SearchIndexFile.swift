import Foundation
import GRDB
import Logging

/// The search index saved next to the database, so a new process (`herald contacts list --search`,
/// the UI's first keystroke) does not read and sort every person again. The file is only used for
/// the contacts it was built from: its stamp (generation, count and highest id of the people) must
/// match the database's. Saving is best effort: a folder that cannot take the file only costs the
/// next process a rebuild.
enum SearchIndexFile {
    private static let magic: UInt64 = 0x4845_5241_4C44_5331    // "HERALDS1"

    struct Stamp: Equatable {
        let generation: Int64
        let count: Int64
        let maxId: Int64

        init(_ db: Database) throws {
            generation = try PersonRows.generation(db)
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(MAX(id), 0) FROM person")
            count = row?[0] ?? 0
            maxId = row?[1] ?? 0
        }
    }

    static func save(_ index: SearchIndex, stamp: Stamp, to path: String) {
        var data = Data()
        func put<T>(_ value: T) { withUnsafeBytes(of: value) { data.append(contentsOf: $0) } }
        func put<T>(array: [T]) {
            put(Int64(array.count))
            array.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        put(magic)
        put(stamp.generation)
        put(stamp.count)
        put(stamp.maxId)
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
        }
    }

    static func load(_ path: String, stamp: Stamp) -> SearchIndex? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            // Only a rebuild is lost: the index is made again from the database.
            Logger(label: "herald.search").notice("the saved search index cannot be read; building it again",
                                                   metadata: ["file": "\(path)", "cause": "\(error.localizedDescription)"])
            return nil
        }
        var reader = Reader(data: data)
        guard reader.value(UInt64.self) == magic, reader.value(Int64.self) == stamp.generation,
              reader.value(Int64.self) == stamp.count, reader.value(Int64.self) == stamp.maxId,
              let ids = reader.array(Int64.self), let text = reader.array(UInt8.self),
              let textStart = reader.array(Int32.self), let digits = reader.array(UInt8.self),
              let digitStart = reader.array(Int32.self), let lastRank = reader.array(Int32.self),
              reader.isAtEnd, ids.count == Int(stamp.count), textStart.count == ids.count + 1,
              digitStart.count == ids.count + 1, lastRank.count == ids.count,
              textStart.last.map({ Int($0) == text.count }) == true, digitStart.last.map({ Int($0) == digits.count }) == true
        else { return nil }
        return SearchIndex(generation: stamp.generation, ids: ids, text: text, textStart: textStart, digits: digits,
                           digitStart: digitStart, lastRank: lastRank)
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
