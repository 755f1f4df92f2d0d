# Herald — the two commands a newcomer needs: `make run` and `make test`.
SYSTEM_PACKAGES := libncursesw5-dev libsqlite3-dev libphonenumber-dev libprotobuf-dev libqrencode-dev tmux pkg-config sqlite3
# Editors the end-to-end tests hand the terminal to, the PostgreSQL the engine and replica tests start throwaway
# clusters of (with TLS from certificates openssl makes), curl, python3 for a hostile server fixture, and the SMTP
# server email invitations are sent to (aiosmtpd), and man for the installed pages (make test installs them).
TEST_PACKAGES := vim nano postgresql curl openssl python3 python3-aiosmtpd khard radicale man-db
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test build release deps bench screenshots docs clean install install-files uninstall

# Installs the Debian packages Herald builds against (and, for `make test`, the editors its tests run),
# only when one is missing.
deps:
	@missing=""; for p in $(SYSTEM_PACKAGES) $(if $(filter test,$(MAKECMDGOALS)),$(TEST_PACKAGES)); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Starts Herald on the embedded platform with a throwaway demo workspace.
run: build
	$$($(SWIFT) build --show-bin-path)/herald --demo

# Runs every test: unit, store, engine (on SQLite, then again on a throwaway PostgreSQL cluster), services,
# view-models, rendering, end-to-end, then the multi-process soak (several herald processes on one folder, SIGKILLs;
# HERALD_SOAK_SCALE=N runs N times as many). The screens in tmux run first, on their own: a keystroke must reach a
# frame within seconds, which two cores shared with every server and command test at once do not promise.
test: deps
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(SWIFT) test --skip-build --skip EndToEndTests
	HERALD_TEST_ENGINE_STORE=postgres $(SWIFT) test --skip-build --filter HeraldEngineTests
	$(SWIFT) test --skip-build --filter 'EndToEndTests\.UI'
	$(SWIFT) test --skip-build --filter EndToEndTests --skip 'EndToEndTests\.UI' --skip ConcurrencySoakTests
	$(SWIFT) test --skip-build --filter ConcurrencySoakTests

# Figures on 100,000 generated people and a ledger of 10,000 bulks (200,000 invitations), release build:
# import, search, the real screens (keystroke → frame, Deliveries, first frame, memory, idle CPU), and
# `herald contacts list --search` as a whole process against fzf (installed here for the comparison).
BENCH_PACKAGES := fzf radicale
bench: deps
	@dpkg-query -W -f='$${Status}' $(BENCH_PACKAGES) 2>/dev/null | grep -q "install ok installed" || \
	  ($(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(BENCH_PACKAGES))
	$(SWIFT) build -c release --product herald
	$(SWIFT) build -c release --product herald-bench
	$$($(SWIFT) build -c release --show-bin-path)/herald-bench all --count 100000 --rounds 10

screenshots: build
	scripts/screenshots.sh

docs:
	scripts/generate.sh

clean:
	rm -rf .build

# Installs a release build with its man pages, shell completions, themes and the systemd unit of `herald serve`
# under PREFIX (DESTDIR for packagers); the list of what it wrote goes to share/herald/installed-files, which
# `make uninstall` removes exactly. `make install-files BINARY=…` installs a binary built otherwise.
PREFIX ?= /usr/local
BINARY ?= .build/release/herald
SHARE = $(DESTDIR)$(PREFIX)/share
MANIFEST = $(SHARE)/herald/installed-files

install: release install-files

install-files:
	@test -x "$(BINARY)" || { echo "no $(BINARY): run make release first (or pass BINARY=…)"; exit 1; }
	@set -e; files=""; \
	put() { install -D -m "$$1" "$$2" "$$3"; files="$$files$$3\n"; }; \
	put 755 "$(BINARY)" "$(DESTDIR)$(PREFIX)/bin/herald"; \
	for page in man/*.1; do put 644 "$$page" "$(SHARE)/man/man1/$${page#man/}"; done; \
	for page in man/*.5; do put 644 "$$page" "$(SHARE)/man/man5/$${page#man/}"; done; \
	for theme in themes/*.toml; do put 644 "$$theme" "$(SHARE)/herald/themes/$${theme#themes/}"; done; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	"$(BINARY)" --generate-completion-script bash > "$$tmp/herald"; put 644 "$$tmp/herald" "$(SHARE)/bash-completion/completions/herald"; \
	"$(BINARY)" --generate-completion-script zsh > "$$tmp/_herald"; put 644 "$$tmp/_herald" "$(SHARE)/zsh/site-functions/_herald"; \
	"$(BINARY)" --generate-completion-script fish > "$$tmp/herald.fish"; put 644 "$$tmp/herald.fish" "$(SHARE)/fish/vendor_completions.d/herald.fish"; \
	sed 's|/usr/local/bin/herald|$(PREFIX)/bin/herald|' deploy/herald.service > "$$tmp/herald.service"; \
	put 644 "$$tmp/herald.service" "$(DESTDIR)$(PREFIX)/lib/systemd/system/herald.service"; \
	printf "$$files$(MANIFEST)\n" | sed 's|^$(DESTDIR)||' > "$$tmp/installed-files"; \
	install -D -m 644 "$$tmp/installed-files" "$(MANIFEST)"; \
	echo "installed $$(printf "$$files" | wc -l) files under $(DESTDIR)$(PREFIX) (listed in $(MANIFEST))"

uninstall:
	@test -f "$(MANIFEST)" || { echo "nothing to uninstall: no $(MANIFEST)"; exit 1; }
	@set -e; while IFS= read -r file; do rm -f "$(DESTDIR)$$file"; done < "$(MANIFEST)"; \
	rmdir "$(SHARE)/herald/themes" "$(SHARE)/herald" 2>/dev/null || true; \
	echo "removed what make install put under $(DESTDIR)$(PREFIX)"
