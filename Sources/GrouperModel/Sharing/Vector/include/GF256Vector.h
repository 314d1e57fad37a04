#ifndef GF256_VECTOR_H
#define GF256_VECTOR_H
/* GF(2^8) (polynomial 0x11B) weighted sums on the CPU's vector units, for GrouperModel's
 * GF256Kernel (Sources/GrouperModel/Sharing). The Swift kernels are the fallback: callers
 * use these only when gf256_vector_level() is non-zero. */
#include <stddef.h>
#include <stdint.h>

/* 2 when the CPU runs AVX2 (32-byte nibble-table kernels), 0 otherwise. Checked once. */
int gf256_vector_level(void);

/* out[i·length + b] = XOR over j < k of weights[i·k + j] · inputs[j][b], for i < outputs
 * and b < length. Requires gf256_vector_level() > 0, 1 ≤ k ≤ 255, and out not overlapping
 * any input. */
void gf256_vector_sums(const uint8_t *const *inputs, int k, const uint8_t *weights, int outputs,
                       size_t length, uint8_t *out);

#endif
