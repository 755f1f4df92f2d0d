import Foundation

/// Blocking work — a read to the end of a child's pipe, a wait for its exit, a timer that must fire on time — on a
/// thread of its own. Never on Dispatch's global pool: on Linux that pool has about one thread per core, so a few
/// blocked reads hold all of it and a timer queued behind them (a hung program's kill) fires seconds late.
enum OwnThread {
    static func run(_ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(work)
    }

    /// `work` after `seconds`, on a thread of its own.
    static func after(_ seconds: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        run {
            Thread.sleep(forTimeInterval: seconds)
            work()
        }
    }
}
