#!/usr/bin/env bash
# Produces screenshots/*.png from the real binary: Herald runs in tmux on a demo workspace, each pane
# is captured with its colours (capture-pane -e), turned into HTML by aha and rendered to PNG by
# headless Chromium. Rerun it whenever the terminal UI changes: `make screenshots`.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v aha >/dev/null || need+=(aha)
command -v chromium >/dev/null || need+=(chromium)
dpkg-query -W -f='${Status}' fonts-dejavu-core 2>/dev/null | grep -q "ok installed" || need+=(fonts-dejavu-core)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

bin="${HERALD_BIN:-$(swift build --show-bin-path)/herald}"
cols=110; rows=32
sock="herald-shots-$$"
data="$(mktemp -d)"
out="screenshots"
mkdir -p "$out"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$data"' EXIT

tmux -L "$sock" new-session -d -x "$cols" -y "$rows" \
  "env TERM=xterm-256color COLORTERM=truecolor HERALD_SANDBOX_TIME_SCALE=20 $bin --demo --data-dir $data/ws"

wait_for() { # text
  for _ in $(seq 1 200); do
    tmux -L "$sock" capture-pane -p | grep -qF "$1" && return 0
    sleep 0.05
  done
  echo "screenshots: timed out waiting for '$1'" >&2
  tmux -L "$sock" capture-pane -p >&2
  return 1
}

shoot() { # name
  local html="$data/$1.html"
  tmux -L "$sock" capture-pane -e -p | aha --black --title "Herald — $1" > "$html"
  sed -i 's#<pre>#<pre style="font-family: DejaVu Sans Mono, monospace; font-size: 14px; line-height: 1.2; margin: 8px">#' "$html"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$out/$1.png" --window-size=1000,640 "file://$html" >/dev/null 2>&1
  echo "wrote $out/$1.png"
}

wait_for "people"
sleep 1   # let the first delivery reports land so the panes show live data
tmux -L "$sock" send-keys 1; wait_for "suggested"
tmux -L "$sock" send-keys j j space j space; sleep 0.3; shoot 1-contacts
tmux -L "$sock" send-keys 2; wait_for "Referral link"; shoot 2-share
tmux -L "$sock" send-keys 3; wait_for "SMS invitation"; sleep 0.3; shoot 3-composer
tmux -L "$sock" send-keys 4; wait_for "unread"; tmux -L "$sock" send-keys Enter; sleep 0.5; shoot 4-inbox
tmux -L "$sock" send-keys Escape; sleep 0.3; tmux -L "$sock" send-keys 5; wait_for "bulks"; sleep 0.5; shoot 5-deliveries
tmux -L "$sock" send-keys '?'; sleep 0.5; shoot 6-help
# Deliveries' query (/) narrowed to the failures, then their breakdown by reason (b).
tmux -L "$sock" send-keys Escape; sleep 0.3
tmux -L "$sock" send-keys /; tmux -L "$sock" send-keys -l "status:failed"; tmux -L "$sock" send-keys Enter
wait_for "recipients in"; sleep 0.3; shoot 8-deliveries-query
tmux -L "$sock" send-keys b; wait_for "breakdown by reason"; sleep 0.3; shoot 9-deliveries-breakdown
tmux -L "$sock" send-keys Escape Escape
# The contact form (a in Contacts), typed into, with an address its check refused.
tmux -L "$sock" send-keys Escape; sleep 0.3; tmux -L "$sock" send-keys 1; wait_for "suggested"
tmux -L "$sock" send-keys a; wait_for "ctrl-s save"
tmux -L "$sock" send-keys -l "Ana"; tmux -L "$sock" send-keys Tab; tmux -L "$sock" send-keys -l "Kovač"
tmux -L "$sock" send-keys Tab Tab Tab; tmux -L "$sock" send-keys -l "mobile: +385 91 234 5678"
tmux -L "$sock" send-keys Tab Tab; tmux -L "$sock" send-keys -l "ana@"; tmux -L "$sock" send-keys C-s
wait_for "is not an email address"; shoot 7-contact-form
tmux -L "$sock" send-keys Escape Escape
# Replies (6): two people answer from another process (a demo contact and a number nobody has); the list, then the
# contact's thread with an answer being written.
known="$("$bin" contacts list --json --data-dir "$data/ws" | grep -o '"+385[0-9]*"' | head -1 | tr -d '"')"
"$bin" sandbox reply --data-dir "$data/ws" --from "$known" --text "Yes, see you there! Can I bring a friend?" >/dev/null
"$bin" sandbox reply --data-dir "$data/ws" --from +385911234577 --text "Who is this? I don't know this number." >/dev/null
tmux -L "$sock" send-keys 6; wait_for "2 unread replies"; sleep 0.3; shoot 10-replies
tmux -L "$sock" send-keys j Enter; wait_for "Can I bring a friend?"
tmux -L "$sock" send-keys r; tmux -L "$sock" send-keys -l "Of course, the more the merrier."
wait_for "ctrl-s sends"; sleep 0.3; shoot 11-replies-thread
tmux -L "$sock" send-keys Escape Escape
