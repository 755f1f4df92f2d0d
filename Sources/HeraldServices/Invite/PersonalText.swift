import HeraldAPI
import HeraldCore

/// A message's personal fields (`{FIRST_NAME}`, `{TEAM|friend}`: any field but the five client fields) filled for one
/// recipient on this side, the link placeholder and the client fields left as written for the platform (which fills
/// them from `clientData`, as Infobip's protocol has it). Values are cleaned as client data is; a field with no value
/// takes the template's fallback, then the one the sender gave for the send; one with neither is missing.
struct PersonalText: Sendable, Hashable {
    /// The destination's own text.
    var text: String
    /// Fields that had no value and no fallback, distinct, in order of first use.
    var missing: [String]

    /// Whether the template uses a field the platform cannot fill (so each recipient needs a text of its own).
    static func isPersonal(_ template: MessageTemplate) -> Bool {
        !template.unknownFields.isEmpty
    }

    /// The personal fields `template` uses, distinct, in order.
    static func fields(of template: MessageTemplate) -> [String] {
        template.unknownFields
    }

    /// `template` with its personal fields filled from `values`, else from a placeholder's own fallback, else from
    /// `fallbacks` (the send's, by field); a missing one is kept as written so a preview shows where it goes.
    static func render(_ template: MessageTemplate, values: [String: String], fallbacks: [String: String]) -> PersonalText {
        var out = ""
        var missing: [String] = []
        var at = template.text.startIndex
        // As `MessageTemplate.render` does: a field that came out empty right after a space takes the space along when
        // punctuation, a space or the end follows ("Hi {FIRST_NAME|}, …" reads "Hi, …").
        var gapAfterSpace = false
        for placeholder in template.placeholders {
            let literal = template.text[at..<placeholder.range.lowerBound]
            if gapAfterSpace, let next = literal.first, next.isPunctuation || next.isWhitespace, out.last == " " {
                out.removeLast()
            }
            gapAfterSpace = false
            out += literal
            at = placeholder.range.upperBound
            guard case .field(let key) = placeholder.kind, ClientField(rawValue: key) == nil else {
                out += template.text[placeholder.range]
                continue
            }
            let value: String
            if let given = values[key].map({ ClientDataCleaning.clean($0, singleLine: true) }), !given.isEmpty {
                value = given
            } else if let own = placeholder.fallback {
                value = own
            } else if let fallback = fallbacks[key] {
                value = ClientDataCleaning.clean(fallback, singleLine: true)
            } else {
                if !missing.contains(key) { missing.append(key) }
                value = String(template.text[placeholder.range])
            }
            out += value
            gapAfterSpace = value.isEmpty && out.last == " "
        }
        let tail = template.text[at...]
        if gapAfterSpace, out.last == " ", tail.first.map({ $0.isPunctuation || $0.isWhitespace }) ?? true { out.removeLast() }
        out += tail
        return PersonalText(text: out, missing: missing)
    }
}

/// How one send fills its message's personal fields: the template, and what the sender chose for whoever lacks one.
struct PersonalPlan: Sendable, Hashable {
    var template: MessageTemplate
    var choice: MissingFieldChoice?

    enum Outcome: Sendable, Hashable {
        /// The recipient's own text; `missing`: fields left as written (no choice was made for them).
        case text(String, missing: [String])
        /// Left out, with the reason.
        case leftOut(String)
    }

    /// A field the message uses without a fallback (its own or the sender's) that is neither standard nor held by any
    /// of `people` is a mistake (a typo, a column never imported): refused before anything is queued, naming it.
    func checkKnown(people: [Person]) throws {
        let custom = Set(people.flatMap { $0.customFields.keys })
        for field in PersonalText.fields(of: template) where !PersonalFields.standard.contains(field) && !custom.contains(field) {
            let bare = template.placeholders.contains { $0.kind == .field(field) && $0.fallback == nil }
            if case .fallback(let given) = choice, given[field] != nil { continue }   // the sender said what it says
            guard bare else { continue }
            throw InviteError.fieldNobodyHas(field, known: PersonalFields.standard + custom.sorted())
        }
    }

    /// The recipient's own text, or why they are left out. A fallback choice without a text for a missing field
    /// refuses the send.
    func text(for person: Person?) throws -> Outcome {
        let values = person.map(PersonalFields.values(of:)) ?? [:]
        var fallbacks: [String: String] = [:]
        if case .fallback(let given) = choice { fallbacks = given }
        let rendered = PersonalText.render(template, values: values, fallbacks: fallbacks)
        if let first = rendered.missing.first {
            switch choice {
            case .leaveOut?:
                return .leftOut("no value for \(rendered.missing.joined(separator: ", ")) and no fallback (left out)")
            case .fallback?:
                throw InviteError.noFallback(first)
            case nil:
                break
            }
        }
        let limit = SendInvitationBody.Destination.maxTextLength
        if rendered.text.count > limit {
            return .leftOut("its own text would have \(rendered.text.count) characters, more than the \(limit) one text may have")
        }
        return .text(rendered.text, missing: rendered.missing)
    }
}

extension InviteService {
    /// Refuses a send with recipients whose personal field has no value and no fallback, when no choice was made for
    /// them (those the resend policy leaves out anyway do not count).
    func refuseMissing(_ candidates: [Candidate], policy: ResendPolicy) throws {
        let lacking = candidates.filter { !$0.missing.isEmpty }
        guard !lacking.isEmpty else { return }
        let latest = try ledger.latestStatuses(msisdns: lacking.map(\.e164))
        let permanent = try ledger.permanentFailures(msisdns: lacking.map(\.e164))
        let list = lacking.filter {
            policy.decide(latest: latest[$0.e164], permanentFailure: permanent.contains($0.e164)) == .send
        }.flatMap { c in c.missing.map { MissingField(address: c.e164, personId: c.personId, name: c.name, field: $0) } }
        if !list.isEmpty { throw InviteError.missingFields(list) }
    }
}
