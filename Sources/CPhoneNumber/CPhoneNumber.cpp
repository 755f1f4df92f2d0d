#include "CPhoneNumber.h"

#include <cstring>
#include <set>
#include <string>
#include <phonenumbers/phonenumberutil.h>
#include <phonenumbers/phonenumber.pb.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static void copy_out(char *dst, size_t size, const std::string &src) {
    std::strncpy(dst, src.c_str(), size - 1);
    dst[size - 1] = '\0';
}

extern "C" void hpn_parse(const char *text, const char *region, hpn_result *out) {
    std::memset(out, 0, sizeof(*out));
    out->type = HPN_TYPE_UNKNOWN;
    copy_out(out->region, sizeof(out->region), "ZZ");
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    std::string regionCode = (region && region[0]) ? region : "ZZ";
    PhoneNumberUtil::ErrorType err = util->Parse(text ? text : "", regionCode, &number);
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
