#include "CPhoneNumber.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <phonenumbers/phonenumberutil.h>
#include <phonenumbers/phonenumber.pb.h>

#include "RegionRules.hpp"

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static void copy_out(char *dst, size_t size, const std::string &src) {
    std::strncpy(dst, src.c_str(), size - 1);
    dst[size - 1] = '\0';
}

// What `PhoneNumberUtil::Parse` makes of a number written "+" and digits only, without its regular
// expressions, when the answer is certain: the calling code is the shortest known prefix of one to three
// digits (as libphonenumber takes it), and the rest is the national number, provided the region strips no
// national prefix from it (it has no prefix for parsing, or its prefix matches no beginning of the rest).
// Anything else (a leading zero, odd lengths, a prefix that matches) returns false, and libphonenumber
// parses the number itself.
static bool parse_international_digits(const PhoneNumberUtil *util, const std::string &text, PhoneNumber *number) {
    if (text.empty() || text[0] != '+') return false;
    const std::string digits = text.substr(1);
    if (digits.size() < 6 || digits.size() > 20 || digits[0] == '0') return false;
    for (char c : digits) if (c < '0' || c > '9') return false;
    int code = 0;
    size_t codeLength = 0;
    std::string region;
    for (size_t i = 1; i <= 3; i++) {
        const int candidate = std::atoi(digits.substr(0, i).c_str());
        util->GetRegionCodeForCountryCode(candidate, &region);
        if (region != "ZZ") { code = candidate; codeLength = i; break; }
    }
    if (code == 0) return false;
    const std::string national = digits.substr(codeLength);
    if (national.size() < 2 || national.size() > 17 || national[0] == '0') return false;
    const RegionRules *rules = region == "001" ? PhoneRules::shared().non_geographic_region(code)
                                               : PhoneRules::shared().region(region);
    if (!rules) return false;
    if (!rules->national_prefix_for_parsing.empty()
        && (!rules->national_prefix || rules->national_prefix->prefix_match(national))) {
        return false;
    }
    number->set_country_code(code);
    number->set_national_number(std::strtoull(national.c_str(), nullptr, 10));
    return true;
}

// What `PhoneNumberUtil::Parse` makes of a number written in digits only under a default region, without
// its regular expressions: the region's calling code, and the digits less the region's national prefix
// ("0") where libphonenumber strips it (the number without it still fits the region's general pattern or
// the number never did, and its length is possible). Digits that could start with an international call
// prefix or the region's own calling code, a prefix that is a pattern or has a transform rule, or lengths
// outside 3 to 17 return false, and libphonenumber parses the number itself.
static bool parse_national_digits(const std::string &digits, const std::string &region, PhoneNumber *number) {
    if (digits.size() < 3 || digits.size() > 17) return false;
    for (char c : digits) if (c < '0' || c > '9') return false;
    const RegionRules *rules = PhoneRules::shared().region(region);
    if (!rules || !rules->international_prefix || rules->international_prefix->prefix_match(digits)) return false;
    const std::string code = std::to_string(rules->country_code);
    if (digits.compare(0, code.size(), code) == 0) return false;
    const std::string &prefix = rules->national_prefix_for_parsing;
    std::string national = digits;
    // A prefix that matches no beginning of the digits strips nothing, whatever it is; one that matches is
    // handled here only when it is plain digits without a transform rule.
    const bool prefixMatches = !prefix.empty() && (!rules->national_prefix || rules->national_prefix->prefix_match(digits));
    if (prefixMatches && (rules->has_transform_rule || !rules->national_prefix_is_digits)) return false;
    if (prefixMatches) {
        const std::string stripped = national.substr(prefix.size());
        const DigitPattern *general = rules->general.pattern.get();
        const bool viable = general && general->full_match(national);
        if (!viable || general->full_match(stripped)) {
            const PhoneNumberUtil::ValidationResult length = rules->test_length(stripped);
            if (length != PhoneNumberUtil::TOO_SHORT && length != PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY
                && length != PhoneNumberUtil::INVALID_LENGTH) {
                national = stripped;
            }
        }
    }
    if (national.size() < 2 || national.size() > 17) return false;
    number->set_country_code(rules->country_code);
    if (national.size() > 1 && national[0] == '0') {
        number->set_italian_leading_zero(true);
        size_t zeros = 1;
        while (zeros < national.size() - 1 && national[zeros] == '0') zeros++;
        if (zeros != 1) number->set_number_of_leading_zeros(static_cast<int32_t>(zeros));
    }
    number->set_national_number(std::strtoull(national.c_str(), nullptr, 10));
    return true;
}

static void parse(const char *text, const char *region, hpn_result *out, bool fast) {
    std::memset(out, 0, sizeof(*out));
    out->type = HPN_TYPE_UNKNOWN;
    copy_out(out->region, sizeof(out->region), "ZZ");
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    std::string regionCode = (region && region[0]) ? region : "ZZ";
    const std::string input = text ? text : "";
    const bool shortcut = fast && (parse_international_digits(util, input, &number)
                                   || parse_national_digits(input, regionCode, &number));
    PhoneNumberUtil::ErrorType err = shortcut ? PhoneNumberUtil::NO_PARSING_ERROR : util->Parse(input, regionCode, &number);
    switch (err) {
        case PhoneNumberUtil::NO_PARSING_ERROR: break;
        case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: out->error = HPN_ERR_INVALID_COUNTRY_CODE; return;
        case PhoneNumberUtil::NOT_A_NUMBER: out->error = HPN_ERR_NOT_A_NUMBER; return;
        case PhoneNumberUtil::TOO_SHORT_AFTER_IDD: out->error = HPN_ERR_TOO_SHORT_AFTER_IDD; return;
        case PhoneNumberUtil::TOO_SHORT_NSN: out->error = HPN_ERR_TOO_SHORT; return;
        case PhoneNumberUtil::TOO_LONG_NSN: out->error = HPN_ERR_TOO_LONG; return;
        default: out->error = HPN_ERR_NOT_A_NUMBER; return;
    }
    std::string formatted;
    util->Format(number, PhoneNumberUtil::E164, &formatted);
    copy_out(out->e164, sizeof(out->e164), formatted);
    out->countryCode = number.country_code();
    // IsValidNumber(n) is exactly "GetNumberType(n) != UNKNOWN" (both look the region up and run
    // the same type patterns): ask once instead of twice.
    PhoneNumberUtil::PhoneNumberType type = PhoneNumberUtil::UNKNOWN;
    std::string numberRegion;
    std::string national;
    util->GetNationalSignificantNumber(number, &national);
    if (!fast || !PhoneRules::shared().classify(number.country_code(), national, &numberRegion, &type)) {
        type = util->GetNumberType(number);
        util->GetRegionCodeForNumber(number, &numberRegion);
    }
    out->valid = type != PhoneNumberUtil::UNKNOWN ? 1 : 0;
    out->type = static_cast<int>(type);
    if (out->type > HPN_TYPE_UNKNOWN || out->type < 0) out->type = HPN_TYPE_UNKNOWN;
    if (!numberRegion.empty()) copy_out(out->region, sizeof(out->region), numberRegion);
}

extern "C" void hpn_parse(const char *text, const char *region, hpn_result *out) { parse(text, region, out, true); }

extern "C" void hpn_parse_reference(const char *text, const char *region, hpn_result *out) { parse(text, region, out, false); }

// Built once (thread-safe static initialisation); libphonenumber's region list never changes.
static const std::set<std::string> &supported_regions() {
    static const std::set<std::string> regions = [] {
        std::set<std::string> r;
        PhoneNumberUtil::GetInstance()->GetSupportedRegions(&r);
        return r;
    }();
    return regions;
}

extern "C" int hpn_is_supported_region(const char *region) {
    if (!region) return 0;
    return supported_regions().count(region) ? 1 : 0;
}

extern "C" int hpn_format_international(const char *e164, char *out, int size) {
    if (!e164 || !out || size <= 0) return 0;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    if (util->Parse(e164, "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
    std::string formatted;
    util->Format(number, PhoneNumberUtil::INTERNATIONAL, &formatted);
    copy_out(out, static_cast<size_t>(size), formatted);
    return 1;
}

extern "C" int hpn_country_code_for_region(const char *region) {
    if (!region) return 0;
    return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(region);
}

extern "C" int hpn_supported_regions(char *out, int size) {
    if (!out || size <= 0) return 0;
    std::string list;
    for (const std::string &region : supported_regions()) list += (list.empty() ? "" : " ") + region;
    copy_out(out, static_cast<size_t>(size), list);
    return static_cast<int>(list.size()) < size ? 1 : 0;
}

extern "C" int hpn_example_number(const char *region, int type, char *e164, char *national, int size) {
    if (!region || !e164 || !national || size <= 0 || type < 0 || type > HPN_TYPE_VOICEMAIL) return 0;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    if (!util->GetExampleNumberForType(region, static_cast<PhoneNumberUtil::PhoneNumberType>(type), &number)) return 0;
    std::string formatted;
    util->Format(number, PhoneNumberUtil::E164, &formatted);
    copy_out(e164, static_cast<size_t>(size), formatted);
    util->Format(number, PhoneNumberUtil::NATIONAL, &formatted);
    copy_out(national, static_cast<size_t>(size), formatted);
    return 1;
}
