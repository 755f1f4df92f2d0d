import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// `herald templates …`: the application's invitation messages.
struct TemplatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "List, show, create and update invitation messages; allow or forbid editing them.",
        subcommands: [TemplatesList.self, TemplatesShow.self, TemplatesCreate.self, TemplatesUpdate.self, TemplatesEditing.self])
}

struct TemplateJSON: Encodable {
    var key: String
    var text: String
    var placeholder: String
    var isDefault: Bool

    init(_ m: ApplicationMessage, defaultKey: String?) {
        key = m.key
        text = m.text
        placeholder = m.placeholder
        isDefault = m.key == defaultKey
    }
}

private func printTemplate(_ m: ApplicationMessage, defaultKey: String?) {
    let meter = SMSMeter.measure(m.text)
    print("\(Output.safe(m.key))\(m.key == defaultKey ? " (default)" : "")")
    print("  \(Output.safe(m.text))")
    print("  link placeholder \(Output.safe(m.placeholder)); \(meter.characters) characters, \(counted(meter.segments, "SMS segment")) before the link")
}

struct TemplatesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the messages this client knows, and whether editing is allowed.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    /// `herald templates list --json`.
    struct ListJSON: Encodable {
        /// Whether `herald templates update` may change messages; nil when the platform could not be asked.
        var messageEditingAllowed: Bool?
        var messages: [TemplateJSON]

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(messageEditingAllowed, forKey: .messageEditingAllowed)
            try c.encode(messages, forKey: .messages)
        }
        enum CodingKeys: String, CodingKey { case messageEditingAllowed, messages }
    }

    /// Prints what could be read; what could not is said on stderr, and a message that could not be
    /// read makes the exit status 1 (a missing row is never passed off as a shorter list).
    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let listing = await ws.templates.listing()
        let defaultKey = listing.defaultKey
        let editing: Bool?
        var editingUnknown: String?
        do { editing = try await ws.templates.isEditingAllowed() } catch {
            editing = nil
            editingUnknown = userMessage(for: error)
        }
        if let why = listing.defaultUnknown { Output.warn(why) }
        if json {
            if let why = editingUnknown { Output.warn("could not ask the platform whether editing is allowed: \(why)") }
            try Output.printJSON(ListJSON(messageEditingAllowed: editing,
                                          messages: listing.messages.map { TemplateJSON($0, defaultKey: defaultKey) }))
        } else {
            let label = editing.map(editingLabel) ?? "unknown (could not ask the platform: \(editingUnknown ?? "no answer"))"
            print("Message editing: \(Output.safe(label))")
            var table = OutputTable(headers: ["ID", "DEFAULT", "TEXT"], maxWidths: [36, 7, 80])
            for m in listing.messages {
                table.add([m.key, m.key == defaultKey ? "yes" : "", m.text.replacingOccurrences(of: "\n", with: " ")])
            }
            print(table.render(), terminator: "")
        }
        guard listing.unreadable.isEmpty else { throw Output.failure(listing.unreadable.joined(separator: "; ")) }
    }
}

/// "on" or "off", with what to do about it.
private func editingLabel(_ allowed: Bool) -> String {
    allowed ? "on (`herald templates update` may change messages)" : "off (turn it on with `herald templates editing on`)"
}

/// `on` / `off` on the command line.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

struct TemplatesEditing: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "editing", abstract: "Show, or turn on or off, whether the application's messages may be changed.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("on or off (omit to show the current setting).", valueName: "on|off")) var state: Switch?
    @Flag(help: "Print JSON.") var json = false

    struct EditingJSON: Encodable { var messageEditingAllowed: Bool }

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let allowed: Bool
        do {
            if let state {
                allowed = try await ws.templates.setEditingAllowed(state == .on).messageEditingAllowed
            } else {
                allowed = try await ws.templates.isEditingAllowed()
            }
        } catch {
            throw Output.failure(for: error)
        }
        if json { try Output.printJSON(EditingJSON(messageEditingAllowed: allowed)) } else {
            print("Message editing: \(editingLabel(allowed))")
        }
    }
}

struct TemplatesShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one message (default: the application's default).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Message id.", valueName: "id")) var key: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let m: ApplicationMessage
            if let key { m = try await ws.templates.message(key: key) } else { m = try await ws.templates.defaultMessage() }
            let defaultKey: String?
            do { defaultKey = try await ws.templates.defaultMessageKey() } catch {
                defaultKey = nil
                if error != .noDefault { Output.warn("could not tell whether it is the default message: \(error.userMessage)") }
            }
            if json { try Output.printJSON(TemplateJSON(m, defaultKey: defaultKey)) } else { printTemplate(m, defaultKey: defaultKey) }
        } catch {
            throw Output.failure(for: error)
        }
    }
}

struct TemplatesCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a message. Use <> where the link goes.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The text; may use {SENDER_NAME}, {RECEIVER_NAME}, {CUSTOM_TEXT}.") var text: String
    @Option(help: ArgumentHelp("Id to give it (default: generated).", valueName: "id")) var key: String?
    @Option(help: "Link placeholder (default <>).") var placeholder: String?
    @Flag(help: "Create it without the link placeholder (the link is then added at the end of each message).")
    var noLink = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let mark = placeholder ?? MessageTemplate.defaultLinkPlaceholder
        let blank = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty    // refused below, as empty
        if !noLink, !blank, mark.isEmpty || !text.contains(mark) {
            throw Output.failure("""
                the text has no link placeholder \(mark.isEmpty ? "" : "\"\(Output.safe(mark))\" ")— put it where the invitation link goes \
                (for example "Join me on Herald: \(mark.isEmpty ? "<>" : Output.safe(mark))"), or pass --no-link to have the link added at the end
                """)
        }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let m = try await ws.templates.create(text: text, placeholder: placeholder, key: key)
            if json { try Output.printJSON(TemplateJSON(m, defaultKey: nil)) } else { printTemplate(m, defaultKey: nil) }
        } catch {
            throw Output.failure(for: error)
        }
    }
}

struct TemplatesUpdate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "update", abstract: "Change a message (when the application allows editing).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Message id.", valueName: "id")) var key: String
    @Option(help: "The new text.") var text: String?
    @Option(help: "The new link placeholder.") var placeholder: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        guard text != nil || placeholder != nil else { throw Output.failure("nothing to change: pass --text or --placeholder") }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let m = try await ws.templates.update(key: key, text: text, placeholder: placeholder)
            if json { try Output.printJSON(TemplateJSON(m, defaultKey: nil)) } else { printTemplate(m, defaultKey: nil) }
        } catch {
            throw Output.failure(for: error)
        }
    }
}
