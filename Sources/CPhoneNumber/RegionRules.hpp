#ifndef HERALD_REGION_RULES_HPP
#define HERALD_REGION_RULES_HPP

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include "DigitPattern.hpp"

// libphonenumber's rules for one region (or one non-geographic calling code), with its patterns compiled
// into DigitPatterns: what `GetNumberType`, `GetRegionCodeForNumber` and the national half of `Parse`
// decide, without ICU. Built from the metadata compiled into libphonenumber the first time a region is
// asked for; a region whose patterns use syntax DigitPattern does not know is not `usable`, and numbers
// of it go to libphonenumber.
struct RegionRules {
    using PhoneNumberUtil = i18n::phonenumbers::PhoneNumberUtil;

    struct Desc {
        std::unique_ptr<DigitPattern> pattern;   // null: no pattern, which matches nothing
        std::vector<int> lengths;
        std::vector<int> local_lengths;
        // libphonenumber's IsNumberMatchingDesc: a possible length (when any are listed) and the pattern.
        bool matches(const std::string &national) const;
    };

    std::string id;
    int country_code = 0;
    Desc general, premium_rate, toll_free, shared_cost, voip, personal_number, pager, uan, voicemail,
        fixed_line, mobile;
    bool same_mobile_and_fixed_line = false;
    std::unique_ptr<DigitPattern> leading_digits;   // null when the region has none
    std::unique_ptr<DigitPattern> international_prefix;
    std::string national_prefix_for_parsing;
    // The prefix for parsing as a pattern (null when there is none or it does not compile): whether it
    // matches at all decides whether libphonenumber would strip anything.
    std::unique_ptr<DigitPattern> national_prefix;
    bool national_prefix_is_digits = false;
    bool has_transform_rule = false;
    bool usable = false;

    // GetNumberTypeHelper for a national significant number.
    PhoneNumberUtil::PhoneNumberType type_of(const std::string &national) const;
    // TestNumberLength(number, metadata) with the general description's lengths.
    PhoneNumberUtil::ValidationResult test_length(const std::string &number) const;
};

// Every region's rules, compiled on demand; safe to use from several threads.
class PhoneRules {
public:
    static const PhoneRules &shared();

    // The rules of a region libphonenumber supports ("HR"), or null (unknown, or not usable).
    const RegionRules *region(const std::string &id) const;
    // The rules of a non-geographic calling code ("+800"), or null.
    const RegionRules *non_geographic_region(int calling_code) const;

    // GetRegionCodeForNumber and GetNumberType for a number of `calling_code` whose national significant
    // number is `national`; false when a region involved is not usable.
    bool classify(int calling_code, const std::string &national, std::string *region_code,
                  i18n::phonenumbers::PhoneNumberUtil::PhoneNumberType *type) const;

private:
    struct Entry {
        i18n::phonenumbers::PhoneMetadata metadata;
        mutable std::once_flag once;
        mutable RegionRules rules;
    };
    std::map<std::string, std::unique_ptr<Entry>> geographic;
    std::map<int, std::unique_ptr<Entry>> non_geographic;
    // The regions of each calling code, main one first (GetRegionCodesForCountryCallingCode).
    std::map<int, std::vector<const Entry *>> by_calling_code;

    PhoneRules();
    static const RegionRules *compiled(const Entry &entry);
};

#endif
