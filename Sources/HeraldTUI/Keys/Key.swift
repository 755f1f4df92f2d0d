/// A mouse button or wheel event at a cell.
nonisolated public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case click, rightClick, wheelUp, wheelDown }
    public var kind: Kind
    public var x: Int
    public var y: Int
    public init(_ kind: Kind, x: Int, y: Int) { self.kind = kind; self.x = x; self.y = y }
}

/// One input event from the keyboard (or mouse, or a resize).
nonisolated public enum Key: Sendable, Hashable {
    /// A printable character, as typed (uppercase letters stay uppercase).
    case char(Character)
    /// Control plus a lowercase letter (or one of `@[\]^_`).
    case ctrl(Character)
    /// Alt (sent as an ESC prefix) plus a character.
    case alt(Character)
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    case ctrlLeft, ctrlRight
    case backspace, enter, tab, backTab, escape
    /// F1…F24.
    case function(Int)
    /// Several characters that arrived at once (a paste).
    case paste(String)
    case mouse(MouseEvent)
    case resize

    /// The space bar.
    public static let space = Key.char(" ")
}
