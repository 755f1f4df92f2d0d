import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// The Composer pane's state: the message (default or custom) and its edited text, the sender ID,
/// the signature, a live preview per selected recipient with its SMS cost, the marks the editor
/// draws (link placeholder, fields, characters forcing UCS-2), and the send confirmation.
/// Confined to the app loop's thread; service calls go through `effects`.
public final class ComposerViewModel {
    public let context: ViewModelContext
    private let templates: TemplateService
    private let invites: InviteService
    /// The ledger's statuses, the people selected, the sender name kept: read off the UI thread.
    private let source: ComposerSource
    public private(set) var settings: ComposerSettings


    /// SMS (through the platform) or email (through the mail program).
    public private(set) var channel: ShareChannel = .sms
    /// The application's messages as loaded, and the one chosen (`ComposerMessages`).
    private var loaded = ComposerMessages()
    /// The text being edited (without the signature).
    public private(set) var text = ""
    /// The people the invitation is for (the Contacts selection).
    public private(set) var recipients: [Person] = []
    /// Which recipient the preview shows.
    public private(set) var previewIndex = 0
    /// The sender ID field.
    public private(set) var sender: String
    /// 0: no signature; 1: the configured one.
    public private(set) var signatureIndex = 0
    /// A send on its way, one waiting for the messages or for the sender's name, and the bulks the last one made.
    private var sending = ComposerSending()
    /// Shown while waiting for the person to confirm a send.
    public private(set) var confirmation: SendConfirmation?
    /// When the send the confirmation asks about leaves (`t` in it cycles); back to `.soon` for each new confirmation.
    public private(set) var sendWhen: SendWhen = .soon
    /// Counts confirmations, so that an estimate that comes late is not shown in a newer one.
    private var costRequest = 0
    /// What the send does with recipients whose personal field is empty with no fallback (`o`/`f` in the
    /// confirmation); nil: not chosen yet (the send waits for it). A new text or selection forgets it.
    public private(set) var missingChoice: MissingFieldChoice?

    public init(templates: TemplateService, invites: InviteService, source: ComposerSource, context: ViewModelContext,
                settings: ComposerSettings) {
        self.templates = templates
        self.invites = invites
        self.source = source
        self.context = context
        self.settings = settings
        self.sender = settings.sender
    }

    /// The application's messages, the default first.
    public var messages: [ApplicationMessage] { loaded.messages }
    public var messageIndex: Int { loaded.messageIndex }
    /// Nil while unknown; false when the application forbids editing.
    public var editingAllowed: Bool? { loaded.editingAllowed }
    public var isLoading: Bool { loaded.isLoading }
    public var loadProblem: String? { loaded.loadProblem }
    public var isSending: Bool { sending.isSending }
    /// The bulks the last send made (empty before any).
    public var sentBulkIds: [String] { sending.sentBulkIds }

    /// Tells the person at the keyboard something (a toast).
    public func notify(_ text: String, level: ToastLevel) { context.toasts.post(text, level: level) }

    // MARK: derived state

    /// True when the message text was edited away from the chosen message and not sent (quitting
    /// would lose it); a signature choice alone is not an edit.
    public var hasUnsentChanges: Bool { selectedMessage.map { text != $0.text } ?? false }

    public var selectedMessage: ApplicationMessage? { loaded.messages.indices.contains(loaded.messageIndex) ? loaded.messages[loaded.messageIndex] : nil }
    public var linkPlaceholder: String { selectedMessage?.placeholder ?? MessageTemplate.defaultLinkPlaceholder }

    /// Why the text cannot be changed, or nil when it can.
    public var readOnlyReason: String? {
        guard loaded.editingAllowed == false else { return nil }
        return "read-only: this application does not allow message editing (turn editing on in the "
            + "application settings); pick another message with [ and ]"
    }
    public var isReadOnly: Bool { loaded.editingAllowed == false }

    /// The signature choices: "none" and the configured one when there is one.
    public var signatureChoices: [String] { ["none"] + (settings.signature.map { [$0] } ?? []) }
    public var signature: String? { signatureIndex == 0 ? nil : settings.signature }

    /// The text that is sent: the edited text and the signature on its own line.
    public var fullText: String {
        guard let signature, !signature.isEmpty else { return text }
        return text + "\n" + signature
    }

    public var template: MessageTemplate { MessageTemplate(text: fullText, linkPlaceholder: linkPlaceholder) }

    /// Whether the text differs from the chosen message (sending then saves it as a custom message first).
    public var isModified: Bool { fullText != selectedMessage?.text }

    /// The sender ID rule broken, as you type; nil when valid.
    public var senderProblem: String? { SenderID.problem(sender) }

    /// Field values for one recipient: the client fields, their personal fields (first name, team…), and the
    /// fallbacks given for this send where they have none.
    public func values(for person: Person?) -> [String: String] {
        var values = ComposerFields.values(of: person)
        if case .fallback(let given)? = missingChoice {
            for (field, text) in given where values[field] == nil { values[field] = text }
        }
        if let name = settings.senderName { values[ClientField.senderName.rawValue] = name }
        if let person { values[ClientField.receiverName.rawValue] = person.displayName }
        return values
    }

    /// The personal fields (beyond the client fields) `person` has no value for and the message gives no fallback for.
    public func missingFields(for person: Person?) -> [String] {
        var values = ComposerFields.values(of: person)
        values[ClientField.senderName.rawValue] = settings.senderName
        return template.render(link: settings.previewLink, values: values).missingFields.filter { ClientField(rawValue: $0) == nil }
    }

    /// The field names a message may use with the people selected: the client fields, the standard personal ones and
    /// every custom field a selected person has.
    public var fieldNames: [String] { ComposerFields.names(for: recipients) }

    /// Fields the missing recipients lack that nothing was chosen for yet (no fallback, not left out), in order.
    public var fieldsWithoutFallback: [String] { missingChoice == .leaveOut ? [] : fieldsToFallBack }

    /// Fields the missing recipients lack that no fallback was given for yet, in order (`f` offers them even after
    /// `o`: the sender may change their mind).
    public var fieldsToFallBack: [String] {
        let given: [String: String]
        if case .fallback(let g)? = missingChoice { given = g } else { given = [:] }
        var out: [String] = []
        for m in confirmation?.missing ?? [] where given[m.field] == nil && !out.contains(m.field) { out.append(m.field) }
        return out
    }

    /// The person the preview is for (nil with nobody selected).
    public var previewRecipient: Person? { recipients.indices.contains(previewIndex) ? recipients[previewIndex] : nil }

    /// The message as the preview recipient gets it.
    public var preview: RenderedMessage {
        template.render(link: settings.previewLink, values: values(for: previewRecipient))
    }

    /// The SMS cost of the preview.
    public var measurement: SMSMeasurement { SMSMeter.measure(preview.text) }

    /// "GSM-7 · 1 SMS · 87 characters left" (or UCS-2 with its culprits).
    public var meterSummary: String {
        let m = measurement
        var out = "\(m.encoding.rawValue) · \(m.segments) SMS · \(m.unitsLeftInSegment) left in this part"
        if !m.ucs2Culprits.isEmpty {
            let shown = m.ucs2Culprits.prefix(5).map { "\"\($0.character)\"" }.joined(separator: " ")
            out += " · UCS-2 because of " + shown
        }
        return out
    }

    /// The spans of the editor text to mark: link placeholder, fields, characters forcing UCS-2.
    public var marks: [ComposerMark] {
        let t = MessageTemplate(text: text, linkPlaceholder: linkPlaceholder)
        var out: [ComposerMark] = t.placeholders.map { p in
            switch p.kind {
            case .link: return ComposerMark(kind: .link, range: p.characterOffsets)
            case .field(let key): return ComposerMark(kind: .field(known: ClientField(rawValue: key) != nil), range: p.characterOffsets)
            }
        }
        for culprit in SMSMeter.measure(text).ucs2Culprits {
            for position in culprit.positions { out.append(ComposerMark(kind: .ucs2, range: position..<(position + 1))) }
        }
        return out
    }

    // MARK: loading

    /// Loads the messages and whether editing is allowed.
    public func load() {
        loaded.isLoading = true
        let templates = self.templates
        let readSaved = settings.senderName == nil ? source.readSavedSenderName : nil
        context.effects.perform({ () async throws -> ([ApplicationMessage], Result<Bool, any Error>, String?) in
            let saved = await readSaved?()
            let list = await templates.list()
            let allowed: Result<Bool, any Error>
            do { allowed = .success(try await templates.isEditingAllowed()) } catch { allowed = .failure(error) }
            if list.isEmpty { _ = try await templates.defaultMessage() }   // surfaces "no default message" and its fix
            return (list, allowed, saved)
        }) { [weak self] result in
            guard let self else { return }
            self.loaded.isLoading = false
            switch result {
            case .success(let (list, allowed, saved)):
                self.loaded.loadProblem = nil
                if self.settings.senderName == nil, let saved {
                    self.settings.senderName = saved
                    if self.settings.referrer == ComposerSettings.defaultReferrer { self.settings.referrer = saved }
                }
                let selectedKey = self.selectedMessage?.key
                self.loaded.messages = list
                switch allowed {
                case .success(let allowed):
                    self.loaded.editingAllowed = allowed
                case .failure(let error):
                    // Unknown, not "allowed": the platform decides when a change is saved.
                    self.loaded.editingAllowed = nil
                    self.notify("could not read whether messages may be edited: " + userMessage(for: error), level: .warning)
                }
                if let selectedKey, let i = list.firstIndex(where: { $0.key == selectedKey }) {
                    self.loaded.messageIndex = i
                } else {
                    self.selectMessage(0)
                }
            case .failure(let error):
                self.loaded.loadProblem = "cannot load the messages: " + userMessage(for: error)
                self.notify(self.loaded.loadProblem ?? "", level: .error)
            }
            if self.sending.sendWhenLoaded {
                self.sending.sendWhenLoaded = false
                self.prepareSend()
            }
        }
    }

    /// Chooses message `index` and puts its text in the editor.
    public func selectMessage(_ index: Int) {
        guard !loaded.messages.isEmpty else { return }
        loaded.messageIndex = (index % loaded.messages.count + loaded.messages.count) % loaded.messages.count
        text = loaded.messages[loaded.messageIndex].text
        signatureIndex = 0
    }

    public func nextMessage() { selectMessage(loaded.messageIndex + 1) }
    public func previousMessage() { selectMessage(loaded.messageIndex - 1) }

    // MARK: editing

    /// Replaces the text (from the editor); refused while read-only. Returns whether it was taken.
    @discardableResult
    public func setText(_ new: String) -> Bool {
        guard !isReadOnly else { return false }
        text = TerminalSafeText.sanitize(new, singleLine: false)
        missingChoice = nil
        return true
    }

    public func setSender(_ new: String) { sender = TerminalSafeText.sanitize(new) }

    /// Next signature choice (none → configured → none); refused while read-only.
    public func cycleSignature() {
        guard !isReadOnly else { notify(readOnlyReason ?? "", level: .warning); return }
        signatureIndex = (signatureIndex + 1) % signatureChoices.count
    }

    /// SMS or email: what sending does.
    public func setChannel(_ new: ShareChannel) {
        if new == .email || new == .sms { channel = new }
    }

    /// The people to invite (the Contacts selection); the preview stays on a valid one.
    public func setRecipients(_ people: [Person]) {
        if people.map(\.id) != recipients.map(\.id) { missingChoice = nil }
        recipients = people
        previewIndex = people.isEmpty ? 0 : min(previewIndex, people.count - 1)
    }

    /// Sets the recipients to the people with these ids, read off the UI thread; `then` runs once they are in.
    public func setRecipients(ids: [Int64], then: (() -> Void)? = nil) {
        guard !ids.isEmpty, let read = source.readPeople else {
            if ids.isEmpty { setRecipients([]) }
            then?()
            return
        }
        // Never "nobody selected" on a failure: the person at the keyboard is told the selection could not be read.
        context.run({ try await read(ids) }, for: self, failure: "could not read the \(ids.count) selected people") { vm, people in
            vm.setRecipients(people)
            then?()
        }
    }

    public func nextPreview() { if !recipients.isEmpty { previewIndex = (previewIndex + 1) % recipients.count } }
    public func previousPreview() { if !recipients.isEmpty { previewIndex = (previewIndex + recipients.count - 1) % recipients.count } }

    /// Saves the text (with the signature) as a new custom message and selects it.
    public func saveAsCustom() {
        let text = fullText, placeholder = linkPlaceholder, templates = self.templates
        context.run({ try await templates.create(text: text, placeholder: placeholder) }, for: self, failure: "not saved") { vm, message in
            vm.loaded.messages.append(message)
            vm.loaded.messageIndex = vm.messages.count - 1
            vm.text = message.text
            vm.signatureIndex = 0
            vm.notify("saved as message \(message.key)", level: .success)
        }
    }

    // MARK: sending

    /// Asks for the send confirmation once the messages are loaded (Contacts' `I` may come first); loads them
    /// when nobody has yet.
    public func prepareSendWhenLoaded() {
        guard loaded.isLoading || loaded.messages.isEmpty && loaded.loadProblem == nil else { prepareSend(); return }
        sending.sendWhenLoaded = true
        if !loaded.isLoading { load() }
    }

    /// Checks everything and builds the confirmation (once the ledger says which numbers are already
    /// invited); returns the problem instead when there is one.
    @discardableResult
    public func prepareSend() -> String? {
        if let problem = sendProblem() {
            notify(problem, level: .warning)
            return problem
        }
        if needsSenderName {
            // Never a message with a gap where the name goes: ask once, keep the answer, then go on.
            sending.awaitingSenderName = true
            notify("who invites? the message says {SENDER_NAME}: type your name and Enter (kept for the next sends)", level: .warning)
            context.app.ask(inPalette: "name ")
            return "no sender name"
        }
        // Numbers already invited or on their way are left out, as the send will leave them out: which
        // they are is read off the UI thread, and the question opens once it is known.
        guard channel == .sms, let lookup = source.latestStatuses else { confirm(latest: [:]); return nil }
        let numbers = recipients.flatMap(\.invitableNumbers)
        context.effects.perform({ try await lookup(numbers) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let latest): self.confirm(latest: latest)
            case .failure(let error):
                self.notify("could not read which numbers are already invited: \(userMessage(for: error))", level: .warning)
                self.confirm(latest: [:])
            }
        }
        return nil
    }

    /// Builds the confirmation, leaving out the numbers `latest` says are invited or on their way.
    private func confirm(latest: [String: DeliveryStatus]) {
        var lines: [String] = []
        var destinations = 0, segments = 0, alreadyInvited = 0
        var unreachable: [String] = []
        var priced: [(address: String, parts: Int)] = []
        var missing: [MissingField] = []
        var leftOut: [String] = []
        // The preview quotes the first person the send really goes to: one left out would show a text nobody gets.
        var firstSent: Person?
        let ordered = recipients.sorted { ($0.displayName.lowercased(), $0.id ?? 0) < ($1.displayName.lowercased(), $1.id ?? 0) }
        for person in ordered {
            let name = TerminalSafeText.sanitize(person.displayName)
            if channel == .email {
                guard let email = person.emails.first else { unreachable.append(name); continue }
                destinations += 1
                lines.append("\(name) <\(TerminalSafeText.sanitize(email.address))>")
            } else {
                let invitable = person.invitableNumbers
                guard !invitable.isEmpty else { unreachable.append(name); continue }
                let numbers = invitable.filter { ResendPolicy.default.decide(latest: latest[$0]) == .send }
                alreadyInvited += invitable.count - numbers.count
                guard !numbers.isEmpty else { continue }
                // Never a blank: whoever lacks a personal field is listed, then left out or sent the fallback given.
                let lacking = missingFields(for: person)
                missing += lacking.map { MissingField(address: numbers[0], personId: person.id, name: person.displayName, field: $0) }
                if !lacking.isEmpty, missingChoice == .leaveOut {
                    leftOut.append("\(name) (no \(lacking.joined(separator: ", ")))")
                    continue
                }
                let cost = SMSMeter.measure(template.render(link: settings.previewLink, values: values(for: person)).text).segments
                destinations += numbers.count
                segments += cost * numbers.count
                priced += numbers.map { (address: $0, parts: cost) }
                if firstSent == nil { firstSent = person }
                lines.append("\(name)  \(numbers.joined(separator: ", "))  \(cost) SMS each")
            }
        }
        guard destinations > 0 else {
            let problem = channel == .email ? "none of the selected people has an email address"
                : !leftOut.isEmpty ? "nothing to send: everyone left is left out for a field they lack (esc, then send again to choose)"
                : alreadyInvited > 0 ? "nothing to send: every number is already invited or on its way"
                : "none of the selected people has a number that can receive SMS"
            notify(problem, level: .warning)
            return
        }
        let title = channel == .email
            ? "Send \(counted(destinations, "email invitation"))?"
            : "Send \(counted(destinations, "SMS invitation")) (\(counted(segments, "segment")))?"
        var confirmation = SendConfirmation(lines: lines, destinations: destinations, unreachable: unreachable,
                                            totalSegments: segments, title: title)
        confirmation.missing = missing
        confirmation.leftOut = leftOut
        if channel == .sms {
            // As it will leave: an empty field leaves nothing (never "{X}"), and the link has the platform's form.
            confirmation.preview = TerminalSafeText.sanitize(
                template.render(link: settings.previewLink, values: values(for: firstSent), missing: .empty).text, singleLine: true)
            confirmation.sender = sender
            confirmation.alreadyInvited = alreadyInvited
        }
        self.confirmation = confirmation
        sendWhen = .soon
        if channel == .sms { estimateCost(priced) }
    }

    /// Prices the confirmation's send off the UI thread (`InviteService.estimate`: `[prices]`, else the prices the
    /// platform reported); the confirmation shows it when it comes, and above `[send] confirm_above` (or with prices
    /// unknown while it is set) the send is confirmed a second time, naming the cost.
    private func estimateCost(_ items: [(address: String, parts: Int)]) {
        costRequest += 1
        let request = costRequest, invites = self.invites
        confirmation?.cost = "Cost: working it out…"
        context.effects.perform({ try await invites.estimate(items) }) { [weak self] result in
            guard let self, self.costRequest == request, self.confirmation != nil else { return }
            switch result {
            case .success(let estimate):
                self.confirmation?.estimate = estimate
                self.confirmation?.cost = "Cost: " + estimate.summary
                self.confirmation?.unknownPrices = estimate.unknown.map(\.address)
                if let limit = invites.confirmAbove {
                    let above = "[send] confirm_above = \(PriceEstimate.format(limit))"
                    if estimate.exceeds(limit) {
                        self.confirmation?.costQuestion = "\(estimate.summary): above \(above). Send it? y sends, esc cancels"
                    } else if !estimate.unknown.isEmpty {
                        self.confirmation?.costQuestion = "\(estimate.summary): \(above) cannot be checked. Send it? y sends, esc cancels"
                    }
                }
            case .failure(let error):
                self.confirmation?.cost = "Cost: unknown (\(userMessage(for: error)))"
                if let limit = invites.confirmAbove {
                    self.confirmation?.costQuestion = "the cost is unknown: [send] confirm_above = \(PriceEstimate.format(limit)) "
                        + "cannot be checked. Send it? y sends, esc cancels"
                }
            }
        }
    }

    /// `o` in the confirmation: recipients without a personal field are left out; the confirmation is asked again.
    public func leaveOutMissing() {
        guard confirmation?.missing.isEmpty == false else { return }
        missingChoice = .leaveOut
        prepareSend()
    }

    /// A fallback for `field` (`f` in the confirmation, one field at a time): those who lack it get `text`; once
    /// every missing field has one, the confirmation is asked again with it.
    public func setFallback(_ field: String, _ text: String) {
        let given = TerminalSafeText.sanitize(text, singleLine: true).trimmingCharacters(in: .whitespaces)
        guard !given.isEmpty else { notify("a fallback is never a blank: type a text, or o to leave them out", level: .warning); return }
        var all: [String: String] = [:]
        if case .fallback(let earlier)? = missingChoice { all = earlier }
        all[field] = given
        missingChoice = .fallback(all)
        if fieldsWithoutFallback.isEmpty { prepareSend() }
    }

    /// Whether the SMS would leave with an empty {SENDER_NAME}.
    public var needsSenderName: Bool {
        channel == .sms && template.fields.contains(ClientField.senderName.rawValue)
            && (settings.senderName ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Who invites, as `:name` gave it: fills {SENDER_NAME} from now on, is kept for the next sends and runs, and a
    /// send that waited for it goes on to its confirmation.
    public func setSenderName(_ given: String) {
        let name = given.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            notify("a name is 1 to 100 characters without control characters, e.g. :name Ana Horvat", level: .warning)
            return
        }
        settings.senderName = name
        let shown = TerminalSafeText.sanitize(name, singleLine: true)
        if let save = source.saveSenderName {
            context.run({ try await save(name) }, for: self, failure: "invitations say \(shown) now, but it could not be kept",
                        level: .warning) { vm, _ in
                vm.notify("invitations now say they are from \(shown) (kept for the next sends)", level: .success)
            }
        } else {
            notify("invitations now say they are from \(shown)", level: .success)
        }
        if sending.awaitingSenderName {
            sending.awaitingSenderName = false
            prepareSend()
        }
    }

    /// What stops a send now, or nil.
    public func sendProblem() -> String? {
        if sending.isSending { return "already sending" }
        if channel == .sms, let readOnly = invites.readOnlyReason { return readOnly }
        if recipients.isEmpty { return "nobody selected: pick people in Contacts (space) first" }
        if fullText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "the message is empty" }
        if let unknown = ComposerFields.fieldNobodyHas(template, people: recipients) {
            return "the message uses {\(unknown)} and none of the selected people has it: fields are "
                + fieldNames.map { "{\($0)}" }.joined(separator: " ") + " (or give it a fallback: {\(unknown)|text})"
        }
        if channel == .email, let personal = ComposerFields.personal(template).first {
            return "an email cannot fill personal fields such as {\(personal)}: send it by SMS or take the field out"
        }
        if channel == .sms, let problem = senderProblem { return "sender ID: " + problem }
        if selectedMessage == nil && channel == .sms { return loaded.loadProblem ?? "the messages are still loading" }
        return nil
    }

    /// `t` in the confirmation: the next choice of when the send leaves.
    public func cycleSendTime() {
        guard confirmation != nil, channel == .sms else { return }
        sendWhen = sendWhen.next
    }

    /// The confirmation's line about when it leaves.
    public func sendTimeLine(now: Date = Date()) -> String {
        guard let at = sendWhen.date(now: now) else { return "When: now, after the undo window (t: later)" }
        return "When: \(WallClock.timeOrDay(at, now: now)), held until then (t: another time)"
    }

    /// Drops the confirmation; false when none was shown.
    @discardableResult
    public func cancelSend() -> Bool {
        guard confirmation != nil else { return false }
        confirmation = nil
        return true
    }

    /// Sends after the confirmation: saves an edited text as a custom message first (SMS), then
    /// invites; a toast carries the bulk id.
    public func confirmSend() {
        guard let asked = confirmation, sendProblem() == nil else { return }
        if !asked.missing.isEmpty, missingChoice == nil || !fieldsWithoutFallback.isEmpty {
            notify("\(counted(Set(asked.missing.map(\.personId)).count, "recipient")) \(asked.missing.count == 1 ? "has" : "have") no value for "
                   + Array(Set(asked.missing.map(\.field))).sorted().map { "{\($0)}" }.joined(separator: " ")
                   + ": o leaves them out, f gives a fallback", level: .warning)
            return
        }
        if channel == .sms, invites.confirmAbove != nil, asked.estimate == nil, asked.costQuestion == nil {
            notify("working out what it costs ([send] confirm_above): a moment", level: .info)
            return
        }
        if channel == .sms, let question = asked.costQuestion, !asked.askedAgain {
            // A second confirmation, naming the cost: it takes y, never Enter.
            confirmation?.askedAgain = true
            confirmation?.title = question
            notify(question, level: .warning)
            return
        }
        sending.estimate = asked.estimate
        confirmation = nil
        sending.isSending = true
        if channel == .email { sendEmail() } else { sendSMS() }
    }

    private func sendSMS() {
        let templates = self.templates, invites = self.invites
        let people = recipients.filter { !$0.invitableNumbers.isEmpty }, sender = self.sender, modified = isModified
        let text = fullText, placeholder = linkPlaceholder, key = selectedMessage?.key
        let fields = settings.senderName.map { [ClientField.senderName.rawValue: $0] } ?? [:]
        let sendAt = sendWhen.date(now: Date())
        let estimate = sending.estimate, missing = missingChoice
        context.effects.perform({ () async throws -> (InviteResult, ApplicationMessage?) in
            var saved: ApplicationMessage?
            var messageKey = key
            if modified || key == nil {
                let message = try await templates.create(text: text, placeholder: placeholder)
                saved = message
                messageKey = message.key
            }
            var options = InviteOptions(messageKey: messageKey, sender: sender, fields: fields, sendAt: sendAt)
            options.estimate = estimate
            options.missing = missing
            let result = try await invites.invite(people: people, options: options)
            return (result, saved)
        }) { [weak self] result in self?.finishSend(result) }
    }

    /// What a send answered: the toast, and the composer's new message when the text was saved as one.
    private func finishSend(_ result: Result<(InviteResult, ApplicationMessage?), any Error>) {
        sending.isSending = false
        switch result {
        case .success(let (invite, saved)):
            if let saved {
                loaded.messages.append(saved)
                loaded.messageIndex = loaded.messages.count - 1
                text = saved.text
                signatureIndex = 0
            }
            let accepted = invite.recipients.filter { !$0.status.isImpossible }.count
            // Held by the platform (the undo window): the countdown below says when it leaves.
            var note = invite.sendAt == nil ? "sent \(counted(accepted, "invitation"))" : "held \(counted(accepted, "invitation"))"
            if let bulk = invite.bulkId { note += ", bulk \(bulk)" }
            // Refused numbers say why, each reason once ("opted out on 2026-11-26").
            let refused = invite.recipients.filter(\.status.isImpossible)
            if !refused.isEmpty {
                let reasons = Array(Set(refused.compactMap(\.reason))).sorted().joined(separator: "; ")
                note += "; \(refused.count) refused" + (reasons.isEmpty ? "" : ": " + reasons)
            }
            if !invite.skipped.isEmpty { note += "; \(invite.skipped.count) skipped" }
            notify(note, level: invite.bulkIds.isEmpty || accepted == 0 ? .warning : .success)
            sending.sentBulkIds = invite.bulkIds
        case .failure(let error):
            notify("not sent: " + userMessage(for: error), level: .error)
        }
    }

    /// An email invitation, into the ledger as an SMS is: the composer's text (its link and fields filled per person by
    /// the platform) to each selected person's first email address.
    private func sendEmail() {
        let invites = self.invites
        let people = recipients.filter { !$0.emails.isEmpty }, key = selectedMessage?.key
        let email = EmailOptions(text: fullText)
        let fields = settings.senderName.map { [ClientField.senderName.rawValue: $0] } ?? [:]
        let sendAt = sendWhen.date(now: Date())
        context.effects.perform({ () async throws -> (InviteResult, ApplicationMessage?) in
            (try await invites.invite(people: people, options: InviteOptions(messageKey: key, fields: fields, sendAt: sendAt, email: email)),
             nil)
        }) { [weak self] result in self?.finishSend(result) }
    }

    /// Folds a service event into the state; true when something shown changed.
    @discardableResult
    public func handle(_ event: HeraldEvent) -> Bool { false }
}
