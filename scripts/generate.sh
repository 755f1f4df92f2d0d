#!/bin/sh
# Rewrites the repository's generated files from their sources (`make docs`); the tests compare them and fail,
# naming this script, when one is out of date.
#   docs/keys.md                          from the key table, by `herald keys --markdown --defaults`
#   Sources/HeraldTUI/Theme/BuiltinThemes.swift   from themes/*.toml (compiled in for an installed binary)
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C

themes=Sources/HeraldTUI/Theme/BuiltinThemes.swift
{
    echo "// Generated from themes/*.toml by scripts/generate.sh (make docs). Do not edit."
    echo "/// The built-in themes' text, compiled in so an installed binary works without the themes folder."
    echo "nonisolated enum BuiltinThemes {"
    echo "    static let sources: [String: String] = ["
    for file in themes/*.toml; do
        printf '        "%s": #"""\n' "$(basename "$file" .toml)"
        cat "$file"
        printf '"""#,\n'
    done
    echo "    ]"
    echo "}"
} > "$themes.new"
mv "$themes.new" "$themes"

swift build --product herald
"$(swift build --show-bin-path)/herald" keys --markdown --defaults > docs/keys.md.new
mv docs/keys.md.new docs/keys.md
echo "generated: $themes docs/keys.md"
