import Foundation
import HeraldCore
import HeraldServices

/// The copy key of every pane: the text goes the best way there is (`Clipboard`: the configured program; inside tmux,
/// tmux's buffer and OSC 52; wl-copy, xclip, xsel or pbcopy; else OSC 52), off the UI thread, and the toast says which
/// way it went, or that it could not be copied and shows the text.
public final class Copier {
    private let clipboard: Clipboard
    private let effects: EffectQueue
    private let onToast: (ToastLevel, String) -> Void
    private let onTerminalBytes: ([UInt8]) -> Bool

    /// `onTerminalBytes` writes an OSC 52 escape to the terminal (the UI thread's job) and says whether there was a
    /// terminal to write to.
    public init(clipboard: Clipboard, effects: EffectQueue, onToast: @escaping (ToastLevel, String) -> Void,
                onTerminalBytes: @escaping ([UInt8]) -> Bool) {
        self.clipboard = clipboard
        self.effects = effects
        self.onToast = onToast
        self.onTerminalBytes = onTerminalBytes
    }

    /// Copies `target`'s text; "nothing to copy here" when there is none.
    public func copy(_ target: CopyTarget?) {
        guard let target, !target.text.isEmpty else { onToast(.info, "nothing to copy here"); return }
        let clipboard = self.clipboard, text = target.text, what = target.what
        let shown = TerminalSafeText.sanitize(text.count > 80 ? String(text.prefix(79)) + "…" : text)
        effects.perform({ try await clipboard.copy(text) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(.writeToTerminal(let bytes, let via?)):
                let terminal = !bytes.isEmpty && self.onTerminalBytes(bytes) ? " and through the terminal (OSC 52)" : ""
                self.onToast(.success, "copied the \(what) to \(via)\(terminal): \(shown)")
            case .success(.writeToTerminal(let bytes, nil)):
                guard self.onTerminalBytes(bytes) else {
                    self.onToast(.warning, "could not copy: no terminal to copy through; set [share] clipboard_command; "
                                 + "the \(what): \(shown)")
                    return
                }
                self.onToast(.success, "copied the \(what) through the terminal (OSC 52; a terminal that ignores it pastes "
                             + "nothing: set [share] clipboard_command): \(shown)")
            case .success(.copied(let via)):
                self.onToast(.success, "copied the \(what) with \(TerminalSafeText.sanitize(via)): \(shown)")
            case .failure(let error):
                self.onToast(.error, "\(userMessage(for: error)); the \(what): \(shown)")
            }
        }
    }
}
