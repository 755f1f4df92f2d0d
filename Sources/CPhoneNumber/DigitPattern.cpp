#include "DigitPattern.hpp"

#include <algorithm>
#include <map>

namespace {

// A parsed pattern: a set of digits (a bit per digit), a sequence, a choice, or a repetition.
struct Node {
    enum Kind { Digits, Sequence, Choice, Repeat } kind = Sequence;
    uint16_t digits = 0;
    int min = 1, max = 1;   // max -1: unbounded
    std::vector<Node> parts;
};

// A recursive-descent parser for the pattern syntax the metadata uses; `ok` turns false on anything else.
struct Parser {
    const std::string &text;
    size_t at = 0;
    bool ok = true;

    bool more() const { return at < text.size(); }
    char peek() const { return text[at]; }

    Node choice() {
        Node node;
        node.kind = Node::Choice;
        node.parts.push_back(sequence());
        while (ok && more() && peek() == '|') {
            at++;
            node.parts.push_back(sequence());
        }
        return node.parts.size() == 1 ? node.parts[0] : node;
    }

    Node sequence() {
        Node node;
        node.kind = Node::Sequence;
        while (ok && more() && peek() != '|' && peek() != ')') node.parts.push_back(quantified(atom()));
        return node;
    }

    Node atom() {
        Node node;
        node.kind = Node::Digits;
        const char c = text[at++];
        if (c >= '0' && c <= '9') { node.digits = uint16_t(1u << (c - '0')); return node; }
        if (c == '\\' && more() && peek() == 'd') { at++; node.digits = 0x3FF; return node; }
        if (c == '[') return digitClass();
        if (c == '(') {
            if (more() && peek() == '?') {
                if (at + 1 < text.size() && text[at + 1] == ':') at += 2; else { ok = false; return node; }
            }
            Node inner = choice();
            if (!more() || peek() != ')') { ok = false; return node; }
            at++;
            return inner;
        }
        ok = false;
        return node;
    }

    Node digitClass() {
        Node node;
        node.kind = Node::Digits;
        while (ok && more() && peek() != ']') {
            const char c = text[at++];
            if (c == '\\' && more() && peek() == 'd') { at++; node.digits |= 0x3FF; continue; }
            if (c < '0' || c > '9') { ok = false; break; }
            char last = c;
            if (at + 1 < text.size() && peek() == '-' && text[at + 1] != ']') {
                last = text[at + 1];
                at += 2;
                if (last < c || last > '9') { ok = false; break; }
            }
            for (char d = c; d <= last; d++) node.digits |= uint16_t(1u << (d - '0'));
        }
        if (!more() || node.digits == 0) ok = false; else at++;
        return node;
    }

    int number() {
        if (!more() || peek() < '0' || peek() > '9') { ok = false; return 0; }
        int n = 0;
        while (more() && peek() >= '0' && peek() <= '9' && n < 1000) n = n * 10 + (text[at++] - '0');
        return n;
    }

    Node quantified(Node node) {
        if (!ok || !more()) return node;
        int min = 1, max = 1;
        switch (peek()) {
        case '?': min = 0; max = 1; at++; break;
        case '*': min = 0; max = -1; at++; break;
        case '+': min = 1; max = -1; at++; break;
        case '{':
            at++;
            min = max = number();
            if (more() && peek() == ',') {
                at++;
                max = more() && peek() == '}' ? -1 : number();
            }
            if (!more() || peek() != '}' || (max != -1 && max < min) || max > 64) { ok = false; return node; }
            at++;
            break;
        default: return node;
        }
        // Lazy or possessive forms (`??`, `{2}+`) are not in the metadata.
        if (more() && (peek() == '?' || peek() == '+' || peek() == '*' || peek() == '{')) { ok = false; return node; }
        Node repeat;
        repeat.kind = Node::Repeat;
        repeat.min = min;
        repeat.max = max;
        repeat.parts.push_back(std::move(node));
        return repeat;
    }
};

// Thompson's construction: states with one digit edge or any number of empty edges.
struct NFA {
    struct State {
        uint16_t digits = 0;
        int next = -1;
        std::vector<int> empty;
    };
    std::vector<State> states;

    int add() { states.emplace_back(); return int(states.size()) - 1; }

    // Builds a fresh copy of `node`; returns its entry and exit states.
    std::pair<int, int> build(const Node &node) {
        switch (node.kind) {
        case Node::Digits: {
            const int in = add(), out = add();
            states[in].digits = node.digits;
            states[in].next = out;
            return {in, out};
        }
        case Node::Sequence: {
            const int in = add();
            int last = in;
            for (const Node &part : node.parts) {
                const auto [a, b] = build(part);
                states[last].empty.push_back(a);
                last = b;
            }
            return {in, last};
        }
        case Node::Choice: {
            const int in = add(), out = add();
            for (const Node &part : node.parts) {
                const auto [a, b] = build(part);
                states[in].empty.push_back(a);
                states[b].empty.push_back(out);
            }
            return {in, out};
        }
        case Node::Repeat: {
            const int in = add();
            int last = in;
            for (int i = 0; i < node.min; i++) {
                const auto [a, b] = build(node.parts[0]);
                states[last].empty.push_back(a);
                last = b;
            }
            if (node.max == -1) {
                const auto [a, b] = build(node.parts[0]);
                states[last].empty.push_back(a);
                states[b].empty.push_back(a);
                const int out = add();
                states[last].empty.push_back(out);
                states[b].empty.push_back(out);
                return {in, out};
            }
            const int out = add();
            for (int i = node.min; i < node.max; i++) {
                states[last].empty.push_back(out);
                const auto [a, b] = build(node.parts[0]);
                states[last].empty.push_back(a);
                last = b;
            }
            states[last].empty.push_back(out);
            return {in, out};
        }
        }
        return {add(), add()};
    }

    // `set` with every state reachable from it by empty edges, sorted.
    std::vector<int> closure(std::vector<int> set) const {
        std::vector<bool> seen(states.size());
        std::vector<int> stack = set;
        for (int s : set) seen[s] = true;
        while (!stack.empty()) {
            const int s = stack.back();
            stack.pop_back();
            for (int t : states[s].empty) {
                if (!seen[t]) { seen[t] = true; set.push_back(t); stack.push_back(t); }
            }
        }
        std::sort(set.begin(), set.end());
        return set;
    }
};

}  // namespace

std::unique_ptr<DigitPattern> DigitPattern::compile(const std::string &pattern) {
    Parser parser{pattern};
    Node root = parser.choice();
    if (!parser.ok || parser.more()) return nullptr;
    NFA nfa;
    const std::pair<int, int> ends = nfa.build(root);
    const int entry = ends.first, exit = ends.second;
    if (nfa.states.size() > 200000) return nullptr;

    // Subset construction; a pattern whose automaton grows past the limit stays with ICU.
    const size_t limit = 20000;
    auto result = std::unique_ptr<DigitPattern>(new DigitPattern());
    std::map<std::vector<int>, int32_t> known;
    std::vector<std::vector<int>> sets;
    auto intern = [&](std::vector<int> set) -> int32_t {
        auto found = known.find(set);
        if (found != known.end()) return found->second;
        const int32_t id = int32_t(sets.size());
        known.emplace(set, id);
        result->accepting.push_back(std::binary_search(set.begin(), set.end(), exit));
        result->transitions.push_back({});
        sets.push_back(std::move(set));
        return id;
    };
    intern(nfa.closure({entry}));
    for (size_t i = 0; i < sets.size(); i++) {
        if (sets.size() > limit) return nullptr;
        for (int d = 0; d < 10; d++) {
            std::vector<int> next;
            for (int s : sets[i]) {
                const NFA::State &state = nfa.states[s];
                if (state.next >= 0 && (state.digits >> d & 1)) next.push_back(state.next);
            }
            const int32_t target = next.empty() ? -1 : intern(nfa.closure(std::move(next)));
            result->transitions[i][d] = target;
        }
    }
    return result;
}

bool DigitPattern::full_match(const std::string &digits) const {
    int32_t state = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return false;
        state = transitions[state][c - '0'];
        if (state < 0) return false;
    }
    return accepting[state];
}

bool DigitPattern::prefix_match(const std::string &digits) const {
    int32_t state = 0;
    if (accepting[state]) return true;
    for (char c : digits) {
        if (c < '0' || c > '9') return false;
        state = transitions[state][c - '0'];
        if (state < 0) return false;
        if (accepting[state]) return true;
    }
    return false;
}
