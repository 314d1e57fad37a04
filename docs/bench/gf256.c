/* The C reference for `grouper-sim bench sharing` (gf256, docs/performance.md).
 *
 * Same algorithm and the same random draws as GF256Sharing.split: shares x = 1…k−1 are
 * drawn with xoshiro256** (8 bytes per draw, the rest of the last draw unused), shares
 * x = k…n are the Lagrange interpolation through (0, secret) and those; join takes the
 * first k shares. Shares are x byte + L bytes, written into one buffer allocated once.
 * Multiplication by a constant runs on the best kernel the CPU has, chosen at run time:
 * GFNI on 512-bit lanes (vgf2p8mulb, polynomial 0x11B), else AVX2 nibble tables
 * (vpshufb, as in ISA-L), else log/exp tables. Each case runs for at least 0.3 s; rates per wall-clock
 * second and per second of the thread's CPU time (steadier on a loaded machine).
 *
 * Build and run: gcc -O2 -o gf256 docs/bench/gf256.c && ./gf256 656
 * (the vector kernels carry their own target attributes, so the binary runs on any x86-64).
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t s[4];
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) {
  uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45); return r;
}
static void seed(uint64_t x) {
  for (int i = 0; i < 4; i++) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; s[i] = z ^ (z >> 31);
  }
}
static void fill(uint8_t *p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { uint64_t v = next(); memcpy(p + i, &v, 8); }
  if (i < n) { uint64_t v = next(); for (; i < n; i++) { p[i] = (uint8_t)v; v >>= 8; } }
}

static uint8_t EXP[512]; static int LOG[256];
static void tables(void) {
  int v = 1;
  for (int i = 0; i < 255; i++) { EXP[i] = EXP[i + 255] = (uint8_t)v; int t = v << 1; if (t & 0x100) t ^= 0x11B; v ^= t; }
  for (int i = 0; i < 255; i++) LOG[EXP[i]] = i;
}
static inline uint8_t mul(uint8_t a, uint8_t b) { return a && b ? EXP[LOG[a] + LOG[b]] : 0; }

/* out = Σ_j w[j] · in[j] over len bytes (out does not alias any input). */
typedef void (*sum_fn)(const uint8_t *const *in, const uint8_t *w, int k, size_t len, uint8_t *out);

static void sum_scalar(const uint8_t *const *in, const uint8_t *w, int k, size_t len, uint8_t *out) {
  memset(out, 0, len);
  for (int j = 0; j < k; j++) {
    if (!w[j]) continue;
    const uint8_t *row = EXP + LOG[w[j]];
    for (size_t i = 0; i < len; i++) if (in[j][i]) out[i] ^= row[LOG[in[j][i]]];
  }
}

/* The nibble tables of c: lo[v] = c·v, hi[v] = c·(v << 4), from c's 8 doublings. */
static void nibble_tables(uint8_t c, uint8_t *lo, uint8_t *hi) {
  uint8_t d[8]; d[0] = c;
  for (int b = 1; b < 8; b++) d[b] = (uint8_t)((d[b - 1] << 1) ^ (d[b - 1] & 0x80 ? 0x1B : 0));
  lo[0] = hi[0] = 0;
  for (int v = 1; v < 16; v++) { int b = __builtin_ctz(v); lo[v] = lo[v & (v - 1)] ^ d[b]; hi[v] = hi[v & (v - 1)] ^ d[b + 4]; }
}

__attribute__((target("avx2")))
static void sum_avx2(const uint8_t *const *in, const uint8_t *w, int k, size_t len, uint8_t *out) {
  __m256i lo[256], hi[256];
  for (int j = 0; j < k; j++) {
    uint8_t l[16], h[16];
    nibble_tables(w[j], l, h);
    lo[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)l));
    hi[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)h));
  }
  const __m256i mask = _mm256_set1_epi8(0x0F);
  size_t i = 0;
  for (; i + 32 <= len; i += 32) {
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < k; j++) {
      __m256i v = _mm256_loadu_si256((const __m256i *)(in[j] + i));
      acc = _mm256_xor_si256(acc, _mm256_shuffle_epi8(lo[j], _mm256_and_si256(v, mask)));
      acc = _mm256_xor_si256(acc, _mm256_shuffle_epi8(hi[j], _mm256_and_si256(_mm256_srli_epi64(v, 4), mask)));
    }
    _mm256_storeu_si256((__m256i *)(out + i), acc);
  }
  for (; i + 16 <= len; i += 16) {
    __m128i acc = _mm_setzero_si128();
    for (int j = 0; j < k; j++) {
      __m128i v = _mm_loadu_si128((const __m128i *)(in[j] + i)), m4 = _mm256_castsi256_si128(mask);
      acc = _mm_xor_si128(acc, _mm_shuffle_epi8(_mm256_castsi256_si128(lo[j]), _mm_and_si128(v, m4)));
      acc = _mm_xor_si128(acc, _mm_shuffle_epi8(_mm256_castsi256_si128(hi[j]), _mm_and_si128(_mm_srli_epi64(v, 4), m4)));
    }
    _mm_storeu_si128((__m128i *)(out + i), acc);
  }
  for (; i < len; i++) { uint8_t a = 0; for (int j = 0; j < k; j++) a ^= mul(w[j], in[j][i]); out[i] = a; }
}

__attribute__((target("gfni,avx512f,avx512bw")))
static void sum_gfni(const uint8_t *const *in, const uint8_t *w, int k, size_t len, uint8_t *out) {
  size_t i = 0;
  for (; i + 64 <= len; i += 64) {
    __m512i acc = _mm512_setzero_si512();
    for (int j = 0; j < k; j++)
      acc = _mm512_xor_si512(acc, _mm512_gf2p8mul_epi8(_mm512_loadu_si512(in[j] + i), _mm512_set1_epi8((char)w[j])));
    _mm512_storeu_si512(out + i, acc);
  }
  if (i < len) {
    __mmask64 m = ~0ull >> (64 - (len - i));
    __m512i acc = _mm512_setzero_si512();
    for (int j = 0; j < k; j++)
      acc = _mm512_xor_si512(acc, _mm512_gf2p8mul_epi8(_mm512_maskz_loadu_epi8(m, in[j] + i), _mm512_set1_epi8((char)w[j])));
    _mm512_mask_storeu_epi8(out + i, m, acc);
  }
}

/* Lagrange weights at t over the points xs[0…k−1]. */
static void weights(uint8_t t, const uint8_t *xs, int k, uint8_t *w) {
  for (int j = 0; j < k; j++) {
    int ln = 0, ld = 0, zero = 0;
    for (int m = 0; m < k; m++) if (m != j) {
      if ((t ^ xs[m]) == 0) zero = 1; else ln += LOG[t ^ xs[m]];
      ld += LOG[xs[j] ^ xs[m]];
    }
    w[j] = zero ? 0 : EXP[((ln - ld) % 255 + 255) % 255];
  }
}

static sum_fn sum;
static uint8_t shares[256 * (1 << 20)], secret_out[1 << 20];

/* shares: n rows of L + 1 bytes. The weights depend only on (k, n): the split takes them
 * from a table made once per case, as a C library would. */
static uint8_t split_w[256 * 256];
static void split_weights(int k, int n) {
  uint8_t xs[256]; for (int j = 0; j < k; j++) xs[j] = (uint8_t)j;
  for (int x = k; x <= n; x++) weights((uint8_t)x, xs, k, split_w + (x - k) * k);
}
static void split(const uint8_t *secret, size_t L, int k, int n) {
  const uint8_t *in[256]; in[0] = secret;
  for (int x = 1; x < k; x++) { uint8_t *r = shares + (x - 1) * (L + 1); r[0] = (uint8_t)x; fill(r + 1, L); in[x] = r + 1; }
  for (int x = k; x <= n; x++) {
    uint8_t *r = shares + (x - 1) * (L + 1); r[0] = (uint8_t)x;
    sum(in, split_w + (x - k) * k, k, L, r + 1);
  }
}
static void join(const uint8_t *const *sh, size_t L, int k, uint8_t *out) {
  uint8_t xs[256], w[256]; const uint8_t *in[256];
  for (int j = 0; j < k; j++) { xs[j] = sh[j][0]; in[j] = sh[j] + 1; }
  weights(0, xs, k, w);
  sum(in, w, k, L, out);
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
  size_t L = argc > 1 ? strtoull(argv[1], 0, 10) : 656;
  const char *kernel = "scalar";
  tables(); sum = sum_scalar;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) { sum = sum_avx2; kernel = "avx2"; }
  if (__builtin_cpu_supports("gfni") && __builtin_cpu_supports("avx512bw")) { sum = sum_gfni; kernel = "gfni"; }
  if (argc > 2) { if (!strcmp(argv[2], "scalar")) { sum = sum_scalar; kernel = argv[2]; } else if (!strcmp(argv[2], "avx2")) { sum = sum_avx2; kernel = argv[2]; } }
  static const int cases[][2] = {{2, 3}, {3, 5}, {3, 30}, {20, 30}};
  uint8_t *secret = malloc(L);
  for (int c = 0; c < 4; c++) {
    int k = cases[c][0], n = cases[c][1];
    seed(0x5EED0000ull + L); fill(secret, L);
    split_weights(k, n);
    unsigned check = 0; long count = 0; double t0 = now(), c0 = cpu(), t;
    do { for (int r = 0; r < 1000; r++) { split(secret, L, k, n); check += shares[(n - 1) * (L + 1) + 1]; } count += 1000; }
    while ((t = now() - t0) < 0.3);
    double splits = count / t, splitsCPU = count / (cpu() - c0);
    const uint8_t *sh[256]; for (int j = 0; j < k; j++) sh[j] = shares + j * (L + 1);
    count = 0; t0 = now(); c0 = cpu();
    do { for (int r = 0; r < 1000; r++) { join(sh, L, k, secret_out); check += secret_out[r % L]; } count += 1000; }
    while ((t = now() - t0) < 0.3);
    double joins = count / t, joinsCPU = count / (cpu() - c0);
    int ok = memcmp(secret_out, secret, L) == 0;
    printf("{\"c_gf256\":true,\"kernel\":\"%s\",\"bytes\":%zu,\"k\":%d,\"n\":%d,\"splits_per_second\":%.0f,"
           "\"joins_per_second\":%.0f,\"splits_per_cpu_second\":%.0f,\"joins_per_cpu_second\":%.0f,\"rebuilt\":%s,\"check\":%u}\n",
           kernel, L, k, n, splits, joins, splitsCPU, joinsCPU, ok ? "true" : "false", check);
    if (!ok) return 1;
  }
  return 0;
}
