# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/local.mk --- e2fsck integration tests: no false alarms on
# kernel-made file systems, detection on the shared corpus, damage of our
# own making (inline_data, bigalloc, directories, itree), and the options
# and exit codes.

TESTS += tests/fsck/false-alarm.sh tests/fsck/corpus.sh tests/fsck/damage.sh \
	tests/fsck/crash.sh tests/fsck/progress.sh tests/fsck/paths.sh \
	tests/fsck/options.sh
EXTRA_DIST += tests/fsck/false-alarm.sh tests/fsck/corpus.sh \
	tests/fsck/damage.sh tests/fsck/options.sh tests/fsck/workload.py \
	tests/fsck/feature-sets.tsv tests/fsck/corpus-missed.txt \
	tests/fsck/damage-cases.tsv tests/fsck/options-cases.tsv \
	tests/fsck/corpus-optimize.txt tests/fsck/crash.sh \
	tests/fsck/progress.sh tests/fsck/paths.sh
