import Foundation
import Testing
@testable import HeraldCore

@Suite struct MessageTemplateTests {
    @Test func linkReplacesThePlaceholder() {
        let t = MessageTemplate(text: "Join me <> today")
        let r = t.render(link: "https://hrld.io/x")
        #expect(r.text == "Join me https://hrld.io/x today")
        #expect(!r.linkWasAppended)
        #expect(t.hasLinkPlaceholder)
    }

    @Test func everyLinkPlaceholderIsReplaced() {
        let r = MessageTemplate(text: "<> or <>").render(link: "L")
        #expect(r.text == "L or L")
    }

    @Test func linkIsAppendedWhenThereIsNoPlaceholder() {
        #expect(MessageTemplate(text: "Join me").render(link: "L").text == "Join me L")
        #expect(MessageTemplate(text: "Join me\n").render(link: "L").text == "Join me\nL")
        #expect(MessageTemplate(text: "").render(link: "L").text == "L")
        #expect(MessageTemplate(text: "Join me").render(link: "L").linkWasAppended)
    }

    @Test func configurablePlaceholder() {
        let t = MessageTemplate(text: "Join me at [link] <>", linkPlaceholder: "[link]")
        #expect(t.render(link: "L").text == "Join me at L <>")
        let always = MessageTemplate(text: "Hi <>", linkPlaceholder: "")
        #expect(always.render(link: "L").text == "Hi <> L")
    }

    @Test func fieldsAreFilledPerRecipient() {
        let t = MessageTemplate(text: "Hi {RECEIVER_NAME}, {SENDER_NAME} invites you: <> {CUSTOM_TEXT}")
        let r = t.render(link: "L", values: ["RECEIVER_NAME": "Marko", "SENDER_NAME": "Ana", "CUSTOM_TEXT": "see you!"])
        #expect(r.text == "Hi Marko, Ana invites you: L see you!")
        #expect(r.isComplete)
        #expect(t.fields == ["RECEIVER_NAME", "SENDER_NAME", "CUSTOM_TEXT"])
        #expect(t.unknownFields.isEmpty)
    }

    @Test func missingFieldsStayVisibleByDefaultAndAreReported() {
        let t = MessageTemplate(text: "Hi {RECEIVER_NAME} and {RECEIVER_NAME} from {TEAM} <>")
        let r = t.render(link: "L", values: [:])
        #expect(r.text == "Hi {RECEIVER_NAME} and {RECEIVER_NAME} from {TEAM} L")
        #expect(r.missingFields == ["RECEIVER_NAME", "TEAM"])
        #expect(!r.isComplete)
        let emptied = t.render(link: "L", values: ["TEAM": "Ops"], missing: .empty)
        #expect(emptied.text == "Hi and from Ops L")
        #expect(emptied.missingFields == ["RECEIVER_NAME"])
        #expect(t.missingFields(in: ["RECEIVER_NAME": ""]) == ["TEAM"])
    }

    @Test func anEmptyNameLeavesNoGapBeforePunctuation() {
        let t = MessageTemplate(text: "Hi {RECEIVER_NAME}, {SENDER_NAME} invites you: <>")
        #expect(t.render(link: "L", values: ["RECEIVER_NAME": "", "SENDER_NAME": "Ana"]).text == "Hi, Ana invites you: L")
        #expect(t.render(link: "L", values: ["SENDER_NAME": "Ana"], missing: .empty).text == "Hi, Ana invites you: L")
        #expect(t.render(link: "L", values: ["RECEIVER_NAME": "Zoë", "SENDER_NAME": "Ana"]).text == "Hi Zoë, Ana invites you: L")
        // At the end, and before another field, the space goes only where the text would show two or a dangling one.
        #expect(MessageTemplate(text: "From {SENDER_NAME}").render(link: "L", values: ["SENDER_NAME": ""]).text == "From L")
        #expect(MessageTemplate(text: "<> {A} {B}!").render(link: "L", values: ["A": "", "B": "x"]).text == "L x!")
    }

    @Test func countsSayTheirNounInTheRightNumber() {
        #expect(counted(1, "SMS invitation") == "1 SMS invitation")
        #expect(counted(5, "SMS invitation") == "5 SMS invitations")
        #expect(counted(0, "segment") == "0 segments")
        #expect(counted(1, "person", "people") == "1 person")
        #expect(counted(2, "person", "people") == "2 people")
    }

    @Test func customUpperSnakeKeysAreAllowedButUnknown() {
        let t = MessageTemplate(text: "{EVENT_2026} by {SENDER_NAME}")
        #expect(t.fields == ["EVENT_2026", "SENDER_NAME"])
        #expect(t.unknownFields == ["EVENT_2026"])
        #expect(t.render(link: "L", values: ["EVENT_2026": "Fair", "SENDER_NAME": "Ana"]).text == "Fair by Ana L")
    }

    @Test func bracesThatAreNotPlaceholdersStayText() {
        let t = MessageTemplate(text: "{lower} {} {1A} {OPEN <>")
        #expect(t.fields.isEmpty)
        #expect(t.render(link: "L").text == "{lower} {} {1A} {OPEN L")
    }

    @Test func valuesAreNeverExpandedAgain() {
        let t = MessageTemplate(text: "Hi {RECEIVER_NAME} <>")
        let r = t.render(link: "L", values: ["RECEIVER_NAME": "{SENDER_NAME} <>"])
        #expect(r.text == "Hi {SENDER_NAME} <> L")
        #expect(r.isComplete)
    }

    @Test func clientDataFollowsTheWireOrder() {
        let values = ["CUSTOM_TEXT": "custom text", "RECEIVER_NAME": "Marko", "SENDER_NAME": "Ana", "OTHER": "x"]
        #expect(MessageTemplate.clientData(from: values) == ["Ana", "Marko", "custom text"])
        #expect(MessageTemplate.clientData(from: ["END_USER_MSISDN": "385981234567"]) == ["", "", "", "385981234567"])
        #expect(MessageTemplate.clientData(from: [:]).isEmpty)
        #expect(ClientField.allCases.map(\.rawValue) ==
                ["SENDER_NAME", "RECEIVER_NAME", "CUSTOM_TEXT", "END_USER_MSISDN", "END_USER_USERNAME"])
    }

    @Test func clientDataRoundTripsIntoValues() {
        let values = ClientField.values(fromClientData: ["Ana", "Marko", "custom text"])
        #expect(values == ["SENDER_NAME": "Ana", "RECEIVER_NAME": "Marko", "CUSTOM_TEXT": "custom text"])
        let t = MessageTemplate(text: "{SENDER_NAME} → {RECEIVER_NAME}: {CUSTOM_TEXT} <>")
        #expect(t.render(link: "L", values: values).text == "Ana → Marko: custom text L")
    }

    @Test func placeholderRangesForHighlighting() {
        let text = "Čao {RECEIVER_NAME} 👋🏽 <>!"
        let t = MessageTemplate(text: text)
        let ps = t.placeholders
        #expect(ps.count == 2)
        #expect(ps[0].kind == .field("RECEIVER_NAME"))
        #expect(String(text[ps[0].range]) == "{RECEIVER_NAME}")
        #expect(ps[0].characterOffsets == 4..<19)
        #expect(ps[1].kind == .link)
        #expect(String(text[ps[1].range]) == "<>")
        // the waving hand with a skin tone is one Character
        #expect(ps[1].characterOffsets == 22..<24)
        #expect(Array(text)[22] == "<")
    }

    @Test func codableKeepsThePlaceholder() throws {
        let t = MessageTemplate(text: "Join [x]", linkPlaceholder: "[x]")
        let data = try JSONEncoder().encode(t)
        #expect(try JSONDecoder().decode(MessageTemplate.self, from: data) == t)
    }
}

@Suite struct MessageTemplateFallbackTests {
    @Test func aFallbackStandsInForAMissingOrEmptyValue() {
        let t = MessageTemplate(text: "Hi {FIRST_NAME|there}, team {TEAM|}: <>")
        #expect(t.render(link: "L", values: ["FIRST_NAME": "Ana", "TEAM": "Blue"]).text == "Hi Ana, team Blue: L")
        let missing = t.render(link: "L", values: [:])
        #expect(missing.text == "Hi there, team: L")
        #expect(missing.missingFields.isEmpty)
        #expect(t.render(link: "L", values: ["FIRST_NAME": ""]).text == "Hi there, team: L")
        #expect(t.fields == ["FIRST_NAME", "TEAM"])
        #expect(t.missingFields(in: [:]).isEmpty)
    }

    @Test func aFieldWithoutFallbackIsStillMissingBesideOneWithIt() {
        let t = MessageTemplate(text: "{FIRST_NAME|friend} and {FIRST_NAME} <>")
        let r = t.render(link: "L", values: [:])
        #expect(r.text == "friend and {FIRST_NAME} L")
        #expect(r.missingFields == ["FIRST_NAME"])
        #expect(t.missingFields(in: [:]) == ["FIRST_NAME"])
        #expect(t.render(link: "L", values: [:], missing: .empty).text == "friend and L")
    }

    @Test func placeholdersCarryTheirFallbackAndWholeRange() {
        let t = MessageTemplate(text: "Zoë {FIRST_NAME|dear friend} <>")
        let p = t.placeholders
        #expect(p.count == 2)
        #expect(p[0].kind == .field("FIRST_NAME"))
        #expect(p[0].fallback == "dear friend")
        #expect(p[0].characterOffsets == 4..<28)
        #expect(String(t.text[p[0].range]) == "{FIRST_NAME|dear friend}")
        #expect(p[1].kind == .link && p[1].fallback == nil && p[1].characterOffsets == 29..<31)
        #expect(MessageTemplate(text: "{TEAM}").placeholders.first?.fallback == nil)
        #expect(MessageTemplate(text: "{TEAM|}").placeholders.first?.fallback == "")
    }

    @Test func aFallbackEndsAtTheFirstBraceAndNeverCrossesALine() {
        // Text after the first `}` is plain; `{` and `|` inside a fallback are text.
        #expect(MessageTemplate(text: "{A|x{y|z}}").render(link: "", values: [:]).text == "x{y|z} ")
        // An unclosed one, or one with a line break before `}`, is plain text, and the rest is still scanned.
        let broken = MessageTemplate(text: "{A|no end\n{B|b} {C|c")
        #expect(broken.fields == ["B"])
        #expect(broken.render(link: "L", values: [:]).text == "{A|no end\nb {C|c L")
        #expect(MessageTemplate(text: "{a|x} {|x}").fields.isEmpty)
        // Values and fallbacks are never scanned again.
        #expect(MessageTemplate(text: "{A|{B}} {B}").render(link: "L", values: ["B": "<>"]).text == "{B} <> L")
    }
}
