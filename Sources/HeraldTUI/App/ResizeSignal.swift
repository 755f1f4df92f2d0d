import Foundation
import Synchronization

nonisolated private let resizePending = Atomic<Bool>(false)
nonisolated(unsafe) private var resizeWakeDescriptor: Int32 = -1
nonisolated(unsafe) private var previousHandler: (@convention(c) (Int32) -> Void)?

/// SIGWINCH wakes the app loop: the handler notes the resize, writes a byte to the loop's wake pipe
/// and chains to the handler that was there before (ncurses' own).
public enum ResizeSignal {
    /// Installs the handler; `descriptor` is the write end of the loop's wake pipe.
    public static func install(wakeDescriptor descriptor: Int32) {
        resizeWakeDescriptor = descriptor
        let old = signal(SIGWINCH) { number in
            resizePending.store(true, ordering: .relaxed)
            var byte: UInt8 = 2
            _ = write(resizeWakeDescriptor, &byte, 1)
            if let previous = previousHandler { previous(number) }
        }
        if let old, unsafeBitCast(old, to: Int.self) > 1 { previousHandler = old }
    }

    /// Puts the previous handler back.
    public static func uninstall() {
        if let previous = previousHandler { signal(SIGWINCH, previous) } else { signal(SIGWINCH, SIG_DFL) }
        previousHandler = nil
        resizeWakeDescriptor = -1
    }

    /// True once after each resize signal.
    public static func consume() -> Bool { resizePending.exchange(false, ordering: .relaxed) }
}
