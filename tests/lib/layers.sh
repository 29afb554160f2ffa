#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.sh --- the file-level call graph of libe2x must have no cycle, and
# no object of lib/ may print.  The graph comes from the built objects: nm
# says which object defines each global symbol and which objects use it;
# an edge A -> B means A.o uses a symbol B.o defines.  Every cycle (a
# strongly connected set of files) is listed with the symbols that close
# it, and the check fails.  The directory forms (dir_inline, dir_linear,
# htree) must not call each other nor any itree file: changes of form and
# itree upkeep are dir_change.c's.  With -v the whole graph is printed.
set -u

top_builddir=${top_builddir:-.}
# objects of lib/ and of any concept folder below it (scripts/reorg-lib)
libdir=$top_builddir/lib
verbose=0
[ "${1:-}" = -v ] && verbose=1

skip() { echo "SKIP: $*"; exit 77; }
command -v nm >/dev/null || skip "nm missing"
set -- $(find "$libdir" -path '*/.libs/*.o' | sort)
[ -e "${1:-}" ] || skip "no objects under $libdir (build first)"

# One line per symbol use: "file D sym" for a definition, "file U sym"
# for a use; file is the source name (dir, htree, ...).
for o in "$@"; do
	f=${o##*/}
	f=${f%.o}
	nm "$o" | awk -v f="$f" '
		$1 == "U" { print f, "U", $2; next }
		NF == 3 && $2 ~ /^[TDBRGSVW]$/ { print f, "D", $3 }'
done | awk -v verbose="$verbose" '
BEGIN {
	prints = "^(printf|fprintf|vprintf|vfprintf|puts|fputs|putchar|" \
		 "fputc|putc|fwrite|perror|com_err|stdout|stderr|" \
		 "__printf_chk|__fprintf_chk|__vfprintf_chk)$"
}
$2 == "D" { def[$3] = $1; next }
$2 == "U" { use[++nu] = $1 SUBSEP $3 }
END {
	for (i = 1; i <= nu; i++) {
		split(use[i], p, SUBSEP)
		a = p[1]; s = p[2]
		if (s ~ prints) {
			printf "PRINTS: %s.c uses %s\n", a, s
			bad = 1
		}
		if (!(s in def) || def[s] == a)
			continue
		b = def[s]
		if (!((a, b) in edge)) {
			edge[a, b] = s
			out[a] = out[a] " " b
			nodes[a] = nodes[b] = 1
		}
	}
	split("dir_inline dir_linear htree", fl, " ")
	for (i in fl)
		form[fl[i]] = 1
	for (e in edge) {
		split(e, p, SUBSEP)
		if ((p[1] in form) && ((p[2] in form) || p[2] ~ /itree/)) {
			printf "FORM: %s.c -> %s.c (%s)\n", p[1], p[2], edge[e]
			bad = 1
		}
	}
	if (verbose)
		for (a in out)
			printf "%s ->%s\n", a, out[a]
	# Tarjan: every strongly connected set of more than one file is a
	# cycle in the layering.
	idx = 0
	for (n in nodes)
		if (!(n in index_of))
			scc(n)
	if (ncyc == 0)
		printf "layers: %d files, %d calls between files, no cycle\n", \
			length(nodes), length(edge)
	exit (ncyc > 0 || bad)
}
function scc(v,    i, k, w, list, members) {
	index_of[v] = low[v] = ++idx
	stack[++sp] = v
	on[v] = 1
	k = split(out[v], list, " ")
	for (i = 1; i <= k; i++) {
		w = list[i]
		if (!(w in index_of)) {
			scc(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (on[w] && index_of[w] < low[v]) {
			low[v] = index_of[w]
		}
	}
	if (low[v] != index_of[v])
		return
	members = ""
	k = 0
	do {
		w = stack[sp--]
		on[w] = 0
		comp[w] = v
		members = members " " w
		k++
	} while (w != v)
	if (k < 2)
		return
	ncyc++
	printf "CYCLE among:%s\n", members
	for (e in edge) {
		split(e, p, SUBSEP)
		if ((p[1] in comp) && (p[2] in comp) && comp[p[1]] == v && \
		    comp[p[2]] == v)
			printf "  %s.c -> %s.c (%s)\n", p[1], p[2], edge[e]
	}
}'
