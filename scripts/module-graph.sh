#!/bin/sh
# Prints the module graph that the imports of Sources/ draw (each target and the Herald and C modules it
# imports), then checks the one-way rules of docs/design.md: an import a rule forbids is named with its file, and
# the script fails. `make test` runs it through ModuleGraphTests; run it by hand as scripts/module-graph.sh [SOURCES].
set -eu
export LC_ALL=C
sources=${1:-"$(dirname "$0")/../Sources"}
[ -d "$sources" ] || { echo "module-graph: no folder $sources" >&2; exit 2; }

# target: the modules it may never import (docs/design.md, "Modules and the one-way rule"; UI = view-models, TUI, app).
rules='HeraldCore HeraldAPI HeraldStore HeraldServices HeraldEngine HeraldEnginePostgres HeraldServer HeraldHTTP HeraldInfobip HeraldEmbedded HeraldViewModels HeraldTUI HeraldApp CNCurses CQRencode
HeraldAPI HeraldStore HeraldServices HeraldEngine HeraldEnginePostgres HeraldServer HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldEngine HeraldStore HeraldServices HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldEnginePostgres HeraldStore HeraldServices HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldServer HeraldStore HeraldServices HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldHTTP HeraldStore HeraldServices HeraldEngine HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldStore HeraldServices HeraldEngine HeraldEnginePostgres HeraldServer HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldServices HeraldEngine HeraldEnginePostgres HeraldServer HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldEmbedded HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldInfobip HeraldViewModels HeraldTUI HeraldApp CNCurses
HeraldViewModels HeraldStore HeraldEngine HeraldEnginePostgres HeraldServer CNCurses HeraldTUI HeraldApp
HeraldTUI HeraldStore HeraldServices HeraldEngine HeraldEnginePostgres HeraldServer HeraldApp'

# Every "import M" (with attributes such as @testable, or a kind such as "import struct") as: target file module.
edges=$(cd "$sources" && find . -name '*.swift' | sort | while read -r file; do
    target=$(echo "$file" | cut -d/ -f2)
    sed -n -E 's/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+((struct|class|enum|protocol|func|var|let|typealias)[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*).*/\4/p' "$file" |
        while read -r module; do echo "$target ${file#./} $module"; done
done)

echo "Module graph (from the imports under $sources):"
echo "$edges" | awk '$3 ~ /^(Herald|C[A-Z])/ { key = $1; if (!seen[$1 " " $3]++) deps[key] = deps[key] " " $3; targets[key] = 1 }
    END { for (t in targets) print "  " t " ->" deps[t] }' | sort

broken=$(echo "$edges" | while read -r target file module; do
    forbidden=$(echo "$rules" | awk -v t="$target" '$1 == t { $1 = ""; print }')
    for m in $forbidden; do
        if [ "$m" = "$module" ]; then echo "  $file imports $module: $target may never import $module (docs/design.md)"; fi
    done
done)
if [ -n "$broken" ]; then
    echo "Rules broken:"
    echo "$broken"
    exit 1
fi
echo "Every import keeps the rules of docs/design.md."
