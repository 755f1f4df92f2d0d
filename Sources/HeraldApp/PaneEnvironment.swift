import HeraldCore
import HeraldServices
import HeraldTUI
import HeraldViewModels

/// What a pane needs to build its view-model: the workspace's services, the key map, and the one context every
/// view-model takes in `init` (the effect queue that brings async results back to the loop thread, the shell's
/// view-model for toasts and focus, the clock, the copy key, the terminal the shell was given).
public struct PaneEnvironment {
    public let workspace: Workspace
    public let keyMap: KeyMap
    /// The inbox user to open first (the demo's user), nil to ask.
    public let inboxUser: String?
    public let context: ViewModelContext

    public var app: AppViewModel { context.app }
    public var effects: EffectQueue { context.effects }
    public var clock: any HeraldClock { context.clock }
    /// The panes' copy key: the workspace's clipboard program, tmux, the desktop's, else OSC 52 through the terminal.
    public var copier: Copier { context.copier }

    public init(workspace: Workspace, app: AppViewModel, effects: EffectQueue, keyMap: KeyMap,
                clock: any HeraldClock, inboxUser: String?) {
        self.workspace = workspace
        self.keyMap = keyMap
        self.inboxUser = inboxUser
        context = ViewModelContext(effects: effects, app: app, clock: clock,
                                   clipboard: Clipboard(method: .automatic(configured: workspace.config.clipboardCommand)))
    }
}
