import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// The fast import (reading thread, numbers parsed once and in parallel, matching in memory)
/// must keep every promise of the plain one.
@Suite struct ImportSpeedTests {
    @Test func problemsComeInFileOrderWithTheirLinesAcrossManyChunks() throws {
        let s = try TempStore()
        var lines: [String] = []
        var badLines: [Int] = []
        for i in 0..<1500 {
            if i % 250 == 100 {
                badLines.append(lines.count + 1)
                lines += ["BEGIN:VCARD", "VERSION:3.0", "NOTE:nothing to import", "END:VCARD"]
            } else {
                lines += ["BEGIN:VCARD", "VERSION:3.0", "N:Person\(i);Test;;;", "TEL:+385 98 \(1_000_000 + i)", "END:VCARD"]
            }
        }
        let report = try s.importText("many.vcf", lines.joined(separator: "\r\n") + "\r\n")
        #expect(report.imported == 1500 - badLines.count)
        #expect(report.skipped == badLines.count)
        #expect(report.errors.map(\.line) == badLines)
        #expect(try s.contacts.count() == 1500 - badLines.count)
        let p = try #require(try s.contacts.search("person1234").people.first)
        #expect(p.phones.first?.number.e164 == "+385981001234")
    }

    /// Checkpoints wait until the end of an import; the log is emptied then, unless a screen is in the
    /// middle of a read, which the import never waits for.
    @Test func anImportLeavesNoLogBehindAndNeverWaitsForAReader() throws {
        let s = try TempStore()
        let cards = (0..<3000).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nN:P\($0);Ana;;;\r\nTEL:+385 98 \(1_000_000 + $0)\r\nEND:VCARD\r\n" }
        let wal = s.database.path + "-wal"
        func logBytes() -> Int { (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0 }
        let importer = ContactImporter(database: s.database, parser: parserHR, batchSize: 500, clock: s.clock)
        #expect(try importer.importContacts(from: s.write("a.vcf", cards.joined())).imported == 3000)
        #expect(logBytes() == 0)
        #expect(try s.database.pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } == 1000)

        // A reader holds the log: the import still ends at once and keeps its log for a later checkpoint.
        let reading = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let reader = Thread {
            try? s.database.pool.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person")
                reading.signal()
                done.wait()
            }
        }
        reader.start()
        reading.wait()
        let started = Date()
        let more = cards.map { $0.replacingOccurrences(of: "Ana", with: "Iva").replacingOccurrences(of: "+385 98", with: "+385 91") }
        #expect(try importer.importContacts(from: s.write("b.vcf", more.joined())).imported == 3000)
        #expect(Date().timeIntervalSince(started) < HeraldDatabase.defaultBusyTimeout / 2)
        #expect(logBytes() > 0)
        done.signal()
        #expect(try s.contacts.count() == 6000)
    }

    /// The log is copied into the database while the import goes on: it never holds the whole import.
    @Test func theLogStaysSmallDuringABigImport() throws {
        let s = try TempStore()
        let wal = s.database.path + "-wal"
        @Sendable func bytes(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        let url = try s.write("book.vcf", ImportConcurrencyTests.book(20_000))
        let largest = Largest()
        let watching = DispatchSemaphore(value: 0)
        let watcher = Thread {
            while watching.wait(timeout: .now() + .milliseconds(5)) == .timedOut { largest.note(bytes(wal)) }
        }
        watcher.start()
        let importer = ContactImporter(database: s.database, parser: parserHR, batchSize: 250, clock: s.clock)
        let started = Date()
        #expect(try importer.importContacts(from: url).imported == 20_000)
        let took = Date().timeIntervalSince(started)
        watching.signal()
        let database = bytes(s.database.path)
        // Without the copying, the log holds every page the import wrote: more than the database itself
        // (13 MB for a database of 7.7 MB here; under 4 MB with it, also on a busy machine).
        #expect(largest.value < database, "log up to \(largest.value) bytes, database \(database) bytes, import \(took) s")
        #expect(bytes(wal) == 0)
    }

    @Test func cardsOfOneFileMergeWithEachOtherAcrossBatches() throws {
        let s = try TempStore()
        let text = """
        BEGIN:VCARD
        VERSION:3.0
        UID:u-1
        FN:Ana Horvat
        TEL:098 111 1111
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Filler One
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Filler Two
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Filler Three
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Ana H.
        TEL:+385 98 111 1111
        EMAIL:ana@example.com
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        UID:u-2
        FN:Other Ana
        TEL:+385981111111
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Ana By Mail
        EMAIL:ANA@example.com
        END:VCARD

        """
        let report = try s.importText("dups.vcf", text)   // batches of 3: the duplicates land in later batches
        #expect(report.imported == 5)
        #expect(report.updated == 2)
        let people = try s.all()
        #expect(people.count == 5)
        let ana = try #require(people.first { $0.uid == "u-1" })
        #expect(ana.formattedName == "Ana By Mail")
        #expect(ana.emails.map(\.address) == ["ana@example.com"])
        // A different UID sharing the number is a different person.
        #expect(people.contains { $0.uid == "u-2" })
    }

    /// Numbers and emails are written at the end of a batch: a card that matches one earlier in its own
    /// batch merges with all that one has, and nothing is written twice.
    @Test func cardsMergeWithOnesOfTheirOwnBatch() throws {
        let s = try TempStore()
        var cards = (0..<200).map { "BEGIN:VCARD\r\nFN:Filler \($0)\r\nTEL:+385 91 \(2_000_000 + $0)\r\nEND:VCARD\r\n" }
        cards.insert("BEGIN:VCARD\r\nFN:Ana Horvat\r\nTEL;TYPE=CELL:+385 98 111 1111\r\nTEL;TYPE=WORK:+385 1 222 3333\r\n"
                     + "EMAIL:ana@example.com\r\nEND:VCARD\r\n", at: 10)
        cards.insert("BEGIN:VCARD\r\nFN:Ana H.\r\nTEL:098 111 1111\r\nEMAIL:ana@work.example\r\nEND:VCARD\r\n", at: 150)
        let importer = ContactImporter(database: s.database, parser: parserHR, batchSize: 500, clock: s.clock)
        let report = try importer.importContacts(from: s.write("one-batch.vcf", cards.joined()))
        #expect(report.imported == 201 && report.updated == 1)
        let ana = try #require(try s.contacts.search("ana").people.first)
        #expect(ana.formattedName == "Ana H.")
        #expect(ana.phones.map(\.number.e164) == ["+385981111111", "+38512223333"])
        #expect(ana.emails.map(\.address) == ["ana@example.com", "ana@work.example"])
        let rows = try s.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM phone") ?? 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM email") ?? 0)
        }
        #expect(rows.0 == 202 && rows.1 == 2)
        #expect(try s.contacts.personIDs(withNumber: "+385912000150").count == 1)   // the filler after Ana's twin
    }

    @Test func aSearchIndexBuiltBeforeAnImportSeesTheImportedPeople() throws {
        let s = try TempStore()
        let store = s.contacts
        try store.insert(person("Ana", "Horvat"))
        #expect(try store.search("horvat").total == 1)   // index built now
        _ = try s.importText("more.vcf", (0..<10).map { "BEGIN:VCARD\nFN:Ivo Horvat\($0)\nEND:VCARD\n" }.joined())
        #expect(try store.search("horvat").total == 11)
        // And so is the next one.
        let broken = try s.write("broken.csv", "name,phone\nMarko Horvat,+385 91 111 1111\n")
        _ = try s.importer().importContacts(from: broken, format: .csv)
        #expect(try store.search("horvat").total == 12)
    }

    @Test func matchingSeesPeopleAddedBetweenTwoImports() throws {
        let s = try TempStore()
        _ = try s.importText("one.vcf", "BEGIN:VCARD\nFN:Ivo Ivić\nTEL:+385 91 222 3333\nEND:VCARD\n")
        try s.contacts.insert(person("Maja", "Marić", phones: ["+385 92 444 5555"]))
        let report = try s.importText("two.vcf", """
            BEGIN:VCARD
            FN:Maja M.
            TEL:092 444 5555
            EMAIL:maja@example.com
            END:VCARD
            BEGIN:VCARD
            FN:Ivo I.
            TEL:091 222 3333
            END:VCARD

            """)
        #expect(report.imported == 0)
        #expect(report.updated == 2)
        #expect(try s.contacts.count() == 2)
    }

    @Test func numbersParsedInParallelEqualNumbersParsedOneByOne() throws {
        let raws = (0..<400).map { i -> String in
            switch i % 5 {
            case 0: return "+385 98 \(1_000_000 + i)"
            case 1: return "091 \(2_000_000 + i)"
            case 2: return "+1 415 555 \(String(1000 + i).suffix(4))"
            case 3: return "not a number \(i)"
            default: return "00 44 20 7946 \(String(1000 + i).suffix(4))"
            }
        }
        let parallel = PhoneParseCache.parseAll(raws, parser: parserHR)
        #expect(parallel == raws.map(parserHR.parse))
        // Deferred parsing fills in the same numbers, repeated texts included.
        let cache = PhoneParseCache(parser: parserHR, deferred: true)
        var people = raws.map { raw in
            Person(firstName: "X", phones: [LabeledPhone(label: nil, number: cache.parse(raw)),
                                            LabeledPhone(label: "again", number: cache.parse(raw))])
        }
        cache.resolve(&people)
        #expect(people.map { $0.phones[0].number } == parallel)
        #expect(people.map { $0.phones[1].number } == parallel)
    }

    @Test func numbersWithoutPunctuationParseLikeTheWrittenOnes() throws {
        let noRegion = try PhoneNumberParser(defaultRegion: nil)
        let written = ["+385 98 123 4567", "098 123 4567", "098-123-4567", "(098) 123.4567", "+1 (415) 555-0132", " +44 (0)20 7946 0000",
                       "+ 385 98 123 4567", "00 385 98 123 4567", "0 0385 98 123 4567", "(+385) 98 123 4567", "98", "12",
                       "+385 98 123 4567 ext. 12", "+385 98 123 4567 / +385 91 765 4321", "1-800-FLOWERS", "tel:+385981234567",
                       "+385 (0) 98 123 4567", "+38598123456789012345", "+999 123 456", "- 98 123", "() ", "+", "+-+"]
        for parser in [parserHR, noRegion] {
            for raw in written {
                #expect(PhoneParseCache.parse(raw, with: parser) == parser.parse(raw), "\(raw.debugDescription) \(parser.defaultRegion ?? "-")")
            }
        }
        #expect(PhoneParseCache.compactForm("+1 (415) 555-0132") == "+14155550132")
        #expect(PhoneParseCache.compactForm("00 385 1") == nil)
        #expect(PhoneParseCache.compactForm("(+385) 1") == nil)
    }

    @Test func decodingTellsValidTextFromRepairedBytes() {
        func decode(_ bytes: [UInt8]) -> (String, Bool) { let d = TextDecoding.decode(bytes); return (d.text, d.lossy) }
        #expect(decode(Array("Ana Horvat".utf8)) == ("Ana Horvat", false))
        #expect(decode(Array("Đurđa Šimić 李".utf8)) == ("Đurđa Šimić 李", false))
        // A real U+FFFD in the file is text, not a repair.
        #expect(decode(Array("a\u{FFFD}b".utf8)) == ("a\u{FFFD}b", false))
        #expect(decode([0x41, 0xFF, 0x42]) == ("A\u{FFFD}B", true))
        #expect(decode([0x41, 0xE2, 0x82]) == ("A\u{FFFD}", true))
        #expect(decode([0xEF, 0xBB, 0xBF] + Array("Ana".utf8)) == ("Ana", false))
        #expect(decode([]) == ("", false))
    }

    @Test func fastTrimmingAgreesWithFoundation() {
        let samples = ["", " ", "  a b  ", "\tAna\t", "\u{00A0}Ana\u{00A0}", "Ana\u{3000}", " Đurđa ", "Šimić", "a\n", "\n a \r\n",
                       " \u{2003}x", "李小龍 ", " \u{1F44D}", "Иван", "Ελένη\u{00A0}", "\u{0085}x", "x\u{2028}", "\u{200B}a",
                       "e\u{0301}", "\u{3000}", "Ана Ž"]
        for s in samples {
            #expect(FastText.trimSpaces(s) == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
            #expect(FastText.trimSpacesAndNewlines(s) == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
            #expect(FastText.isBlank(s) == s.trimmingCharacters(in: .whitespaces).isEmpty, "\(s.debugDescription)")
        }
        // Every scalar of the Basic Multilingual Plane, alone and at either end of a name.
        var differ: [String] = []
        for v in UInt32(0)...0xFFFF {
            guard let u = Unicode.Scalar(v) else { continue }
            for s in [String(u), "Ana" + String(u), String(u) + "Ana", String(u) + "Ana" + String(u)] {
                if FastText.trimSpaces(s) != s.trimmingCharacters(in: .whitespaces)
                    || FastText.trimSpacesAndNewlines(s) != s.trimmingCharacters(in: .whitespacesAndNewlines)
                    || FastText.isBlank(s) != s.trimmingCharacters(in: .whitespaces).isEmpty {
                    differ.append(String(v, radix: 16))
                }
            }
        }
        #expect(differ.isEmpty, "U+\(differ.prefix(10))")
        for s in ["Ana", "ANA-maria", "o'Connor", "Ümit", "ΕΛΕΝΗ", "Đurđa", "straße"] {
            #expect(TextFolding.fold(s) == s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                        .replacingOccurrences(of: "đ", with: "d"), "\(s)")
        }
    }
}

@Suite struct MatchTableTests {
    @Test func everyKeyFindsTheFirstIdRecordedForItAcrossGrowth() {
        var table = MatchTable()
        let keys = (0..<50_000).map { MatchKey("+38598\($0)") }
        for (i, key) in keys.enumerated() { table.insertIfAbsent(key, Int64(i)) }
        for (i, key) in keys.enumerated() where i % 3 == 0 { table.insertIfAbsent(key, -1) }   // already there: kept
        #expect(table.count == keys.count)
        #expect(keys.indices.allSatisfy { table.id(for: keys[$0]) == Int64($0) })
        #expect((0..<1000).allSatisfy { table.id(for: MatchKey("+38591\($0)")) == nil })
        table.removeAll()
        #expect(table.count == 0 && table.id(for: keys[7]) == nil)
        table.reserve(100_000)
        table.insertIfAbsent(keys[7], 70)
        #expect(table.id(for: keys[7]) == 70)
    }
}

/// The largest value noted, from any thread.
final class Largest: @unchecked Sendable {
    private let lock = NSLock()
    private var largest = 0
    func note(_ v: Int) { lock.withLock { largest = max(largest, v) } }
    var value: Int { lock.withLock { largest } }
}
