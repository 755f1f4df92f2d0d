import Foundation
import HeraldLocks

/// The proof that a process is still sending: a lock file in `<data dir>/leases/` that its process
/// holds for as long as it lives (the kernel lets go of it on exit, SIGKILL included). Every send
/// journaled in the ledger names its owner's lease, so reconciliation touches only sends whose
/// owner is gone, never those of another process still waiting for the platform's answer.
public final class SendLease: Sendable {
    /// This lease's id, written as the owner of the sends it journals.
    public let owner: String
    private let directory: String
    private let lock: FileLock

    private init(owner: String, directory: String, lock: FileLock) {
        self.owner = owner
        self.directory = directory
        self.lock = lock
    }

    /// A new lease beside the database (`leases/` in its folder).
    public static func take(for database: HeraldDatabase) throws -> SendLease {
        let directory = URL(fileURLWithPath: database.path).deletingLastPathComponent().appendingPathComponent("leases").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let owner = "p\(getpid())-" + UUID().uuidString.lowercased().prefix(8)
        let lock = try FileLock.create(Self.path(owner, in: directory))
        return SendLease(owner: owner, directory: directory, lock: lock)
    }

    deinit { release() }

    /// Ends the lease (the process is done sending): the file goes before the lock, so from then on
    /// every reader knows this owner will not answer, and its unfinished sends may be taken over.
    public func release() {
        unlink(lock.path)
        lock.unlock()
    }

    /// Whether the process that holds lease `owner` is still alive (nil: a send from before leases).
    /// Throws when its lease file cannot be checked: "cannot tell" is never taken for "gone", which
    /// would let its unfinished sends be taken over (and sent twice) while it may still be sending them.
    public func isAlive(_ owner: String?) throws -> Bool {
        guard let owner else { return false }
        if owner == self.owner { return true }
        // Owners are ours ("p<pid>-<hex>"); anything else names no lease file (and never a path elsewhere).
        guard !owner.isEmpty, owner.utf8.allSatisfy({ $0 == 0x2D || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else { return false }
        let path = Self.path(owner, in: directory)
        switch try FileLock.probe(path) {
        case .held: return true
        case .taken(let stale):
            unlink(path)
            stale.unlock()
            return false
        case .missing: return false
        }
    }

    /// Removes the lease files of processes that are gone (a process killed leaves its file).
    /// Best effort: a folder or file that cannot be checked now is left for the next sweep, and
    /// reconciliation asks `isAlive` itself (where "cannot tell" is reported).
    public func sweep() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasSuffix(".lock") {
            _ = try? isAlive(String(name.dropLast(5)))
        }
    }

    static func path(_ owner: String, in directory: String) -> String {
        directory + "/" + owner + ".lock"
    }
}
