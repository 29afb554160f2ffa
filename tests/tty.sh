# SPDX-License-Identifier: GPL-2.0-or-later
# tty.sh --- sourced by the tests that drive a program in a real terminal
# (tmux): wait_for REGEX polls the caller's screen function (the pane's
# text) for up to 10 s.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
