#!/usr/bin/env python3
"""The layer rule of src/ (docs/architecture.md): core < plan < backend < exec < dist < api.

A file may include headers of its own layer and of layers before it, never one
after it, and the include graph of src/ has no cycle. Fails with the offending
include (or cycle) named.
"""
import os
import re
import sys

LAYERS = ["core", "plan", "backend", "exec", "dist", "api"]


def layer_of(path):
    top = path.split("/", 1)[0]
    return LAYERS.index(top) if top in LAYERS else None


def main(src):
    graph, bad = {}, []
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith((".c", ".h", ".cu", ".cuh")):
                continue
            rel = os.path.relpath(os.path.join(root, f), src)
            deps = []
            with open(os.path.join(root, f)) as fh:
                for line in fh:
                    m = re.match(r'\s*#include "([^"]+)"', line)
                    if m and os.path.exists(os.path.join(src, m.group(1))):
                        deps.append(m.group(1))
            graph[rel] = deps
            mine = layer_of(rel)
            for d in deps:
                theirs = layer_of(d)
                if mine is not None and theirs is not None and theirs > mine:
                    bad.append(f"{rel} ({LAYERS[mine]}) includes {d} ({LAYERS[theirs]}), a layer above it")
    # cycles: depth-first search with colours
    colour, stack = {}, []

    def visit(n):
        colour[n] = 1
        stack.append(n)
        for d in graph.get(n, []):
            if colour.get(d) == 1:
                bad.append("include cycle: " + " -> ".join(stack[stack.index(d):] + [d]))
            elif colour.get(d) is None:
                visit(d)
        stack.pop()
        colour[n] = 2

    for n in sorted(graph):
        if colour.get(n) is None:
            visit(n)
    if any(layer_of(f) is None for f in graph):
        bad.extend(f"{f} is in no layer folder" for f in graph if layer_of(f) is None)
    for b in bad:
        print(b)
    if bad:
        return 1
    print(f"layers: {len(graph)} files of src/, no upward include, no include cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
