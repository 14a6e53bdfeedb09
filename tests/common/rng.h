/*
 * rng.h -- the random numbers of the tests, benchmarks and experiments:
 * splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014) from a fixed seed, so that every run draws the
 * same instances on every machine (rand() differs between C libraries).
 */
#ifndef HL_TESTS_RNG_H
#define HL_TESTS_RNG_H

#include <stdint.h>

/* The next 64 random bits; *state advances. */
static inline uint64_t hl_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits. */
static inline double hl_rng_unit(uint64_t *state)
{
	return (double)(hl_rng_next(state) >> 11) / 9007199254740992.0;
}

/* Uniform in [lo, hi). */
static inline double hl_rng_uniform(uint64_t *state, double lo, double hi)
{
	return lo + (hi - lo) * hl_rng_unit(state);
}

#endif
