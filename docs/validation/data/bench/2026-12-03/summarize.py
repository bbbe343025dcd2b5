import re,statistics,glob,sys
d0=sys.argv[1] if len(sys.argv)>1 else '/tmp/bab'
rows={}
for v in ('old','new'):
    for f in sorted(glob.glob(f'{d0}/bench_{v}_*.txt')):
        kern=None
        for line in open(f):
            if line.startswith('matmul'): kern='matmul'
            elif line.startswith('vector_add'): kern='vector_add'
            parts=re.split(r'\s{2,}',line.strip())
            if kern and parts[0].startswith('counted') and len(parts)>=3 and 'FP instructions' not in parts[0]:
                rows.setdefault((kern,parts[0]),{}).setdefault(v,[]).append(float(parts[2]))
print("| case | fd5ab04 median | this tree median | ratio | fd5ab04 best | this tree best | ratio |")
print("|---|---|---|---|---|---|---|")
for k,d in rows.items():
    o,n=d['old'],d['new']
    print(f"| {k[0]}, {k[1]} | {statistics.median(o):.3g} | {statistics.median(n):.3g} | {statistics.median(n)/statistics.median(o):.2f} | {max(o):.3g} | {max(n):.3g} | {max(n)/max(o):.2f} |")
