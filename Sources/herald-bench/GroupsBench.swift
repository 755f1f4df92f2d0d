import Foundation
import HeraldCore
import HeraldStore

/// `search` (and `all`): a group filter over the whole book against a name search of the same book, both as Contacts
/// asks them (the query, the total, and the first 50 people loaded). A tenth of the people are put in one group, a
/// hundredth in another, through the same tagging `herald contacts tag` does.
func groupsBench(_ o: BenchOptions, db: HeraldDatabase) throws {
    let store = ContactStore(database: db)
    let search = ContactSearch(contacts: store, ledger: LedgerStore(database: db))
    let ids = try store.personIDs(sortedBy: .firstName)
    let big = stride(from: 0, to: ids.count, by: 10).map { ids[$0] }
    let small = stride(from: 5, to: ids.count, by: 100).map { ids[$0] }
    let tagging = try seconds {
        try store.tag(ids: big, adding: ["Running Club"], removing: [])
        try store.tag(ids: small, adding: ["Zbor"], removing: [])
    }
    print("groups:   \(big.count) people tagged \"Running Club\" and \(small.count) \"Zbor\" in \(fmt(tagging)) s")
    try store.warmUpSearch()
    func timed(_ text: String) throws -> (times: [Double], total: Int) {
        let query = try ContactQuery(text)
        var times: [Double] = [], total = 0
        for _ in 0..<max(5, o.rounds) {
            times.append(try seconds { total = try search.people(query, limit: 50).total } * 1000)
        }
        return (times, total)
    }
    for (text, expected) in [("group:\"running club\"", big.count), ("group:zbor", small.count), ("group:trcanje", 0)] {
        let (times, total) = try timed(text)
        guard total == expected else { throw BenchError("\(text) found \(total), not \(expected)") }
        print("          \(text) (\(total) of \(ids.count)), limit 50: " + summary(times))
    }
    let combined = try timed("horvat group:\"running club\"")
    print("          horvat group:\"running club\" (\(combined.total)): " + summary(combined.times))
    for text in ["horvat", "name:horvat", "ana"] {
        let (times, total) = try timed(text)
        print("          for comparison, the name search \(text) (\(total)), limit 50: " + summary(times))
    }
}
