"""Session 28: stamp_helpers.py's stamps in the emitted owned loop of r1_quicksort as well
(the helpers in the same order, so both loops' cycles add up per helper; since session 29
also where the loop starts with `fk_r_own_member(g61, r, settled)`). Usage: python3
stamp_owned.py STAMPED.cu OUT.cu (STAMPED: stamp_helpers.py's output)."""
import re
import sys
s = open(sys.argv[1]).read()
s = s.replace("#define FK_PROF_START long long fk_last_ = clock64();", "#define FK_PROF_START fk_last_ = clock64();", 1)
i = s.index('FK_REGION_FN r1_quicksort(')
head = '    FkRegion r = fk_region(g, slot_base, launch);\n'
k = s.index(head, i) + len(head)
s = s[:k] + '    long long fk_last_ = 0;\n' + s[k:]
i = re.compile(r'own61 = fk_r_own_member\(g61, r(, [01])?\);').search(s, k).start()
j = s.index('        for (;;) {\n', i) + len('        for (;;) {\n')
end = s.index('\n        }\n', j)
out, n = ['            FK_PROF_START;'], 0
for l in s[j:end].split('\n'):
    out.append(l)
    if l.strip().endswith(';'):
        out.append('            FK_PROF(%d);' % n)
        n += 1
assert n == 10, n
s = s[:j] + '\n'.join(out) + s[end:]
open(sys.argv[2], 'w').write(s)
