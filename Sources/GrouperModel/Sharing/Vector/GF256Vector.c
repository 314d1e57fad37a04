/* AVX2 nibble-table multiplication in GF(2^8) (as in ISA-L): c·v = lo_c[v & 15] ^ hi_c[v >> 4]
 * with 16-entry tables per constant, looked up 32 bytes at a time by vpshufb. The vector
 * code carries its own target attribute and runs only after the CPU check, so the package
 * builds for baseline x86-64 and other architectures (where the level is 0). */
#include "GF256Vector.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

static int level = -1;

int gf256_vector_level(void) {
  if (level < 0) {
    __builtin_cpu_init();
    level = __builtin_cpu_supports("avx2") ? 2 : 0;
  }
  return level;
}

/* The tables of c: lo = c·v and hi = c·(v << 4) for v = 0…15, each the XOR of c's
 * doublings d_b selected by bit b of v (compare masks on the lane numbers). */
__attribute__((target("avx2")))
static void nibble_tables(uint8_t c, __m128i *lo, __m128i *hi) {
  const __m128i lanes = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  __m128i l = _mm_setzero_si128(), h = _mm_setzero_si128();
  unsigned d = c;
  for (int b = 0; b < 8; b++) {
    __m128i bit = _mm_set1_epi8((char)(1 << (b & 3)));
    __m128i sel = _mm_cmpeq_epi8(_mm_and_si128(lanes, bit), bit);
    __m128i term = _mm_and_si128(sel, _mm_set1_epi8((char)d));
    if (b < 4) l = _mm_xor_si128(l, term); else h = _mm_xor_si128(h, term);
    d = ((d << 1) ^ ((d & 0x80) ? 0x1B : 0)) & 0xFF;
  }
  *lo = l; *hi = h;
}

static uint8_t mul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  while (b) { if (b & 1) p ^= a; a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1B : 0)); b >>= 1; }
  return p;
}

__attribute__((target("avx2")))
static void sum_avx2(const uint8_t *const *in, const __m128i *lo, const __m128i *hi, const uint8_t *w, int k,
                     size_t len, uint8_t *out) {
  const __m256i mask = _mm256_set1_epi8(0x0F);
  size_t i = 0;
  for (; i + 32 <= len; i += 32) {
    __m256i acc = _mm256_setzero_si256();
    for (int j = 0; j < k; j++) {
      __m256i tl = _mm256_broadcastsi128_si256(lo[j]), th = _mm256_broadcastsi128_si256(hi[j]);
      __m256i v = _mm256_loadu_si256((const __m256i *)(in[j] + i));
      acc = _mm256_xor_si256(acc, _mm256_shuffle_epi8(tl, _mm256_and_si256(v, mask)));
      acc = _mm256_xor_si256(acc, _mm256_shuffle_epi8(th, _mm256_and_si256(_mm256_srli_epi64(v, 4), mask)));
    }
    _mm256_storeu_si256((__m256i *)(out + i), acc);
  }
  if (i + 16 <= len) {
    const __m128i m4 = _mm_set1_epi8(0x0F);
    __m128i acc = _mm_setzero_si128();
    for (int j = 0; j < k; j++) {
      __m128i v = _mm_loadu_si128((const __m128i *)(in[j] + i));
      acc = _mm_xor_si128(acc, _mm_shuffle_epi8(lo[j], _mm_and_si128(v, m4)));
      acc = _mm_xor_si128(acc, _mm_shuffle_epi8(hi[j], _mm_and_si128(_mm_srli_epi64(v, 4), m4)));
    }
    _mm_storeu_si128((__m128i *)(out + i), acc);
    i += 16;
  }
  for (; i < len; i++) {
    uint8_t a = 0;
    for (int j = 0; j < k; j++) a ^= mul(w[j], in[j][i]);
    out[i] = a;
  }
}

__attribute__((target("avx2")))
void gf256_vector_sums(const uint8_t *const *inputs, int k, const uint8_t *weights, int outputs,
                       size_t length, uint8_t *out) {
  __m128i lo[255], hi[255];
  for (int o = 0; o < outputs; o++) {
    const uint8_t *w = weights + (size_t)o * (size_t)k;
    for (int j = 0; j < k; j++) nibble_tables(w[j], lo + j, hi + j);
    sum_avx2(inputs, lo, hi, w, k, length, out + (size_t)o * length);
  }
}

#else
int gf256_vector_level(void) { return 0; }
void gf256_vector_sums(const uint8_t *const *inputs, int k, const uint8_t *weights, int outputs,
                       size_t length, uint8_t *out) {
  (void)inputs; (void)k; (void)weights; (void)outputs; (void)length; (void)out;
}
#endif
