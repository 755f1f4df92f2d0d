import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldStore
import RadicaleTestServer

/// `books`: address books you own. A first CardDAV sync of 10,000 cards from a real Radicale on loopback, a sync with
/// nothing changed, a vdir book of 100,000 card files read, and one edit of it saved (its file written back) and seen
/// in the list.
func booksBench(dir: URL) async throws {
    let parser = try PhoneNumberParser(defaultRegion: "HR")
    let generator = AddressBookGenerator(seed: 27)

    let radicale = try RadicaleServer()
    var n = 0
    generator.forEachPerson(count: 10_000) { person in
        n += 1
        var card = person
        card.uid = "dav-\(n)"
        try? Data(VCardWriter.card(card).utf8).write(to: radicale.collectionFolder.appendingPathComponent("dav-\(n).vcf"))
    }
    let davData = dir.appendingPathComponent("books-dav")
    try FileManager.default.createDirectory(at: davData, withIntermediateDirectories: true)
    let password = davData.appendingPathComponent("password")
    try Data(RadicaleServer.password.utf8).write(to: password)
    let davBooks = AddressBooks(database: try HeraldDatabase.open(inDirectory: davData), parser: parser)
    try davBooks.register([AddressBook(name: "dav", kind: .carddav, location: radicale.collection.absoluteString)])
    let sync = CardDAVSync(books: davBooks, account: CardDAVAccount(url: radicale.collection, username: RadicaleServer.user,
                                                                    passwordFile: password.path, passwordCommand: nil))
    var start = DispatchTime.now().uptimeNanoseconds
    let first = try await sync.sync("dav")
    let firstSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("books:    first CardDAV sync of \(first.added) cards from Radicale on loopback: \(String(format: "%.2f", firstSeconds)) s (target ≤ 30 s)")
    start = DispatchTime.now().uptimeNanoseconds
    let again = try await sync.sync("dav")
    let againSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("          a sync with nothing changed (\(again.unchanged) cards): \(String(format: "%.3f", againSeconds)) s (target ≤ 1 s)")

    let folder = dir.appendingPathComponent("vdir")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    n = 0
    generator.forEachPerson(count: 100_000) { person in
        n += 1
        var card = person
        card.uid = "card-\(n)"
        try? Data(VCardWriter.card(card).utf8).write(to: folder.appendingPathComponent("card-\(n).vcf"))
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
    _ = try search.people(try ContactQuery("name:warmup"))          // the search index, as the list has it
    guard let person = try contacts.people(limit: 1).first, let id = person.id else { throw BenchError("the vdir book is empty") }
    var times: [Double] = []
    for round in 0..<20 {
        var draft = ContactDraft(person)
        draft.lastName = "Editedbench\(round)"
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try contacts.save(draft, personId: id, parser: parser)
        let shown = try search.people(try ContactQuery("name:editedbench\(round)"), limit: 50).people
        times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        guard shown.first?.id == id else { throw BenchError("the edit did not show in the list") }
    }
    times.sort()
    print("          an edit saved to the 100,000-card vdir (card file written) until the list shows it: "
          + "p50 \(String(format: "%.1f", times[times.count / 2])) ms, max \(String(format: "%.1f", times.last ?? 0)) ms (target ≤ 50 ms)")
}
