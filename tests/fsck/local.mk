# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/local.mk --- e2fsck integration tests: no false alarms on
# kernel-made file systems, detection on the shared corpus, damage of our
# own making (inline_data, bigalloc, directories, itree), the options
# and exit codes, and repairs that never make a file system worse
# (safety.sh; safety-sweep is the long property run, not in make check),
# answers on a terminal (interactive.sh), and files kept at least as the
# reference keeps them on the corpus (kept.sh).

TESTS += tests/fsck/false-alarm.sh tests/fsck/corpus.sh tests/fsck/damage.sh \
	tests/fsck/crash.sh tests/fsck/progress.sh tests/fsck/paths.sh \
	tests/fsck/options.sh tests/fsck/safety.sh tests/fsck/interactive.sh \
	tests/fsck/kept.sh
EXTRA_DIST += tests/fsck/false-alarm.sh tests/fsck/corpus.sh \
	tests/fsck/damage.sh tests/fsck/options.sh tests/fsck/workload.py \
	tests/fsck/feature-sets.tsv tests/fsck/corpus-missed.txt \
	tests/fsck/damage-cases.tsv tests/fsck/options-cases.tsv \
	tests/fsck/corpus-optimize.txt tests/fsck/corpus-codes.tsv \
	tests/fsck/corpus-repaired.txt tests/fsck/safety.sh \
	tests/fsck/safety-lib.sh tests/fsck/safety-sweep \
	tests/fsck/damage_gen.py tests/fsck/safety-cases.tsv \
	tests/fsck/safety-images.tsv \
	tests/fsck/crash.sh tests/fsck/progress.sh tests/fsck/paths.sh \
	tests/fsck/interactive.sh tests/fsck/kept.sh tests/fsck/kept-losses.tsv
