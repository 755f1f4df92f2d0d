import Foundation
import HeraldTestKit
import Testing

/// `herald serve`'s mailer against SMTP peers that cannot be trusted: replies injected in clear before TLS begins
/// (Fixtures/starttls_injector.py, a man in the middle in front of a server that refuses the message) and a password that
/// would cross the network in clear.
@Suite(.serialized) struct SMTPHostilePeerTests {
    /// A team server whose `[smtp]` section is `smtp` (with a username and password), and Ana's terminal knowing Ivo.
    static func team(smtp: String) throws -> (serving: RunningHerald, ana: PlatformCLI, ivo: Int) {
        let server = try PlatformCLI(timeScale: "50")
        let passwordFile = server.home.appendingPathComponent("smtp.password")
        try "secret\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        let config = server.home.appendingPathComponent("config/herald/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[smtp]\nfrom = \"Team <invite@example.com>\"\nusername = \"herald\"\npassword_file = \"\(passwordFile.path)\"\n\(smtp)\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let (serving, url, senderKey, _) = try server.serve()
        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let file = ana.home.appendingPathComponent("people.vcf")
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Test;Ivo;;;\r\nFN:Ivo Test\r\nEMAIL:ivo@example.org\r\nEND:VCARD\r\n"
            .write(to: file, atomically: true, encoding: .utf8)
        try ana.ok(["contacts", "import", file.path])
        let contacts = try ana.ok(["contacts", "list", "--json"]).object()["contacts"] as? [[String: Any]] ?? []
        let ivo = try #require(contacts.first?["id"] as? Int)
        return (serving, ana, ivo)
    }

    @Test func repliesInjectedBeforeTLSNeverAnswerCommandsSentOverIt() throws {
        let tempDir = try TempDir("smtp-mitm")
        let folder = tempDir.url
        let cert = folder.appendingPathComponent("smtp.pem"), key = folder.appendingPathComponent("smtp.key")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key.path, "-out", cert.path]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let port = try PostgresTestCluster.freePort()
        let injector = Process()
        injector.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        injector.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/starttls_injector.py").path,
                              String(port), cert.path, key.path]
        let out = Pipe()
        injector.standardOutput = out
        injector.standardError = FileHandle.nullDevice
        try injector.run()
        // SIGKILL: a child of the test process starts with SIGTERM blocked.
        defer { kill(injector.processIdentifier, SIGKILL); injector.waitUntilExit() }
        #expect(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).contains("ready"))

        let team = try Self.team(smtp: "host = \"127.0.0.1\"\nport = \(port)\nstarttls = true\nca_file = \"\(cert.path)\"")
        let (_, info) = try ServeEmailTests.email(team.ana, to: team.ivo)
        // The server behind TLS refused the sender: the email is not "sent", and the reason names the injection.
        #expect(info["deliveryStatus"] as? String == "DeliveryImpossible", "\(info)")
        #expect((info["error"] as? String)?.contains("sent more after its 220 to STARTTLS, before TLS began") == true, "\(info)")
        #expect(try team.serving.interrupt() == 0)
    }

    @Test func aPasswordIsNeverSentInClearToAnotherMachine() throws {
        // 192.0.2.1 (TEST-NET-1) is never this machine: Herald refuses before it connects, so no server is needed.
        let team = try Self.team(smtp: "host = \"192.0.2.1\"\nport = 25\nstarttls = false")
        let (_, info) = try ServeEmailTests.email(team.ana, to: team.ivo)
        #expect(info["deliveryStatus"] as? String == "DeliveryImpossible", "\(info)")
        #expect((info["error"] as? String)?.contains("does not send the SMTP password to 192.0.2.1 in clear") == true, "\(info)")
        #expect(try team.serving.interrupt() == 0)
    }
}
