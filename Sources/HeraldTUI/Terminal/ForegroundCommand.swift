import Foundation
import HeraldCore
import Synchronization

/// Runs a program in the terminal's foreground, the way a shell runs a job: in Herald's own process
/// group (Foundation's `Process` puts a child in a group of its own, where an editor that touches
/// the terminal is stopped or fails), with every signal at its default and none blocked. While it
/// runs Herald ignores SIGINT and SIGQUIT, as `system(3)` does, and takes SIGTSTP at its default,
/// so ctrl-z in the editor stops the editor and Herald together and `fg` brings both back.
nonisolated public enum ForegroundCommand {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `arguments` (the first one a path) with `environment` and waits; returns its exit status
    /// (128 + the signal number when a signal ended it).
    public static func run(_ arguments: [String], environment: [String: String]) throws(Failure) -> Int32 {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        let previousStop = signal(SIGTSTP, SIG_DFL)     // ncurses' own handler would repaint over the editor
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
            signal(SIGTSTP, previousStop)
        }
        var pid: pid_t = 0
        // In Herald's own process group, where the terminal is.
        let spawned = SpawnSetup.spawn(&pid, arguments, environment: environment, actions: nil, ownGroup: false)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "lost \(arguments[0]): \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot see.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Stops Herald's process group with SIGTSTP, as ctrl-z does in a shell, and returns once `fg`
    /// (SIGCONT) resumes it. `kill` can return before the stop reaches every thread, so this waits
    /// for SIGCONT itself: nothing may be written to the terminal while the shell has it.
    public static func stopUntilContinued() {
        continued.store(false, ordering: .relaxed)
        let previousContinue = signal(SIGCONT) { _ in ForegroundCommand.continued.store(true, ordering: .relaxed) }
        let previousStop = signal(SIGTSTP, SIG_DFL)
        kill(0, SIGTSTP)
        while !continued.load(ordering: .relaxed) { usleep(2_000) }
        signal(SIGTSTP, previousStop)
        signal(SIGCONT, previousContinue)
    }

    private static let continued = Atomic<Bool>(false)
}
