import HeraldCore

/// Columns text takes on the terminal: the canvas, layout and widgets all count with this one rule
/// (see `TerminalWidth`).
public typealias TextWidth = TerminalWidth
