#!/usr/bin/env python3
"""Writes random-scenarios.json: seeded random apply/update sequences over scenarios.json's schema,
for the differential fuzz against upstream structured-merge-diff (run generate.sh afterwards)."""
import json, random

rnd = random.Random(20261121)
base = json.load(open('scenarios.json'))
W = ['a', 'b', 'c']

def maybe(p=0.5):
    return rnd.random() < p

def spec():
    s = {}
    if maybe(): s['color'] = rnd.choice(W)
    if maybe(): s['size'] = rnd.choice(W)
    if maybe(0.3): s['replicas'] = rnd.randint(0, 3)
    if maybe(0.3): s['args'] = [rnd.choice(W) for _ in range(rnd.randint(0, 2))]
    if maybe(0.4): s['tags'] = rnd.sample(W, rnd.randint(1, 3))
    if maybe(0.4):
        s['ports'] = [dict({'containerPort': p}, **({'name': rnd.choice(W)} if maybe() else {}), **({'protocol': 'TCP'} if maybe(0.2) else {}))
                      for p in rnd.sample([80, 443, 8080], rnd.randint(1, 2))]
    if maybe(0.5):
        cs = []
        for n in rnd.sample(W, rnd.randint(1, 2)):
            c = {'name': n}
            if maybe(): c['image'] = rnd.choice(W)
            if maybe(): c['env'] = [dict({'name': e}, **({'value': rnd.choice(W)} if maybe(0.8) else {})) for e in rnd.sample(['X', 'Y', 'Z'], rnd.randint(1, 2))]
            cs.append(c)
        s['containers'] = cs
    if maybe(0.3): s['selector'] = {'matchLabels': {rnd.choice(W): rnd.choice(W)}}
    if maybe(0.4): s['settings'] = {k: rnd.choice(W) for k in rnd.sample(W, rnd.randint(1, 2))}
    if maybe(0.3):
        cfg = {}
        if maybe(): cfg['s'] = rnd.choice(W)  # scalar-valued key
        if maybe(): cfg['m'] = {k: rnd.choice(W) for k in rnd.sample(W, rnd.randint(1, 2))}  # map-valued key
        if cfg: s['config'] = cfg
    if maybe(0.3): s['template'] = {'note': rnd.choice(W)} if maybe() else {'labels': {rnd.choice(W): rnd.choice(W)}}
    return s

def obj():
    o = {'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': {'name': 'w'}}
    if maybe(0.3): o['metadata']['labels'] = {rnd.choice(W): rnd.choice(W)}
    o['spec'] = spec()
    if maybe(0.3): o['data'] = {rnd.choice(W): rnd.choice(W)}
    return o

scenarios = []
for i in range(150):
    steps = []
    for _ in range(rnd.randint(3, 7)):
        op = 'update' if maybe(0.25) else 'apply'
        m = rnd.choice(['U', 'V']) if op == 'update' else rnd.choice(['A', 'B', 'C'])
        steps.append({'op': op, 'manager': m, 'force': op == 'apply' and maybe(0.3), 'object': obj()})
    scenarios.append({'name': f'random {i}', 'steps': steps})
json.dump({'schemaYAML': base['schemaYAML'], 'schema': base['schema'], 'root': base['root'], 'scenarios': scenarios}, open('random-scenarios.json', 'w'), indent=None, separators=(',', ':'))
print(len(scenarios), 'scenarios', sum(len(s['steps']) for s in scenarios), 'steps')
