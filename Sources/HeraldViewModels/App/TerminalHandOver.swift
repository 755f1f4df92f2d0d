/// What the launcher's terminal lends the panes: nil parts where there is no terminal (tests, the benchmark).
public struct TerminalHandOver {
    /// Writes bytes to the terminal between frames (`NcursesTerminal.writeRaw`), for OSC 52 copies.
    public let write: (([UInt8]) -> Void)?
    /// Hands the terminal to an outside program and takes it back (`NcursesTerminal.suspend`), for `$EDITOR`.
    public let suspend: ((() -> Void) -> Void)?

    public init(write: (([UInt8]) -> Void)?, suspend: ((() -> Void) -> Void)?) {
        self.write = write
        self.suspend = suspend
    }

    /// No terminal to write to or hand over.
    public static let none = TerminalHandOver(write: nil, suspend: nil)
}
