import ArgumentParser
import Foundation
import HeraldTUI

/// `herald config check`: config.toml read as a start reads it, every problem listed with its line (unknown keys,
/// values of the wrong type or out of range, files it names that cannot be read, a theme or key binding that does
/// not exist, a platform that cannot be set up); exit 1 when there is one.
struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check config.toml as Herald reads it: every problem with its line; exit 1 on any.")
    @OptionGroup var global: GlobalOptions

    mutating func run() async throws {
        let file = global.paths.configFile
        guard FileManager.default.fileExists(atPath: file.path) else {
            print("\(Output.safe(file.path)): no such file; Herald runs on its defaults")
            return
        }
        var problems: [String] = []
        let config: HeraldConfig
        do {
            let text = try HeraldConfig.text(of: file)
            config = try HeraldConfig.parse(text, file: file.path, keepGoing: true)
        } catch let error as ConfigError {
            Self.report([error.description])
            throw ExitCode(1)
        }
        problems += config.warnings + config.problems.map(\.description)
        problems += Self.unreadableFiles(config)
        do { _ = try ThemeLoader().load(config.theme ?? "default") } catch {
            problems.append("\(ConfigError.place(file.path, config.lines.line(of: "theme"))): \(error)")
        }
        if !config.keys.isEmpty {
            do { _ = try KeyMap(overrides: config.keys, source: ConfigError.place(file.path, config.lines.line(of: "keys"))) } catch {
                problems.append("\(error)")
            }
        }
        if config.problems.isEmpty {
            // The platform as a start sets it up (keys, key files, URLs); its failure is printed as it happens.
            do { _ = try global.workspaceSetup(config: config) } catch let exit as ExitCode where exit != .success {
                problems.append("the platform cannot be set up (said above)")
            }
        }
        Self.report(problems)
        if !problems.isEmpty { throw ExitCode(1) }
        print("\(Output.safe(file.path)): no problems (\(config.setKeyCount) keys set)")
    }

    /// The files config.toml names (key files, CA files, passwords) that this user cannot read.
    static func unreadableFiles(_ config: HeraldConfig) -> [String] {
        var named: [(key: String, path: String)] = ConfigKeys.all.compactMap { key in
            guard key.name.hasSuffix("_file"), let path = config.value(named: key.name) as? String else { return nil }
            return (key.name, path)
        }
        for (name, account) in config.bookAccounts.sorted(by: { $0.key < $1.key }) {
            if let path = account.passwordFile { named.append(("books (\(name)).password_file", path)) }
        }
        return named.compactMap { key, path in
            let expanded = HeraldConfig.expandingHome(path)
            guard !FileManager.default.isReadableFile(atPath: expanded) else { return nil }
            let place = ConfigError.place(config.file ?? "config.toml", config.lines.line(of: key))
            let why = FileManager.default.fileExists(atPath: expanded) ? "cannot be read by this user" : "does not exist"
            return "\(place): \(key) names \(Output.safe(expanded)), which \(why)"
        }
    }

    private static func report(_ problems: [String]) {
        for problem in problems { print(Output.safe(problem)) }
        if !problems.isEmpty {
            Output.warn("\(problems.count) problem\(problems.count == 1 ? "" : "s") in the configuration")
        }
    }
}
