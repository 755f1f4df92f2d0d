import Foundation

/// Where Herald keeps its files, following XDG: data in `$XDG_DATA_HOME/herald/` (default
/// `~/.local/share/herald`), config in `$XDG_CONFIG_HOME/herald/config.toml` (default
/// `~/.config/herald/config.toml`), state/logs in `$XDG_STATE_HOME/herald/`. `--data-dir` and
/// `HERALD_DATA_DIR` override the data folder.
struct HeraldPaths: Sendable, Equatable {
    var dataDirectory: URL
    var configFile: URL
    var stateDirectory: URL

    var databaseFile: URL { dataDirectory.appendingPathComponent("herald.sqlite") }
    var logFile: URL { stateDirectory.appendingPathComponent("herald.log") }

    static func resolve(dataDirOption: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> HeraldPaths {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> URL {
            if let v = environment[name], v.hasPrefix("/") { return URL(fileURLWithPath: v) }
            return URL(fileURLWithPath: home).appendingPathComponent(fallback)
        }
        let data: URL
        if let option = dataDirOption, !option.isEmpty {
            data = URL(fileURLWithPath: (option as NSString).expandingTildeInPath)
        } else if let env = environment["HERALD_DATA_DIR"], !env.isEmpty {
            data = URL(fileURLWithPath: (env as NSString).expandingTildeInPath)
        } else {
            data = xdg("XDG_DATA_HOME", ".local/share").appendingPathComponent("herald")
        }
        return HeraldPaths(
            dataDirectory: data,
            configFile: xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("herald/config.toml"),
            stateDirectory: xdg("XDG_STATE_HOME", ".local/state").appendingPathComponent("herald"))
    }
}
