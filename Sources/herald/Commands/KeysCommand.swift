import ArgumentParser
import Foundation
import HeraldTUI

/// `herald keys`: the key bindings in effect (the defaults with the `[keys]` of config.toml), as the `?` overlay
/// lists them; `--markdown --defaults` prints docs/keys.md, which is generated this way (`make docs`).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List the key bindings in effect, per pane (with the [keys] of config.toml).")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print Markdown (the form of docs/keys.md).") var markdown = false
    @Flag(help: "The default bindings, without the [keys] of config.toml.") var defaults = false
    @Flag(help: "Print the man page herald-keys(5) (roff; with --defaults as installed).") var man = false

    mutating func run() async throws {
        let keyMap = defaults ? KeyMap() : try configuredKeyMap()
        if markdown || man {
            print(man ? KeysManPage.page(keyMap: keyMap) : KeyHelp.markdown(keyMap: keyMap), terminator: "")
            return
        }
        for (i, context) in KeyContext.allCases.enumerated() {
            if i > 0 { print("") }
            print(context.title)
            for binding in keyMap.bindings where binding.contexts.first == context && !binding.keys.isEmpty {
                let keys = binding.keys.map(KeyName.name(of:)).joined(separator: ", ")
                print("  " + keys.padding(toLength: max(keys.count, 18), withPad: " ", startingAt: 0) + " " + binding.action.rawValue
                      + ": " + binding.description)
            }
        }
    }

    private func configuredKeyMap() throws -> KeyMap {
        let file = global.paths.configFile
        let config: HeraldConfig
        do { config = try HeraldConfig.load(from: file) } catch { throw Output.failure("\(error)") }
        do { return config.keys.isEmpty ? KeyMap() : try KeyMap(overrides: config.keys, source: file.path) } catch {
            throw Output.failure("\(error)")
        }
    }
}
