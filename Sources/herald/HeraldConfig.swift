import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldInfobip
import HeraldStore
import TOMLKit

/// The user's `config.toml`. Every key is optional; unknown keys are reported by name and ignored.
///
/// ```toml
/// region = "HR"
/// theme = "dark"
/// sender = "Herald"
/// sender_name = "Ana"
/// signature = "— Ana"
/// owner_email = "ana@example.com"
/// [keys]
/// quit = ["q", "ctrl-c"]
/// [platform]
/// time_scale = 10.0
/// kind = "embedded"            # or "infobip"; a url means a Herald server
/// [infobip]
/// base_url = "https://xxxxx.api.infobip.com"
/// api_key_file = "~/.config/herald/infobip.key"
/// application_code = "…"
/// link = "https://example.com/join"
/// [share]
/// email_from = "ana@example.com"
/// email_command = "msmtp -t"
/// [send]
/// hold_seconds = 10             # the undo window: every send waits this long before anything leaves
/// [[books]]
/// name = "personal"
/// kind = "vdir"
/// path = "~/.local/share/khard/contacts/personal"
/// ```
struct HeraldConfig: Sendable, Equatable {
    var region: String?
    var theme: String?
    var sender: String?
    /// `{SENDER_NAME}` in messages, the signature the composer offers, and the owner's email
    /// (suggestions rank colleagues of the same company domain higher).
    var senderName: String?
    var signature: String?
    var ownerEmail: String?
    /// `[share] email_from` and `email_command`: email invitations through a sendmail-compatible program.
    var emailFrom: String?
    var emailCommand: String?
    /// `[smtp]`: the mail server `herald serve` sends the team's email invitations through.
    var smtp: SMTPConfig?
    /// Key bindings by action name, passed through to the key map.
    var keys: [String: [String]] = [:]
    /// How much faster the embedded platform's simulated time runs.
    var timeScale: Double?
    /// A Herald server's base URL (`[platform] url`); nil: the embedded platform.
    var platformURL: String?
    /// The server key, or the file holding it.
    var platformKey: String?
    var platformKeyFile: String?
    /// `[platform] ca_file`: CA certificates (PEM) trusted for the server's certificate besides the system's.
    var platformCAFile: String?
    /// `[platform] kind`: "embedded" or "infobip" (a Herald server is chosen by `url`).
    var platformKind: String?
    /// `[infobip]`: the account's API base URL and key (or key file), Mobile Messaging's base URL and
    /// application code, and the page invitations link to.
    var infobipBaseURL: String?
    var infobipKey: String?
    var infobipKeyFile: String?
    var infobipMobileBaseURL: String?
    var infobipApplicationCode: String?
    var infobipLink: String?
    /// `[share] clipboard_command`.
    var clipboardCommand: String?
    /// `[invite] numbers = "all-mobiles"`: every mobile of a person is invited (default "one-per-person").
    var inviteAllMobiles = false
    /// `[send] hold_seconds`: the undo window; nil: the default (10 seconds).
    var holdSeconds: Double?
    /// `[send] stop_words`: words besides STOP, STOPALL, UNSUBSCRIBE, CANCEL, END and QUIT that opt out the number a
    /// reply comes from (other languages': "ODJAVA"), upper-cased.
    var stopWords: Set<String> = []
    /// `[send] quiet_hours`: "21:00-08:00" in each recipient's local time.
    var quietHours: QuietHours?
    /// `[send] max_per_day`: invitations a day under one sender ID.
    var maxPerDay: Int?
    /// `[infobip] lookup_grace`, `hand_over_lease`, `report_deadline` (seconds) and `logs_per_minute`, by key.
    var infobipNumbers: [String: Double] = [:]
    /// `[infobip.send]`: what every message carries on Infobip.
    var infobipSend = InfobipSendOptions()
    /// `[inbox] jwt_key_id` and `jwt_secret` (hex): inbox reads with short-lived JWTs.
    var inboxJWTKeyId: String?
    var inboxJWTSecret: String?
    /// `[[books]]`: the address books contacts come from and are written back to, and how to reach the CardDAV ones.
    var books: [AddressBook] = []
    var bookAccounts: [String: CardDAVAccount] = [:]
    /// Problems that did not stop loading (unknown keys), each naming the key.
    var warnings: [String] = []

    static let knownTopLevel: Set<String> = ["region", "theme", "sender", "sender_name", "signature", "owner_email",
                                            "keys", "platform", "inbox", "share", "infobip", "invite", "books", "send", "smtp"]
    /// `[send] hold_seconds` may be 0 (sends leave at once) to an hour.
    static let holdRange: ClosedRange<Double> = 0...3600
    static let knownInfobip: Set<String> = ["base_url", "api_key", "api_key_file", "mobile_base_url", "application_code", "link",
                                             "lookup_grace", "hand_over_lease", "report_deadline", "logs_per_minute", "send"]
    /// The `[infobip]` keys that are numbers, with their ranges and units.
    static let infobipNumberRanges: [(key: String, range: ClosedRange<Double>, unit: String)] = [
        ("lookup_grace", InfobipLimits.lookupGrace, "seconds"), ("hand_over_lease", InfobipLimits.handOverLease, "seconds"),
        ("report_deadline", InfobipLimits.reportDeadline, "seconds"),
        ("logs_per_minute", Double(InfobipLimits.logsPerMinute.lowerBound)...Double(InfobipLimits.logsPerMinute.upperBound), "requests"),
    ]
    static let knownShare: Set<String> = ["email_from", "email_command", "clipboard_command"]
    static let knownSMTP: Set<String> = ["host", "port", "username", "password_file", "starttls", "ca_file", "from",
                                         "client_display_names", "reply_to_domains"]
    static let knownInbox: Set<String> = ["jwt_key_id", "jwt_secret"]
    static let knownBook: Set<String> = ["name", "kind", "path", "url", "username", "password_file", "password_command"]
    static let knownPlatform: Set<String> = ["time_scale", "url", "api_key", "api_key_file", "kind", "ca_file"]

    /// Loads `url`; a missing file is the empty configuration.
    static func load(from url: URL) throws -> HeraldConfig {
        guard FileManager.default.fileExists(atPath: url.path) else { return HeraldConfig() }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ConfigError(file: url.path, message: "cannot read it (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: url.path, message: "it is not UTF-8 text")
        }
        return try parse(text, file: url.path)
    }

    static func parse(_ text: String, file: String) throws -> HeraldConfig {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let e as TOMLParseError {
            throw ConfigError(file: file, message: "\(e.description) at line \(e.source.begin.line), column \(e.source.begin.column)")
        }
        var c = HeraldConfig()
        func string(_ t: TOMLTable, _ key: String, _ path: String) throws -> String? {
            guard let v = t[key] else { return nil }
            guard let s = v.string else { throw ConfigError(file: file, message: "\(path) must be a string, like \(path) = \"…\"") }
            return s
        }
        for key in table.keys.sorted() where !knownTopLevel.contains(key) {
            c.warnings.append("\(file): unknown key \"\(key)\" ignored (known: \(knownTopLevel.sorted().joined(separator: ", ")))")
        }
        if let region = try string(table, "region", "region") {
            let r = region.uppercased()
            guard r.count == 2, r.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw ConfigError(file: file, message: "region \"\(region)\" is not a two-letter country code such as HR, US or NL")
            }
            c.region = r
        }
        c.theme = try string(table, "theme", "theme")
        c.sender = try string(table, "sender", "sender")
        c.senderName = try string(table, "sender_name", "sender_name")
        c.signature = try string(table, "signature", "signature")
        c.ownerEmail = try string(table, "owner_email", "owner_email")
        if let keysValue = table["keys"] {
            guard let keys = keysValue.table else { throw ConfigError(file: file, message: "[keys] must be a table of action = [\"key\", …]") }
            for action in keys.keys {
                guard let v = keys[action] else { continue }
                if let s = v.string {
                    c.keys[action] = [s]
                } else if let array = v.array {
                    var list: [String] = []
                    for item in array {
                        guard let s = item.string else {
                            throw ConfigError(file: file, message: "keys.\(action) must list keys as strings, like [\"q\", \"ctrl-c\"]")
                        }
                        list.append(s)
                    }
                    c.keys[action] = list
                } else {
                    throw ConfigError(file: file, message: "keys.\(action) must be a key or a list of keys, like [\"q\", \"ctrl-c\"]")
                }
            }
        }
        if let platformValue = table["platform"] {
            guard let platform = platformValue.table else { throw ConfigError(file: file, message: "[platform] must be a table") }
            for key in platform.keys.sorted() where !knownPlatform.contains(key) {
                c.warnings.append("\(file): unknown key \"platform.\(key)\" ignored (known: \(knownPlatform.sorted().joined(separator: ", ")))")
            }
            if let v = platform["time_scale"] {
                guard let scale = v.double ?? v.int.map(Double.init), scale > 0 else {
                    throw ConfigError(file: file, message: "platform.time_scale must be a positive number, like 10.0")
                }
                c.timeScale = scale
            }
            c.platformURL = try string(platform, "url", "platform.url")
            c.platformKey = try string(platform, "api_key", "platform.api_key")
            c.platformKeyFile = try string(platform, "api_key_file", "platform.api_key_file")
            c.platformCAFile = try string(platform, "ca_file", "platform.ca_file")
            if let kind = try string(platform, "kind", "platform.kind") {
                guard ["embedded", "infobip"].contains(kind.lowercased()) else {
                    throw ConfigError(file: file, message: "platform.kind \"\(kind)\" is not one of embedded, infobip (a Herald server is set by platform.url)")
                }
                c.platformKind = kind.lowercased()
            }
        }
        if let infobipValue = table["infobip"] {
            guard let infobip = infobipValue.table else { throw ConfigError(file: file, message: "[infobip] must be a table") }
            for key in infobip.keys.sorted() where !knownInfobip.contains(key) {
                c.warnings.append("\(file): unknown key \"infobip.\(key)\" ignored (known: \(knownInfobip.sorted().joined(separator: ", ")))")
            }
            c.infobipBaseURL = try string(infobip, "base_url", "infobip.base_url")
            c.infobipKey = try string(infobip, "api_key", "infobip.api_key")
            c.infobipKeyFile = try string(infobip, "api_key_file", "infobip.api_key_file")
            c.infobipMobileBaseURL = try string(infobip, "mobile_base_url", "infobip.mobile_base_url")
            c.infobipApplicationCode = try string(infobip, "application_code", "infobip.application_code")
            c.infobipLink = try string(infobip, "link", "infobip.link")
            if let sendValue = infobip["send"] {
                guard let send = sendValue.table else { throw ConfigError(file: file, message: "[infobip.send] must be a table") }
                c.infobipSend = try parseInfobipSend(send, file: file, warnings: &c.warnings)
            }
            for (key, range, unit) in infobipNumberRanges {
                guard let v = infobip[key] else { continue }
                guard let number = v.double ?? v.int.map(Double.init), range.contains(number) else {
                    throw ConfigError(file: file, message: "infobip.\(key) must be \(unit) from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
                }
                c.infobipNumbers[key] = number
            }
        }
        if let inboxValue = table["inbox"] {
            guard let inbox = inboxValue.table else { throw ConfigError(file: file, message: "[inbox] must be a table") }
            for key in inbox.keys.sorted() where !knownInbox.contains(key) {
                c.warnings.append("\(file): unknown key \"inbox.\(key)\" ignored (known: \(knownInbox.sorted().joined(separator: ", ")))")
            }
            c.inboxJWTKeyId = try string(inbox, "jwt_key_id", "inbox.jwt_key_id")
            c.inboxJWTSecret = try string(inbox, "jwt_secret", "inbox.jwt_secret")
        }
        if let shareValue = table["share"] {
            guard let share = shareValue.table else { throw ConfigError(file: file, message: "[share] must be a table") }
            for key in share.keys.sorted() where !knownShare.contains(key) {
                c.warnings.append("\(file): unknown key \"share.\(key)\" ignored (known: \(knownShare.sorted().joined(separator: ", ")))")
            }
            c.emailFrom = try string(share, "email_from", "share.email_from")
            c.emailCommand = try string(share, "email_command", "share.email_command")
            c.clipboardCommand = try string(share, "clipboard_command", "share.clipboard_command")
        }
        if let smtpValue = table["smtp"] {
            guard let smtp = smtpValue.table else { throw ConfigError(file: file, message: "[smtp] must be a table") }
            for key in smtp.keys.sorted() where !knownSMTP.contains(key) {
                c.warnings.append("\(file): unknown key \"smtp.\(key)\" ignored (known: \(knownSMTP.sorted().joined(separator: ", ")))")
            }
            var config = SMTPConfig(host: try string(smtp, "host", "smtp.host"))
            if let v = smtp["port"] {
                guard let port = v.int, (1...65535).contains(port) else {
                    throw ConfigError(file: file, message: "smtp.port must be a port number from 1 to 65535")
                }
                config.port = port
            }
            config.username = try string(smtp, "username", "smtp.username")
            config.passwordFile = try string(smtp, "password_file", "smtp.password_file")
            config.caFile = try string(smtp, "ca_file", "smtp.ca_file")
            if let v = smtp["starttls"] {
                guard let on = v.bool else { throw ConfigError(file: file, message: "smtp.starttls must be true or false") }
                config.startTLS = on
            }
            config.from = try string(smtp, "from", "smtp.from")
            if let v = smtp["client_display_names"] {
                guard let on = v.bool else { throw ConfigError(file: file, message: "smtp.client_display_names must be true or false") }
                config.clientDisplayNames = on
            }
            if let v = smtp["reply_to_domains"] {
                let domains = v.array?.compactMap { $0.string?.trimmingCharacters(in: .whitespaces).lowercased() } ?? []
                guard let array = v.array, domains.count == array.count,
                      domains.allSatisfy({ !$0.isEmpty && $0.count <= 253 && !$0.contains("@") && $0.allSatisfy { $0.isASCII && !$0.isWhitespace } }) else {
                    throw ConfigError(file: file, message: "smtp.reply_to_domains must list domains, like [\"example.com\"] ([] for none)")
                }
                config.replyToDomains = domains
            }
            c.smtp = config
        }
        if let inviteValue = table["invite"] {
            guard let invite = inviteValue.table else { throw ConfigError(file: file, message: "[invite] must be a table") }
            for key in invite.keys.sorted() where key != "numbers" {
                c.warnings.append("\(file): unknown key \"invite.\(key)\" ignored (known: numbers)")
            }
            if let numbers = try string(invite, "numbers", "invite.numbers") {
                guard ["one-per-person", "all-mobiles"].contains(numbers) else {
                    throw ConfigError(file: file, message: "invite.numbers \"\(numbers)\" is not one of one-per-person, all-mobiles")
                }
                c.inviteAllMobiles = numbers == "all-mobiles"
            }
        }
        if let sendValue = table["send"] {
            guard let send = sendValue.table else { throw ConfigError(file: file, message: "[send] must be a table") }
            for key in send.keys.sorted() where !["hold_seconds", "stop_words", "quiet_hours", "max_per_day"].contains(key) {
                c.warnings.append("\(file): unknown key \"send.\(key)\" ignored (known: hold_seconds, max_per_day, quiet_hours, stop_words)")
            }
            if let v = send["max_per_day"] {
                guard let number = v.int, (1...10_000_000).contains(number) else {
                    throw ConfigError(file: file, message: "send.max_per_day must be a whole number of invitations from 1 to 10000000")
                }
                c.maxPerDay = number
            }
            if let text = try string(send, "quiet_hours", "send.quiet_hours") {
                do { c.quietHours = try QuietHours(parsing: text) } catch {
                    throw ConfigError(file: file, message: "send.quiet_hours: \(error.description)")
                }
            }
            if let v = send["stop_words"] {
                let words = v.array?.compactMap { $0.string?.trimmingCharacters(in: .whitespaces) } ?? []
                guard let array = v.array, words.count == array.count,
                      words.allSatisfy({ !$0.isEmpty && $0.count <= 32 && $0.allSatisfy { $0.isLetter } }) else {
                    throw ConfigError(file: file, message: "send.stop_words must list words of letters, like [\"ODJAVA\", \"STOPP\"]")
                }
                c.stopWords = Set(words.map { $0.uppercased() })
            }
            if let v = send["hold_seconds"] {
                guard let number = v.double ?? v.int.map(Double.init), holdRange.contains(number) else {
                    throw ConfigError(file: file, message: "send.hold_seconds must be seconds from 0 to 3600")
                }
                c.holdSeconds = number
            }
        }
        if let booksValue = table["books"] {
            (c.books, c.bookAccounts) = try parseBooks(booksValue, file: file, warnings: &c.warnings)
        }
        return c
    }

    /// `~/…` in a path: the user's home ($HOME, as the shell reads it).
    static func expandingHome(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// `[[books]]`: each with a name (letters, digits, `-`, `_`; not used twice), a kind and its folder (`~` is home).
    static func parseBooks(_ value: TOMLValueConvertible, file: String, warnings: inout [String]) throws
        -> ([AddressBook], [String: CardDAVAccount]) {
        guard let array = value.array else {
            throw ConfigError(file: file, message: "books must be written [[books]], one table per address book")
        }
        var books: [AddressBook] = []
        var accounts: [String: CardDAVAccount] = [:]
        for (i, item) in array.enumerated() {
            let at = "books[\(i + 1)]"
            guard let table = item.table else { throw ConfigError(file: file, message: "\(at) must be a table: [[books]] then name = …") }
            for key in table.keys.sorted() where !knownBook.contains(key) {
                warnings.append("\(file): unknown key \"\(at).\(key)\" ignored (known: \(knownBook.sorted().joined(separator: ", ")))")
            }
            guard let name = table["name"]?.string, !name.isEmpty, name.count <= 64,
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ConfigError(file: file, message: "\(at).name must be a word of letters, digits, - or _ (at most 64), like name = \"personal\"")
            }
            guard !books.contains(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw ConfigError(file: file, message: "\(at).name \"\(name)\" is used by an earlier book: each book needs its own name")
            }
            let kind = table["kind"]?.string ?? "vdir"
            guard let parsed = AddressBook.Kind(rawValue: kind) else {
                throw ConfigError(file: file, message: "\(at).kind \"\(kind)\" is not one of vdir, carddav")
            }
            if parsed == .carddav {
                guard let text = table["url"]?.string, let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""),
                      url.host != nil else {
                    throw ConfigError(file: file, message: "\(at) (\(name)) needs url = \"https://…\": its address book collection")
                }
                let passwordFile = table["password_file"]?.string.map { expandingHome($0) }
                let passwordCommand = table["password_command"]?.string
                if passwordFile != nil && passwordCommand != nil {
                    throw ConfigError(file: file, message: "\(at) (\(name)) sets both password_file and password_command: keep one")
                }
                books.append(AddressBook(name: name, kind: .carddav, location: url.absoluteString))
                accounts[name] = CardDAVAccount(url: url, username: table["username"]?.string, passwordFile: passwordFile,
                                                passwordCommand: passwordCommand)
                continue
            }
            guard let path = table["path"]?.string, !path.isEmpty else {
                throw ConfigError(file: file, message: "\(at) (\(name)) needs path = \"…\": the folder of its .vcf files")
            }
            books.append(AddressBook(name: name, kind: parsed, location: expandingHome(path)))
        }
        return (books, accounts)
    }
}

/// A config file that cannot be used; says which file and what to fix.
struct ConfigError: Error, CustomStringConvertible, Equatable {
    let file: String
    let message: String
    var description: String { "\(file): \(message)" }
}
