import Foundation
import GRDB
import HeraldCore
import HeraldStore

// herald-bench: import and search figures for the local store. Run in release mode:
//   swift build -c release --product herald-bench && .build/release/herald-bench import --count 100000

struct BenchOptions {
    var command = "all"
    var count = 100_000
    var seed: UInt64 = 1
    var format = ExportFormat.vcard
    var rounds = 30

    init(_ args: [String]) throws {
        var rest = args[...]
        if let first = rest.first, !first.hasPrefix("-") { command = first; rest = rest.dropFirst() }
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--count": count = try Self.int(value, flag)
            case "--seed": seed = UInt64(try Self.int(value, flag))
            case "--rounds": rounds = try Self.int(value, flag)
            case "--format":
                guard let f = ExportFormat(rawValue: value) else { throw BenchError("--format is vcard or csv") }
                format = f
            default: throw BenchError("unknown option \(flag)")
            }
        }
        guard ["import", "search", "all"].contains(command) else { throw BenchError("unknown command \(command)") }
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
    let t = try seconds { report = try importer.importContacts(from: file) }
    print("import:   \(report.imported) imported, \(report.updated) updated, \(report.skipped) skipped, \(report.errors.count) errors in \(fmt(t)) s")
    print("          \(fmt(Double(o.count) / t, 0)) people/s, \(fmt(size / 1e6 / t)) MB/s")
    let dbSize = Double((try FileManager.default.attributesOfItem(atPath: db.path)[.size] as? Int) ?? 0)
    print("          database \(fmt(dbSize / 1e6)) MB (plus WAL)")
    return db
}

func searchBench(_ o: BenchOptions, db: HeraldDatabase) throws {
    let store = ContactStore(database: db)
    let total = try store.count()
    let build = try seconds { try store.warmUpSearch() }
    print("search:   index over \(total) people built in \(fmt(build * 1000, 1)) ms")
    let queries = ["a", "an", "ana", "ana h", "horvat", "kovac", "kovač", "ivan", "иван", "petrov", "ελ", "müller",
                   "mueller", "gmail", "infobip", "zagrebacka", "j", "jo sm", "smith", "0981", "385", "+385 98",
                   "4567", "1", "zz-nothing", "wang", "cohen", "sharma", "durdevic", "o'connor"]
    var perQuery: [Double] = []
    var report: [(String, Int, Double)] = []
    for q in queries {
        var times: [Double] = []
        var matched = 0
        for _ in 0..<o.rounds {
            times.append(try seconds { matched = try store.search(q, limit: 50).total } * 1000)
        }
        times.sort()
        perQuery += times
        report.append((q, matched, percentile(times, 0.5)))
    }
    perQuery.sort()
    print("          \(queries.count) queries × \(o.rounds) rounds, limit 50 (search + loading the 50 people):")
    print("          median \(fmt(percentile(perQuery, 0.5))) ms, p95 \(fmt(percentile(perQuery, 0.95))) ms, max \(fmt(perQuery.last ?? 0)) ms")
    let slowest = report.sorted { $0.2 > $1.2 }.prefix(5).map { "\"\($0.0)\" \(fmt($0.2)) ms (\($0.1) hits)" }
    print("          slowest medians: " + slowest.joined(separator: ", "))
    // Hits only (what a keystroke in the TUI costs before drawing).
    var hitTimes: [Double] = []
    for q in queries { for _ in 0..<o.rounds { hitTimes.append(try seconds { _ = try store.searchHits(q, limit: 50) } * 1000) } }
    hitTimes.sort()
    print("          index only: median \(fmt(percentile(hitTimes, 0.5))) ms, p95 \(fmt(percentile(hitTimes, 0.95))) ms")
    // For comparison: a plain SQL LIKE scan over the stored search keys.
    var likeTimes: [Double] = []
    for q in ["ana", "horvat", "gmail", "zz-nothing"] {
        for _ in 0..<5 {
            likeTimes.append(try seconds {
                _ = try db.pool.read { d in
                    try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM person WHERE search_key LIKE ?", arguments: ["%\(q)%"])
                }
            } * 1000)
        }
    }
    likeTimes.sort()
    print("          (SQL LIKE '%q%' count over search_key, for comparison: median \(fmt(percentile(likeTimes, 0.5))) ms)")
}

do {
    let o = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    #if DEBUG
    print("note: debug build; figures are only meaningful with -c release")
    #endif
    let db = try importBench(o, dir: dir)
    if o.command != "import" { try searchBench(o, db: db) }
} catch {
    FileHandle.standardError.write(Data("herald-bench: \(error)\nusage: herald-bench [import|search|all] [--count N] [--seed S] [--format vcard|csv] [--rounds R]\n".utf8))
    exit(2)
}
