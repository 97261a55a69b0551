"""The path of a quicksort trace (forkcc run --backend gpu --trace T.json) through its
latest-ending fork subgroups, from the first fork's group (g5) down: each group's size, its
call of quicksort and the groups it formed (seq, loop) with start and duration in ms.
Usage: python3 critical_path.py T.json"""
import json,sys
d=json.load(open(sys.argv[1]))
groups={}; calls={}
for e in d['traceEvents']:
    if e.get('ph')=='X' and e.get('cat')=='group':
        a=e['args']; groups[a['group']]=dict(ts=e['ts'],dur=e['dur'],parent=a.get('parent'),c=a['construct'],size=a['size'],site=a['site'].split(':',1)[1],tid=e['tid'],fn=a['function'])
    if e.get('ph')=='X' and e.get('cat')=='call':
        calls.setdefault(e['tid'],[]).append(e)
children={}
for k,g in groups.items(): children.setdefault(g['parent'],[]).append(k)
end=lambda k: groups[k]['ts']+groups[k]['dur']
k=5
while True:
    g=groups[k]
    print(f"g{k} {g['c']:5} size {g['size']:5} {g['site']:6} {g['fn']:14} ts {g['ts']/1000:9.3f} dur {g['dur']/1000:9.3f} ms")
    for e in calls.get(g['tid'],[]):
        print(f"     call {e['name']} ts {e['ts']/1000:9.3f} dur {e['dur']/1000:9.3f}")
    ch=sorted(children.get(k,[]),key=lambda c:groups[c]['ts'])
    for c in ch:
        cg=groups[c]
        if cg['c']!='fork':
            print(f"     child g{c} {cg['c']:5} size {cg['size']:5} {cg['site']:6} ts {cg['ts']/1000:9.3f} dur {cg['dur']/1000:9.3f}")
    forks=[c for c in ch if groups[c]['c']=='fork']
    if not forks: break
    k=max(forks,key=end)
