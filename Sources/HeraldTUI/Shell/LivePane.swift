import Foundation
import HeraldViewModels

/// What a pane may do beyond drawing and keys: fold service events, keep timers (highlights that
/// fade), and hear when it is shown. Every method has a default, so a pane
/// adopts only what it uses; the shell calls these on every pane that conforms.
public protocol LivePane: Pane {
    /// A service event from the bus; true when the pane changed.
    func handle(serviceEvent: ServiceEvent) -> Bool
    /// The next time `tick` must run (nil: nothing scheduled).
    func nextDeadline() -> Date?
    /// A deadline passed; true when the pane changed.
    func tick(now: Date) -> Bool
    /// The pane became the focused one.
    func didAppear()
    /// Another pane took the focus.
    func didDisappear()
    /// True while the pane shows a dialog or editor that must keep every key (even `q` and digits).
    var capturesAllKeys: Bool { get }
    /// What quitting now would lose (an edited message not sent), asked about before quitting.
    var quitWarning: String? { get }
}

extension LivePane {
    public func handle(serviceEvent: ServiceEvent) -> Bool { false }
    public func nextDeadline() -> Date? { nil }
    public func tick(now: Date) -> Bool { false }
    public func didAppear() {}
    public func didDisappear() {}
    public var capturesAllKeys: Bool { false }
    public var quitWarning: String? { nil }
}
