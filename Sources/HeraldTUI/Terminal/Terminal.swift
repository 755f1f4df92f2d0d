/// What the app loop needs from a terminal. `NcursesTerminal` is the real one; `FakeTerminal`
/// records frames for tests.
public protocol Terminal: AnyObject {
    /// The screen size in cells.
    var size: Size { get }
    /// A descriptor that becomes readable when input is waiting (stdin), or nil when there is none.
    var inputDescriptor: Int32? { get }
    /// Reads every key waiting now, without blocking.
    func readKeys() -> [Key]
    /// Shows `canvas`, writing only the cells that changed since the last frame.
    func present(_ canvas: Canvas)
    /// Uses `theme` for colours from the next frame on (redraws everything).
    func setTheme(_ theme: Theme)
    /// Re-reads the size after a resize signal; returns true when it changed.
    func refreshSize() -> Bool
}
