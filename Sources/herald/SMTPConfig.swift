import Foundation
import HeraldCore
import HeraldEngine
import HeraldSMTP

/// `[smtp]` of config.toml: the mail server a Herald server sends the team's email invitations through.
struct SMTPConfig: Sendable, Equatable {
    /// Required when the table is there (`herald serve` says so); nil lets every other command read the file.
    var host: String?
    var port = 587
    var username: String?
    /// A file holding the password alone (its trailing newline dropped).
    var passwordFile: String?
    var startTLS = true
    /// PEM certificates trusted for the mail server instead of the system's.
    var caFile: String?
    /// The server's mail identity: every email leaves from this address ("Team <invite@example.com>"). Required.
    var from: String?
    /// Whether a client's own name may stand before that address.
    var clientDisplayNames = true
    /// Domains whose addresses a client may give as Reply-To; nil: the domain of `from`.
    var replyToDomains: [String]?

    /// The identity every email of the server leaves with.
    func identity() throws -> MailIdentity {
        guard let from, !from.isEmpty else {
            throw Output.failure("""
                smtp.from is required: the address the team's email leaves from, like from = "Team <invite@example.com>" \
                (clients may put their name before it and their address in Reply-To; see smtp.reply_to_domains)
                """)
        }
        do {
            return MailIdentity(from: try EmailAddress(mailbox: from, field: "smtp.from"), clientDisplayNames: clientDisplayNames,
                                replyToDomains: replyToDomains)
        } catch {
            throw Output.failure("smtp.from: \(error)")
        }
    }

    /// The mailer's settings, the password read from its file.
    func settings() throws -> SMTPSettings {
        guard let host, !host.isEmpty else {
            throw Output.failure("smtp.host is required: the mail server's name, like host = \"smtp.example.com\"")
        }
        var password: String?
        if let passwordFile {
            let path = (passwordFile as NSString).expandingTildeInPath
            do { password = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .newlines) } catch {
                throw Output.failure("cannot read smtp.password_file \(Output.safe(path)): \(error.localizedDescription)")
            }
        }
        if username != nil, password == nil {
            throw Output.failure("smtp.username is set without smtp.password_file: name the file that holds the password")
        }
        return SMTPSettings(host: host, port: port, username: username, password: password, startTLS: startTLS,
                            trustRootsFile: caFile.map { ($0 as NSString).expandingTildeInPath })
    }
}
