import HeraldCore
import HeraldServices
import HeraldTUI
import HeraldViewModels

/// What a pane needs to build its view-model: the workspace's services, the shell's view-model
/// (toasts, status bar), the effect queue that brings async results back to the loop thread,
/// the key map, the clock and the copy key's way to the clipboard.
public struct PaneEnvironment {
    public let workspace: Workspace
    public let app: AppViewModel
    public let effects: EffectQueue
    public let keyMap: KeyMap
    public let clock: any HeraldClock
    /// The inbox user to open first (the demo's user), nil to ask.
    public let inboxUser: String?
    /// The panes' copy key: the workspace's clipboard program, tmux, the desktop's, else OSC 52 through the terminal.
    public let copier: Copier

    public init(workspace: Workspace, app: AppViewModel, effects: EffectQueue, keyMap: KeyMap,
                clock: any HeraldClock, inboxUser: String?) {
        self.workspace = workspace
        self.app = app
        self.effects = effects
        self.keyMap = keyMap
        self.clock = clock
        self.inboxUser = inboxUser
        copier = Copier(clipboard: Clipboard(method: .automatic(configured: workspace.config.clipboardCommand)), effects: effects,
                        onToast: { app.toasts.post($1, level: $0) },
                        onTerminalBytes: Self.writeToTerminal)
    }

    /// Writes bytes to the terminal when there is one (the launcher's hook); false when there is none.
    static func writeToTerminal(_ bytes: [UInt8]) -> Bool {
        guard let write = PaneTerminalHooks.writeBytes else { return false }
        write(bytes)
        return true
    }
}
