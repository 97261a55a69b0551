/* Deterministic input for the classroom examples.
 *
 * rnd(i, seed, m) is the i-th value of stream `seed`, in 0..m-1: the index is mixed with the
 * seed, then two steps of the C library's linear congruential generator
 * (x' = 1103515245 x + 12345 mod 2^32) with an xor-shift between them (without it the value
 * would be an affine function of i, and neighbouring elements would be visibly related).
 * Each processor can compute any element directly, so the input is generated in parallel;
 * expected.py computes the same values in Python.
 */
straight unsigned lcg_step(unsigned x)
{
    return x * 1103515245u + 12345u;
}

straight int rnd(int i, int seed, int m)
{
    unsigned x = lcg_step((unsigned)i * 2654435761u + (unsigned)seed);
    x = lcg_step(x ^ (x >> 15));
    return (int)((x >> 16) % (unsigned)m);
}
