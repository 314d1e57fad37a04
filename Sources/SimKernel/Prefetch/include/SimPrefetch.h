#ifndef SIM_PREFETCH_H
#define SIM_PREFETCH_H
/* A cache prefetch hint for SimKernel's event queue (EventQueue.popMinOutOfLine): it
 * starts loading the slot of the event after the one being popped, so the load overlaps
 * with the work of the current event. Swift has no prefetch of its own; a hint changes
 * only speed, never a result, and compilers without the builtin get an empty function,
 * which is the fallback. */
#if defined(__has_builtin)
#  if __has_builtin(__builtin_prefetch)
#    define SIM_HAS_PREFETCH 1
#  endif
#endif

/* Asks the CPU to bring the cache line at `address` into all cache levels, for writing. */
static inline __attribute__((always_inline)) void sim_prefetch(const void *address) {
#ifdef SIM_HAS_PREFETCH
    __builtin_prefetch(address, 1, 3);
#else
    (void)address;
#endif
}

#endif
