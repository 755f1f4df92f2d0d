/// One terminal cell: a grapheme cluster and its style. The right half of a wide character is a
/// continuation cell that holds nothing of its own.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: Style
    /// True for the right half of a wide character.
    public var isContinuation: Bool
    /// True for the left half of a wide character (the next cell is its continuation).
    public var isWide: Bool

    public init(_ character: Character = " ", style: Style = .text, isContinuation: Bool = false, isWide: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
        self.isWide = isWide
    }

    public static let blank = Cell()
}
