#ifndef HERALD_CPHONENUMBER_H
#define HERALD_CPHONENUMBER_H

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of parsing one phone number with libphonenumber.
typedef struct {
    /// 0 = parsed; otherwise one of HPN_ERR_*.
    int error;
    /// 1 when libphonenumber considers the number valid for its region.
    int valid;
    /// One of HPN_TYPE_*.
    int type;
    /// Country calling code, e.g. 385.
    int countryCode;
    /// E.164 form ("+385981234567"), filled whenever parsing succeeded.
    char e164[40];
    /// Region of the number ("HR"), or "ZZ" when unknown.
    char region[8];
} hpn_result;

enum {
    HPN_OK = 0,
    HPN_ERR_INVALID_COUNTRY_CODE = 1,
    HPN_ERR_NOT_A_NUMBER = 2,
    HPN_ERR_TOO_SHORT_AFTER_IDD = 3,
    HPN_ERR_TOO_SHORT = 4,
    HPN_ERR_TOO_LONG = 5,
};

enum {
    HPN_TYPE_FIXED_LINE = 0,
    HPN_TYPE_MOBILE = 1,
    HPN_TYPE_FIXED_LINE_OR_MOBILE = 2,
    HPN_TYPE_TOLL_FREE = 3,
    HPN_TYPE_PREMIUM_RATE = 4,
    HPN_TYPE_SHARED_COST = 5,
    HPN_TYPE_VOIP = 6,
    HPN_TYPE_PERSONAL_NUMBER = 7,
    HPN_TYPE_PAGER = 8,
    HPN_TYPE_UAN = 9,
    HPN_TYPE_VOICEMAIL = 10,
    HPN_TYPE_UNKNOWN = 11,
};

/// Parses `text` (UTF-8) with `region` (ISO 3166 alpha-2, or NULL/"" for none). A number written in digits
/// only (with or without a leading "+") is taken apart, and its type and region found, with libphonenumber's
/// rules compiled into automata instead of its regular expressions, wherever that gives the same answer (see
/// CPhoneNumber.cpp and RegionRules.hpp).
void hpn_parse(const char *text, const char *region, hpn_result *out);

/// `hpn_parse` with libphonenumber's own parsing and regular expressions for every number: what the tests
/// hold `hpn_parse` to.
void hpn_parse_reference(const char *text, const char *region, hpn_result *out);

/// 1 when `region` is a region libphonenumber knows ("HR", "US").
int hpn_is_supported_region(const char *region);

/// Every region libphonenumber supports, separated by spaces, into `out`; 0 when it did not fit.
int hpn_supported_regions(char *out, int size);

/// libphonenumber's example number of `region` and `type` (HPN_TYPE_*), in E.164 and in the national
/// format ("098 123 4567"); 0 when the region has none of that type. What the tests parse valid numbers of
/// every kind from.
int hpn_example_number(const char *region, int type, char *e164, char *national, int size);

/// Country calling code of a region, 0 when unknown.
int hpn_country_code_for_region(const char *region);

/// Writes `e164` in the international format people read ("+385 91 234 5678") into `out`
/// (at most `size` bytes with the terminating NUL); returns 0 when it cannot be parsed.
int hpn_format_international(const char *e164, char *out, int size);

#ifdef __cplusplus
}
#endif

#endif
