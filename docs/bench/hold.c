#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
typedef struct { int64_t t; uint64_t seq; uint32_t payload; } E;
static uint64_t s[4] = {1, 2, 3, 4};
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) {
  uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45); return r;
}
static inline int64_t expo(void) { return (int64_t)(-1e9 * log(((next() >> 11) + 1) * 0x1p-53)); }
static inline int lt(E a, E b) { return a.t < b.t || (a.t == b.t && a.seq < b.seq); }
static E *h; static size_t n;
static void push(E e) { size_t i = n++; while (i > 0) { size_t p = (i - 1) / 2; if (!lt(e, h[p])) break; h[i] = h[p]; i = p; } h[i] = e; }
static E pop(void) { E top = h[0], last = h[--n]; size_t i = 0;
  for (;;) { size_t c = 2 * i + 1; if (c >= n) break; if (c + 1 < n && lt(h[c + 1], h[c])) c++; if (!lt(h[c], last)) break; h[i] = h[c]; i = c; }
  h[i] = last; return top; }
int main(int argc, char **argv) {
  size_t N = strtoull(argv[1], 0, 10), M = strtoull(argv[2], 0, 10); uint64_t seq = 0;
  h = malloc(sizeof(E) * (N + 1));
  for (size_t i = 0; i < N; i++) push((E){expo(), seq++, (uint32_t)i});
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  for (size_t i = 0; i < M; i++) { E e = pop(); push((E){e.t + expo(), seq++, e.payload + 1}); }
  clock_gettime(CLOCK_MONOTONIC, &b);
  double sec = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
  printf("{\"c_heap\":true,\"pending\":%zu,\"events_per_second\":%.0f,\"check\":%u}\n", N, M / sec, h[0].payload);
}
