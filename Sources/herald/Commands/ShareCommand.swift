import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald share …`: referral link, QR code, email invitation, social share URLs.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Share a referral link: the link and its clicks, a QR code, an email, share URLs.",
        subcommands: [ShareLink.self, ShareQR.self, ShareEmail.self, ShareURLs.self])
}

struct ShareLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "link", abstract: "Print a referral link and how often it was opened.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Whose link (your name).") var referrer: String = NSUserName()
    @Flag(help: "Print JSON.") var json = false

    struct LinkJSON: Encodable { var url: String; var clicks: Int; var referrer: String }

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let link = try await ws.share.referralLink(referrer: referrer)
            if json { try Output.printJSON(LinkJSON(url: link.url, clicks: link.clicks, referrer: referrer)) } else {
                print("\(Output.safe(link.url))  (\(link.clicks) click\(link.clicks == 1 ? "" : "s"))")
            }
        } catch {
            throw Output.failure(for: error)
        }
    }
}

struct ShareQR: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "qr", abstract: "Print the referral link as a QR code.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Whose link (your name).") var referrer: String = NSUserName()

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let link = try await ws.share.referralLink(referrer: referrer)
            let code = try ws.share.qrCode(for: link.url)
            print(code.textLines().joined(separator: "\n"))
            print(Output.safe(link.url))
        } catch {
            throw Output.failure(for: error)
        }
    }
}

struct ShareEmail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "email", abstract: "Email contacts an invitation with your referral link (through sendmail).")
    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), parsing: .upToNextOption, help: ArgumentHelp("Contact ids.", valueName: "id")) var ids: [Int64] = []
    @Option(help: "Your name, as the referrer and sender.") var referrer: String = NSUserName()
    @Option(help: "Your email address (From).") var from: String

    func run() async throws {
        guard !ids.isEmpty else { throw Output.failure("pass --to with contact ids (see `herald contacts list`)") }
        var setup = try global.workspaceSetup()
        setup.config.emailFrom = from
        let ws: Workspace
        do { ws = try await Workspace.open(dataDirectory: global.paths.dataDirectory, platform: setup.platform, config: setup.config) } catch {
            throw Output.failure(for: error)
        }
        defer { ws.close() }
        var failures = 0
        for id in ids {
            guard let person = try await ws.book.person(id: id) else {
                Output.warn("no contact with id \(id)")
                failures += 1
                continue
            }
            do {
                try await ws.share.emailInvite(person, referrer: referrer)
                print("sent to \(Output.safe(person.displayName)) <\(Output.safe(person.emails.first?.address ?? ""))>")
            } catch {
                Output.warn("\(Output.safe(person.displayName)): \(userMessage(for: error))")
                failures += 1
            }
        }
        if failures > 0 { throw Output.failure("\(failures) of \(counted(ids.count, "invitation")) not sent") }
    }
}

struct ShareURLs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "urls", abstract: "Print share URLs for X, Facebook, WhatsApp and Telegram.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Whose link (your name).") var referrer: String = NSUserName()
    @Option(help: "Text to go with the link.") var text: String = "Join me on Herald"
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let link = try await ws.share.referralLink(referrer: referrer)
            let urls = ws.share.shareURLs(text: text, link: link.url)
            if json {
                try Output.printJSON(Dictionary(uniqueKeysWithValues: urls.map { ($0.platform.rawValue, $0.url) }))
            } else {
                var table = OutputTable(headers: ["PLATFORM", "URL"], maxWidths: [10, 200])
                for u in urls { table.add([u.platform.displayName, u.url]) }
                print(table.render(), terminator: "")
            }
        } catch {
            throw Output.failure(for: error)
        }
    }
}
