import ArgumentParser
import Foundation

/// A terminal that only reads and watches (a support desk; model: k9s' `--readonly`): `--read-only`,
/// `HERALD_READ_ONLY`, or `read_only = true` in config.toml. The workspace's platform connection then carries
/// `ReadOnlyMode.reason` as its read-only reason, the one a viewer key's connection carries: sends, resends, opt-out
/// changes and holds refuse in the services, and the screens grey every key that changes something. The commands
/// that change things (`ChangingCommand`) refuse before they open anything.
enum ReadOnlyMode {
    /// Why nothing may change, as the keys and the commands say it.
    static let reason = "read-only mode: this terminal changes nothing"

    /// Whether this run is read-only: the flag, else `HERALD_READ_ONLY` (1/true/yes or 0/false/no), else the config
    /// file's `read_only`.
    static func isOn(flag: Bool, config: HeraldConfig?, environment: [String: String]) throws -> Bool {
        if flag { return true }
        if let text = environment["HERALD_READ_ONLY"]?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty {
            switch text {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off": return false
            default: throw Output.failure("HERALD_READ_ONLY=\(Output.safe(text)) is not understood: use 1 or 0 (true or false)")
            }
        }
        return config?.readOnly ?? false
    }
}

extension GlobalOptions {
    /// Whether this run is read-only (`ReadOnlyMode.isOn`), the config file read quietly (the command says its problems).
    func isReadOnly(config: HeraldConfig? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        try ReadOnlyMode.isOn(flag: readOnlyFlag, config: config ?? (try? HeraldConfig.load(from: paths.configFile)), environment: environment)
    }
}

/// A subcommand that changes something (the ledger, the contacts, the platform): refused in read-only mode before it
/// runs. Conforming is the whole opt-in; the list is `ReadOnlyCommands.swift`.
protocol ChangingCommand {
    var global: GlobalOptions { get }
    /// What the command would have done, for the refusal ("send invitations").
    static var change: String { get }
    /// Whether this run changes something (`send --dry-run` does not); true unless a command says otherwise.
    var changesSomething: Bool { get }
}

extension ChangingCommand {
    var changesSomething: Bool { true }

    /// Refuses in read-only mode, saying why and what to do.
    func refuseWhenReadOnly() throws {
        guard changesSomething, try global.isReadOnly() else { return }
        throw Output.failure("\(ReadOnlyMode.reason): it does not \(Self.change); run it without --read-only (and HERALD_READ_ONLY, read_only in config.toml) on a terminal that may")
    }
}
