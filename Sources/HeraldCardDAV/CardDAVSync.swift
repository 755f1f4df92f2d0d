import Foundation
import HeraldCore
import HeraldStore
import Logging

/// How to reach one CardDAV book: the collection URL (or the server's, where discovery finds the collection), the
/// username, and where its password comes from.
public struct CardDAVAccount: Sendable, Hashable {
    public var url: URL
    /// Which of the address books discovery finds at `url` is this book (`collection = "…"`: its name, display name,
    /// path or URL); nil takes `url` as the collection when it is one, else the only book found there.
    public var collection: String?
    public var username: String?
    /// A file holding the password (its first line).
    public var passwordFile: String?
    /// A command printing the password (`pass show dav`, `secret-tool lookup …`), run with /bin/sh.
    public var passwordCommand: String?

    public init(url: URL, username: String?, passwordFile: String?, passwordCommand: String?, collection: String? = nil) {
        self.url = url
        self.collection = collection
        self.username = username
        self.passwordFile = passwordFile
        self.passwordCommand = passwordCommand
    }

    /// What to tell the person when the password would cross a network in clear: Basic auth over `http://` to a host
    /// that is not this machine (anyone on the way reads it). Nil over https, on loopback, or without a username.
    public var cleartextWarning: String? {
        guard username != nil, url.scheme?.lowercased() == "http", let host = url.host, !LoopbackHost.contains(host) else { return nil }
        return "the password goes to \(host) in clear (http://): anyone on the network can read it; use an https:// url"
    }

    /// The password, read when a sync needs it (never kept in Herald's files).
    public func password(book: String) throws(CardDAVError) -> String? {
        if let file = passwordFile {
            let text: String
            do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw .password(book: book, why: "cannot read password_file \(file): \(error.localizedDescription)")
            }
            return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        guard let command = passwordCommand else { return nil }
        let child: SpawnedChild
        do { child = try SpawnedChild(path: "/bin/sh", arguments: ["-c", command], environment: ProcessInfo.processInfo.environment) } catch {
            throw .password(book: book, why: "password_command cannot run: \(error.description)")
        }
        try? child.stdin.close()        // it reads nothing
        // Read on its own (never left to fill its pipe and hang); its last line says why a failed command failed.
        let stderr = child.stderr
        let said = StderrBox()
        let drained = DispatchGroup()
        drained.enter()
        DispatchQueue.global().async {
            let data = stderr.readDataToEndOfFile()
            said.data = data
            drained.leave()
        }
        // One that hangs (a prompt nobody answers) is stopped after 20 s, with what it started.
        let pid = child.pid
        let killer = DispatchWorkItem { _ = kill(-pid, SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: killer)
        let data = child.stdout.readDataToEndOfFile()
        let exit = child.waitForExit()
        killer.cancel()
        guard exit.status == 0, !exit.killedBySignal else {
            drained.wait()
            let last = String(decoding: said.data, as: UTF8.self)
                .split(whereSeparator: \.isNewline).last.map { TerminalSafeText.sanitize(String($0.prefix(300))) }
            throw .password(book: book, why: (exit.killedBySignal ? "password_command was stopped (signal \(exit.status))"
                                                                  : "password_command exited with \(exit.status)")
                                            + (last.map { ": \($0)" } ?? ""))
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}

/// What a password_command wrote to stderr: written by its reading thread, read only after that thread is waited for.
private final class StderrBox: @unchecked Sendable {
    var data = Data()
}

/// Syncs one CardDAV book both ways: the changes made here go first (a delete or an update only over the version
/// Herald last saw: `If-Match`; a new card only where there is none: `If-None-Match: *`), then the server's changes
/// since the last sync come in (`sync-collection` with its token, else every etag by PROPFIND), the cards read with
/// `addressbook-multiget`. A card changed on both sides keeps the server's version, and Herald's is kept as a conflict.
/// A failure anywhere leaves what is stored here as it was; the next sync picks up from there.
public struct CardDAVSync: Sendable {
    let books: AddressBooks
    let account: CardDAVAccount
    /// Cards asked for per multiget.
    var batch = 200

    public init(books: AddressBooks, account: CardDAVAccount) {
        self.books = books
        self.account = account
    }

    public func sync(_ name: String) async throws -> BookSyncReport {
        var report = BookSyncReport(book: name)
        if let warning = account.cleartextWarning {
            Logger(label: "herald.carddav").warning("CardDAV password in clear", metadata: ["book": "\(name)", "why": "\(warning)"])
            report.issues.append(ImportIssue(file: name, line: 0, message: warning))
        }
        let password = try account.password(book: name)
        let client = CardDAVClient(book: name, collection: try await collection(of: name, password: password), username: account.username,
                                   password: password)
        try await push(name, client: client, report: &report)
        let state = try books.remoteState(name)
        var outside: [String] = []
        var changed: [String] = [], removed: [String] = [], token: String?
        var delta = try await client.changes(since: state.token, outside: &outside)
        var listsEverything = state.token == nil
        if delta == nil, state.token != nil {
            // The server no longer takes the token: without one, sync-collection lists every card.
            try books.forgetToken(name)
            delta = try await client.changes(since: nil, outside: &outside)
            listsEverything = true
        }
        if let delta {
            changed = delta.changed.filter { state.etags[$0.0] != $0.1 }.map(\.0)
            removed = listsEverything ? state.etags.keys.filter { href in !delta.changed.contains { $0.0 == href } }.sorted()
                                      : delta.removed
            token = delta.token
        } else {
            // No sync-collection here: every etag by PROPFIND.
            let etags = try await client.etags(outside: &outside)
            changed = etags.filter { state.etags[$0.key] != $0.value }.keys.sorted()
            removed = state.etags.keys.filter { etags[$0] == nil }.sorted()
        }
        for href in outside.prefix(20) {
            report.issues.append(ImportIssue(file: "\(name): \(href)", line: 0, message: "is outside the book's collection: ignored"))
        }
        report.unchanged = max(0, state.etags.count - changed.count - removed.count)
        var start = 0
        var cards: [(href: String, etag: String, card: Data)] = []
        while start < changed.count {
            let slice = Array(changed[start..<min(start + batch, changed.count)])
            start += slice.count
            cards += try await client.cards(slice).map { ($0.name, $0.etag, $0.card) }
        }
        // Applied only once everything is read: a sync that fails half-way stores nothing, and its token is not kept.
        try books.applyRemote(name, cards: cards, removed: removed, token: token, report: &report)
        return report
    }

    /// Sends the changes made here.
    private func push(_ name: String, client: CardDAVClient, report: inout BookSyncReport) async throws {
        for change in try books.pendingPushes(name) {
            switch change {
            case .delete(let href, let etag):
                switch try await client.delete(href, ifMatch: etag) {
                case .deleted, .gone:
                    report.pushed += 1
                case .preconditionFailed:
                    report.issues.append(ImportIssue(file: "\(name): \(href)", line: 0,
                                                     message: "deleted here but changed on the server since: the server's card is kept"))
                    try books.forgetToken(name)        // read it again in full, so the card comes back
                }
                try books.deletedOnServer(name, href: href)
            case .create(let id, let href, let card):
                switch try await client.put(href, card: card, ifMatch: nil) {
                case .stored(let etag):
                    try books.pushed(personId: id, href: href, etag: etag ?? "", sent: card)
                    report.pushed += 1
                case .preconditionFailed:
                    report.issues.append(ImportIssue(file: "\(name): \(href)", line: 0,
                                                     message: "a card of that name is on the server already: the new card waits"))
                }
            case .update(let id, let href, let etag, let card):
                switch try await client.put(href, card: card, ifMatch: etag) {
                case .stored(let newEtag):
                    try books.pushed(personId: id, href: href, etag: newEtag ?? "", sent: card)
                    report.pushed += 1
                case .preconditionFailed:
                    // Changed there too: the pull brings the server's version and keeps Herald's as a conflict.
                    try books.forgetToken(name)
                }
            }
        }
    }
}
