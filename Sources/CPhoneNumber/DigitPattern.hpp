#ifndef HERALD_DIGIT_PATTERN_HPP
#define HERALD_DIGIT_PATTERN_HPP

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// One of libphonenumber's number patterns ("[1-9]\d{7,8}|6(?:0[0-2]|[1-9]\d)\d{5}") compiled into a
// deterministic automaton over the ten ASCII digits, so that matching a national number costs one table
// step per digit instead of a run of ICU's regular-expression engine.
//
// Only the syntax the metadata uses is accepted: digits, `\d`, classes of digits and ranges (`[02-9]`),
// groups (`(?:…)` and `(…)`), alternation, and the greedy quantifiers `?`, `*`, `+`, `{n}`, `{n,}` and
// `{n,m}`. Anything else makes `compile` return null, and the caller leaves the number to libphonenumber.
class DigitPattern {
public:
    static std::unique_ptr<DigitPattern> compile(const std::string &pattern);

    // Whether all of `digits` matches (ICU's `matches`, libphonenumber's `FullMatch`).
    bool full_match(const std::string &digits) const;
    // Whether some beginning of `digits` matches, the empty one included (ICU's `lookingAt`,
    // libphonenumber's `Consume`).
    bool prefix_match(const std::string &digits) const;

private:
    // transitions[state][digit]: the next state, or -1 when no match can follow.
    std::vector<std::array<int32_t, 10>> transitions;
    std::vector<bool> accepting;
};

#endif
