import Foundation
import HeraldTestKit
import HeraldCore
import HeraldServices
import Testing
@testable import HeraldViewModels

@Suite struct ShareViewModelTests {
    /// The Share view-model; its copies go through OSC 52 to `terminal`, their toasts to `toasts`.
    func share(_ ws: WorkspaceHarness, _ pump: EffectPump, sender: String? = "Herald", toasts: ToastLog = ToastLog(),
               composer: ComposerViewModel? = nil, terminal: @escaping ([UInt8]) -> Void = { _ in }) -> ShareViewModel {
        ShareViewModel(share: ws.workspace.share, composer: composer,
                       emailSender: ws.workspace.emailSender, mailProgram: ws.workspace.mailProgram,
                       context: pump.context(toasts: toasts.board, terminal: TerminalHandOver(write: terminal, suspend: nil)),
                       settings: ShareSettings(referrer: "Ana", sender: sender))
    }

    @Test func everyChannelSaysWhetherItCanBeUsedAndWhyNot() async throws {
        var config = WorkspaceConfig(region: "HR")
        config.emailFrom = "ana@example.com"
        config.emailCommand = ExternalCommand(program: "no-such-mailer-here", arguments: ["-t"])
        let ws = try await WorkspaceHarness.screens(config: config)
        let pump = EffectPump()
        let vm = share(ws, pump)
        #expect(vm.availability(of: .sms) == .available)
        #expect(vm.availability(of: .email) == .unavailable(reason: "no no-such-mailer-here program found; set share.email_command in config.toml"))
        #expect(vm.availability(of: .link) == .waiting("loading the referral link…"))
        let noSender = share(ws, pump, sender: nil)
        #expect(noSender.availability(of: .sms) == .unavailable(reason: "no sender ID: set sender = \"NAME\" in config.toml"))
    }

    @Test func withoutAnEmailSenderEmailIsOffWithTheFix() async throws {
        let ws = try await WorkspaceHarness.screens()
        let vm = share(ws, EffectPump())
        guard case .unavailable(let reason) = vm.availability(of: .email) else {
            Issue.record("email should be unavailable"); return
        }
        #expect(reason.contains("email_from"))
    }

    @Test func theReferralLinkComesWithItsClicksQRCodeAndShareURLs() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = share(ws, pump)
        vm.refresh()
        await pump.settle()
        let link = try #require(vm.link)
        #expect(link.url.hasPrefix("https://herald.invalid/r/"))
        #expect(link.clicks == 0)
        #expect(vm.availability(of: .qr) == .available)
        let lines = vm.qrLines()
        let code = try #require(vm.qrCode)
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(lines.joined().contains("▀") && lines.joined().contains("▄"))
        #expect(vm.qrLines(inverted: true) != lines)
        let encoded = ShareLinks.percentEncode(link.url)
        #expect(vm.shareURL(for: .x) == "https://twitter.com/intent/tweet?text=Join%20me%20on%20Herald&url=\(encoded)")
        #expect(vm.shareURL(for: .facebook) == "https://www.facebook.com/sharer/sharer.php?u=\(encoded)")
        #expect(vm.shareURL(for: .whatsApp)?.hasPrefix("https://wa.me/?text=Join%20me%20on%20Herald%20") == true)
        #expect(vm.shareURL(for: .telegram)?.hasPrefix("https://t.me/share/url?url=\(encoded)") == true)
    }

    @Test func copyingTheLinkHandsOSC52BytesToTheTerminal() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let toasts = ToastLog()
        nonisolated(unsafe) var written: [[UInt8]] = []
        let vm = share(ws, pump, toasts: toasts) { written.append($0) }
        vm.refresh()
        await pump.settle()
        vm.choose(.link)
        await pump.settle()
        let url = try #require(vm.link?.url)
        #expect(written == [try Clipboard.osc52Bytes(for: url)])
        #expect(toasts.texts.last == "copied the link through the terminal (OSC 52; a terminal that ignores it pastes nothing: set [share] clipboard_command): \(url)")
    }

    @Test func choosingSMSLeadsToTheComposerAndAnUnavailableChannelExplains() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let toasts = ToastLog()
        let composer = ComposerViewModel(templates: ws.workspace.templates, invites: ws.workspace.invites, source: ComposerSource(),
                                         context: pump.context(), settings: ComposerSettings(sender: "Herald", senderName: "Ana"))
        composer.setChannel(.email)
        let vm = share(ws, pump, toasts: toasts, composer: composer)
        vm.choose(.sms)
        #expect(composer.channel == .sms && vm.context.app.takeFocusRequest() == .composer)
        vm.choose(.email)
        #expect(composer.channel == .sms && vm.context.app.takeFocusRequest() == nil)    // nothing composed for email
        #expect(toasts.entries.last?.level == .warning)
        #expect(toasts.texts.last?.hasPrefix("Email invite is not available: ") == true)
        #expect(vm.current == .email)
    }
}
