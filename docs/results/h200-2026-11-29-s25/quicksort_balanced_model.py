"""quicksort_balanced.fork's recursion in Python (session 24's quicksort_model.py with
quicksort_balanced's fork: the smaller keys get k of the g processors, k rounded from
g * nless / (nless + ngreater), at least one each) (rnd of lcg.h, the partition through a buffer with
the smaller keys in order and the larger ones reversed, as mpadd in __PROC_NR__ order gives,
): the largest leaf and the path of group sizes and key
counts to it. Usage: python3 quicksort_model.py N P (about 2 min for 10^6)."""
import sys
sys.setrecursionlimit(100000)
M=0xffffffff
def lcg(x): return (x*1103515245+12345)&M
def rnd(i,seed,m):
    x=lcg(((i*2654435761)&M)+seed & M)
    x=lcg(x^(x>>15))
    return (x>>16)%m
N=int(sys.argv[1]); P=int(sys.argv[2])
a=[rnd(i,4,10000) for i in range(N)]
def dnf_cost(x):
    # returns steps approx (iterations) and sorts x in place
    n=len(x)
    if n<2: return 1
    pivot=x[n//2]; lt=0;i=0;gt=n;it=0
    while i<gt:
        it+=1
        if x[i]<pivot: x[lt],x[i]=x[i],x[lt]; lt+=1;i+=1
        elif x[i]>pivot: gt-=1; x[i],x[gt]=x[gt],x[i]
        else: i+=1
    c=it
    l=x[:lt]; r=x[gt:]
    c+=dnf_cost(l); c+=dnf_cost(r)
    x[:lt]=l; x[gt:]=r
    return c
def share(g,nless,ngreater):
    k=1
    if nless+ngreater>0: k=(g*nless+(nless+ngreater)//2)//(nless+ngreater)
    return max(1,min(g-1,k))
worst=[0,None]
def qs(x,g,path,depth):
    n=len(x)
    if n<2: return path
    if g==1:
        c=dnf_cost(x)
        tot=path+c
        if tot>worst[0]: worst[0]=tot; worst[1]=(n,depth,path,c)
        return tot
    pivot=x[n//2]
    less=[v for v in x if v<pivot]; gr=[v for v in x if v>pivot]
    ne=n-len(less)-len(gr)
    cost=-(-n//g)*2 + -(-ne//g)
    buf=less+[pivot]*ne+gr[::-1]
    x[:]=buf
    g0=share(g,len(less),len(gr)); g1=g-g0
    l=x[:len(less)]; r=x[n-len(gr):]
    a1=qs(l,g0,path+cost,depth+1); a2=qs(r,g1,path+cost,depth+1)
    return max(a1,a2)
print("critical (iterations)",qs(a,P,0,0), "worst leaf (n, depth, path before, leaf iters)",worst[1])
# the path to the worst leaf: (group size, n) per level
def path(x,g,acc):
    n=len(x)
    if n<2 or g==1: return acc+[(g,n)]
    pivot=x[n//2]
    less=[v for v in x if v<pivot]; gr=[v for v in x if v>pivot]
    ne=n-len(less)-len(gr)
    x[:]=less+[pivot]*ne+gr[::-1]
    best=None
    k=share(g,len(less),len(gr))
    for sub,gg in ((x[:len(less)],k),(x[n-len(gr):],g-k)):
        p=path(list(sub),gg,acc+[(g,n)])
        if best is None or p[-1][1]>best[-1][1]: best=p
    return best
a=[rnd(i,4,10000) for i in range(N)]
print(path(a,P,[]))
