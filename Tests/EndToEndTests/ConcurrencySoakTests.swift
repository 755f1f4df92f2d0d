import Foundation
import HeraldTestKit
import Testing

/// Soak tests: the real `herald` binary run as several processes at once on one throwaway data folder,
/// some of them SIGKILLed at a random moment; duplicates and losses are counted in the real SQLite files
/// (herald.sqlite and engine.sqlite) with the `sqlite3` shell.
///
/// Repetitions scale with `HERALD_SOAK_SCALE` (default 1); randomness comes from `HERALD_SOAK_SEED`
/// (default: fixed per test). Each test prints one `soak NAME: …` summary line on stdout.
@Suite(.serialized) struct ConcurrencySoakTests {
    /// `herald send --to N… --json`.
    static func sendArguments(_ numbers: [String]) -> [String] { ["send", "--to"] + numbers + ["--json"] }

    /// Numbers mobile(base) … mobile(base + count - 1) for a random base (a fresh range per run).
    static func numbers(_ count: Int, using rng: inout SeededGenerator) -> [String] {
        let base = Int.random(in: 0..<(8_000_000 - count), using: &rng)
        return (0..<count).map { mobile(base + $0) }
    }

    // MARK: 1

    /// Processes sending to overlapping sets of numbers at once invite every number of the union exactly once.
    @Test func concurrentSendsOfOverlappingSetsInviteEveryNumberOnce() throws {
        let seed = Soak.seed("concurrent-sends")
        var rng = SeededGenerator(seed: seed)
        let shapes = [(runs: Soak.runs(6), processes: 2), (runs: Soak.runs(3), processes: 4)]
        let poolSize = 400
        var runCount = 0, numbers = 0, invitedTwice = 0, lost = 0, phantom = 0, nothingSent = 0, badExits = 0
        for shape in shapes {
            for _ in 0..<shape.runs {
                runCount += 1
                let cli = try PlatformCLI(timeScale: Soak.slowTimeScale)
                try cli.ok(Soak.openCommand)  // first open done: this test is about the sends
                let pool = Self.numbers(poolSize, using: &rng)
                let subsets = (0..<shape.processes).map { _ in
                    Array(pool.shuffled(using: &rng).prefix(Int.random(in: 200...300, using: &rng)))
                }
                let runs = try cli.runConcurrently(subsets.map(Self.sendArguments), timeout: 240)
                for (i, run) in runs.enumerated() {
                    if run.nothingSent { nothingSent += 1; continue }
                    if run.status != 0 {
                        badExits += 1
                        Issue.record("run \(runCount), sender \(i + 1) of \(shape.processes): \(run.brief)")
                    }
                    #expect(!run.crashed, "\(run.brief)")
                }
                try cli.ok(Soak.openCommand)  // the final reconciling command
                let asked = Set(subsets.joined())
                let tally = try cli.tally(asked: asked)
                numbers += asked.count
                invitedTwice += tally.invitedTwice.count
                lost += tally.lost.count
                phantom += tally.phantomFailures.count
                #expect(tally.invitedTwice.isEmpty && tally.lost.isEmpty && tally.phantomFailures.isEmpty,
                        "run \(runCount) (\(shape.processes) processes): \(tally)")
            }
        }
        Soak.report("concurrent-sends", ["runs": runCount, "processes": shapes.map { "\($0.processes)x\($0.runs)" }.joined(separator: ","),
                                         "numbers": numbers, "invited-twice": invitedTwice, "lost": lost,
                                         "phantom-failures": phantom, "nothing-sent-exits": nothingSent, "bad-exits": badExits,
                                         "seed": seed])
        #expect(invitedTwice == 0)
        #expect(lost == 0)
        #expect(phantom == 0)
        #expect(badExits == 0)
    }

    // MARK: 2

    /// A sender SIGKILLed at a random moment while other processes keep opening the workspace: the next
    /// send finishes the job without doubling, losing or failing anyone.
    @Test func sigkillOfASenderWhileOthersOpenTheWorkspace() throws {
        let seed = Soak.seed("sigkill-sender")
        var rng = SeededGenerator(seed: seed)
        let runs = Soak.runs(8)
        let count = 1000
        var kills = 0, invitedTwice = 0, lost = 0, phantom = 0, opens = 0, badOpens = 0, badFinals = 0
        for run in 1...runs {
            let cli = try PlatformCLI(timeScale: Soak.slowTimeScale)
            try cli.ok(Soak.openCommand)
            let numbers = Self.numbers(count, using: &rng)
            let openerCount = Int.random(in: 2...3, using: &rng)
            let delay = Double.random(in: 0...2, using: &rng)

            let sender = try cli.launch(Self.sendArguments(numbers))
            let openers = (0..<openerCount).map { _ in RepeatingHerald(cli, Soak.openCommand) }
            defer { for opener in openers { opener.stop() } }  // also when the run throws
            Thread.sleep(forTimeInterval: delay)
            sender.kill()
            let sent = try sender.wait(timeout: 180)
            if sender.wasKilled {
                kills += 1
            } else {
                #expect(sent.status == 0, "run \(run): the sender (not killed, \(String(format: "%.2f", sender.elapsed)) s): \(sent.brief)")
            }
            for opener in openers {
                let (opened, errors) = opener.stop()
                opens += opened.count
                for e in errors { badOpens += 1; Issue.record("run \(run): opener: \(e)") }
                for o in opened where o.status != 0 || o.racedOnTheDatabase || o.crashed {
                    badOpens += 1
                    Issue.record("run \(run): opener: \(o.brief)")
                }
            }

            let final = try cli.run(Self.sendArguments(numbers), timeout: 240)
            if final.status != 0, !final.nothingSent {
                badFinals += 1
                Issue.record("run \(run): the final send: \(final.brief)")
            }
            let tally = try cli.tally(asked: Set(numbers))
            invitedTwice += tally.invitedTwice.count
            lost += tally.lost.count
            phantom += tally.phantomFailures.count
            #expect(tally.invitedTwice.isEmpty && tally.lost.isEmpty && tally.phantomFailures.isEmpty,
                    "run \(run) (killed after \(String(format: "%.2f", delay)) s: \(sender.wasKilled)): \(tally)")
        }
        Soak.report("sigkill-sender", ["runs": runs, "numbers": count, "kills": kills, "opens": opens, "bad-opens": badOpens,
                                       "invited-twice": invitedTwice, "lost": lost, "phantom-failures": phantom,
                                       "bad-final-sends": badFinals, "seed": seed])
        #expect(invitedTwice == 0)
        #expect(lost == 0)
        #expect(phantom == 0)
        #expect(badOpens == 0)
        #expect(badFinals == 0)
    }

    // MARK: 3

    /// Eight processes opening a new, empty folder at once all succeed and create one sandbox application.
    @Test func manyProcessesOpeningANewFolderAtOnce() throws {
        let runs = Soak.runs(5)
        let processes = 8
        var failed = 0, raced = 0, applications: [Int] = [], disagreeing = 0
        for run in 1...runs {
            let cli = try PlatformCLI()
            let results = try cli.runConcurrently(Array(repeating: Soak.openCommand, count: processes), timeout: 180)
            var keySets = Set<[String]>()
            for r in results {
                if r.status != 0 || r.crashed {
                    failed += 1
                    Issue.record("run \(run): \(r.brief)")
                }
                if r.racedOnTheDatabase {
                    raced += 1
                    Issue.record("run \(run): stderr shows a race on the databases: \(r.brief)")
                }
                if r.status == 0, let o = try? r.object(), let messages = o["messages"] as? [[String: Any]] {
                    keySets.insert(messages.compactMap { $0["key"] as? String }.sorted())
                }
            }
            if keySets.count > 1 {
                disagreeing += 1
                Issue.record("run \(run): the processes list different messages: \(keySets)")
            }
            let apps = try cli.engineInteger("SELECT COUNT(*) FROM application")
            applications.append(apps)
            #expect(apps == 1, "run \(run): \(apps) applications in engine.sqlite")
        }
        Soak.report("first-open", ["runs": runs, "processes": processes, "failed": failed, "raced": raced,
                                   "applications": applications.map(String.init).joined(separator: ","),
                                   "disagreeing-runs": disagreeing])
        #expect(failed == 0)
        #expect(raced == 0)
    }

    // MARK: 4

    /// `herald inbox seen` SIGKILLed at a random moment: the next open sends the pending marks, and the
    /// client's copy agrees with the platform for every message.
    @Test func sigkillDuringInboxSeen() throws {
        let seed = Soak.seed("sigkill-seen")
        var rng = SeededGenerator(seed: seed)
        let runs = Soak.runs(10)
        let messages = 30
        var kills = 0, targetedKills = 0, mismatched = 0, listedMismatched = 0, engineSeen = 0, badLists = 0
        for run in 1...runs {
            let cli = try PlatformCLI(timeScale: Soak.slowTimeScale)
            let user = "soak-\(run)"
            var ids: [String] = []
            for i in 0..<messages {
                let o = try cli.ok(["sandbox", "push-inbox", "--user", user, "--title", "Soak \(i)", "--body", "message \(i) of run \(run)",
                                    "--json"]).object()
                ids.append(try #require(o["messageId"] as? String))
            }
            try cli.ok(["inbox", "list", "--user", user, "--json"])  // the reader has them, as a user would
            let marked = ids.shuffled(using: &rng)
            // Every other run the platform takes 5 s to answer, so the kill lands between the local
            // mark and the platform's answer (the window the bug lived in); the others kill at random.
            let targeted = run % 2 == 0
            let delay = targeted ? Double.random(in: 0.5...1.5, using: &rng) : Double.random(in: 0...0.3, using: &rng)

            let seen = try cli.launch(["inbox", "seen", "--user", user] + marked,
                                      env: targeted ? ["HERALD_SANDBOX_FAULTS": "seen=delay:5"] : [:])
            Thread.sleep(forTimeInterval: delay)
            seen.kill()
            let seenRun = try seen.wait(timeout: 120)
            if seen.wasKilled {
                kills += 1
                if targeted { targetedKills += 1 }
            } else {
                #expect(!targeted, "run \(run): the platform was slowed down, yet inbox seen finished before the kill")
                #expect(seenRun.status == 0, "run \(run): inbox seen (not killed): \(seenRun.brief)")
            }

            let list = try cli.run(["inbox", "list", "--user", user, "--json"], timeout: 120)
            if list.status != 0 || list.crashed {
                badLists += 1
                Issue.record("run \(run): inbox list after the kill: \(list.brief)")
            }
            var platform: [String: String] = [:]
            for row in try cli.engineRows("SELECT id, seen FROM inbox WHERE externalUserId = \(sqlQuote(user))") where row.count == 2 {
                platform[row[0]] = row[1]
            }
            var client: [String: String] = [:]
            for row in try cli.clientRows("SELECT message_id, seen FROM inbox_message WHERE user_id = \(sqlQuote(user))") where row.count == 2 {
                client[row[0]] = row[1]
            }
            #expect(Set(platform.keys) == Set(ids), "run \(run): the platform holds \(platform.count) of \(ids.count) messages")
            engineSeen += platform.values.filter { $0 == "1" }.count
            let disagree = ids.filter { id in client[id].map { $0 != platform[id] } ?? false }
            mismatched += disagree.count
            let examples = disagree.prefix(5).map { "\($0) client=\(client[$0] ?? "-") platform=\(platform[$0] ?? "-")" }
            #expect(disagree.isEmpty, "run \(run) (killed after \(String(format: "%.3f", delay)) s: \(seen.wasKilled)): client and platform disagree on seen for \(disagree.count) message(s): \(examples.joined(separator: ", "))")
            if list.status == 0, let listed = (try? list.object())?["messages"] as? [[String: Any]] {
                let wrong = listed.filter { m in
                    guard let id = m["messageId"] as? String, let s = m["seen"] as? Bool else { return true }
                    return (s ? "1" : "0") != platform[id]
                }
                listedMismatched += wrong.count
                #expect(wrong.isEmpty, "run \(run): inbox list shows seen differently from the platform for \(wrong.count) message(s)")
            }
        }
        Soak.report("sigkill-seen", ["runs": runs, "messages": messages, "kills": kills, "targeted-kills": targetedKills, "engine-seen": engineSeen,
                                     "mismatched": mismatched, "listed-mismatched": listedMismatched, "bad-lists": badLists,
                                     "seed": seed])
        #expect(mismatched == 0)
        #expect(listedMismatched == 0)
        #expect(badLists == 0)
    }

    // MARK: 5

    /// Two imports of one address book at once merge like a single import.
    @Test func concurrentImportsOfOneBook() throws {
        let people = 20_000
        let baseline = try PlatformCLI(timeScale: Soak.slowTimeScale)
        let book = baseline.home.appendingPathComponent("soak-book.vcf")
        let generated = try baseline.run(["contacts", "generate", "--count", String(people), "--seed", "7", "-o", book.path],
                                         dataDirOption: false, timeout: 300)
        try #require(generated.status == 0, "\(generated.brief)")
        let importArguments = ["contacts", "import", book.path, "--region", "HR", "--json"]

        try baseline.ok(Soak.openCommand)
        try baseline.ok(importArguments, timeout: 300)
        let expectedPersons = try baseline.clientInteger("SELECT COUNT(*) FROM person")
        let expectedPhones = try baseline.clientInteger("SELECT COUNT(*) FROM phone")
        #expect(expectedPersons > 0)

        let runs = Soak.runs(2)
        var persons: [Int] = [], failed = 0
        for run in 1...runs {
            let cli = try PlatformCLI(timeScale: Soak.slowTimeScale)
            try cli.ok(Soak.openCommand)
            for r in try cli.runConcurrently([importArguments, importArguments], timeout: 600) where r.status != 0 || r.crashed || r.racedOnTheDatabase {
                failed += 1
                Issue.record("run \(run): import: \(r.brief)")
            }
            let count = try cli.clientInteger("SELECT COUNT(*) FROM person")
            let phones = try cli.clientInteger("SELECT COUNT(*) FROM phone")
            persons.append(count)
            #expect(count == expectedPersons, "run \(run): \(count) people after two imports at once, \(expectedPersons) after one")
            #expect(phones == expectedPhones, "run \(run): \(phones) phone rows after two imports at once, \(expectedPhones) after one")
        }
        Soak.report("concurrent-imports", ["runs": runs, "people-in-book": people, "persons-single": expectedPersons,
                                           "persons-concurrent": persons.map(String.init).joined(separator: ","),
                                           "failed-imports": failed])
        #expect(failed == 0)
    }

    // MARK: 5b

    /// `herald contacts import` of a big book into an empty folder (which builds the sort and number indexes
    /// after its rows) SIGKILLed half-way: what it committed stays and is intact, the next process to open the
    /// folder builds the indexes, and importing the file again stores every person once.
    @Test func sigkillOfABigImport() throws {
        let seed = Soak.seed("sigkill-import")
        var rng = SeededGenerator(seed: seed)
        let people = 20_000
        let runs = Soak.runs(3)
        let indexes = "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' "
            + "AND name IN ('person_sort_first', 'person_sort_last', 'phone_e164')"
        var kills = 0, killedWithoutIndexes = 0, stored: [Int] = []
        for run in 1...runs {
            let cli = try PlatformCLI()
            let book = cli.home.appendingPathComponent("book.vcf")
            let cards = (0..<people).map { i in
                "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person\(i);Test;;;\r\nTEL;TYPE=CELL:+385 98 \(1_000_000 + i)\r\nEND:VCARD\r\n"
            }
            try Data(cards.joined().utf8).write(to: book)
            let importer = try cli.launch(["contacts", "import", book.path, "--region", "HR"])
            // Once a random number of its batches (5,000 people each) are in, before its last.
            let target = Int.random(in: 1...(people - 5000), using: &rng)
            let deadline = Date().addingTimeInterval(120)
            while importer.isRunning, Date() < deadline, ((try? cli.clientInteger("SELECT COUNT(*) FROM person")) ?? 0) < target {
                usleep(10_000)
            }
            importer.kill()
            let ended = try importer.wait(timeout: 120)
            let count = try cli.clientInteger("SELECT COUNT(*) FROM person")
            stored.append(count)
            if importer.wasKilled {
                kills += 1
                #expect(count > 0 && count <= people, "run \(run): \(count) people after the kill")
                if try cli.clientInteger(indexes) < 3 { killedWithoutIndexes += 1 }
            } else {
                #expect(ended.status == 0, "run \(run): the import (not killed): \(ended.brief)")
            }
            #expect(try cli.clientRows("PRAGMA integrity_check") == [["ok"]], "run \(run)")

            // The next process to open the folder builds them.
            try cli.ok(["contacts", "list", "--search", "person1"])
            #expect(try cli.clientInteger(indexes) == 3, "run \(run): the indexes after the next open")
            try cli.ok(["contacts", "import", book.path, "--region", "HR"], timeout: 300)
            #expect(try cli.clientInteger("SELECT COUNT(*) FROM person") == people, "run \(run)")
            #expect(try cli.clientInteger("SELECT COUNT(DISTINCT last_name) FROM person") == people, "run \(run)")
            #expect(try cli.clientInteger(indexes) == 3, "run \(run): the indexes after the second import")
        }
        Soak.report("sigkill-import", ["runs": runs, "people-in-book": people, "kills": kills,
                                       "killed-without-indexes": killedWithoutIndexes,
                                       "stored-at-kill": stored.map(String.init).joined(separator: ","), "seed": seed])
        // Otherwise no run tested what a half-way import leaves.
        #expect(killedWithoutIndexes > 0)
    }

    // MARK: 6

    /// Transient platform failures (accepted then 503, 429 with Retry-After, timeouts) are retried or left
    /// queued for the next run: every number ends accepted exactly once, and nothing is marked failed.
    @Test func transientPlatformFaults() throws {
        let seed = Soak.seed("platform-faults")
        var rng = SeededGenerator(seed: seed)
        let count = 50
        let faults = "HERALD_SANDBOX_FAULTS"

        // Processed, then answered 503: the retry replays the same message ids.
        let afterCLI = try PlatformCLI()
        try afterCLI.ok(Soak.openCommand)
        let afterNumbers = Self.numbers(count, using: &rng)
        let after = try afterCLI.run(Self.sendArguments(afterNumbers), env: [faults: "send=503-after"], timeout: 180)
        #expect(after.status == 0, "send with send=503-after: \(after.brief)")
        let afterTally = try afterCLI.tally(asked: Set(afterNumbers))
        #expect(afterTally.invitedTwice.isEmpty && afterTally.lost.isEmpty && afterTally.phantomFailures.isEmpty
                    && afterTally.stillQueued == 0, "send=503-after: \(afterTally)")

        // 429 with Retry-After: 1 — waited for, then sent.
        let limitedCLI = try PlatformCLI()
        try limitedCLI.ok(Soak.openCommand)
        let limitedNumbers = Self.numbers(count, using: &rng)
        let started = Date()
        let limited = try limitedCLI.run(Self.sendArguments(limitedNumbers), env: [faults: "send=429:1"], timeout: 180)
        let waited = Date().timeIntervalSince(started)
        #expect(limited.status == 0, "send with send=429:1: \(limited.brief)")
        #expect(waited >= 1, "send with send=429:1 took \(waited) s: Retry-After was not honoured")
        let limitedTally = try limitedCLI.tally(asked: Set(limitedNumbers))
        #expect(limitedTally.invitedTwice.isEmpty && limitedTally.lost.isEmpty && limitedTally.phantomFailures.isEmpty
                    && limitedTally.stillQueued == 0, "send=429:1: \(limitedTally)")

        // Timeouts on every attempt: the send gives up, says they are queued; the next open completes them.
        let timeoutCLI = try PlatformCLI()
        try timeoutCLI.ok(Soak.openCommand)
        let timeoutNumbers = Self.numbers(count, using: &rng)
        let timedOut = try timeoutCLI.run(Self.sendArguments(timeoutNumbers), env: [faults: "send=timeout*20"], timeout: 300)
        #expect(timedOut.status != 0, "send with send=timeout*20 should fail: \(timedOut.brief)")
        #expect(!timedOut.crashed, "\(timedOut.brief)")
        #expect(timedOut.stderr.lowercased().contains("queued"), "stderr should say the recipients are queued: \(timedOut.brief)")
        let queuedBefore = try timeoutCLI.clientInteger("SELECT COUNT(*) FROM invitation WHERE status = \(sqlQuote(Soak.queued))")
        try timeoutCLI.ok(Soak.openCommand)
        let timeoutTally = try timeoutCLI.tally(asked: Set(timeoutNumbers))
        #expect(timeoutTally.invitedTwice.isEmpty && timeoutTally.lost.isEmpty && timeoutTally.phantomFailures.isEmpty
                    && timeoutTally.stillQueued == 0, "send=timeout*20, then an open without faults: \(timeoutTally)")

        Soak.report("platform-faults", [
            "numbers": count,
            "503-after-exit": after.status, "503-after-twice": afterTally.invitedTwice.count, "503-after-lost": afterTally.lost.count,
            "429-exit": limited.status, "429-seconds": String(format: "%.2f", waited), "429-twice": limitedTally.invitedTwice.count,
            "429-lost": limitedTally.lost.count,
            "timeout-exit": timedOut.status, "timeout-queued": queuedBefore, "timeout-twice": timeoutTally.invitedTwice.count,
            "timeout-lost": timeoutTally.lost.count,
            "phantom-failures": afterTally.phantomFailures.count + limitedTally.phantomFailures.count + timeoutTally.phantomFailures.count,
            "seed": seed,
        ])
    }
}
