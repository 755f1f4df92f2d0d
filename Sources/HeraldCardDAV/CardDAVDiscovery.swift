import AsyncHTTPClient
import Foundation
import HeraldCore
import NIOCore
import NIOHTTP1

/// Finds the address books of an account from a server's URL or bare host, as vdirsyncer's `discover` does: the URL
/// itself when it is an address book (PROPFIND Depth 0, `resourcetype`); else `/.well-known/carddav` (RFC 6764), else
/// the URL as the context path, for `current-user-principal` (RFC 5397); on the principal `addressbook-home-set`
/// (RFC 6352); on each home set a Depth 1 PROPFIND listing the collections whose resource type is `addressbook`.
///
/// Bounded: redirects are followed by hand, at most 5 per request, only to the same origin (or a host explicitly
/// allowed) and never from https down to http off this machine; each request has a time limit and a size limit, and
/// one discovery makes at most `maxRequests`. Every request is recorded, so a failure says what was tried.
public struct CardDAVDiscovery: Sendable {
    public let url: URL
    let authorization: String?
    /// Hosts besides the URL's own that redirects and hrefs may lead to (with the credentials).
    public let allowedHosts: Set<String>
    let timeout: TimeInterval
    let maxBody: Int
    let maxRequests: Int
    static let maxRedirects = 5

    /// A client that hands redirects back instead of following them (each hop is checked and recorded here).
    static let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                   configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    public init(url: URL, username: String?, password: String?, allowedHosts: Set<String> = [], timeout: TimeInterval = 20,
                maxBody: Int = 4 << 20, maxRequests: Int = 16) {
        // `https://host` is the server's root, `/`: asked so, a redirect back to it is known as the same URL.
        self.url = url.path.isEmpty ? URL(string: url.absoluteString + "/") ?? url : url
        authorization = username.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.timeout = timeout
        self.maxBody = maxBody
        self.maxRequests = maxRequests
    }

    /// The URL of `text`: a URL as given, or a bare host (`dav.example.com`, `dav.example.com:8443/dav`) as https.
    /// Nil when it is neither, or another scheme than http(s).
    public static func url(from text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace }) else { return nil }
        let full = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let url = URL(string: full), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              let host = url.host, !host.isEmpty else { return nil }
        return url
    }

    /// Where a PROPFIND ended (after its redirects) and its answer.
    struct Found {
        var url: URL
        var status: MultiStatus

        /// The response about `url` itself (the first when none names it).
        var own: MultiStatus.Response? {
            status.responses.first { CardDAVDiscovery.samePath($0.href, url) } ?? status.responses.first
        }
    }

    /// The requests of one discovery: what was tried, and the answers already had (a redirect may lead back to a URL
    /// asked before).
    struct Run {
        var attempts: [DiscoveryAttempt] = []
        var answers: [String: Found?] = [:]
        var requests = 0
    }

    public func discover() async throws(DiscoveryFailure) -> DiscoveryResult {
        var run = Run()
        var homes: [URL] = []
        var principal: URL?
        var contextPrincipal: URL?
        // 1. The URL itself: an address book, a principal (it has a home set), or a context path (it names a principal).
        if let found = await propfind(url, depth: 0, asked: "resourcetype, current-user-principal", run: &run), let own = found.own {
            if own.isAddressBook {
                return DiscoveryResult(books: [book(own, at: found.url)].compactMap { $0 }, attempts: run.attempts)
            }
            homes = own.homeSets.compactMap { reachable($0, from: found.url, run: &run) }
            contextPrincipal = own.principal.flatMap { reachable($0, from: found.url, run: &run) }
        }
        // 2. The well-known URI of the origin (RFC 6764 § 5), redirecting to the context path.
        if homes.isEmpty, !url.path.hasSuffix("/.well-known/carddav"), let origin = Self.origin(of: url),
           let wellKnown = URL(string: origin + "/.well-known/carddav"),
           let found = await propfind(wellKnown, depth: 0, asked: "current-user-principal", run: &run), let own = found.own {
            if own.isAddressBook {
                return DiscoveryResult(books: [book(own, at: found.url)].compactMap { $0 }, attempts: run.attempts)
            }
            homes = own.homeSets.compactMap { reachable($0, from: found.url, run: &run) }
            principal = own.principal.flatMap { reachable($0, from: found.url, run: &run) }
        }
        // 3. The principal's address-book home set.
        if homes.isEmpty, let principal = principal ?? contextPrincipal,
           let found = await propfind(principal, depth: 0, asked: "addressbook-home-set", run: &run), let own = found.own {
            homes = own.homeSets.compactMap { reachable($0, from: found.url, run: &run) }
            if homes.isEmpty { note("no addressbook-home-set", run: &run) }
        }
        guard !homes.isEmpty else {
            let silent = run.attempts.allSatisfy { $0.status == nil }
            throw DiscoveryFailure(reason: "no address book found from \(url.absoluteString): "
                                       + (silent ? "the server did not answer" : "no principal with an address-book home set"),
                                   attempts: run.attempts)
        }
        // 4. The address books in each home set.
        var books: [DiscoveredBook] = []
        for home in homes.prefix(4) {
            guard let found = await propfind(home, depth: 1, asked: "Depth 1: the address books", run: &run) else { continue }
            let inHome = found.status.responses.filter(\.isAddressBook).compactMap { book($0, at: found.url) }
            note(inHome.isEmpty ? "no address books" : counted(inHome.count, "address book"), run: &run)
            for book in inHome where !books.contains(where: { $0.url == book.url }) { books.append(book) }
        }
        guard !books.isEmpty else {
            throw DiscoveryFailure(reason: "no address book found from \(url.absoluteString): the home set lists none (make one on the server first)",
                                   attempts: run.attempts)
        }
        return DiscoveryResult(books: books, attempts: run.attempts)
    }

    /// Adds `what` to the outcome of the last attempt.
    private func note(_ what: String, run: inout Run) {
        guard !run.attempts.isEmpty else { return }
        run.attempts[run.attempts.count - 1].outcome += ", \(what)"
    }

    private func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The book of a response listed at `base`, nil when its href leads off the allowed hosts.
    private func book(_ response: MultiStatus.Response, at base: URL) -> DiscoveredBook? {
        guard var url = Self.resolve(response.href, against: base), isAllowed(url, from: base) else { return nil }
        if !url.hasDirectoryPath, let slashed = URL(string: url.absoluteString + "/") { url = slashed }
        let name = url.pathComponents.last.flatMap { $0 == "/" ? nil : $0 } ?? url.host ?? ""
        func text(_ s: String?) -> String? {
            guard let s = s?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
            return String(s.prefix(500))
        }
        return DiscoveredBook(url: url, name: name, displayName: text(response.displayName), description: text(response.addressBookDescription),
                              ctag: text(response.ctag), syncToken: text(response.syncToken))
    }

    /// The URL of an href the server gave at `base`, when it may be followed (else the refusal is noted).
    private func reachable(_ href: String, from base: URL, run: inout Run) -> URL? {
        guard let url = Self.resolve(href, against: base) else {
            note("\(String(href.prefix(200))) is no URL", run: &run)
            return nil
        }
        guard isAllowed(url, from: base) else {
            note("\(url.absoluteString) is not followed: \(refusal(url))", run: &run)
            return nil
        }
        return url
    }

    private func refusal(_ url: URL) -> String {
        if url.scheme?.lowercased() == "http", !(url.host.map(LoopbackHost.contains) ?? false) { return "it would send the password in clear (http://)" }
        return "it is on another host than \(self.url.host ?? ""); allow it with --allow-host \(url.host ?? "")"
    }

    /// Whether the credentials may go to `target`, reached from `base`: the same origin as the URL discovery started
    /// from (or an allowed host), and never from https down to http unless it is this machine.
    func isAllowed(_ target: URL, from base: URL) -> Bool {
        guard let host = target.host?.lowercased(), let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return false }
        if scheme == "http", base.scheme?.lowercased() == "https", !LoopbackHost.contains(host) { return false }
        if Self.origin(of: target) == Self.origin(of: url) { return true }
        if scheme == "http", !LoopbackHost.contains(host) { return false }
        return allowedHosts.contains(host)
    }

    /// `scheme://host[:port]` of `url`, the port left out when it is the scheme's own.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let standard = scheme == "https" ? 443 : 80
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(hostPart)" + (url.port.map { $0 == standard ? "" : ":\($0)" } ?? "")
    }

    /// An href (a path, or an absolute URL) made absolute against the URL it came from.
    static func resolve(_ href: String, against base: URL) -> URL? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let encoded = URL(string: trimmed) != nil ? trimmed
            : trimmed.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: ":%")))
        return encoded.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    /// Whether an href names the path of `url` (a trailing `/` aside).
    static func samePath(_ href: String, _ url: URL) -> Bool {
        guard let resolved = resolve(href, against: url) else { return false }
        func trimmed(_ p: String) -> String { p.hasSuffix("/") ? String(p.dropLast()) : p }
        return trimmed(resolved.path) == trimmed(url.path)
    }

    static let properties = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav" xmlns:cs="http://calendarserver.org/ns/">\
        <d:prop><d:resourcetype/><d:displayname/><d:current-user-principal/><c:addressbook-home-set/>\
        <c:addressbook-description/><cs:getctag/><d:sync-token/></d:prop></d:propfind>
        """

    /// A PROPFIND of the discovery properties at `start`, following its redirects; nil (the reason recorded) unless it
    /// ends in a readable 207.
    func propfind(_ start: URL, depth: Int, asked: String, run: inout Run) async -> Found? {
        var target = start
        for hop in 0...Self.maxRedirects {
            let key = "\(depth) \(target.absoluteString)"
            if let known = run.answers[key] {
                if hop > 0 { note("answered above", run: &run) }
                return known
            }
            guard run.requests < maxRequests else {
                run.attempts.append(DiscoveryAttempt(method: "PROPFIND", url: target.absoluteString, asked: asked, status: nil,
                                                     outcome: "not asked: discovery stops after \(maxRequests) requests"))
                return nil
            }
            run.requests += 1
            var request = HTTPClientRequest(url: target.absoluteString)
            request.method = NIOHTTP1.HTTPMethod(rawValue: "PROPFIND")
            if let authorization { request.headers.add(name: "Authorization", value: authorization) }
            request.headers.add(name: "User-Agent", value: "Herald")
            request.headers.add(name: "Depth", value: String(depth))
            request.headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
            request.body = .bytes(ByteBuffer(string: Self.properties))
            var attempt = DiscoveryAttempt(method: "PROPFIND", url: target.absoluteString, asked: asked, status: nil, outcome: "")
            defer { run.attempts.append(attempt) }
            let status: Int, headers: HTTPHeaders, body: Data
            do {
                let response = try await Self.client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
                status = Int(response.status.code)
                headers = response.headers
                body = Data(try await response.body.collect(upTo: maxBody).readableBytesView)
            } catch is NIOTooManyBytesError {
                attempt.outcome = "an answer larger than \(maxBody / 1024 / 1024) MiB: not read"
                return nil
            } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
                attempt.outcome = "no answer within \(Int(timeout)) s"
                return nil
            } catch {
                attempt.outcome = "no answer: \(Self.why(error))"
                return nil
            }
            attempt.status = status
            switch status {
            case 207:
                do {
                    let found = Found(url: target, status: try MultiStatus.parse(body))
                    attempt.outcome = "207" + Self.summary(found, depth: depth)
                    run.answers[key] = found
                    return found
                } catch {
                    switch error {
                    case .hostile(let why), .malformed(let why): attempt.outcome = "207, but the answer cannot be used: \(why)"
                    }
                    run.answers[key] = .some(nil)
                    return nil
                }
            case 301, 302, 303, 307, 308:
                guard let location = headers.first(name: "Location"), let next = Self.resolve(location, against: target) else {
                    attempt.outcome = "\(status) without a Location"
                    return nil
                }
                guard isAllowed(next, from: target) else {
                    attempt.outcome = "\(status) → \(next.absoluteString), not followed: \(refusal(next))"
                    return nil
                }
                attempt.outcome = "\(status) → \(next.absoluteString)" + (hop == Self.maxRedirects ? ", not followed: more than \(Self.maxRedirects) redirects" : "")
                target = next
            default:
                attempt.outcome = Self.meaning(status)
                run.answers[key] = .some(nil)
                return nil
            }
        }
        return nil
    }

    /// Why a request got no answer, in a few words.
    static func why(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("handshakeFailed") || text.contains("SSL") { return "the TLS handshake failed (is the server https?)" }
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return "connection refused (nothing listens there)"
        }
        if text.contains("NXDOMAIN") || text.contains("lookup") || text.contains("DNS") { return "the host name is not known" }
        return String(text.prefix(200))
    }

    /// What a 207 said, for the record.
    static func summary(_ found: Found, depth: Int) -> String {
        guard depth == 0, let own = found.own else { return "" }
        if own.isAddressBook { return ": an address book" }
        if !own.homeSets.isEmpty { return ": home set \(own.homeSets.joined(separator: ", "))" }
        if let principal = own.principal { return ": principal \(principal)" }
        return ": no current-user-principal"
    }

    /// A status's meaning for the person reading what was tried.
    static func meaning(_ status: Int) -> String {
        switch status {
        case 401: return "401 (check the username and password)"
        case 403: return "403 (this account may not read it)"
        case 404: return "404 (nothing there)"
        case 405, 501: return "\(status) (no WebDAV here)"
        case 500...: return "\(status) (the server failed)"
        default: return "\(status)"
        }
    }
}

extension CardDAVDiscovery {
    /// What the URL is, by one PROPFIND Depth 0.
    public enum Probe: Sendable, Equatable {
        case addressBook
        /// The server says it is something else (a principal, the server's root).
        case notAddressBook
        /// No readable answer or no resource type: the sync's own requests say what is wrong.
        case unknown
    }

    public func probe() async -> Probe {
        var run = Run()
        guard let found = await propfind(url, depth: 0, asked: "resourcetype", run: &run), let own = found.own,
              own.resourceTypes != nil else { return .unknown }
        return own.isAddressBook ? .addressBook : .notAddressBook
    }
}
