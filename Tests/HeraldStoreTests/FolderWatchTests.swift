import Foundation
import HeraldTestKit
import Testing
@testable import HeraldStore

/// The data folder watch that wakes the change feed: a commit of another connection is seen at
/// once (its callback runs on the watch's own thread), and files of other names are ignored.
@Suite struct FolderWatchTests {
    @Test func aCommitOfAnotherConnectionIsSeenAtOnceAndOtherFilesAreNot() throws {
        let s = try TempStore()
        let seen = DispatchSemaphore(value: 0)
        let watch = try #require(FolderWatch.start(folder: s.folder.path, prefix: "herald.sqlite") { _ in seen.signal() })
        defer { watch.stop() }
        try Data("x".utf8).write(to: s.folder.appendingPathComponent("notes.txt"))
        #expect(seen.wait(timeout: .now() + 0.3) == .timedOut)
        let other = LedgerStore(database: try HeraldDatabase(path: s.database.path))
        let started = Date()
        try other.enqueue([QueuedRecipient(msisdn: "+385911111111", personId: nil, correlator: "c1")])
        #expect(seen.wait(timeout: .now() + 5) == .success)
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
