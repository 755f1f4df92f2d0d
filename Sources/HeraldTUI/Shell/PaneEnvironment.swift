import HeraldCore
import HeraldServices
import HeraldViewModels

/// What a pane needs to build its view-model: the workspace's services, the shell's view-model
/// (toasts, status bar), the effect queue that brings async results back to the loop thread,
/// the key map and the clock.
public struct PaneEnvironment {
    public let workspace: Workspace
    public let app: AppViewModel
    public let effects: EffectQueue
    public let keyMap: KeyMap
    public let clock: any HeraldClock
    /// The inbox user to open first (the demo's user), nil to ask.
    public let inboxUser: String?

    public init(workspace: Workspace, app: AppViewModel, effects: EffectQueue, keyMap: KeyMap,
                clock: any HeraldClock, inboxUser: String?) {
        self.workspace = workspace
        self.app = app
        self.effects = effects
        self.keyMap = keyMap
        self.clock = clock
        self.inboxUser = inboxUser
    }
}
