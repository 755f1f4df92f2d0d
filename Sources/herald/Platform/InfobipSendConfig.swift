import Foundation
import HeraldInfobip
import TOMLKit

/// `[infobip.send]`: what every message carries on Infobip, each value checked against Infobip's published limits
/// when the file is read (a wrong one stops Herald with the key and what to write).
///
/// ```toml
/// [infobip.send]
/// validity = "2h"                     # 90m, 2h, 3600s; at most 48h
/// delivery_days = ["MONDAY", "FRIDAY"]
/// delivery_from = "08:00"             # UTC, with delivery_to, at least an hour apart
/// ```
extension HeraldConfig {
    static let knownInfobipSend: Set<String> = [
        "validity", "delivery_days", "delivery_from", "delivery_to", "speed_limit", "shorten_urls", "track_clicks",
        "tracking_url", "remove_protocol", "custom_domain", "conversion_tracking", "campaign", "transliteration",
        "language", "india_dlt_principal_entity_id", "india_dlt_content_template_id", "india_dlt_telemarketer_id",
        "turkey_iys_recipient_type", "turkey_iys_brand_code",
    ]

    static func parseInfobipSend(_ t: TOMLTable, file: String, lines: ConfigLines, warnings: inout [String]) throws -> InfobipSendOptions {
        for key in t.keys.sorted() where !knownInfobipSend.contains(key) {
            warnings.append("\(ConfigError.place(file, lines.line(of: "infobip.send.\(key)"))): unknown key \"infobip.send.\(key)\" ignored (known: \(knownInfobipSend.sorted().joined(separator: ", ")))")
        }
        func fail(_ key: String, _ message: String) -> ConfigError { ConfigError(file: file, line: lines.line(of: "infobip.send.\(key)"), message: "infobip.send.\(key): \(message)") }
        func string(_ key: String) throws -> String? {
            guard let v = t[key] else { return nil }
            guard let s = v.string, !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail(key, "must be a string, like \(key) = \"…\"") }
            return s
        }
        func bool(_ key: String) throws -> Bool? {
            guard let v = t[key] else { return nil }
            guard let b = v.bool else { throw fail(key, "must be true or false") }
            return b
        }
        func checked<T>(_ key: String, _ parse: () throws -> T) throws -> T {
            do { return try parse() } catch let error as InfobipOptionError { throw fail(key, error.description) }
        }
        var o = InfobipSendOptions()
        if let text = try string("validity") { o.validity = try checked("validity") { try InfobipSendOptions.validity(text) } }
        let from = try string("delivery_from"), to = try string("delivery_to")
        if let value = t["delivery_days"] {
            let days = value.array?.compactMap(\.string) ?? []
            guard let array = value.array, days.count == array.count else {
                throw fail("delivery_days", "must be a list of days, like [\"MONDAY\", \"FRIDAY\"]")
            }
            o.deliveryWindow = try checked("delivery_days") { try InfobipSendOptions.deliveryWindow(days: days, from: from, to: to) }
        } else if from != nil || to != nil {
            throw fail(from != nil ? "delivery_from" : "delivery_to", "needs delivery_days, the days the hours are for")
        }
        if let text = try string("speed_limit") { o.speedLimit = try checked("speed_limit") { try InfobipSendOptions.speedLimit(text) } }
        let tracking = InfobipSendRequest.Tracking(shortenUrl: try bool("shorten_urls"), trackClicks: try bool("track_clicks"),
                                                   trackingUrl: try string("tracking_url"), removeProtocol: try bool("remove_protocol"),
                                                   customDomain: try string("custom_domain"))
        if tracking != InfobipSendRequest.Tracking() { o.tracking = tracking }
        o.conversionTrackingName = try string("conversion_tracking")
        if let campaign = try string("campaign") {
            guard campaign.count <= InfobipSendOptions.campaignReferenceLimit else {
                throw fail("campaign", "is \(campaign.count) characters; Infobip takes at most \(InfobipSendOptions.campaignReferenceLimit)")
            }
            o.campaignReferenceId = campaign
        }
        if let text = try string("transliteration") {
            o.transliteration = try checked("transliteration") { try InfobipSendOptions.oneOf(text, InfobipSendOptions.transliterations) }
        }
        if let text = try string("language") {
            o.languageCode = try checked("language") { try InfobipSendOptions.oneOf(text, InfobipSendOptions.languageCodes) }
        }
        let template = try string("india_dlt_content_template_id"), telemarketer = try string("india_dlt_telemarketer_id")
        if let principal = try string("india_dlt_principal_entity_id") {
            o.indiaDlt = .init(contentTemplateId: template, principalEntityId: principal, telemarketerId: telemarketer)
        } else if template != nil || telemarketer != nil {
            throw fail("india_dlt_principal_entity_id", "is required with the other India DLT ids")
        }
        let brand: Int? = try t["turkey_iys_brand_code"].map { value in
            guard let code = value.int else { throw fail("turkey_iys_brand_code", "must be a whole number") }
            return code
        }
        if let type = try string("turkey_iys_recipient_type") {
            let checkedType = try checked("turkey_iys_recipient_type") { try InfobipSendOptions.oneOf(type, InfobipSendOptions.turkeyRecipientTypes) }
            o.turkeyIys = .init(brandCode: brand, recipientType: checkedType)
        } else if brand != nil {
            throw fail("turkey_iys_recipient_type", "is required with turkey_iys_brand_code (BIREYSEL or TACIR)")
        }
        return o
    }
}
