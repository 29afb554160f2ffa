# SPDX-License-Identifier: GPL-2.0-or-later
# session.sh --- sourced by write.sh and write_rules.sh: turn a case's
# session column into debugfs command lines.  Needs $work.

# @F<n> -> a host file of n random bytes (made once), @S<n> -> n x's.
expand() {
	out=
	for w in $1; do
		case $w in
		@F[0-9]*)
			sz=${w#@F}
			[ -f "$work/f$sz" ] ||
				head -c "$sz" /dev/urandom > "$work/f$sz"
			w=$work/f$sz ;;
		@S[0-9]*) w=$(printf "%0${w#@S}d" 0 | tr 0 x) ;;
		*@S[0-9]*)
			sz=${w##*@S}
			w=${w%@S*}$(printf "%0${sz}d" 0 | tr 0 x) ;;
		esac
		out="$out${out:+ }$w"
	done
	printf '%s\n' "$out"
}

# The session's command lines ("seq A B cmd" repeated with {} = A..B).
session() {
	echo "$1" | tr ';' '\n' | while read -r line; do
		case $line in
		seq\ *)
			set -- $line
			i=$2
			shift 3
			while [ "$i" -le "$(echo "$line" | cut -d' ' -f3)" ]; do
				expand "$*" | sed "s/{}/$i/g"
				i=$((i + 1))
			done ;;
		*) expand "$line" ;;
		esac
	done
}
