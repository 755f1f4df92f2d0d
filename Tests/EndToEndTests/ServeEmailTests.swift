import Foundation
import HeraldTestKit
import Testing

/// A real SMTP server for a test (aiosmtpd, Fixtures/smtp_server.py) on a free loopback port, with the mailbox file it
/// appends each accepted message to; stopped when released.
final class TestSMTPServer {
    let port: Int
    let mailbox: URL
    private let process = Process()

    /// With `tls`, a certificate for 127.0.0.1 (openssl) and STARTTLS required; `certificate` is then its PEM.
    init(folder: URL, tls: Bool = false) throws {
        port = try PostgresTestCluster.freePort()
        mailbox = folder.appendingPathComponent("smtp-mailbox-\(port)")
        var arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/smtp_server.py").path,
                         String(port), mailbox.path]
        if tls {
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                                 "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder.appendingPathComponent("smtp.key").path,
                                 "-out", folder.appendingPathComponent("smtp.pem").path]
            openssl.standardOutput = FileHandle.nullDevice
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            arguments += [folder.appendingPathComponent("smtp.pem").path, folder.appendingPathComponent("smtp.key").path]
        }
        // Debian's python3 itself (make test installs python3-aiosmtpd for it).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard said.contains("ready") else { throw CLIError("the SMTP server did not start: \(said)") }
    }

    /// The certificate of a TLS server.
    static func certificate(in folder: URL) -> URL { folder.appendingPathComponent("smtp.pem") }

    deinit {
        // SIGKILL: a child of the test process starts with SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The messages it accepted, in order.
    var messages: [String] {
        ((try? String(contentsOf: mailbox, encoding: .utf8)) ?? "").components(separatedBy: "--- end of message ---\n").dropLast()
    }
}

/// Email invitations on a Herald server: the server sends them over its `[smtp]` server, at most once, and every
/// terminal of the team sees their state; an answer lost after the message was written is uncertain and sent again
/// only with --resend; a refused login is a failure with the server's words.
@Suite(.serialized) struct ServeEmailTests {
    /// A server whose `[smtp]` is `smtp`, with a sender terminal that knows Ivo (ivo@…) and Dora (drop@…, whose
    /// messages the SMTP server takes and then cuts the connection).
    static func team(_ smtp: TestSMTPServer, password: String = "secret", extra: String = "")
        throws -> (server: PlatformCLI, serving: RunningHerald, ana: PlatformCLI, viewerKey: String, url: String, ids: [String: Int]) {
        let server = try PlatformCLI(timeScale: "50")
        let passwordFile = server.home.appendingPathComponent("smtp.password")
        try (password + "\n").write(to: passwordFile, atomically: true, encoding: .utf8)
        let config = server.home.appendingPathComponent("config/herald/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try """
            [smtp]
            host = "127.0.0.1"
            port = \(smtp.port)
            username = "herald"
            password_file = "\(passwordFile.path)"
            from = "Team <invite@example.com>"
            \(extra.isEmpty ? "starttls = false" : extra)

            """.write(to: config, atomically: true, encoding: .utf8)
        let (serving, url, senderKey, viewerKey) = try server.serve()
        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let vcf = [("Ivo", "ivo@example.org"), ("Dora", "drop@example.org")].map { name, email in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Test;\(name);;;\r\nFN:\(name) Test\r\nEMAIL:\(email)\r\nEND:VCARD\r\n"
        }.joined()
        let file = ana.home.appendingPathComponent("people.vcf")
        try vcf.write(to: file, atomically: true, encoding: .utf8)
        try ana.ok(["contacts", "import", file.path])
        var ids: [String: Int] = [:]
        for c in try ana.ok(["contacts", "list", "--json"]).object()["contacts"] as? [[String: Any]] ?? [] {
            if let name = c["name"] as? String, let id = c["id"] as? Int { ids[name] = id }
        }
        return (server, serving, ana, viewerKey, url, ids)
    }

    /// Sends one email invitation from Ana's terminal and waits until the server says what became of it.
    static func email(_ ana: PlatformCLI, to id: Int, _ more: [String] = []) throws -> (bulk: String, info: [String: Any]) {
        let sent = try ana.ok(["share", "email", "--to", String(id), "--from", "Ana Horvat <ana@example.com>", "--json"] + more).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let status = try ana.ok(["status", bulk, "--wait", "--json"], timeout: 90).object()
        return (bulk, try #require((status["deliveryInfo"] as? [[String: Any]])?.first))
    }

    @Test func theServerSendsTheTeamsEmailOverSMTPOnceAndEveryoneSeesIt() throws {
        let tempDir = try TempDir("smtp")
        let folder = tempDir.url
        let smtp = try TestSMTPServer(folder: folder)
        let team = try Self.team(smtp)
        let ivo = try #require(team.ids["Ivo Test"]), dora = try #require(team.ids["Dora Test"])

        let (bulk, info) = try Self.email(team.ana, to: ivo)
        #expect(info["deliveryStatus"] as? String == "DeliveredToNetwork", "\(info)")
        #expect(smtp.messages.count == 1)
        let message = try #require(smtp.messages.first)
        // The team's address in the header and the envelope; Ana's name before it and her address for the replies.
        #expect(message.contains("X-Envelope-From: <invite@example.com>"), "\(message)")
        #expect(message.contains("From: Ana Horvat <invite@example.com>") && message.contains("To: ivo@example.org"), "\(message)")
        #expect(message.contains("Reply-To: Ana Horvat <ana@example.com>"), "\(message)")
        #expect(message.contains("Message-ID: <\(info["messageId"] as? String ?? "?")@example.com>"), "\(message)")
        // A sender key cannot make the team's mail account send as someone else.
        let forged = try team.ana.run(["share", "email", "--to", String(ivo), "--from", "Chief Executive <ceo@elsewhere.example>",
                                       "--resend", "--now"])
        #expect(forged.status != 0, "\(forged)")
        #expect((forged.stdout + forged.stderr).contains("ceo@elsewhere.example cannot be a Reply-To of this server (domains allowed: example.com)"),
                "\(forged)")
        #expect(smtp.messages.count == 1)
        // A colleague's terminal sees the email and its state.
        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": team.url, "HERALD_PLATFORM_KEY": team.viewerKey]
        let seen = try support.ok(["status", bulk])
        #expect(seen.stdout.contains("ivo@example.org") && seen.stdout.contains("sent"), "\(seen)")

        // The server took Dora's message and cut the line before answering: uncertain, and not sent again on its own.
        let (_, cut) = try Self.email(team.ana, to: dora)
        #expect(cut["deliveryStatus"] as? String == "DeliveryUncertain", "\(cut)")
        #expect((cut["error"] as? String)?.contains("it may have been sent") == true, "\(cut)")
        #expect(smtp.messages.count == 2)
        let again = try team.ana.run(["share", "email", "--to", String(dora), "--from", "ana@example.com", "--json"])
        #expect(again.status != 0 && again.stdout.contains("already invited (uncertain)"), "\(again)")
        Thread.sleep(forTimeInterval: 1)
        #expect(smtp.messages.count == 2)
        _ = try Self.email(team.ana, to: dora, ["--resend"])
        #expect(smtp.messages.count == 3, "--resend sends it again, as asked")
        #expect(try team.serving.interrupt() == 0)
    }

    @Test func aRefusedLoginIsAFailureWithTheServersWordsAndStartTLSIsRequiredWhenAsked() throws {
        let tempDir = try TempDir("smtp")
        let folder = tempDir.url
        let smtp = try TestSMTPServer(folder: folder)
        /// A team server configured so, whose email to Ivo fails with `reason` and leaves the mailbox empty.
        func refused(password: String = "secret", extra: String = "", saying reason: String) throws {
            let team = try Self.team(smtp, password: password, extra: extra)
            let (_, info) = try Self.email(team.ana, to: try #require(team.ids["Ivo Test"]))
            #expect(info["deliveryStatus"] as? String == "DeliveryImpossible", "\(info)")
            #expect((info["error"] as? String)?.contains(reason) == true, "\(info)")
            #expect(smtp.messages.isEmpty)
            #expect(try team.serving.interrupt() == 0)
        }
        try refused(password: "not-the-secret", saying: "SMTP 535")
        // This server offers no STARTTLS: a server told to use it sends nothing in clear.
        try refused(extra: "starttls = true", saying: "does not offer STARTTLS")

        // With STARTTLS on a server that requires it (its certificate trusted through ca_file), the message goes.
        let tls = try TestSMTPServer(folder: folder, tls: true)
        let secure = try Self.team(tls, extra: "starttls = true\nca_file = \"\(TestSMTPServer.certificate(in: folder).path)\"")
        let (_, sent) = try Self.email(secure.ana, to: try #require(secure.ids["Ivo Test"]))
        #expect(sent["deliveryStatus"] as? String == "DeliveredToNetwork", "\(sent)")
        #expect(tls.messages.count == 1)
        #expect(try secure.serving.interrupt() == 0)
    }
}
