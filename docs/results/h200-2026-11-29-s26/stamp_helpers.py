"""Puts clock64 stamps between the helpers of quicksort's partition loop in the device
schedule's .cu (`forkcc build classroom-examples/quicksort_balanced.fork --emit cuda
--schedule device -D N=1000000 -o IN.cu`): thread 0 of the team adds the cycles since the
previous stamp per helper, per group size class (at most 32 members, or more), and the host
prints the mean per iteration after the run. Usage: python3 stamp_helpers.py IN.cu OUT.cu"""
import sys
s = open(sys.argv[1]).read()
start = s.index('FK_REGION_FN r1_quicksort(')
end = s.index('\n}\n', start)
out, inloop, k = [], False, 0
for l in s[start:end].split('\n'):
    if l.strip() == 'test64:':
        out += [l, '    FK_PROF_START;']
        inloop = True
        continue
    if inloop and l.strip() == 'goto test64;':
        out.append(l)
        inloop = False
        continue
    out.append(l)
    if inloop and l.strip().endswith(';'):
        out.append('    FK_PROF(%d);' % k)
        k += 1
pre = '''
__device__ unsigned long long fk_prof[2][24];
__device__ unsigned long long fk_prof_n[2];
#define FK_PROF_CLASS (fk_m.groups[g].size <= 32)
#define FK_PROF_START long long fk_last_ = clock64(); if (fk_team_tid()==0) atomicAdd(&fk_prof_n[FK_PROF_CLASS], 1ull);
#define FK_PROF(k) do { if (fk_team_tid()==0) { long long now_ = clock64(); atomicAdd(&fk_prof[FK_PROF_CLASS][k], (unsigned long long)(now_ - fk_last_)); fk_last_ = now_; } } while (0)
'''
s = s[:start] + pre + '\n'.join(out) + s[end:]
old = '    fk_cuda(cudaDeviceSynchronize(), "running the program");\n'
new = old + '''    { unsigned long long p[2][24], n[2]; cudaMemcpyFromSymbol(p, fk_prof, sizeof p); cudaMemcpyFromSymbol(n, fk_prof_n, sizeof n);
      for (int w = 0; w < 2; w++) { fprintf(stderr, "prof %s iterations %llu:", w ? "small (<= 32)" : "large", n[w]); for (int k = 0; k < 24; k++) fprintf(stderr, " %llu", n[w] ? p[w][k] / n[w] : 0); fprintf(stderr, "\\n"); } }
'''
s = s.replace(old, new, 1)
open(sys.argv[2], 'w').write(s)
