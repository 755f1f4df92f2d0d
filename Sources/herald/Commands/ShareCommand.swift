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
            ShareLink.warnIfNowhere(link.url)
        } catch {
            throw Output.failure(for: error)
        }
    }
}

extension ShareLink {
    /// A link to a `.invalid` host opens nowhere: the embedded platform's are examples, and a server's are so until
    /// its operator gives `herald serve --public-url`.
    static func warnIfNowhere(_ url: String) {
        guard let host = URL(string: url)?.host?.lowercased(), host.hasSuffix(".invalid") else { return }
        Output.warn("this link leads nowhere (\(host)): the embedded platform's links are examples; a Herald server's "
                    + "operator gives herald serve --public-url")
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
            ShareLink.warnIfNowhere(link.url)
        } catch {
            throw Output.failure(for: error)
        }
    }
}

struct ShareEmail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "email",
        abstract: "Email contacts an invitation, recorded in the ledger as an SMS is (Deliveries, status and watch show it).",
        discussion: """
            Each contact gets one email at their first address, with the message's text (or --text) and its own link. \
            On this machine the platform hands it to the mail program (share.email_command, `sendmail -t -i` by default); \
            a Herald server sends it over its SMTP server. An email is handed over at most once: one whose hand-over \
            was interrupted is marked uncertain and sent again only with --resend.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), parsing: .upToNextOption, help: ArgumentHelp("Contact ids.", valueName: "id"),
            completion: LiveCompletions.contactIDs) var ids: [Int64] = []
    @Option(help: "Your email address (From); default: email_from in config.toml.") var from: String?
    @Option(help: "The subject.") var subject: String = EmailOptions.defaultSubject
    @Option(help: ArgumentHelp("The body, with the message's link placeholder; default: the application message's text.",
                               valueName: "text")) var text: String?
    @Option(help: "The application message whose text (and link placeholder) to use.") var message: String?
    @Flag(help: "Send again to people already invited, and to uncertain hand-overs.") var resend = false
    @Flag(help: "Leave at once, without the undo window.") var now = false
    @Flag(help: "Print JSON (as `herald send --json`).") var json = false

    func run() async throws {
        guard !ids.isEmpty else { throw Output.failure("pass --to with contact ids (see `herald contacts list`)") }
        var setup = try global.workspaceSetup()
        if let from { setup.config.emailFrom = from }
        let ws: Workspace
        do { ws = try await Workspace.open(dataDirectory: global.paths.dataDirectory, platform: setup.platform, config: setup.config) } catch {
            throw Output.failure(for: error)
        }
        defer { ws.close() }
        var people: [Person] = []
        for id in ids {
            guard let person = try await ws.book.person(id: id) else { throw Output.failure(InviteError.unknownPerson(id).userMessage) }
            people.append(person)
        }
        let result: InviteResult
        do {
            result = try await ws.invites.invite(people: people, options: InviteOptions(
                messageKey: message, policy: ResendPolicy(allowResendToInvited: resend), now: now,
                email: EmailOptions(subject: subject, text: text)))
        } catch {
            throw Output.failure(for: error)
        }
        try await SendReport.finish(result, ws: ws, json: json, scheduled: false)
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
