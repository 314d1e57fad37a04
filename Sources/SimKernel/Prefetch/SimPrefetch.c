/* SimPrefetch is header-only (include/SimPrefetch.h); SwiftPM needs one source file. */
#include "SimPrefetch.h"
