/// An in-memory terminal for tests: keys are queued by the test, frames are recorded.
public final class FakeTerminal: Terminal, @unchecked Sendable {
    public var size: Size
    public var inputDescriptor: Int32? { nil }
    public private(set) var frames: [Canvas] = []
    /// Cells written by the last `present` (what diffing saved is visible here).
    public private(set) var lastWrittenCells = 0
    public private(set) var theme: Theme?
    private var pendingKeys: [Key] = []
    private var pendingSize: Size?

    public init(size: Size) { self.size = size }

    public func queue(_ keys: Key...) { pendingKeys.append(contentsOf: keys) }
    public func readKeys() -> [Key] { defer { pendingKeys = [] }; return pendingKeys }

    public func present(_ canvas: Canvas) {
        lastWrittenCells = FrameDiff.changes(from: frames.last, to: canvas).reduce(0) { $0 + $1.x.count }
        frames.append(canvas)
    }

    public func setTheme(_ theme: Theme) { self.theme = theme; frames.removeAll() }

    /// Simulates a window resize: the next `refreshSize` reports it.
    public func resize(to size: Size) { pendingSize = size }

    public func refreshSize() -> Bool {
        guard let new = pendingSize else { return false }
        pendingSize = nil
        defer { size = new }
        return new != size
    }

    /// The text of the last frame.
    public var screenText: String { frames.last?.snapshot() ?? "" }
}
