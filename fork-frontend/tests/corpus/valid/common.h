/* Shared helpers for include.fork. */
#define WIDTH 3
int twice(int x) { return 2 * x; }
