import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldStore
import HeraldTestKit

/// `books`: address books you own. A first CardDAV sync of 10,000 cards from a real Radicale on loopback, a sync with
/// nothing changed, a vdir book of 100,000 card files read, and one edit of it saved (its file written back) and seen
/// in the list.
func booksBench(dir: URL) async throws {
    let parser = try PhoneNumberParser(defaultRegion: "HR")
    let generator = AddressBookGenerator(seed: 27)

    let radicale = try RadicaleServer()
    var n = 0
    try generator.forEachPerson(count: 10_000) { person in
        n += 1
        var card = person
        card.uid = "dav-\(n)"
        try Data(VCardWriter.card(card).utf8).write(to: radicale.collectionFolder.appendingPathComponent("dav-\(n).vcf"))
    }
    let davData = dir.appendingPathComponent("books-dav")
    try FileManager.default.createDirectory(at: davData, withIntermediateDirectories: true)
    let password = davData.appendingPathComponent("password")
    try Data(RadicaleServer.password.utf8).write(to: password)
    let davBooks = AddressBooks(database: try HeraldDatabase.open(inDirectory: davData), parser: parser)
    try davBooks.register([AddressBook(name: "dav", kind: .carddav, location: radicale.collection.absoluteString)])
    let sync = CardDAVSync(books: davBooks, account: CardDAVAccount(url: radicale.collection, username: RadicaleServer.user,
                                                                    passwordFile: password.path, passwordCommand: nil))
    // Radicale reads every card once to build its own cache at the first listing; that is the server's time, taken
    // apart from Herald's.
    var start = DispatchTime.now().uptimeNanoseconds
    var outside: [String] = []
    let listed = try await CardDAVClient(book: "dav", collection: radicale.collection, username: RadicaleServer.user,
                                         password: RadicaleServer.password).etags(outside: &outside).count
    print("books:    Radicale's own first listing of its \(listed) cards (its cache built, before any sync): "
          + String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) + " s")
    start = DispatchTime.now().uptimeNanoseconds
    let first = try await sync.sync("dav")
    let firstSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("          first CardDAV sync of \(first.added) cards from Radicale on loopback: \(String(format: "%.2f", firstSeconds)) s (target ≤ 30 s)")
    // A sync with nothing changed, and the server's part of it: the same sync-collection REPORT alone; five of each,
    // taken in turns (Radicale's own time varies from one answer to the next).
    let token = try davBooks.remoteState("dav").token
    var syncs: [Double] = [], reports: [Double] = []
    var unchanged = 0
    for _ in 0..<5 {
        start = DispatchTime.now().uptimeNanoseconds
        unchanged = try await sync.sync("dav").unchanged
        syncs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        start = DispatchTime.now().uptimeNanoseconds
        _ = try await CardDAVClient(book: "dav", collection: radicale.collection, username: RadicaleServer.user,
                                    password: RadicaleServer.password).changes(since: token, outside: &outside)
        reports.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    func median(_ xs: [Double]) -> String { String(format: "%.3f", xs.sorted()[xs.count / 2]) }
    print("          a sync with nothing changed (\(unchanged) cards), median of 5: \(median(syncs)) s (target ≤ 1 s; "
          + "fastest \(String(format: "%.3f", syncs.min() ?? 0)) s), of which Radicale's answer to the sync-collection REPORT "
          + "alone, median of 5: \(median(reports)) s")

    let folder = dir.appendingPathComponent("vdir")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    n = 0
    try generator.forEachPerson(count: 100_000) { person in
        n += 1
        var card = person
        card.uid = "card-\(n)"
        try Data(VCardWriter.card(card).utf8).write(to: folder.appendingPathComponent("card-\(n).vcf"))
    }
    let vdirData = dir.appendingPathComponent("books-vdir")
    let database = try HeraldDatabase.open(inDirectory: vdirData)
    let books = AddressBooks(database: database, parser: parser)
    try books.register([AddressBook(name: "big", kind: .vdir, location: folder.path)])
    start = DispatchTime.now().uptimeNanoseconds
    let read = try books.sync("big")
    print("          a vdir of \(read.added) card files read: \(String(format: "%.2f", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)) s")
    let contacts = ContactStore(database: database)
    let search = ContactSearch(contacts: contacts, ledger: LedgerStore(database: database))
    let order = try contacts.personIDs(sortedBy: .firstName)
    let at = order.count / 2
    let id = order[at]
    guard let person = try contacts.person(id: id) else { throw BenchError("the vdir book is empty") }
    // The search index is built once, as the TUI does at start; the edits below are timed against it.
    try contacts.warmUpSearch()
    // The list as Contacts shows it after an edit (no search): the rows around the person, read again.
    var shownAfter: [Double] = [], searched: [Double] = []
    for round in 0..<20 {
        var draft = ContactDraft(person)
        draft.note = "edited in round \(round)"
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try contacts.save(draft, personId: id, parser: parser)
        let window = try contacts.people(sortedBy: .firstName, limit: 60, offset: max(0, at - 30))
        shownAfter.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        guard window.first(where: { $0.id == id })?.note == draft.note else { throw BenchError("the edit did not show in the list") }
        // With a search open: the search index of 100,000 takes the changed person again.
        var named = draft
        named.lastName = "Editedbench\(round)"
        let t1 = DispatchTime.now().uptimeNanoseconds
        _ = try contacts.save(named, personId: id, parser: parser)
        let found = try search.people(try ContactQuery("name:editedbench\(round)"), limit: 50).people
        searched.append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6)
        guard found.first?.id == id else { throw BenchError("the edit did not show in the search") }
    }
    // Another program (khard) rewrites one card: what the folder watch makes Herald do, the files it saw changed,
    // against a sync that looks at every file of the folder.
    var named: [Double] = [], whole: [Double] = []
    for round in 0..<10 {
        let href = "card-\(1 + round * 9_000).vcf"
        let path = folder.appendingPathComponent(href)
        let text = try String(contentsOf: path, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "END:VCARD", with: "NOTE:khard \(round)\r\nEND:VCARD").utf8).write(to: path)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let report = try books.sync("big", only: [href])
        named.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        guard report.updated == 1 else { throw BenchError("the changed card was not read again") }
        let t1 = DispatchTime.now().uptimeNanoseconds
        _ = try books.sync("big")
        whole.append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6)
    }
    func p50(_ xs: [Double]) -> String { String(format: "%.1f", xs.sorted()[xs.count / 2]) }
    func top(_ xs: [Double]) -> String { String(format: "%.1f", xs.max() ?? 0) }
    print("          an edit saved to the 100,000-card vdir (card file written, fsync, rename) until the list shows it: "
          + "p50 \(p50(shownAfter)) ms, max \(top(shownAfter)) ms (target ≤ 50 ms)")
    print("          the same with a search open until the search finds it by its new name: p50 \(p50(searched)) ms, max \(top(searched)) ms")
    print("          a card another program rewrote, read as the folder watch names it: p50 \(p50(named)) ms, max \(top(named)) ms; "
          + "a sync that looks at all 100,000 files: p50 \(p50(whole)) ms")
}
