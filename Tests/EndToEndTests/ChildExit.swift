import Foundation

/// A started child process and the wait for its end. Under a heavy parallel load Foundation sometimes
/// misses a child's exit: it stays a zombie and `terminationHandler` never runs. A child found exited
/// but unreaped is reaped here and its status read directly, so a finished command is never taken
/// for a hung one.
final class ChildExit {
    let process: Process
    private let done = DispatchSemaphore(value: 0)

    /// Starts `process` (its handler is taken over).
    init(running process: Process) throws {
        self.process = process
        let done = self.done
        process.terminationHandler = { _ in done.signal() }
        try process.run()
    }

    /// The exit status, or a thrown error naming `what` when the child is still running after `timeout` seconds
    /// (it is killed): a wait that can never hang a test thread.
    func status(timeout: TimeInterval, _ what: String) throws -> Int32 {
        if let status = wait(timeout: timeout) { return status }
        kill(process.processIdentifier, SIGKILL)
        _ = wait(timeout: 5)
        throw ChildTimeout(description: "\(what) did not end within \(Int(timeout)) s (killed)")
    }

    /// The exit status (128 + signal for a signalled child), or nil after `timeout` seconds.
    func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        let pid = process.processIdentifier
        while Date() < deadline {
            if done.wait(timeout: .now() + 0.5) == .success { return process.terminationStatus }
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            guard let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z") else { continue }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                let signal = raw & 0x7f
                return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            }
            if done.wait(timeout: .now() + 0.5) == .success { return process.terminationStatus }
        }
        return nil
    }
}

/// A child that ran past its time.
struct ChildTimeout: Error, CustomStringConvertible {
    let description: String
}
