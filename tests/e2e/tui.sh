#!/usr/bin/env bash
# End-to-end run of the TUI in a real terminal (tmux): a question in Russian, an edit proposed by the
# (fake) model, accepted with Y, undone with Ctrl+Z, then Ctrl+D. The file and the screen are checked
# after each step; every wait is for a marker on the screen (polled), never a fixed sleep.
#
#   tests/e2e/tui.sh <project-root>
#
# Environment: IPUARO_CMD (how to start ipuaro; default: node --import tsx src/main/cli/entry.ts),
# IPUARO_REDIS_URL, OLLAMA_HOST, XDG_CONFIG_HOME, IPUARO_HOME (passed to ipuaro), TUI_WAIT_SECONDS
# (per marker, default 30), TUI_LOG (file to append screen dumps to on failure), TUI_SNAPSHOT_DIR
# (saves the screen at each step, for review).
set -euo pipefail

ROOT=${1:?usage: tui.sh <project-root>}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
FILE="$ROOT/packages/core/src/utils/strings.ts"
CMD=${IPUARO_CMD:-"node --import tsx src/main/cli/entry.ts"}
WAIT=${TUI_WAIT_SECONDS:-30}
SOCKET="ipuaro-e2e-$$"
PANE="tui"
EXIT_MARK="IPUARO-EXITED"

tm() { tmux -L "$SOCKET" "$@"; }
cleanup() {
  tm kill-server 2>/dev/null || true
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCKET"
}
trap cleanup EXIT

screen() { tm capture-pane -p -t "$PANE"; }

fail() {
  echo "FAIL: $*" >&2
  echo "----- screen -----" >&2
  screen >&2 || true
  if [[ -n "${TUI_LOG:-}" ]]; then { echo "FAIL: $*"; screen; } >>"$TUI_LOG" 2>/dev/null || true; fi
  exit 1
}

# Polls the pane until `text` is on it (fixed string), or fails after $WAIT seconds.
wait_for() {
  local text=$1 deadline=$((SECONDS + WAIT))
  until screen | grep -qF -- "$text"; do
    ((SECONDS < deadline)) || fail "timed out waiting for: $text"
    sleep 0.1
  done
}

wait_gone() {
  local text=$1 deadline=$((SECONDS + WAIT))
  while screen | grep -qF -- "$text"; do
    ((SECONDS < deadline)) || fail "timed out waiting for this to go: $text"
    sleep 0.1
  done
}

snapshot() {
  if [[ -n "${TUI_SNAPSHOT_DIR:-}" ]]; then mkdir -p "$TUI_SNAPSHOT_DIR" && screen >"$TUI_SNAPSHOT_DIR/$1.txt"; fi
}

expect_file() {
  grep -qF -- "$1" "$FILE" || fail "$FILE does not contain: $1 (it has: $(head -c 400 "$FILE"))"
}

expect_no_file() {
  if grep -qF -- "$1" "$FILE"; then fail "$FILE still contains: $1"; fi
}

ORIGINAL=$(cat "$FILE")

# The pane runs ipuaro, then reports its exit code and whether the terminal is back in cooked mode.
tm new-session -d -s e2e -n "$PANE" -x 120 -y 40 -e TERM=xterm-256color \
  -e "IPUARO_REDIS_URL=${IPUARO_REDIS_URL:-}" -e "OLLAMA_HOST=${OLLAMA_HOST:-}" \
  -e "XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-}" -e "IPUARO_HOME=${IPUARO_HOME:-}" -e "EDITOR=" -e "VISUAL=" \
  "cd '$REPO' && $CMD '$ROOT'; code=\$?; echo; echo \"$EXIT_MARK code=\$code \$(stty -a | grep -oE -- '(^| )-?icanon' | tr -d ' ')\"; sleep 600"
tm set-option -t e2e remain-on-exit on >/dev/null

# 1. Up, indexed, watching.
wait_for "[ipuaro]"
wait_for "[watching]"
wait_for "ask about the code"

# 2. A question in Russian.
tm send-keys -t "$PANE" -l "исправь slugify: обрезай пробелы"
wait_for "> исправь slugify: обрезай пробелы"
tm send-keys -t "$PANE" Enter
wait_for "User: исправь slugify: обрезай пробелы"

# 3. The model reads the lines, then proposes an edit: the confirmation dialog (which may cover the
#    get_lines line in the chat; that line is checked once the dialog is gone).
wait_for "edit_lines packages/core/src/utils/strings.ts (lines 3-4)"
wait_for "Change: trim the input first"
wait_for "+   return input.trim()"
wait_for "[Y] apply  [N] reject  [E] edit"
snapshot 1-dialog
expect_no_file "input.trim()"

# 4. Accept with Y: the file changes, the turn ends with the model's answer and the stats line. (A
#    question the agent opens mid-turn takes keys as typed ahead for its first half second and until
#    typing has paused for a second.)
sleep 1.1
tm send-keys -t "$PANE" y
wait_gone "[Y] apply"
wait_for "[get_lines packages/core/src/utils/strings.ts 2-4]"
wait_for "Готово: slugify теперь обрезает пробелы."
wait_for "tokens │"
snapshot 2-applied
expect_file "return input.trim()"

# 5. Ctrl+Z takes the edit back.
tm send-keys -t "$PANE" C-z
wait_for "restored packages/core/src/utils/strings.ts"
snapshot 3-undone
[[ "$(cat "$FILE")" == "$ORIGINAL" ]] || fail "undo did not restore $FILE"

# 6. Ctrl+D leaves; the terminal is in cooked mode again (icanon, not -icanon).
tm send-keys -t "$PANE" C-d
wait_for "$EXIT_MARK"
snapshot 4-exited
LAST=$(screen | grep -F "$EXIT_MARK")
[[ "$LAST" == *"code=0"* ]] || fail "ipuaro exited with: $LAST"
[[ "$LAST" == *" icanon"* ]] || fail "the terminal was left in raw mode: $LAST"
screen | grep -qF "[ipuaro]" && fail "the alternate screen was not left"

echo "tui.sh: ok"
