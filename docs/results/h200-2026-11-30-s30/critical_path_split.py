"""Splits the critical path that session 24's critical_path.py prints (a run's qsb-critical-path.txt)
into what quicksort_balanced's levels spend it on: from the fork to the call, from the call to
its first child (the `seq` of shmalloc), the partition loops (of groups above and below a
team of 608 threads), the `seq`s, from the loop's end to the `seq` of shfree (the copy loops),
and from there to the next fork. Usage: python3 critical_path_split.py qsb-critical-path.txt"""
import re,sys
L=open(sys.argv[1]).read().split('\n')
forks=[];cur=None
for l in L:
    m=re.match(r'g\d+ fork\s+size\s+(\d+).*ts\s+([\d.]+) dur\s+([\d.]+)',l)
    if m: cur={'size':int(m[1]),'fork':float(m[2]),'dur':float(m[3]),'kids':[]}; forks.append(cur); continue
    m=re.match(r'\s+call quicksort ts\s+([\d.]+) dur\s+([\d.]+)',l)
    if m and cur: cur['call']=float(m[1]); continue
    m=re.match(r'\s+child g\d+ (\w+)\s+size\s+(\d+) (\d+:\d+)\s+ts\s+([\d.]+) dur\s+([\d.]+)',l)
    if m and cur: cur['kids'].append((m[1],int(m[2]),m[3],float(m[4]),float(m[5])))
tot={'fork->call':0,'call->first':0,'loops >team':0,'loops':0,'seq':0,'loop end->shfree':0,'shfree->next fork':0}
for i,f in enumerate(forks):
    k=f['kids']
    if not k: continue
    tot['fork->call']+=f['call']-f['fork']
    tot['call->first']+=k[0][3]-f['call']
    for j,c in enumerate(k):
        if c[0]=='loop': tot['loops >team' if c[1]>608 else 'loops']+=c[4]
        else: tot['seq']+=c[4]
        if j>0: tot['loop end->shfree']+=c[3]-(k[j-1][3]+k[j-1][4])
    end=k[-1][3]+k[-1][4]
    if i+1<len(forks): tot['shfree->next fork']+=forks[i+1]['fork']-end
print('levels',len(forks),'first fork at',forks[0]['fork'],'ms; last fork at',forks[-1]['fork'])
for a,b in tot.items(): print('  %-20s %6.1f ms'%(a,b))
print('  sum %.1f'%sum(tot.values()))
