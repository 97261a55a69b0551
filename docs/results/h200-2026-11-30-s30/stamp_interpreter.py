"""Times the device schedule's interpreter instruction by instruction, for the processors of
small groups: in the emitted `fk_run_proc`, each time a processor's program point changes,
the nanoseconds (%globaltimer) since it reached the previous one are added to that
instruction's total, if the processor's group then had at most SMALL members (waiting for a
collective's release included). After the run the host prints, per instruction with a
count, the count and the mean in microseconds (`pc N: count C, mean U us`), to stderr.
For the steps between quicksort's partition loops (docs/performance.md, session 30): which
collective of a level is the slow one. Usage:

  forkcc build classroom-examples/quicksort_balanced.fork --emit cuda --schedule device \\
      -D N=1000000 -o IN.cu
  python3 stamp_interpreter.py IN.cu OUT.cu [SMALL, default 8]
  nvcc -O2 -arch=sm_90 -DFK_HEAP_BYTES=268435456 OUT.cu -o x && ./x -p 4096

The instruction numbers are those of `--emit plan`'s host program listing."""
import sys

s = open(sys.argv[1]).read()
small = int(sys.argv[3]) if len(sys.argv) > 3 else 8
head = '__device__ void fk_run_proc(int p, FkProc *s) {\n'
start = s.index(head)
switch = '        switch (s->pc) {\n'
at = s.index(switch, start)
s = s[:at] + '        FK_PC_STAMP(p, s);\n' + s[at:]
pre = '''
#define FK_PC_MAX 4096
#define FK_PC_PROCS (1 << 20)
__device__ unsigned long long fk_pc_ns[FK_PC_MAX], fk_pc_n[FK_PC_MAX];
__device__ int fk_pc_last[FK_PC_PROCS];
__device__ unsigned long long fk_pc_ts[FK_PC_PROCS];
__device__ bool fk_pc_small[FK_PC_PROCS];
#define FK_PC_STAMP(P, S) do {                                                          \\
    int last_ = fk_pc_last[P];                                                          \\
    if ((P) < FK_PC_PROCS && (S)->pc < FK_PC_MAX && last_ != (S)->pc + 1) {             \\
        unsigned long long now_ = fk_now();                                             \\
        if (last_ > 0 && fk_pc_small[P]) {                                              \\
            atomicAdd(&fk_pc_ns[last_ - 1], now_ - fk_pc_ts[P]);                        \\
            atomicAdd(&fk_pc_n[last_ - 1], 1ull);                                       \\
        }                                                                               \\
        fk_pc_last[P] = (S)->pc + 1;                                                    \\
        fk_pc_ts[P] = now_;                                                             \\
        fk_pc_small[P] = fk_m.groups[(S)->group].size <= %d;                           \\
    }                                                                                   \\
} while (0)
''' % small
s = s[:start] + pre + s[start:]
old = '    fk_cuda(cudaDeviceSynchronize(), "running the program");\n'
new = old + '''    {
        static unsigned long long ns[FK_PC_MAX], n[FK_PC_MAX];
#ifdef FK_EMU
        memcpy(ns, fk_pc_ns, sizeof ns);
        memcpy(n, fk_pc_n, sizeof n);
#else
        cudaMemcpyFromSymbol(ns, fk_pc_ns, sizeof ns);
        cudaMemcpyFromSymbol(n, fk_pc_n, sizeof n);
#endif
        for (int pc = 0; pc < FK_PC_MAX; pc++)
            if (n[pc]) fprintf(stderr, "pc %d: count %llu, mean %.2f us\\n", pc, n[pc], ns[pc] / 1e3 / n[pc]);
    }
'''
assert s.count(old) == 1, 'no cudaDeviceSynchronize of the run'
s = s.replace(old, new, 1)
open(sys.argv[2], 'w').write(s)
