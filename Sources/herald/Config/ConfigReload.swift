import Foundation
import HeraldTUI
import HeraldViewModels

/// A changed config.toml taken in while the screens run: the keys, the theme (unless `--theme` chose one) and the
/// mouse apply at once; a file that cannot be used is said in a toast naming its line, and the settings in use stay.
/// Books and the send rules are read by the workspace when it opens: the toast says they wait for the next start.
struct ConfigReload: Sendable {
    let file: URL
    /// `--theme` was given: the command line wins over the file.
    let themeGiven: Bool

    @MainActor
    func start(effects: EffectQueue, screen: AppScreen, terminal: NcursesTerminal, toasts: ToastBoard) {
        let watch = ConfigWatch(file: file)
        watchNext(after: watch.stamp(), watch, effects: effects, screen: screen, terminal: terminal, toasts: toasts)
    }

    @MainActor
    private func watchNext(after stamp: ConfigWatch.Stamp?, _ watch: ConfigWatch, effects: EffectQueue, screen: AppScreen,
                           terminal: NcursesTerminal, toasts: ToastBoard) {
        effects.perform({ try await watch.next(after: stamp) }, then: { result in
            guard case .success(let (stamp, read)) = result else { return }
            apply(read, screen: screen, terminal: terminal, toasts: toasts)
            watchNext(after: stamp, watch, effects: effects, screen: screen, terminal: terminal, toasts: toasts)
        })
    }

    @MainActor
    private func apply(_ read: Result<HeraldConfig, ConfigError>, screen: AppScreen, terminal: NcursesTerminal, toasts: ToastBoard) {
        let config: HeraldConfig
        switch read {
        case .success(let loaded): config = loaded
        case .failure(let problem):
            let place = ConfigError.place(URL(fileURLWithPath: problem.file).lastPathComponent, problem.line)
            toasts.post("\(place): \(problem.message) — the settings in use stay", level: .error, seconds: 10)
            return
        }
        let keyMap: KeyMap
        do { keyMap = config.keys.isEmpty ? KeyMap() : try KeyMap(overrides: config.keys, source: file.path) } catch {
            toasts.post("\(error) — the settings in use stay", level: .error, seconds: 10)
            return
        }
        screen.apply(keyMap: keyMap, themeName: themeGiven ? nil : config.theme ?? "default")
        terminal.setMouse(config.mouse ?? true)
        let warning = config.warnings.first.map { " (\($0))" } ?? ""
        toasts.post("config.toml read again: keys, theme and mouse apply now; books and send rules at the next start\(warning)",
                    level: warning.isEmpty ? .info : .warning, seconds: 6)
    }
}
