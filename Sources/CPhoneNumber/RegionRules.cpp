#include "RegionRules.hpp"

#include <algorithm>
#include <list>

// The metadata compiled into libphonenumber (exported by the library; its header is not installed).
namespace i18n { namespace phonenumbers {
int metadata_size();
const void *metadata_get();
} }

using i18n::phonenumbers::PhoneMetadata;
using i18n::phonenumbers::PhoneMetadataCollection;
using i18n::phonenumbers::PhoneNumberDesc;
using i18n::phonenumbers::PhoneNumberUtil;

bool RegionRules::Desc::matches(const std::string &national) const {
    const int length = static_cast<int>(national.size());
    if (!lengths.empty() && std::find(lengths.begin(), lengths.end(), length) == lengths.end()) return false;
    return pattern && pattern->full_match(national);
}

PhoneNumberUtil::PhoneNumberType RegionRules::type_of(const std::string &national) const {
    if (!general.matches(national)) return PhoneNumberUtil::UNKNOWN;
    if (premium_rate.matches(national)) return PhoneNumberUtil::PREMIUM_RATE;
    if (toll_free.matches(national)) return PhoneNumberUtil::TOLL_FREE;
    if (shared_cost.matches(national)) return PhoneNumberUtil::SHARED_COST;
    if (voip.matches(national)) return PhoneNumberUtil::VOIP;
    if (personal_number.matches(national)) return PhoneNumberUtil::PERSONAL_NUMBER;
    if (pager.matches(national)) return PhoneNumberUtil::PAGER;
    if (uan.matches(national)) return PhoneNumberUtil::UAN;
    if (voicemail.matches(national)) return PhoneNumberUtil::VOICEMAIL;
    if (fixed_line.matches(national)) {
        if (same_mobile_and_fixed_line || mobile.matches(national)) return PhoneNumberUtil::FIXED_LINE_OR_MOBILE;
        return PhoneNumberUtil::FIXED_LINE;
    }
    if (!same_mobile_and_fixed_line && mobile.matches(national)) return PhoneNumberUtil::MOBILE;
    return PhoneNumberUtil::UNKNOWN;
}

PhoneNumberUtil::ValidationResult RegionRules::test_length(const std::string &number) const {
    const std::vector<int> &possible = general.lengths;   // never empty in a usable region
    if (possible.front() == -1) return PhoneNumberUtil::INVALID_LENGTH;
    const int length = static_cast<int>(number.size());
    const std::vector<int> &local = general.local_lengths;
    if (std::find(local.begin(), local.end(), length) != local.end()) return PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY;
    if (possible.front() == length) return PhoneNumberUtil::IS_POSSIBLE;
    if (possible.front() > length) return PhoneNumberUtil::TOO_SHORT;
    if (possible.back() < length) return PhoneNumberUtil::TOO_LONG;
    return std::find(possible.begin() + 1, possible.end(), length) != possible.end()
        ? PhoneNumberUtil::IS_POSSIBLE : PhoneNumberUtil::INVALID_LENGTH;
}

const PhoneRules &PhoneRules::shared() {
    static const PhoneRules rules;
    return rules;
}

PhoneRules::PhoneRules() {
    PhoneMetadataCollection collection;
    if (!collection.ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size())) return;
    for (const PhoneMetadata &metadata : collection.metadata()) {
        auto entry = std::make_unique<Entry>();
        entry->metadata = metadata;
        if (metadata.id() == "001") non_geographic[metadata.country_code()] = std::move(entry);
        else geographic[metadata.id()] = std::move(entry);
    }
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    for (const PhoneMetadata &metadata : collection.metadata()) {
        const int code = metadata.country_code();
        if (by_calling_code.count(code)) continue;
        std::list<std::string> regions;
        util->GetRegionCodesForCountryCallingCode(code, &regions);
        std::vector<const Entry *> entries;
        for (const std::string &id : regions) {
            const Entry *entry = nullptr;
            if (id == "001") {
                auto found = non_geographic.find(code);
                if (found != non_geographic.end()) entry = found->second.get();
            } else {
                auto found = geographic.find(id);
                if (found != geographic.end()) entry = found->second.get();
            }
            // A region the list names without metadata: leave the whole code to libphonenumber.
            if (!entry) { entries.clear(); break; }
            entries.push_back(entry);
        }
        by_calling_code[code] = std::move(entries);
    }
}

static void compile_desc(RegionRules::Desc &desc, const PhoneNumberDesc &source, bool &ok) {
    if (!source.national_number_pattern().empty()) {
        desc.pattern = DigitPattern::compile(source.national_number_pattern());
        if (!desc.pattern) ok = false;
    }
    desc.lengths.assign(source.possible_length().begin(), source.possible_length().end());
    desc.local_lengths.assign(source.possible_length_local_only().begin(), source.possible_length_local_only().end());
}

const RegionRules *PhoneRules::compiled(const Entry &entry) {
    std::call_once(entry.once, [&entry] {
        const PhoneMetadata &m = entry.metadata;
        RegionRules &r = entry.rules;
        bool ok = true;
        r.id = m.id();
        r.country_code = m.country_code();
        compile_desc(r.general, m.general_desc(), ok);
        compile_desc(r.premium_rate, m.premium_rate(), ok);
        compile_desc(r.toll_free, m.toll_free(), ok);
        compile_desc(r.shared_cost, m.shared_cost(), ok);
        compile_desc(r.voip, m.voip(), ok);
        compile_desc(r.personal_number, m.personal_number(), ok);
        compile_desc(r.pager, m.pager(), ok);
        compile_desc(r.uan, m.uan(), ok);
        compile_desc(r.voicemail, m.voicemail(), ok);
        compile_desc(r.fixed_line, m.fixed_line(), ok);
        compile_desc(r.mobile, m.mobile(), ok);
        r.same_mobile_and_fixed_line = m.same_mobile_and_fixed_line_pattern();
        if (m.has_leading_digits()) {
            r.leading_digits = DigitPattern::compile(m.leading_digits());
            if (!r.leading_digits) ok = false;
        }
        // A missing or uncompilable international prefix only keeps national numbers from the shortcut.
        if (m.has_international_prefix()) r.international_prefix = DigitPattern::compile(m.international_prefix());
        r.national_prefix_for_parsing = m.national_prefix_for_parsing();
        if (!r.national_prefix_for_parsing.empty()) r.national_prefix = DigitPattern::compile(r.national_prefix_for_parsing);
        r.national_prefix_is_digits = std::all_of(r.national_prefix_for_parsing.begin(), r.national_prefix_for_parsing.end(),
                                                  [](char c) { return c >= '0' && c <= '9'; });
        r.has_transform_rule = !m.national_prefix_transform_rule().empty();
        r.usable = ok && !r.general.lengths.empty();
    });
    return entry.rules.usable ? &entry.rules : nullptr;
}

const RegionRules *PhoneRules::region(const std::string &id) const {
    auto found = geographic.find(id);
    return found == geographic.end() ? nullptr : compiled(*found->second);
}

const RegionRules *PhoneRules::non_geographic_region(int calling_code) const {
    auto found = non_geographic.find(calling_code);
    return found == non_geographic.end() ? nullptr : compiled(*found->second);
}

bool PhoneRules::classify(int calling_code, const std::string &national, std::string *region_code,
                          PhoneNumberUtil::PhoneNumberType *type) const {
    auto found = by_calling_code.find(calling_code);
    if (found == by_calling_code.end()) {
        // Not a calling code of any region: libphonenumber has no metadata for it either.
        *region_code = "ZZ";
        *type = PhoneNumberUtil::UNKNOWN;
        return true;
    }
    const std::vector<const Entry *> &entries = found->second;
    if (entries.empty()) return false;
    const RegionRules *chosen = nullptr;
    if (entries.size() == 1) {
        chosen = compiled(*entries[0]);
        if (!chosen) return false;
    } else {
        for (const Entry *entry : entries) {
            const RegionRules *rules = compiled(*entry);
            if (!rules) return false;
            const bool matches = rules->leading_digits ? rules->leading_digits->prefix_match(national)
                                                       : rules->type_of(national) != PhoneNumberUtil::UNKNOWN;
            if (matches) { chosen = rules; break; }
        }
    }
    if (!chosen) {
        *region_code = "ZZ";
        *type = PhoneNumberUtil::UNKNOWN;
        return true;
    }
    *region_code = chosen->id;
    *type = chosen->type_of(national);
    return true;
}
