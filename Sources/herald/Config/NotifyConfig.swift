import Foundation
import HeraldServices
import HeraldTUI
import TOMLKit

extension ConfigKey where Value == FailureThreshold {
    /// A share of a bulk's recipients ("10%") or a number of them (25).
    static func failureThreshold(_ name: String, example: String, _ help: String) -> Self {
        ConfigKey(name: name, help: help, example: "\"\(example)\"", expectation: "a percentage (\"10%\") or a whole number of recipients",
                  environment: nil) { value throws(ConfigProblem) in
            if let count = value.int {
                guard count >= 1 else { throw ConfigProblem("\(name) must be 1 or more recipients, or a percentage like \"10%\"") }
                return .count(count)
            }
            guard let text = value.string, let threshold = FailureThreshold(parsing: text) else {
                throw ConfigProblem("\(name) must be a percentage above 0 and at most 100 (\"10%\") or a whole number of recipients (25)")
            }
            return threshold
        }
    }
}

/// How notices are given (`[notify]`), read once from the config.
struct NotifySettings: Sendable {
    /// `[notify] enabled` (default true): false gives no notice at all.
    var enabled: Bool
    var failures: FailureThreshold
    /// `[notify] via`.
    var via: String
    /// `[notify] command`, parsed.
    var command: ExternalCommand?

    /// The `[notify]` of `config`; a command that cannot be parsed is said plainly.
    init(_ config: HeraldConfig) throws {
        enabled = config.notifyEnabled ?? true
        failures = config.notifyFailures ?? .default
        via = config.notifyVia ?? "auto"
        if let line = config.notifyCommand {
            do { command = try ExternalCommand(parsing: line) } catch {
                throw Output.failure("[notify] command: \(userMessage(for: error))")
            }
        }
        if via == "command" && command == nil {
            throw Output.failure("[notify] via = \"command\" needs [notify] command: the program to run with the title and the body")
        }
    }

    /// The attention watcher's settings.
    func attention(inboxUsers: Set<String>, followLoadedInboxes: Bool, inboxPollInterval: TimeInterval?) -> AttentionSettings {
        AttentionSettings(failures: failures, inboxUsers: inboxUsers, followLoadedInboxes: followLoadedInboxes,
                          inboxPollInterval: inboxPollInterval)
    }

    /// Where each notice goes, for a terminal that understands `terminal` (nil: no terminal to ring, as `herald watch`
    /// writing to a pipe): the configured command when there is one, else the terminal's own notification (OSC 9 or
    /// 777), else `notify-send` on a desktop session, else the bell. `via` other than auto names one of these; off
    /// gives none (the status-bar line and `herald watch`'s line stay).
    func route(terminal: TerminalNotification?, environment: [String: String]) -> NoticeRoute {
        switch via {
        case "off": return NoticeRoute()
        case "bell": return NoticeRoute(terminal: terminal == nil ? nil : .bell)
        case "osc9": return NoticeRoute(terminal: terminal == nil ? nil : .osc9)
        case "osc777": return NoticeRoute(terminal: terminal == nil ? nil : .osc777)
        case "notify-send": return NoticeRoute(program: NoticeCommand.notifySend(environment: environment))
        case "command": return NoticeRoute(program: command.map { NoticeCommand($0) })
        default:
            if let command { return NoticeRoute(program: NoticeCommand(command)) }
            if let terminal, terminal != .bell { return NoticeRoute(terminal: terminal) }
            let desktop = environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
            if desktop, let send = NoticeCommand.notifySend(environment: environment) { return NoticeRoute(program: send) }
            return NoticeRoute(terminal: terminal)
        }
    }
}

/// Where one notice goes: a terminal sequence, a program, both or neither.
struct NoticeRoute: Sendable {
    var terminal: TerminalNotification?
    var program: NoticeCommand?

    init(terminal: TerminalNotification? = nil, program: NoticeCommand? = nil) {
        self.terminal = terminal
        self.program = program
    }
}
