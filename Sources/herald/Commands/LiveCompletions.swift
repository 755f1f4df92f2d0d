import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore
import HeraldTUI
import Logging

/// Values the shell completes from what is there now: contact ids (with names), bulk ids (with when and what), the
/// books of config.toml and the themes. Run by the completion scripts (`herald --generate-completion-script SHELL`)
/// through `herald ---completion`; each reads only, opens nothing that is missing, and answers nothing on failure.
enum LiveCompletions {
    static let contactIDs = CompletionKind.custom { words, _, prefix in contacts(words: words, prefix: prefix) }
    static let bulkIDs = CompletionKind.custom { words, _, prefix in bulks(words: words, prefix: prefix) }
    static let books = CompletionKind.custom { words, _, prefix in bookNames(words: words, prefix: prefix) }
    static let themes = CompletionKind.custom { _, _, prefix in ThemeLoader().availableNames().filter { $0.hasPrefix(prefix) } }

    /// At most this many candidates: a shell shows no more usefully.
    static let limit = 200

    static func contacts(words: [String], prefix: String) -> [String] {
        guard let db = database(words) else { return [] }
        // With nothing typed yet the first people in name order are all a shell shows: read no more than those.
        let people = quietly("contacts") {
            try ContactStore(database: db).people(sortedBy: .firstName, limit: prefix.isEmpty ? limit : nil)
        } ?? []
        return people.compactMap { person -> (String, String)? in
            guard let id = person.id.map(String.init), id.hasPrefix(prefix) else { return nil }
            return (id, person.displayName)
        }.prefix(limit).map(candidate)
    }

    static func bulks(words: [String], prefix: String) -> [String] {
        guard let db = database(words) else { return [] }
        let bulks = quietly("bulks") { try LedgerStore(database: db).bulks(limit: limit * 5) } ?? []
        return bulks.filter { $0.bulkId.hasPrefix(prefix) }.prefix(limit).map { bulk in
            candidate((bulk.bulkId, WireTime.text(bulk.createdAt) + " " + (bulk.messageText ?? bulk.messageKey ?? "")))
        }
    }

    static func bookNames(words: [String], prefix: String) -> [String] {
        let paths = HeraldPaths.resolve(dataDirOption: option("--data-dir", in: words))
        let books = quietly("books") { try HeraldConfig.load(from: paths.configFile).books } ?? []
        return books.map(\.name).filter { $0.hasPrefix(prefix) }
    }

    /// The value and what it is, as the shell asking shows one: zsh `value:what`, fish `value<tab>what`, bash the value.
    static func candidate(_ pair: (value: String, what: String)) -> String {
        let what = TerminalSafeText.sanitize(pair.what, singleLine: true).prefix(60)
        switch CompletionShell.requesting {
        case .zsh?: return pair.value.replacingOccurrences(of: ":", with: "\\:") + ":" + what
        case .fish?: return pair.value + "\t" + what
        default: return pair.value
        }
    }

    /// The client's database of the data folder the command line names (or the default), nil when there is none.
    private static func database(_ words: [String]) -> HeraldDatabase? {
        let dir = HeraldPaths.resolve(dataDirOption: option("--data-dir", in: words)).dataDirectory
        guard FileManager.default.fileExists(atPath: dir.appendingPathComponent("herald.sqlite").path) else { return nil }
        return quietly("the data folder") { try HeraldDatabase.open(inDirectory: dir) }
    }

    /// `work`'s answer, or nil when it fails: a failure goes to the log, never into the shell's completion line.
    private static func quietly<T>(_ what: String, _ work: () throws -> T) -> T? {
        do { return try work() } catch {
            log.warning("completion of \(what) failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private static let log = Logger(label: "herald.completion")

    private static func option(_ name: String, in words: [String]) -> String? {
        guard let index = words.firstIndex(of: name), index + 1 < words.count else {
            return words.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        return words[index + 1]
    }
}
