import Foundation

/// One of the five panes (or an overlay) as the app shell sees it. Each pane pairs with one
/// view-model in HeraldViewModels; the pane only draws its view-model's state and turns actions into
/// view-model calls.
public protocol Pane: AnyObject {
    /// Title shown in the tab bar ("Contacts").
    var title: String { get }
    /// The key context in force now: the pane's own, or `.editor` while a text field has focus.
    var keyContext: KeyContext { get }
    /// Places the pane in `rect` before a frame and asks its view-model for what the visible part lacks (rows
    /// scrolled into view, a page the window has room for). Only a layout pass starts such work.
    func layout(in rect: Rect)
    /// Draws the pane into `rect` of the canvas as the last layout placed it. Reads state only: it starts no work.
    func render(into canvas: inout Canvas, in rect: Rect, theme: Theme)
    /// What the pane offers now, each action with its handler and footer label: the dispatch of bound keys, the
    /// footer's hints and the `?` overlay all read this one list.
    var bindings: [PaneBinding] { get }
    /// A key that no binding took (typed text while editing, digits in a field); true when used.
    func handle(unboundKey key: Key) -> Bool
    /// A mouse event at canvas coordinates inside the pane's last rect; true when used.
    func handle(mouse: MouseEvent) -> Bool
    /// Short hints for the status bar, e.g. [(.action(.select), "select"), (.action(.invite), "invite")]:
    /// the screen shows the key the key map binds to each action now, so a remapped key shows as remapped. By
    /// default the bindings' footer labels; a pane holding every key (a field) names the keys it reads itself.
    var hints: [(key: HintKey, label: String)] { get }
}

/// The key of a status-bar hint: the one bound to an action (as the key map has it), or a key the pane
/// reads itself while it holds every key (a question, a field).
public enum HintKey: Sendable, Hashable, ExpressibleByStringLiteral {
    case action(Action)
    case fixed(String)

    public init(stringLiteral value: String) { self = .fixed(value) }
}

extension Pane {
    public func layout(in rect: Rect) {}

    /// Runs the binding the pane offers now for `action`; false when it offers none or it declined.
    public func handle(action: Action) -> Bool {
        bindings.run(action)
    }

    /// The footer hints the bindings carry, in their order.
    public var footerHints: [(key: HintKey, label: String)] {
        bindings.compactMap { binding in binding.footer.map { (HintKey.action(binding.action), $0) } }
    }

    public var hints: [(key: HintKey, label: String)] { footerHints }
    public func handle(unboundKey key: Key) -> Bool { false }
    public func handle(mouse: MouseEvent) -> Bool { false }
}
