# bench/local.mk --- benchmark scripts (run by hand, never in make check)
