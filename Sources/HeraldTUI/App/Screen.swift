import Foundation

/// The root of what the app loop shows. The panes plug in behind one of these.
public protocol Screen: AnyObject {
    /// What other threads post to the loop's mailbox.
    associatedtype Event: Sendable
    /// Lays the screen out for `size` before a frame: where each part goes, which rows are visible. This is
    /// where a screen asks for what the visible part lacks (rows scrolled into view); `render` then only reads.
    func layout(size: Size)
    /// Draws the whole screen as the last `layout` placed it. Reads state only: it starts no work.
    func render(into canvas: inout Canvas, size: Size)
    /// A key (or mouse event); returns true when the screen changed and must be redrawn.
    func handle(key: Key) -> Bool
    /// An event from the mailbox; returns true when the screen changed.
    func handle(event: Event) -> Bool
    /// Called when a deadline has passed (toast expiry, animation); returns true when the screen changed.
    func tick(now: Date) -> Bool
    /// The next time `tick` must run, or nil when nothing is scheduled (the loop then sleeps).
    func nextDeadline() -> Date?
    /// True once the user asked to quit.
    var wantsToQuit: Bool { get }
    /// A mark of the work (reads off the UI thread) started so far, for `awaitsWork(startedSince:)`.
    var workMark: Int { get }
    /// Whether work started after `mark` (by the keys handled since) is still running.
    func awaitsWork(startedSince mark: Int) -> Bool
    /// True once after rendering a frame that shows a question (a dialog) for the first time. Keys waiting then were
    /// typed before anyone could read it: the loop reads them before it presents the frame and hands them to
    /// `dropTypedAhead`.
    func takeQuestionShown() -> Bool
    /// Keys typed before the question on screen could be seen, which must not answer it; true when the screen changed.
    func dropTypedAhead(_ keys: [Key]) -> Bool
}

public extension Screen {
    func layout(size: Size) {}
    var workMark: Int { 0 }
    func awaitsWork(startedSince mark: Int) -> Bool { false }
    func takeQuestionShown() -> Bool { false }
    func dropTypedAhead(_ keys: [Key]) -> Bool { false }
}
