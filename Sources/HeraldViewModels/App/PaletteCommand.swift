import HeraldCore

/// A command typed in the `:` palette.
nonisolated public enum PaletteCommand: Sendable, Hashable {
    case quit
    case help
    case theme(String)
    case pane(PaneID)
    case invite
    case send
    case resend
    case user(String)
    case sort(String)
    case filter(String)
    case search(String)
    case select(String)
    case reload
    case name(String)
    case move(String)
}

/// Parsing and completing palette commands. Pure: the shell gives the names it knows.
nonisolated public struct CommandPalette: Sendable {
    /// One command name, what its argument is, and what it does (for completion and errors).
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var argument: String?
        public var summary: String
    }

    public static let entries: [Entry] = [
        Entry(name: "quit", argument: nil, summary: "quit Herald"),
        Entry(name: "help", argument: nil, summary: "show the keys"),
        Entry(name: "theme", argument: "NAME", summary: "switch the colour theme"),
        Entry(name: "pane", argument: "NAME", summary: "go to a pane (contacts, share, composer, inbox, deliveries)"),
        Entry(name: "invite", argument: nil, summary: "invite the selected people (Contacts)"),
        Entry(name: "send", argument: nil, summary: "send the composed invitations (Composer)"),
        Entry(name: "resend", argument: nil, summary: "resend what failed (Deliveries)"),
        Entry(name: "user", argument: "ID", summary: "read this user's inbox"),
        Entry(name: "sort", argument: "first|last|newest|oldest|most-failed|most-pending",
              summary: "sort contacts by first or last name, deliveries by time or by failed or pending recipients"),
        Entry(name: "filter", argument: "all|pending|invited|failed", summary: "filter deliveries by status"),
        Entry(name: "search", argument: "TEXT", summary: "search contacts"),
        Entry(name: "select", argument: "not-invited|pending|invited|failed", summary: "select the contacts shown in that state"),
        Entry(name: "reload", argument: nil, summary: "read the pane's data again now"),
        Entry(name: "name", argument: "YOUR NAME", summary: "who invites: fills {SENDER_NAME} (kept for the next sends)"),
        Entry(name: "move", argument: "TIME", summary: "move the held bulk under the cursor: 09:00, +2h, 2026-12-01 09:00 (Deliveries)"),
    ]

    public static let paneNames = PaneID.allCases.map(\.name)
    public static let sortNames = ["first", "last"] + DeliverySort.allCases.map(\.name)
    public static let filterNames = DeliveryFilter.allCases.map(\.rawValue)
    public static let selectNames = StateSelection.allCases.map(\.rawValue)

    /// Theme names that `:theme` completes and accepts.
    public var themeNames: [String]

    public init(themeNames: [String]) { self.themeNames = themeNames }

    /// Parses a command line (without the leading `:`); the error says what was wrong.
    public func parse(_ line: String) -> Result<PaletteCommand, PaletteError> {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first?.lowercased() else { return .failure(PaletteError("type a command, e.g. :theme light")) }
        let rest = words.dropFirst().joined(separator: " ")
        let argument = rest.isEmpty ? nil : rest
        switch name {
        case "q", "quit", "exit": return .success(.quit)
        case "help", "h": return .success(.help)
        case "invite": return .success(.invite)
        case "send": return .success(.send)
        case "reload": return .success(.reload)
        case "resend": return .success(.resend)
        case "theme":
            guard let argument else { return .failure(PaletteError(":theme needs a name: \(themeNames.joined(separator: ", "))")) }
            // The names are listed off the UI thread when the palette opens; a line typed before they arrive goes to the
            // loader, which says what is wrong with a name it cannot load.
            guard themeNames.isEmpty || themeNames.contains(argument) else {
                return .failure(PaletteError("no theme \"\(argument)\" (available: \(themeNames.joined(separator: ", ")))"))
            }
            return .success(.theme(argument))
        case "pane":
            guard let argument else { return .failure(PaletteError(":pane needs a name: \(Self.paneNames.joined(separator: ", "))")) }
            if let n = Int(argument), let pane = PaneID(rawValue: n - 1) { return .success(.pane(pane)) }
            guard let pane = PaneID.allCases.first(where: { $0.name.hasPrefix(argument.lowercased()) }) else {
                return .failure(PaletteError("no pane \"\(argument)\" (panes: \(Self.paneNames.joined(separator: ", ")))"))
            }
            return .success(.pane(pane))
        case "user":
            guard let argument else { return .failure(PaletteError(":user needs a user id, e.g. :user alice")) }
            return .success(.user(argument))
        case "sort":
            let order = argument?.lowercased().split(separator: " ").joined(separator: "-")
            guard let order, Self.sortNames.contains(order) else {
                return .failure(PaletteError(":sort takes first or last (Contacts), or \(DeliverySort.allCases.map(\.name).joined(separator: ", ")) (Deliveries)"))
            }
            return .success(.sort(order))
        case "filter":
            guard let argument, DeliveryFilter(name: argument) != nil else {
                return .failure(PaletteError(":filter takes \(Self.filterNames.joined(separator: ", "))"))
            }
            return .success(.filter(argument.lowercased()))
        case "select":
            guard let argument, StateSelection(name: argument) != nil else {
                return .failure(PaletteError(":select takes \(Self.selectNames.joined(separator: ", "))"))
            }
            return .success(.select(argument.lowercased()))
        case "search", "find":
            return .success(.search(argument ?? ""))
        case "move":
            guard let argument else { return .failure(PaletteError(":move needs a time, e.g. :move 09:00, :move +2h or :move 2026-12-01 09:00")) }
            return .success(.move(argument))
        case "name":
            guard let argument else { return .failure(PaletteError(":name needs your name as invitations should say it, e.g. :name Ana Horvat")) }
            return .success(.name(argument))
        default:
            return .failure(PaletteError("unknown command \"\(name)\": try \(Self.entries.map { ":" + $0.name }.joined(separator: " "))"))
        }
    }

    /// Whole command lines that complete `line`, sorted; empty when nothing fits.
    public func completions(for line: String) -> [String] {
        let endsWithSpace = line.last?.isWhitespace ?? false
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.isEmpty { return Self.entries.map(\.name) }
        if words.count == 1 && !endsWithSpace {
            let prefix = words[0].lowercased()
            return Self.entries.map(\.name).filter { $0.hasPrefix(prefix) }
        }
        let command = words[0].lowercased()
        let partial = endsWithSpace ? "" : (words.count > 1 ? words[words.count - 1] : "")
        let options: [String]
        switch command {
        case "theme": options = themeNames
        case "pane": options = Self.paneNames
        case "sort": options = Self.sortNames
        case "filter": options = Self.filterNames
        case "select": options = Self.selectNames
        default: return []
        }
        return options.filter { $0.lowercased().hasPrefix(partial.lowercased()) }.map { "\(command) \($0)" }
    }

    /// The line after pressing tab: the only completion, else the longest common prefix.
    public func complete(_ line: String) -> String {
        let all = completions(for: line)
        guard let first = all.first else { return line }
        if all.count == 1 {
            let done = first
            let takesArgument = Self.entries.first { $0.name == done }?.argument != nil
            return takesArgument ? done + " " : done
        }
        var prefix = first
        for other in all.dropFirst() {
            while !other.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix.count > line.count ? prefix : line
    }
}

/// What was wrong with a palette command, for an error toast.
nonisolated public struct PaletteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
