import Foundation
import Synchronization

private let terminationRequested = Atomic<Int32>(0)
nonisolated(unsafe) private var terminationWakeDescriptor: Int32 = -1

/// SIGINT, SIGTERM and SIGHUP end the UI cleanly: the handler notes the signal and wakes the app
/// loop (a byte on its wake pipe); the loop then leaves and the terminal is restored.
enum UISignals {
    static func install(wakeDescriptor: Int32) {
        terminationWakeDescriptor = wakeDescriptor
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                terminationRequested.store(received, ordering: .relaxed)
                var byte: UInt8 = 3
                _ = write(terminationWakeDescriptor, &byte, 1)
            }
        }
    }

    static func uninstall() {
        for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
        terminationWakeDescriptor = -1
    }

    /// The signal that asked to end, 0 when none.
    static var received: Int32 { terminationRequested.load(ordering: .relaxed) }
}

/// Seconds since this process started (from /proc/self/stat), nil when unknown.
func secondsSinceProcessStart() -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command name: state is field 3; starttime is field 22 → index 19 here.
    guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
    let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard hertz > 0, let uptimeText = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
          let uptime = Double(uptimeText.split(separator: " ").first ?? "") else { return nil }
    return uptime - ticks / hertz
}
