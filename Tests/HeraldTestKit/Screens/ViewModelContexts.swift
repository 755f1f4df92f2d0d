import HeraldCore
import HeraldServices
import HeraldViewModels

extension EffectPump {
    /// The context a view-model under test takes: this pump's queue, a shell of its own posting to `toasts`, and
    /// `terminal` (none unless given); copies go through OSC 52 to it.
    public func context(toasts: ToastBoard = ToastBoard(), clock: any HeraldClock = SystemClock(),
                        terminal: TerminalHandOver = .none) -> ViewModelContext {
        ViewModelContext(effects: queue, app: AppViewModel(workspaceName: "test", toasts: toasts, clock: clock, terminal: terminal),
                         clock: clock)
    }
}
