import Foundation
import HeraldCore
import HeraldServices

/// Everything a view-model gets from the shell, given once in its `init`: the effect queue, the shell (toasts, focus
/// requests, questions in the palette, the status bar's counts), the clock, the copy key and the terminal's
/// hand-over. Services come as `init` parameters of their own; nothing is set on a view-model after `init`.
public struct ViewModelContext {
    public let effects: EffectQueue
    /// The shell's view-model: what a view-model asks of the screen around it.
    public let app: AppViewModel
    public let clock: any HeraldClock
    /// The copy key (`c`/`y`) of every pane.
    public let copier: Copier

    public var toasts: ToastBoard { app.toasts }
    /// The terminal the shell runs on, to write to or hand to `$EDITOR`.
    public var terminal: TerminalHandOver { app.terminal }

    /// - Parameter clipboard: how the copy key reaches the clipboard; OSC 52 through the terminal when not given.
    public init(effects: EffectQueue, app: AppViewModel, clock: any HeraldClock, clipboard: Clipboard? = nil) {
        self.effects = effects
        self.app = app
        self.clock = clock
        let terminal = app.terminal
        copier = Copier(clipboard: clipboard ?? Clipboard(method: .osc52, environment: [:]), effects: effects,
                        onToast: { app.toasts.post($1, level: $0) },
                        onTerminalBytes: { bytes in
                            guard let write = terminal.write else { return false }
                            write(bytes)
                            return true
                        })
    }

    /// Runs `work` off the UI thread, then `then` with its value on the UI thread while `owner` is still there. A
    /// failure is posted as a toast, "`failure`: what went wrong" (only what went wrong when `failure` is nil), at
    /// `level`; `finally` runs after either (a flag the work had set goes down). The one way a view-model runs an effect
    /// whose failure the person at the keyboard is told about.
    public func run<Owner: AnyObject, T: Sendable>(_ work: @escaping @Sendable () async throws -> T,
                                                   supersedes key: String? = nil, for owner: Owner,
                                                   failure: String?, level: ToastLevel = .error,
                                                   finally: ((Owner) -> Void)? = nil,
                                                   then: @escaping (Owner, T) -> Void) {
        let toasts = self.toasts
        effects.perform(work, supersedes: key) { [weak owner] result in
            guard let owner else { return }
            finally?(owner)
            switch result {
            case .success(let value): then(owner, value)
            case .failure(let error):
                let reason = userMessage(for: error)
                toasts.post(failure.map { "\($0): \(reason)" } ?? reason, level: level)
            }
        }
    }
}
