/// One terminal cell: a grapheme cluster and its style. A cluster that takes several columns sits in
/// its first cell; the cells after it are continuations that hold nothing of their own.
nonisolated public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: Style
    /// True for a column covered by the cluster in a cell to its left.
    public var isContinuation: Bool
    /// Columns the cluster takes (1 for a continuation); the next `columns - 1` cells are continuations.
    public var columns: UInt8

    public init(_ character: Character = " ", style: Style = .text, isContinuation: Bool = false, columns: Int = 1) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
        self.columns = UInt8(clamping: max(1, columns))
    }

    /// True for the first cell of a cluster that takes more than one column.
    public var isWide: Bool { columns > 1 }

    public static let blank = Cell()
}
