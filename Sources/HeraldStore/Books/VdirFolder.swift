import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A vdir address book: a folder with one `.vcf` file per card, as khard and vdirsyncer keep it. A card's href is
/// its file name; its etag says how the file was when read (change time, size, inode), so a file another program
/// rewrote is noticed.
struct VdirFolder: Sendable {
    let path: String
    /// The largest card file read (a photo makes a card large; more is not a contact).
    static let maxCardBytes = 16 * 1024 * 1024

    /// Whether the folder is there.
    var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every card file (`*.vcf`, not hidden) with its etag.
    func cards() throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
        var cards: [String: String] = [:]
        cards.reserveCapacity(names.count)
        for name in names where Self.isCardName(name) {
            if let etag = etag(name) { cards[name] = etag }
        }
        return cards
    }

    /// Whether a file of the folder is a card: `*.vcf`, not hidden (Herald's temporary files are hidden).
    static func isCardName(_ name: String) -> Bool { !name.hasPrefix(".") && name.lowercased().hasSuffix(".vcf") }

    /// How the file `href` is now: modification time in nanoseconds, size and inode; nil when it is not a regular file.
    func etag(_ href: String) -> String? {
        var info = stat()
        guard stat(file(href), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_size)-\(info.st_ino)"
    }

    func file(_ href: String) -> String { (path as NSString).appendingPathComponent(href) }

    /// The bytes of card `href`.
    func read(_ href: String) throws(BookError) -> [UInt8] {
        let url = URL(fileURLWithPath: file(href))
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: Self.maxCardBytes + 1) ?? Data()
        } catch {
            throw .unreadable(file(href), error.localizedDescription)
        }
        guard data.count <= Self.maxCardBytes else { throw .tooLarge(file(href), Self.maxCardBytes) }
        return [UInt8](data)
    }

    /// Writes card `href` whole or not at all (a temporary file beside it, flushed, then renamed over it), so khard,
    /// vdirsyncer and a crash never see half a card. Answers the new etag.
    @discardableResult
    func write(_ href: String, _ bytes: [UInt8]) throws(BookError) -> String {
        let target = file(href)
        let temporary = (path as NSString).appendingPathComponent(".\(href).herald-\(UUID().uuidString).tmp")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw .unwritable(target, String(cString: strerror(errno))) }
        var written = 0
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n <= 0 { return false }
                written += n
            }
            return fsync(fd) == 0
        }
        let cause = ok ? "" : String(cString: strerror(errno))
        close(fd)
        // Other programs read the folder too: the card keeps the permissions the folder's files have.
        if ok, let mode = try? FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? NSNumber {
            chmod(temporary, mode_t(mode.uint16Value))
        } else if ok {
            chmod(temporary, 0o644)
        }
        guard ok, rename(temporary, target) == 0 else {
            let why = ok ? String(cString: strerror(errno)) : cause
            unlink(temporary)
            throw .unwritable(target, why)
        }
        guard let etag = etag(href) else { throw .unwritable(target, "it is not there after writing") }
        return etag
    }

    /// Removes card `href` (gone already is fine).
    func remove(_ href: String) throws(BookError) {
        guard unlink(file(href)) == 0 || errno == ENOENT else { throw .unwritable(file(href), String(cString: strerror(errno))) }
    }
}

/// What went wrong with an address book, naming the book or the file.
public enum BookError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownBook(String, known: [String])
    case folderMissing(book: String, path: String)
    case unreadable(String, String)
    case unwritable(String, String)
    case tooLarge(String, Int)
    /// The card's file changed since Herald read it (khard, vdirsyncer): nothing was written.
    case changedOnDisk(book: String, file: String)
    case cardMissing(book: String, file: String)
    /// A CardDAV book asked to sync as a folder.
    case notAFolder(book: String)
    /// A book no longer in config.toml, kept with its people until it comes back.
    case leftOut(String, people: Int)

    public var description: String {
        switch self {
        case .unknownBook(let name, let known):
            return known.isEmpty ? "no address book \"\(name)\": none is configured ([[books]] in config.toml)"
                : "no address book \"\(name)\": the books are \(known.joined(separator: ", "))"
        case .folderMissing(let book, let path):
            return "book \(book): the folder \(path) is not there (nothing was changed here); create it or fix path in [[books]]"
        case .unreadable(let file, let why): return "cannot read \(file): \(why)"
        case .unwritable(let file, let why): return "cannot write \(file): \(why) (nothing was changed)"
        case .tooLarge(let file, let limit): return "\(file) is larger than \(limit / 1024 / 1024) MiB: not read as a card"
        case .changedOnDisk(let book, let file):
            return "book \(book): \(file) changed since Herald read it (another program wrote it); nothing was written: "
                + "sync the book (herald contacts sync \(book)) and edit again"
        case .notAFolder(let book):
            return "book \(book) is a CardDAV book: it syncs with its server, not a folder"
        case .leftOut(let book, let people):
            return "book \(book) is no longer in config.toml: its \(people) \(people == 1 ? "person keeps" : "people keep") their cards "
                + "and unsynced changes here; add its [[books]] entry back to use it"
        case .cardMissing(let book, let file):
            return "book \(book): \(file) is gone (another program removed it); nothing was written: sync the book"
        }
    }
}
