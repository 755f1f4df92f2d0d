import Foundation
import HeraldTestKit
import Testing

/// Clicks in Deliveries: on a Herald server each invitation's own short link counts its openings, and every terminal
/// following the bulk sees them (status, its JSON, Deliveries) as it sees a status change.
@Suite(.serialized) struct ServeClicksTests {
    /// `GET URL` with curl; its HTTP status.
    static func open(_ url: String) throws -> String { try curl(url, writing: "%{http_code}") }

    /// Where a redirect of `url` leads.
    static func redirect(_ url: String) throws -> String { try curl(url, writing: "%{redirect_url}") }

    /// `GET URL` with curl, answering what `--write-out` makes of it.
    static func curl(_ url: String, writing format: String) throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", "/dev/null", "-w", format, url]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        curl.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }


    @Test func linksStartWithThePublicAddressAndLeadToTheOperatorsPage() throws {
        let port = try PostgresTestCluster.freePort()
        let server = try PlatformCLI(timeScale: "200")
        let (serving, url, senderKey, _) = try server.serve(["--public-url", "http://127.0.0.1:\(port)",
                                                             "--download-url", "https://example.com/get-herald"],
                                                            listen: "127.0.0.1:\(port)")
        #expect(!serving.stderr.contains("herald.invalid"), "\(serving.stderr)")
        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let shared = try ana.ok(["share", "link", "--json"])
        let link = try #require(try shared.object()["url"] as? String)
        #expect(link.hasPrefix("http://127.0.0.1:\(port)/r/") && !shared.stderr.contains("leads nowhere"), "\(shared)")
        #expect(try Self.redirect(link) == "https://example.com/get-herald")
        #expect(try serving.interrupt() == 0)
    }

    @Test func aServerWithoutItsAddressesSaysItsLinksLeadNowhere() throws {
        let server = try PlatformCLI(timeScale: "200")
        let (serving, url, senderKey, _) = try server.serve()
        #expect(serving.stderr.contains("links start with https://herald.invalid/r/ and lead nowhere: give --public-url"),
                "\(serving.stderr)")
        #expect(serving.stderr.contains("an opened link leads to https://herald.invalid/download, nowhere: give --download-url"))
        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let shared = try ana.ok(["share", "link"])
        #expect(shared.stdout.contains("https://herald.invalid/r/") && shared.stderr.contains("leads nowhere"), "\(shared)")
        #expect(try serving.interrupt() == 0)

        // Real phones would get links to nowhere: such a server does not start.
        let real = try server.run(["serve", "--listen", "127.0.0.1:0", "--carrier", "infobip", "--public-url", "https://invite.example.com"])
        #expect(real.status != 0 && real.stderr.contains("give --download-url, the page they land on"), "\(real)")
    }

    @Test func openingAnInvitationsLinkCountsForItAndEveryTerminalSeesIt() throws {
        let server = try PlatformCLI(timeScale: "200")
        let (serving, url, senderKey, viewerKey) = try server.serve()

        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let bulk = try #require(try ana.ok(["send", "--to", mobile(61), mobile(62), "--json"]).object()["bulkId"] as? String)
        let infos = try #require(try ana.ok(["status", bulk, "--json"]).object()["deliveryInfo"] as? [[String: Any]])
        let texts = infos.compactMap { $0["text"] as? String }
        #expect(texts.count == 2, "\(infos)")
        #expect(infos.allSatisfy { $0["clicks"] as? Int == 0 })
        // The first recipient's link, opened twice on the server.
        let first = try #require(texts.first)
        let code = try #require(first.range(of: "/r/").map { String(first[$0.upperBound...].prefix { $0.isLetter || $0.isNumber }) })
        for _ in 0..<2 { #expect(try Self.open("\(url)/r/\(code)").hasPrefix("30"), "a short link redirects") }
        #expect(try Self.open("\(url)/r/NoSuchCode1") == "404")

        func clicks(_ cli: PlatformCLI) throws -> [Int] {
            let infos = try cli.ok(["status", bulk, "--json"]).object()["deliveryInfo"] as? [[String: Any]] ?? []
            return infos.map { $0["clicks"] as? Int ?? -1 }
        }
        let deadline = Date().addingTimeInterval(20)
        while try clicks(ana) != [2, 0], Date() < deadline { Thread.sleep(forTimeInterval: 0.3) }
        #expect(try clicks(ana) == [2, 0])
        let table = try ana.ok(["status", bulk])
        #expect(table.stdout.contains("CLICKS") && table.stdout.contains("1 opened their link"), "\(table)")
        // A colleague's terminal (a viewer key) sees the same.
        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": viewerKey]
        #expect(try clicks(support) == [2, 0])
        #expect(try serving.interrupt() == 0)
    }
}
