#include "CPhoneNumber.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>
#include <phonenumbers/phonenumber.pb.h>

// The metadata compiled into libphonenumber (exported by the library; its header is not installed).
namespace i18n { namespace phonenumbers {
int metadata_size();
const void *metadata_get();
} }

using i18n::phonenumbers::PhoneMetadataCollection;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static void copy_out(char *dst, size_t size, const std::string &src) {
    std::strncpy(dst, src.c_str(), size - 1);
    dst[size - 1] = '\0';
}

// The national prefix each region strips when parsing (`national_prefix_for_parsing`), keyed by region
// ("HR") or, for the non-geographic entities ("001"), by "001/" and the calling code.
static const std::map<std::string, std::string> &prefixes_for_parsing() {
    static const std::map<std::string, std::string> prefixes = [] {
        std::map<std::string, std::string> m;
        PhoneMetadataCollection collection;
        if (collection.ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size())) {
            for (const auto &metadata : collection.metadata()) {
                const std::string key = metadata.id() == "001" ? "001/" + std::to_string(metadata.country_code()) : metadata.id();
                m[key] = metadata.national_prefix_for_parsing();
            }
        }
        return m;
    }();
    return prefixes;
}

// What `PhoneNumberUtil::Parse` makes of a number written "+" and digits only, without its regular
// expressions, when the answer is certain: the calling code is the shortest known prefix of one to three
// digits (as libphonenumber takes it), and the rest is the national number, provided the region strips no
// national prefix from it (its prefix for parsing is empty, or plain digits the rest does not start with).
// Anything else (a leading zero, odd lengths, a prefix that is a pattern or that the rest starts with)
// returns false, and libphonenumber parses the number itself.
static bool parse_international_digits(const PhoneNumberUtil *util, const char *text, PhoneNumber *number) {
    if (text[0] != '+') return false;
    const char *digits = text + 1;
    const size_t length = std::strlen(digits);
    if (length < 6 || length > 20 || digits[0] == '0') return false;
    for (size_t i = 0; i < length; i++) if (digits[i] < '0' || digits[i] > '9') return false;
    int code = 0;
    size_t codeLength = 0;
    std::string region;
    for (size_t i = 1; i <= 3; i++) {
        const int candidate = std::atoi(std::string(digits, i).c_str());
        util->GetRegionCodeForCountryCode(candidate, &region);
        if (region != "ZZ") { code = candidate; codeLength = i; break; }
    }
    if (code == 0) return false;
    const std::string national(digits + codeLength);
    if (national.size() < 2 || national.size() > 17 || national[0] == '0') return false;
    const auto &prefixes = prefixes_for_parsing();
    const auto rule = prefixes.find(region == "001" ? "001/" + std::to_string(code) : region);
    if (rule == prefixes.end()) return false;
    const std::string &prefix = rule->second;
    if (!prefix.empty()) {
        for (char c : prefix) if (c < '0' || c > '9') return false;
        if (national.compare(0, prefix.size(), prefix) == 0) return false;
    }
    number->set_country_code(code);
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
    PhoneNumberUtil::ErrorType err = fast && text && parse_international_digits(util, text, &number)
        ? PhoneNumberUtil::NO_PARSING_ERROR
        : util->Parse(text ? text : "", regionCode, &number);
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
    const PhoneNumberUtil::PhoneNumberType type = util->GetNumberType(number);
    out->valid = type != PhoneNumberUtil::UNKNOWN ? 1 : 0;
    out->type = static_cast<int>(type);
    if (out->type > HPN_TYPE_UNKNOWN || out->type < 0) out->type = HPN_TYPE_UNKNOWN;
    std::string numberRegion;
    util->GetRegionCodeForNumber(number, &numberRegion);
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
