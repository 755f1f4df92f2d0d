import Foundation
import HeraldCore
import HeraldStore
import Logging

/// How one address book stands, for the screens.
public struct BookState: Sendable, Hashable {
    public let book: AddressBook
    public let people: Int
    /// When it was last read in full, nil before the first sync of this run.
    public let syncedAt: Date?
    /// What the last sync met: cards it could not read, or why it failed.
    public let problem: String?
}

/// A CardDAV card changed both here and on its server: the server's version is stored, Herald's waits.
public struct BookConflict: Sendable, Hashable {
    public let personId: Int64
    public let book: String
    /// Herald's version and the server's, as vCard text.
    public let mine: String
    public let theirs: String
}

/// The address books of a workspace (`[[books]]`): synced on demand, and while watching, whenever a vdir folder
/// changes (khard, vdirsyncer, an editor), so other programs' edits show live; CardDAV books every `remoteInterval`.
/// Syncs of one book never overlap: a second waits for the first.
public actor BookSyncer {
    private let books: AddressBooks
    private let bus: EventBus
    private let clock: any HeraldClock
    private var watches: [FolderWatch] = []
    private var watching = false
    private var synced: [String: (at: Date, problem: String?)] = [:]
    /// Per book, the cards (file names) the syncs could not read: a sync of some files changes only their part.
    private var unreadable: [String: Set<String>] = [:]
    private var waiting: Set<String> = []
    /// Per book, the card files a folder watch saw change since its last sync.
    private var pending: [String: Set<String>] = [:]
    /// The books whose folder watch lost track since their last sync: read whole.
    private var lost: Set<String> = []
    /// The books being synced now (a CardDAV sync leaves the actor while it waits for the server).
    private var running: Set<String> = []
    private let log = Logger(label: "herald.books")
    /// Syncs a CardDAV book with its server (the executable gives it: Services does no HTTP).
    private var remote: (@Sendable (AddressBooks, String) async throws -> BookSyncReport)?
    private var schedule: Task<Void, Never>?
    /// How often CardDAV books are synced while watching.
    private let remoteInterval: TimeInterval = 300

    init(books: AddressBooks, bus: EventBus, clock: any HeraldClock) {
        self.books = books
        self.bus = bus
        self.clock = clock
    }

    /// Syncs book `name` (every book when nil) with its folder; a book that fails is reported and the others go on.
    /// With `only`, a vdir book looks at just those files.
    public func sync(_ name: String? = nil, only files: Set<String>? = nil) async throws -> [BookSyncReport] {
        let list = try books.list()
        let all = list.map(\.book.name)
        let names: [String]
        if let name {
            guard let found = all.first(where: { $0.lowercased() == name.lowercased() }) else {
                throw BookError.unknownBook(name, known: all)
            }
            names = [found]
        } else {
            names = all
        }
        var reports: [BookSyncReport] = []
        var failure: (any Error)?
        let kinds = Dictionary(list.map { ($0.book.name, $0.book.kind) }, uniquingKeysWith: { a, _ in a })
        for book in names {
            while running.contains(book) { try await Task.sleep(nanoseconds: 50_000_000) }
            running.insert(book)
            defer { running.remove(book) }
            do {
                let report: BookSyncReport
                if kinds[book] == .carddav {
                    guard let remote else { throw BookError.notAFolder(book: book) }
                    report = try await remote(books, book)
                } else {
                    report = try books.sync(book, only: files)
                }
                let bad = Set(report.issues.map { ($0.file as NSString).lastPathComponent })
                if let files, kinds[book] != .carddav {
                    unreadable[book, default: []].subtract(files)
                    unreadable[book, default: []].formUnion(bad)
                } else {
                    unreadable[book] = bad
                }
                let count = unreadable[book]?.count ?? 0
                synced[book] = (clock.now(), count == 0 ? nil : "\(counted(count, "card")) could not be read")
                reports.append(report)
                bus.publish(.booksChanged)
            } catch {
                synced[book] = (clock.now(), "\(error)")
                bus.publish(.booksChanged)
                if name != nil { throw error }
                failure = failure ?? error
            }
        }
        if let failure, reports.isEmpty { throw failure }
        return reports
    }

    /// Each book's people and last sync; conflicts waiting to be settled come first among its problems.
    public func states() throws -> [BookState] {
        let open = Dictionary(grouping: try books.conflicts(), by: \.book).mapValues(\.count)
        return try books.list().map { entry in
            let name = entry.book.name
            let conflicts = open[name].map { "\(counted($0, "conflict")) to settle (C)" }
            return BookState(book: entry.book, people: entry.people, syncedAt: synced[name]?.at, problem: conflicts ?? synced[name]?.problem)
        }
    }

    /// The cards changed on both sides, oldest first.
    public func conflicts() throws -> [BookConflict] {
        try books.conflicts().map { BookConflict(personId: $0.personId, book: $0.book, mine: $0.mine, theirs: $0.theirs) }
    }

    /// Settles a conflict: Herald's version (sent at the next sync) or the server's. False when there was none.
    public func resolve(personId: Int64, keepMine: Bool) throws -> Bool {
        let settled = try books.resolve(personId: personId, keepMine: keepMine)
        if settled { bus.publish(.booksChanged) }
        return settled
    }

    /// How CardDAV books are synced with their servers.
    public func use(remote: @escaping @Sendable (AddressBooks, String) async throws -> BookSyncReport) { self.remote = remote }

    /// Syncs every book now, then again whenever its folder changes (a quarter of a second after the first change, so a
    /// program writing many cards costs one sync), reading only the files that changed. The folder is watched before it
    /// is read, so nothing written meanwhile is missed. A sync that fails says so once on the bus.
    public func startWatching() async {
        guard !watching else { return }
        watching = true
        let list: [(book: AddressBook, people: Int)]
        do { list = try books.list() } catch {
            log.warning("cannot read the address books", metadata: ["cause": "\(logCause(error))"])
            return
        }
        for (book, _) in list {
            if book.kind == .vdir, let watch = FolderWatch.start(folder: book.location, prefix: "", onChange: { [weak self] files in
                guard let self else { return }
                Task { await self.changed(book.name, files: files) }
            }) {
                watches.append(watch)
            }
            await syncInBackground(book.name)
        }
        let remoteBooks = list.filter { $0.book.kind == .carddav }.map(\.book.name)
        if !remoteBooks.isEmpty, schedule == nil {
            let interval = remoteInterval
            schedule = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                    for name in remoteBooks where !Task.isCancelled { await self?.syncInBackground(name) }
                }
            }
        }
    }

    public func stopWatching() {
        for watch in watches { watch.stop() }
        watches = []
        watching = false
        schedule?.cancel()
        schedule = nil
    }

    private func changed(_ name: String, files: Set<String>?) async {
        if let files {
            // Herald's own temporary files and whatever else is not a card change nothing.
            let cards = files.filter(AddressBooks.isCardFile)
            if cards.isEmpty { return }
            pending[name, default: []].formUnion(cards)
        } else {
            lost.insert(name)
        }
        guard waiting.insert(name).inserted else { return }
        try? await Task.sleep(nanoseconds: 250_000_000)
        waiting.remove(name)
        let whole = lost.remove(name) != nil
        let named = pending.removeValue(forKey: name)
        await syncInBackground(name, only: whole ? nil : named)
    }

    private func syncInBackground(_ name: String, only files: Set<String>? = nil) async {
        let before = synced[name]?.problem
        do { _ = try await sync(name, only: files) } catch {
            if before != "\(error)" { bus.publish(.toast(level: .warning, text: "\(error)")) }
        }
    }
}
