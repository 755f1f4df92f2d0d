import Foundation

/// Where Herald keeps its files, following XDG: data in `$XDG_DATA_HOME/herald/` (default
/// `~/.local/share/herald`), config in `$XDG_CONFIG_HOME/herald/config.toml` (default
/// `~/.config/herald/config.toml`), state/logs in `$XDG_STATE_HOME/herald/`. `--data-dir` and
/// `HERALD_DATA_DIR` override the data folder, `--config` and `HERALD_CONFIG` the config file. A profile
/// (`--profile NAME`, `HERALD_PROFILE`) is a second identity: its config is `profiles/NAME.toml` beside config.toml
/// and its data `profiles/NAME/` in the data folder, so a work account and a personal one never mix.
struct HeraldPaths: Sendable, Equatable {
    var dataDirectory: URL
    var configFile: URL
    var stateDirectory: URL

    var databaseFile: URL { dataDirectory.appendingPathComponent("herald.sqlite") }
    var logFile: URL { stateDirectory.appendingPathComponent("herald.log") }

    /// A profile's name: letters, digits, `-` and `_`, as a file name must be.
    static func isProfileName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    static func resolve(dataDirOption: String?, configOption: String? = nil, profileOption: String? = nil,
                        environment: [String: String] = ProcessInfo.processInfo.environment) -> HeraldPaths {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> URL {
            if let v = environment[name], v.hasPrefix("/") { return URL(fileURLWithPath: v) }
            return URL(fileURLWithPath: home).appendingPathComponent(fallback)
        }
        func given(_ option: String?, _ variable: String) -> URL? {
            guard let text = option.flatMap({ $0.isEmpty ? nil : $0 }) ?? environment[variable].flatMap({ $0.isEmpty ? nil : $0 }) else {
                return nil
            }
            return URL(fileURLWithPath: (text as NSString).expandingTildeInPath)
        }
        let profile = (profileOption ?? environment["HERALD_PROFILE"]).flatMap { isProfileName($0) ? $0 : nil }
        var data = xdg("XDG_DATA_HOME", ".local/share").appendingPathComponent("herald")
        var config = xdg("XDG_CONFIG_HOME", ".config").appendingPathComponent("herald/config.toml")
        if let profile {
            data = data.appendingPathComponent("profiles/\(profile)")
            config = config.deletingLastPathComponent().appendingPathComponent("profiles/\(profile).toml")
        }
        return HeraldPaths(
            dataDirectory: given(dataDirOption, "HERALD_DATA_DIR") ?? data,
            configFile: given(configOption, "HERALD_CONFIG") ?? config,
            stateDirectory: xdg("XDG_STATE_HOME", ".local/state").appendingPathComponent("herald"))
    }
}
