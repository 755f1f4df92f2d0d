import Foundation
import Testing
@testable import HeraldServices

@Suite struct ShareLinksTests {
    let link = "https://hrld.example/i/42?ref=ana&x=1#top"
    let text = "Join me & Marko #Herald 🎉 Придружи се"

    @Test func xLinkCarriesTextAndURL() {
        let url = ShareLinks.url(for: .x, text: text, link: link)
        #expect(url == "https://twitter.com/intent/tweet?text=Join%20me%20%26%20Marko%20%23Herald%20%F0%9F%8E%89%20%D0%9F%D1%80%D0%B8%D0%B4%D1%80%D1%83%D0%B6%D0%B8%20%D1%81%D0%B5&url=https%3A%2F%2Fhrld.example%2Fi%2F42%3Fref%3Dana%26x%3D1%23top")
    }

    @Test func facebookTakesOnlyTheLink() {
        #expect(ShareLinks.url(for: .facebook, text: text, link: link)
                == "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fhrld.example%2Fi%2F42%3Fref%3Dana%26x%3D1%23top")
    }

    @Test func whatsAppPutsTheLinkAfterTheText() throws {
        let url = ShareLinks.url(for: .whatsApp, text: "Bok Šime", link: "https://a.example/b")
        #expect(url == "https://wa.me/?text=Bok%20%C5%A0ime%20https%3A%2F%2Fa.example%2Fb")
        #expect(ShareLinks.url(for: .whatsApp, text: "  ", link: "https://a.example/b") == "https://wa.me/?text=https%3A%2F%2Fa.example%2Fb")
    }

    @Test func telegramCarriesURLThenText() {
        #expect(ShareLinks.url(for: .telegram, text: "a b", link: "https://a.example/?q=1")
                == "https://t.me/share/url?url=https%3A%2F%2Fa.example%2F%3Fq%3D1&text=a%20b")
    }

    @Test func everyLinkParsesBackToTheOriginalValues() throws {
        for (platform, url) in ShareLinks.all(text: text, link: link) {
            let components = try #require(URLComponents(string: url), "\(platform)")
            let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(components.fragment == nil, "a # in the values must not start a fragment")
            switch platform {
            case .x: #expect(items == ["text": text, "url": link])
            case .facebook: #expect(items == ["u": link])
            case .whatsApp: #expect(items == ["text": text + " " + link])
            case .telegram: #expect(items == ["url": link, "text": text])
            }
        }
    }

    @Test func onlyUnreservedCharactersStayLiteral() {
        #expect(ShareLinks.percentEncode("AZaz09-._~") == "AZaz09-._~")
        #expect(ShareLinks.percentEncode("!*'();:@&=+$,/?#[] %") == "%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D%20%25")
        #expect(ShareLinks.percentEncode("中文") == "%E4%B8%AD%E6%96%87")
    }
}
