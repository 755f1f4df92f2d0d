import HeraldServices

/// What reaches the app loop's mailbox: a service event from the event bus, or a finished effect.
nonisolated public enum AppEvent: Sendable {
    case service(HeraldEvent)
    case effect(EffectCompletion)
}
