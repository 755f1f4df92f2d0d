import HeraldServices

/// What reaches the app loop's mailbox: a service event from the event bus, or a finished effect.
nonisolated public enum AppEvent: Sendable {
    case service(HeraldEvent)
    case effect(EffectCompletion)
}

/// What the services tell the screens (a ledger change, the tracker's schedule, an inbox message…): the view-models
/// fold it, and the panes hand it to them. The TUI names it through the view-models, which it depends on alone.
public typealias ServiceEvent = HeraldEvent
