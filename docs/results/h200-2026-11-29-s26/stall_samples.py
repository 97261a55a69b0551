"""Sums Nsight Compute's warp stall samples and executed instructions by source line: reads
cs.csv (`ncu --import R --page source --csv --print-source cuda,sass`, run E) from the current
folder; `python3 stall_samples.py N` prints the top N lines. runE/stall-samples-by-line.txt
was made by importing it (its `by`, `ex`, `src`, `tot`)."""
import csv, collections, sys
rows=list(csv.reader(open('cs.csv')))
hdr=rows[2]
iS=hdr.index('Warp Stall Sampling (All Samples)')
iE=hdr.index('Instructions Executed')
num=lambda x: int(x.replace(',','')) if x and x!='-' else 0
by=collections.Counter(); ex=collections.Counter(); src={}
line=None; f=''; seen=set(); tot=0
addr_line={}
for r in rows[3:]:
    if r[0] in ('File Path','Function Name','Line No'):
        if r[0]=='File Path': f=r[1].split('/')[-1]
        continue
    if r[0]:
        line=(f,int(r[0])); src[line]=r[1]; continue
    addr=r[2]
    key=(line,addr)
    if key in seen: continue
    seen.add(key)
    s=num(r[iS]); e=num(r[iE])
    by[line]+=s; ex[line]+=e; tot+=s
    addr_line.setdefault(addr,line)
if __name__=='__main__':
    print('total samples',tot)
    for l,s in by.most_common(int(sys.argv[1]) if len(sys.argv)>1 else 60):
        print(f"{s:8d} {100*s/tot:5.1f}% {ex[l]:12d} {l[0][:12]}:{l[1]:<6d} {src[l][:110]}")
