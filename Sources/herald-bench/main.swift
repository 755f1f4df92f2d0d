import Foundation
import GRDB
import Logging
import HeraldCore
import HeraldStore

// herald-bench: import, search, screen and CLI figures on generated people. Run in release mode:
//   swift build -c release && .build/release/herald-bench all --count 100000
// `ui` and `cli` run on a ledger of --bulks bulks × --per-bulk recipients; the screens are measured in
// a child process (`screens --data DIR`) so its memory is the screens' alone.

struct BenchOptions {
    var command = "all"
    var count = 100_000
    var seed: UInt64 = 1
    var format = ExportFormat.vcard
    var rounds = 30
    var bulks = 10_000
    var perBulk = 20
    var idleSeconds = 10.0
    /// For `screens`: the data folder prepared by the parent.
    var data: String?

    init(_ args: [String]) throws {
        var rest = args[...]
        if let first = rest.first, !first.hasPrefix("-") { command = first; rest = rest.dropFirst() }
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--count": count = try Self.int(value, flag)
            case "--seed": seed = UInt64(try Self.int(value, flag))
            case "--rounds": rounds = try Self.int(value, flag)
            case "--bulks": bulks = try Self.int(value, flag)
            case "--per-bulk": perBulk = try Self.int(value, flag)
            case "--idle": idleSeconds = Double(try Self.int(value, flag))
            case "--data": data = value
            case "--format":
                guard let f = ExportFormat(rawValue: value) else { throw BenchError("--format is vcard or csv") }
                format = f
            default: throw BenchError("unknown option \(flag)")
            }
        }
        guard ["import", "search", "ui", "cli", "screens", "server", "flood", "infobip", "books", "quiet", "deliveries", "conversations", "all"].contains(command) else { throw BenchError("unknown command \(command)") }
    }

    static func int(_ s: String, _ flag: String) throws -> Int {
        guard let v = Int(s), v > 0 else { throw BenchError("\(flag) needs a positive number, not \(s)") }
        return v
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// CPU seconds (user + system) this process has used so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func fmt(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }

/// Generates a book, imports it into a fresh database; returns the database.
func importBench(_ o: BenchOptions, dir: URL) throws -> HeraldDatabase {
    let file = dir.appendingPathComponent(o.format == .csv ? "book.csv" : "book.vcf")
    let gen = try seconds { try AddressBookGenerator(seed: o.seed).write(count: o.count, format: o.format, to: file) }
    let size = Double((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0)
    print("generate: \(o.count) people, \(fmt(size / 1e6)) MB \(o.format.rawValue) in \(fmt(gen)) s")
    let db = try HeraldDatabase.open(inDirectory: dir.appendingPathComponent("data"))
    let importer = ContactImporter(database: db, parser: try PhoneNumberParser(defaultRegion: "HR"))
    var report = ImportReport()
    let cpuBefore = cpuSeconds()
    let t = try seconds { report = try importer.importContacts(from: file) }
    let cpu = cpuSeconds() - cpuBefore
    print("import:   \(report.imported) imported, \(report.updated) updated, \(report.skipped) skipped, \(report.errors.count) errors in \(fmt(t)) s")
    print("          \(fmt(Double(o.count) / t, 0)) people/s, \(fmt(size / 1e6 / t)) MB/s (wall)")
    print("          CPU \(fmt(cpu)) s: \(fmt(Double(o.count) / cpu, 0)) people/s of CPU, \(fmt(cpu / Double(o.count) * 1e6, 1)) µs per person")
    let dbSize = Double((try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? Int) ?? 0)
    let walSize = Double((try? FileManager.default.attributesOfItem(atPath: db.path + "-wal")[.size] as? Int) ?? 0)
    print("          database \(fmt(dbSize / 1e6)) MB, WAL \(fmt(walSize / 1e6)) MB")
    return db
}

/// Median, p95 and max of `times` (ms), formatted.
func summary(_ times: [Double]) -> String {
    let t = times.sorted()
    guard !t.isEmpty else { return "no samples" }
    return "median \(fmt(percentile(t, 0.5))) ms, p95 \(fmt(percentile(t, 0.95))) ms, max \(fmt(t.last ?? 0)) ms"
}

func searchBench(_ o: BenchOptions, db: HeraldDatabase) throws {
    let store = ContactStore(database: db)
    let total = try store.count()
    let build = try seconds { try store.warmUpSearch() }
    print("search:   index over \(total) people built, and the 36 one-letter and one-digit queries answered ahead, in \(fmt(build * 1000, 1)) ms")
    print("          (one-character queries below are those answers; longer queries scan the index)")
    let queries = ["a", "an", "ana", "ana h", "horvat", "kovac", "kovač", "ivan", "иван", "petrov", "ελ", "müller",
                   "mueller", "gmail", "infobip", "zagrebacka", "j", "jo sm", "smith", "0981", "385", "+385 98",
                   "4567", "1", "zz-nothing", "wang", "cohen", "sharma", "durdevic", "o'connor", "e", "m", "s", "9"]
    var perQuery: [Double] = []
    var report: [(String, Int, Double)] = []
    var byLength: [Int: [Double]] = [:]
    for q in queries {
        var times: [Double] = []
        var matched = 0
        for _ in 0..<o.rounds {
            times.append(try seconds { matched = try store.search(q, limit: 50).total } * 1000)
        }
        times.sort()
        perQuery += times
        byLength[min(q.count, 5), default: []] += times
        report.append((q, matched, percentile(times, 0.5)))
    }
    print("          \(queries.count) queries × \(o.rounds) rounds, limit 50 (search + loading the 50 people), each query on its own:")
    print("          all: " + summary(perQuery))
    for len in byLength.keys.sorted() {
        print("          \(len == 5 ? "5+" : String(len)) character\(len == 1 ? "" : "s"): " + summary(byLength[len] ?? []))
    }
    let slowest = report.sorted { $0.2 > $1.2 }.prefix(5).map { "\"\($0.0)\" \(fmt($0.2)) ms (\($0.1) hits)" }
    print("          slowest medians: " + slowest.joined(separator: ", "))
    // What a keystroke in the TUI costs: the whole ranked id list (no limit) plus the first screen of people.
    let words = ["horvat", "ana h", "kovač", "ivan", "иван", "+385 98", "smith", "müller", "jo sm", "gmail.com", "zz-nothing"]
    var typing: [Int: [Double]] = [:]
    var allTyping: [Double] = []
    for _ in 0..<max(1, o.rounds / 3) {
        for w in words {
            var typed = ""
            for ch in w {
                typed.append(ch)
                let t = try seconds {
                    if let hits = try store.searchHits(typed) {
                        _ = try store.people(ids: hits.hits.prefix(50).map(\.personId))
                    }
                } * 1000
                typing[min(typed.count, 5), default: []].append(t)
                allTyping.append(t)
            }
        }
    }
    print("          typing \(words.count) words a letter at a time (full ranked list + first 50 people per keystroke):")
    print("          all keystrokes: " + summary(allTyping))
    for len in typing.keys.sorted() {
        print("          \(len == 5 ? "5+" : String(len)) character\(len == 1 ? "" : "s"): " + summary(typing[len] ?? []))
    }
    // An edit while a search is open: the person saved with a new name, then found by it (the index follows the change).
    let parser = try PhoneNumberParser(defaultRegion: "HR")
    let order = try store.personIDs(sortedBy: .firstName)
    var edits: [Double] = []
    for round in 0..<20 {
        let id = order[(order.count / 20) * round + 7]
        guard let person = try store.person(id: id) else { throw BenchError("person \(id) is gone") }
        var draft = ContactDraft(person)
        draft.lastName = "Editedbench\(round)"
        var found: [Int64] = []
        edits.append(try seconds {
            _ = try store.save(draft, personId: id, parser: parser)
            found = try store.search("editedbench\(round)", limit: 50).people.compactMap(\.id)
        } * 1000)
        guard found == [id] else { throw BenchError("the edit of \(id) did not show in the search (\(found))") }
    }
    print("          an edit saved, then found by its new name (the search index follows it), 20 edits: " + summary(edits))
    // For comparison: a plain SQL LIKE scan over the stored search keys.
    var likeTimes: [Double] = []
    for q in ["ana", "horvat", "gmail", "zz-nothing"] {
        for _ in 0..<5 {
            likeTimes.append(try seconds {
                _ = try store.likeScanCount(q)
            } * 1000)
        }
    }
    likeTimes.sort()
    print("          (SQL LIKE '%q%' count over search_key, for comparison: median \(fmt(percentile(likeTimes, 0.5))) ms)")
}

// Warnings and errors only: a server's access log line per request would be the bench's own load.
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
}

do {
    let o = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    #if DEBUG
    print("note: debug build; figures are only meaningful with -c release")
    #endif
    if o.command == "screens", let data = o.data {
        try await uiBench(o, data: URL(fileURLWithPath: data))
        exit(0)
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    if o.command == "quiet" {
        try await quietBench(dir: dir)
        try? FileManager.default.removeItem(at: dir)
        exit(0)
    }
    if o.command == "deliveries" {
        try await deliveriesBench(o, dir: dir)
        try? FileManager.default.removeItem(at: dir)
        exit(0)
    }
    if o.command == "conversations" {
        try await conversationsBench(o, dir: dir)
        try? FileManager.default.removeItem(at: dir)
        exit(0)
    }
    if o.command == "books" {
        try await booksBench(dir: dir)
        try? FileManager.default.removeItem(at: dir)
        exit(0)
    }
    if o.command == "server" || o.command == "flood" || o.command == "infobip" {
        if o.command == "server" { try await serverBench(o, dir: dir) }
        if o.command != "infobip" { try await floodBench(dir: dir) }
        if o.command != "flood" { try await infobipBench(dir: dir) }
        try? FileManager.default.removeItem(at: dir)   // exit does not run the defer above
        exit(0)
    }
    let db = try importBench(o, dir: dir)
    if ["search", "all"].contains(o.command) {
        try searchBench(o, db: db)
        try groupsBench(o, db: db)
    }
    if ["ui", "cli", "all"].contains(o.command) {
        let seeded = try LedgerSeed.fill(db, bulks: o.bulks, perBulk: o.perBulk)
        print("ledger:   \(seeded.bulks) bulks, \(seeded.rows) invitation rows")
    }
    if ["ui", "all"].contains(o.command) { try runScreens(o, data: dir.appendingPathComponent("data")) }
    if ["cli", "all"].contains(o.command) { try cliBench(o, dir: dir) }
    if o.command == "all" {
        try await serverBench(o, dir: dir)
        try await floodBench(dir: dir)
        try await infobipBench(dir: dir)
        try await booksBench(dir: dir)
        try await quietBench(dir: dir)
        try await deliveriesBench(o, dir: dir)
        try await conversationsBench(o, dir: dir)
    }
} catch {
    FileHandle.standardError.write(Data("herald-bench: \(error)\nusage: herald-bench [import|search|ui|cli|server|flood|infobip|books|quiet|deliveries|conversations|all] [--count N] [--seed S] [--format vcard|csv] [--rounds R] [--bulks B] [--per-bulk N] [--idle S]\n".utf8))
    exit(2)
}
