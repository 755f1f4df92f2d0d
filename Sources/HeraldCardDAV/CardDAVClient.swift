import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One CardDAV address book collection over HTTP(S), with Basic authentication. Cards are named by their file name
/// inside the collection (`ana.vcf`); an href the server gives outside the collection is never followed. Every answer
/// is bounded in size and time.
public struct CardDAVClient: Sendable {
    /// The collection, its path ending in `/`.
    public let collection: URL
    let authorization: String?
    let book: String
    /// How long a request of one card may take.
    let timeout: TimeInterval
    /// How long a listing may take: a server lists a large book slowly the first time (Radicale reads every card of
    /// 10,000 in about 35 s before its cache is built).
    let listTimeout: TimeInterval
    let maxBody: Int
    let client: HTTPClient

    public init(book: String, collection: URL, username: String?, password: String?, timeout: TimeInterval = 30,
                listTimeout: TimeInterval = 300, maxBody: Int = 32 << 20, client: HTTPClient = .shared) {
        var url = collection.absoluteString
        if !url.hasSuffix("/") { url += "/" }
        self.collection = URL(string: url) ?? collection
        if let username {
            authorization = "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
        } else {
            authorization = nil
        }
        self.book = book
        self.timeout = timeout
        self.listTimeout = listTimeout
        self.maxBody = maxBody
        self.client = client
    }

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
    }

    /// One request; a status the caller does not expect becomes a `CardDAVError` naming the book.
    func send(_ method: String, _ url: URL, headers: [(String, String)] = [], body: Data? = nil,
              expect: Set<Int>) async throws(CardDAVError) -> Answer {
        let timeout = ["REPORT", "PROPFIND"].contains(method) ? listTimeout : self.timeout
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = NIOHTTP1.HTTPMethod(rawValue: method)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.headers.add(name: "User-Agent", value: "Herald")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let answer: Answer
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            let bytes = try await response.body.collect(upTo: maxBody)
            answer = Answer(status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
        } catch is NIOTooManyBytesError {
            throw .tooLarge(book: book, limit: maxBody)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .unreachable(book: book, url: url.absoluteString, why: "no answer within \(Int(timeout)) s")
        } catch {
            throw .unreachable(book: book, url: url.absoluteString, why: "\(error)")
        }
        guard expect.contains(answer.status) else { throw CardDAVError.status(book: book, url: url.absoluteString, answer.status) }
        return answer
    }

    /// The URL of card `name`.
    func url(of name: String) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return collection.appendingPathComponent(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name, isDirectory: false)
    }

    /// The card name of an href the server gave, nil when it is not a card directly inside the collection.
    func name(of href: String) -> String? {
        let path: String
        if let url = URL(string: href), url.scheme != nil {
            guard url.host == collection.host else { return nil }
            path = url.path
        } else {
            path = href.removingPercentEncoding ?? href
        }
        let base = collection.path.hasSuffix("/") ? collection.path : collection.path + "/"
        guard path.hasPrefix(base) else { return nil }
        let name = String(path.dropFirst(base.count))
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        return name
    }

    /// Whether an href is the collection itself (which a PROPFIND lists first).
    func isCollection(_ href: String) -> Bool {
        let path = URL(string: href).flatMap { $0.scheme == nil ? nil : $0.path } ?? (href.removingPercentEncoding ?? href)
        func trimmed(_ p: String) -> Substring { p.hasSuffix("/") ? p.dropLast() : Substring(p) }
        return trimmed(path) == trimmed(collection.path)
    }

    private func multistatus(_ answer: Answer) throws(CardDAVError) -> MultiStatus {
        do { return try MultiStatus.parse(answer.body) } catch {
            switch error {
            case .hostile(let why), .malformed(let why): throw .badAnswer(book: book, why: why)
            }
        }
    }

    /// What a `sync-collection` report said: the cards changed (name, etag) and removed since `token`, and the new
    /// token; `nil` when the server does not take the token (or does not do sync-collection): read everything then.
    public func changes(since token: String?, outside: inout [String]) async throws(CardDAVError)
        -> (changed: [(String, String)], removed: [String], token: String?)? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(Self.escape(token ?? ""))</d:sync-token>\
            <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
            """
        let answer: Answer
        do {
            answer = try await send("REPORT", collection, headers: [("Content-Type", "application/xml; charset=utf-8"), ("Depth", "1")],
                                    body: Data(body.utf8), expect: [207])
        } catch {
            // 403 with DAV:valid-sync-token (an old token), 400/405/501 (no sync-collection here): read the collection.
            if case .status(_, _, let code) = error, [400, 403, 405, 409, 415, 501].contains(code) { return nil }
            throw error
        }
        let status = try multistatus(answer)
        var changed: [(String, String)] = [], removed: [String] = []
        for response in status.responses {
            guard let name = name(of: response.href) else {
                if !isCollection(response.href) { outside.append(response.href) }
                continue
            }
            if response.status == 404 { removed.append(name) } else if let etag = response.etag { changed.append((name, etag)) }
        }
        return (changed, removed, status.syncToken)
    }

    /// Every card of the collection with its etag (PROPFIND, depth 1).
    public func etags(outside: inout [String]) async throws(CardDAVError) -> [String: String] {
        let body = #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>"#
        let answer = try await send("PROPFIND", collection, headers: [("Content-Type", "application/xml; charset=utf-8"), ("Depth", "1")],
                                    body: Data(body.utf8), expect: [207])
        var etags: [String: String] = [:]
        for response in try multistatus(answer).responses where response.status == 200 {
            guard let name = name(of: response.href) else {
                if !isCollection(response.href) { outside.append(response.href) }
                continue
            }
            if let etag = response.etag { etags[name] = etag }
        }
        return etags
    }

    /// The cards `names` with their etags (`addressbook-multiget`); a card the server no longer has is left out.
    func cards(_ names: [String]) async throws(CardDAVError) -> [(name: String, etag: String, card: Data)] {
        guard !names.isEmpty else { return [] }
        let hrefs = names.map { "<d:href>\(Self.escape(url(of: $0).path))</d:href>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:addressbook-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav">\
            <d:prop><d:getetag/><c:address-data/></d:prop>\(hrefs)</c:addressbook-multiget>
            """
        let answer = try await send("REPORT", collection, headers: [("Content-Type", "application/xml; charset=utf-8"), ("Depth", "1")],
                                    body: Data(body.utf8), expect: [207])
        return try multistatus(answer).responses.compactMap { response in
            guard response.status == 200, let name = name(of: response.href), let card = response.card else { return nil }
            return (name, response.etag ?? "", Data(card.utf8))
        }
    }

    enum Put { case stored(etag: String?), preconditionFailed }

    /// Stores card `name`: over the version `ifMatch`, or only where there is none (`ifMatch` nil).
    func put(_ name: String, card: Data, ifMatch: String?) async throws(CardDAVError) -> Put {
        let condition = ifMatch.map { ("If-Match", $0) } ?? ("If-None-Match", "*")
        let answer = try await send("PUT", url(of: name), headers: [("Content-Type", "text/vcard; charset=utf-8"), condition],
                                    body: card, expect: [200, 201, 204, 412])
        if answer.status == 412 { return .preconditionFailed }
        return .stored(etag: answer.headers.first(name: "ETag"))
    }

    enum Delete { case deleted, gone, preconditionFailed }

    /// Deletes card `name` if it is still the version `ifMatch`.
    func delete(_ name: String, ifMatch: String) async throws(CardDAVError) -> Delete {
        let headers = ifMatch.isEmpty ? [] : [("If-Match", ifMatch)]
        let answer = try await send("DELETE", url(of: name), headers: headers, expect: [200, 204, 404, 410, 412])
        switch answer.status {
        case 412: return .preconditionFailed
        case 404, 410: return .gone
        default: return .deleted
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// A CardDAV book that could not be synced, naming the book and what to do.
public enum CardDAVError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreachable(book: String, url: String, why: String)
    case status(book: String, url: String, Int)
    case tooLarge(book: String, limit: Int)
    case badAnswer(book: String, why: String)
    case password(book: String, why: String)
    /// The book's url is not an address book and discovery did not settle on one.
    case discovery(book: String, why: String)

    public var description: String {
        switch self {
        case .unreachable(let book, let url, let why): return "book \(book): cannot reach \(url): \(why); nothing was lost here"
        case .status(let book, let url, let code):
            let meaning: String
            switch code {
            case 401: meaning = "the server refused the username or password (401): check username and password_file"
            case 403: meaning = "the server does not let this account do that (403)"
            case 404: meaning = "there is no address book at \(url) (404): check url in [[books]]"
            case 507: meaning = "the server is out of storage (507)"
            case 500...: meaning = "the server failed (\(code))"
            default: meaning = "the server answered \(code)"
            }
            return "book \(book): \(meaning); nothing was lost here, and the next sync tries again"
        case .tooLarge(let book, let limit):
            return "book \(book): the server's answer is larger than \(limit / 1024 / 1024) MiB: not read; nothing was lost here"
        case .badAnswer(let book, let why): return "book \(book): the server's answer cannot be used: \(why); nothing was lost here"
        case .password(let book, let why): return "book \(book): no password: \(why)"
        case .discovery(let book, let why): return "book \(book): \(why)"
        }
    }
}
