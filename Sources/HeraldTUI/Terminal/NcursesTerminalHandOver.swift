import CNCurses
import Foundation

extension NcursesTerminal {
    /// Hands the terminal to `body` (a program run in the foreground, or Herald stopped by ctrl-z)
    /// and takes it back: `def_prog_mode`/`endwin` before; after, `reset_prog_mode`, whatever the
    /// terminal still had to say to the program thrown away, and a full repaint. Bracketed paste is off meanwhile
    /// (a shell or an editor that did not ask for it would get the markers as text) and on again after.
    public func suspend(_ body: () -> Void) {
        writeRaw(BracketedPaste.disable)
        def_prog_mode()
        endwin()
        body()
        reset_prog_mode()
        paste.reset()
        TerminalReplies.discardPending(input: STDIN_FILENO, output: STDOUT_FILENO)
        writeRaw(BracketedPaste.enable)
        clearok(herald_stdscr(), true)
        refresh()
        previous = nil           // the next frame is written whole, clusters written over ncurses' stand-ins too
    }

    /// Writes bytes straight to the terminal between frames (the OSC 52 clipboard escape).
    public func writeRaw(_ bytes: [UInt8]) {
        fflush(nil)          // everything ncurses buffered goes out first
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            offset += n
        }
    }
}
