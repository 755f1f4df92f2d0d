import Foundation

/// Hooks into the terminal that only the launcher has (it owns the `NcursesTerminal`): set once
/// before the loop starts; nil in tests and when there is no terminal.
public enum PaneTerminalHooks {
    /// Writes bytes to the terminal between frames (`NcursesTerminal.writeRaw`), for OSC 52 copies.
    nonisolated(unsafe) public static var writeBytes: (([UInt8]) -> Void)?
    /// Hands the terminal to an outside program (`NcursesTerminal.suspend`), for `$EDITOR`.
    nonisolated(unsafe) public static var suspend: ((() -> Void) -> Void)?
}
