import ArgumentParser
import Foundation
import HeraldAPI
import HeraldInfobip
import HeraldServices

/// `herald platform check`: which platform the configuration picks, whether it answers and accepts the
/// credentials, and how to fix what does not; which Herald this is, and on a Herald server which one it runs.
struct PlatformCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "platform", abstract: "Inspect the platform Herald is configured for.", subcommands: [PlatformCheck.self])
}

struct PlatformCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Say whether the platform answers and accepts the configured credentials.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    struct Report: Encodable {
        var platform: String
        var ok: Bool
        var findings: [InfobipCheck.Finding]
        /// This terminal's Herald.
        var herald = HeraldBuild.current
        /// A Herald server's `/health`: the Herald it runs (nil on other platforms, or when it did not answer).
        var server: ServerHealth?
    }

    func run() async throws {
        let setup = try global.workspaceSetup()
        let report: Report
        if let infobip = setup.platform as? InfobipPlatform {
            // With [inbox] jwt_key_id the inbox is probed with a user's JWT, as Herald reads it.
            var mint: (@Sendable (String) async throws -> String)?
            if case .jwt(let tokens) = setup.config.inboxAuth(applicationCode: infobip.settings.applicationCode ?? "") {
                do {
                    let minter = try TokenMinter(config: tokens)
                    mint = { try await minter.mint(for: $0) }
                } catch {
                    throw Output.failure(for: error)
                }
            }
            let findings = await InfobipCheck.run(infobip.settings, inboxToken: mint)
            report = Report(platform: "infobip", ok: findings.allSatisfy(\.ok), findings: findings)
        } else {
            report = await openAndRead(setup)
        }
        if json {
            try Output.printJSON(report)
        } else {
            print("platform: \(report.platform)")
            print("herald:   \(report.herald.version) (commit \(report.herald.commit))")
            if let server = report.server {
                let commit = server.commit.map { " (commit \(Output.safe($0)))" } ?? ""
                print("server:   " + (server.version.map { "\(Output.safe($0))\(commit), wire \(server.wire ?? 0)" }
                                        ?? "a Herald from before versions were told (wire 0)"))
            }
            for f in report.findings {
                print("\(f.ok ? "ok  " : "FAIL") \(Output.safe(f.subject)): \(Output.safe(f.detail))")
                if let fix = f.fix { print("     fix: \(Output.safe(fix))") }
            }
        }
        if !report.ok { throw ExitCode(1) }
    }

    /// The embedded platform and a Herald server: the workspace opens and the application's settings can be read.
    private func openAndRead(_ setup: WorkspaceSetup) async -> Report {
        do {
            let ws = try await Workspace.open(dataDirectory: global.paths.dataDirectory, platform: setup.platform, config: setup.config)
            defer { ws.close() }
            let kind = ws.connection.kind.description
            do {
                _ = try await ws.platform.applicationSettings()
                var report = Report(platform: kind, ok: true, findings: [.init(subject: kind, ok: true,
                                                                               detail: "answers; the credentials are accepted", fix: nil)])
                if case .server = ws.connection.kind, let server = setup.platform as? ServerPlatform {
                    let health = GetServerHealth(key: server.key)
                    do { report.server = try health.decode(try await ws.connection.transport.send(try health.request())) } catch {
                        // The server answers (the settings were read), so this is only which Herald it runs: say why not.
                        report.findings.append(.init(subject: "server version", ok: true,
                                                     detail: "not told: /health answered \(error.description)", fix: nil))
                    }
                }
                return report
            } catch {
                return Report(platform: kind, ok: false, findings: [.init(subject: kind, ok: false, detail: error.description, fix: nil)])
            }
        } catch {
            let text = (error as? UserFacingError)?.userMessage ?? "\(error)"
            return Report(platform: "\(type(of: setup.platform))", ok: false,
                          findings: [.init(subject: "platform", ok: false, detail: text, fix: nil)])
        }
    }
}
