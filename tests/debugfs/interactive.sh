#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interactive.sh --- the debugfs shell in a real terminal (tmux): a typed
# command runs, Tab completes a path inside the image and a command name,
# Up recalls the previous line, extent_open's prompt names the inode, quit
# leaves, and the history file keeps the commands for the next session.

: "${top_srcdir:=.}" "${top_builddir:=.}"
dbg=$top_builddir/debugfs/debugfs
ref=/usr/sbin/debugfs
[ -x "$dbg" ] || { echo "FAIL: no debugfs at $dbg"; exit 1; }
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
[ -x "$ref" ] || { echo "SKIP: no reference debugfs to fill the image"; exit 77; }
grep -q '^#define HAVE_LIBEDIT 1' "$top_builddir/config.h" 2>/dev/null ||
	{ echo "SKIP: built without libedit"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/e2x-d-tty.XXXXXX") || exit 1
sock=e2x-dbg-$$
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	tmux -L "$sock-2" kill-server 2>/dev/null
	sleep 0.2
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

img=$work/t.img
/usr/sbin/mke2fs -q -F -t ext4 "$img" 8M >/dev/null || exit 1
echo "hello-from-e2x" > "$work/payload"
"$ref" -w -f - "$img" >/dev/null 2>&1 <<EOC
mkdir somedir
write $work/payload somedir/pathfile
EOC

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
screen() { tmux -L "$sock" capture-pane -p -t t 2>/dev/null; }
. "$top_srcdir/tests/tty.sh"
keys() { tmux -L "$sock" send-keys -t t "$@"; }

hist=$work/history
tmux -L "$sock" new-session -d -s t -x 100 -y 30 \
	"env HOME=$work DEBUGFS_HISTORY=$hist TERM=xterm $dbg $img; \
	 echo EXITED-\$?; sleep 30" || { fail "tmux"; exit 1; }
wait_for '^debugfs: ?$' || fail "no prompt"

keys 'ls /somedir' Enter
wait_for '[0-9]+  \([0-9]+\) pathfile( |$)' || fail "ls output not shown"
wait_for '^debugfs: ?$' || fail "no prompt after ls"

keys 'cat /somedir/pa' Tab
wait_for '^debugfs: cat /somedir/pathfile ?$' || fail "Tab did not complete the path"
keys Enter
wait_for '^hello-from-e2x$' || fail "cat after completion"
wait_for '^debugfs: ?$' || fail "no prompt after cat"

keys 'cd /som' Tab
wait_for '^debugfs: cd /somedir/$' || fail "Tab did not complete a directory"
keys Enter
# libedit drops typeahead when it sets the terminal up: wait for the prompt
wait_for '^debugfs: ?$' || fail "no prompt after cd"

keys 'dx_ha' Tab
wait_for '^debugfs: dx_hash ?$' || fail "Tab did not complete the command"
keys C-u

keys Up
wait_for '^debugfs: cd /somedir/$' || fail "Up did not recall the last line"
keys C-u 'pwd' Enter
wait_for '^/somedir$' || fail "pwd after cd"

# extent_open: the prompt names the inode until extent_close
keys 'eo pathfile' Enter
wait_for '^debugfs \(extent ino [0-9]+\): ?$' ||
	fail "no extent prompt after extent_open"
keys 'ec' Enter
wait_for '^debugfs \(extent ino [0-9]+\): ec$' || fail "extent_close not typed"

keys 'quit' Enter
wait_for '^EXITED-0$' || fail "quit did not leave with status 0"

for c in 'ls /somedir' 'cat /somedir/pathfile' 'cd /somedir/' 'pwd' 'quit'
do
	grep -Fxq -- "$c" "$hist" 2>/dev/null ||
		grep -Fq -- "$(printf '%s' "$c" | sed 's/ /\\040/g')" "$hist" \
			2>/dev/null || fail "history file lacks '$c'"
done

# A second session (on a server of its own) recalls the first one's
# commands.
tmux -L "$sock" kill-server 2>/dev/null
sock=$sock-2
tmux -L "$sock" new-session -d -s t -x 100 -y 30 \
	"env HOME=$work DEBUGFS_HISTORY=$hist TERM=xterm $dbg $img; sleep 30"
wait_for '^debugfs: ?$' || fail "no prompt in the second session"
keys Up
wait_for '^debugfs: quit$' || fail "history not recalled across sessions"

if [ $fails != 0 ]; then
	echo "--- last screen:"; screen
	echo "--- history file:"; cat "$hist"
fi
[ $fails = 0 ]
