#!/usr/bin/env python3
"""Prints src/'s folders and their includes as a Mermaid flowchart (docs/architecture.md's
picture): a node per folder with its lines of code, an arrow from a folder to each folder it
includes, less the arrows another path already implies (a transitive reduction), so what is
left is the shape of the house. With --list, every folder each folder includes instead, one
line a folder (the doc's list, which the picture's reduction leaves out). Read from the
sources as they are; Python's standard library. tests/cli/architecture_doc_test.sh checks the
doc against both.
Usage: python3 scripts/include_graph.py [--list] [SRC_DIR]   (default: the checkout's src/)
"""
import os
import re
import sys

args = sys.argv[1:]
as_list = "--list" in args
args = [a for a in args if a != "--list"]
src = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "src")
include = re.compile(r'^\s*#\s*include\s+"([a-z_0-9]+)/')
edges, lines = {}, {}
for root, _, files in os.walk(src):
    rel = os.path.relpath(root, src)
    if rel == ".":
        continue
    folder = rel.split(os.sep)[0]
    edges.setdefault(folder, set())
    for name in files:
        if not name.endswith((".h", ".cc", ".cu")):
            continue
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                lines[folder] = lines.get(folder, 0) + 1
                m = include.match(line)
                if m and m.group(1) != folder and os.path.isdir(os.path.join(src, m.group(1))):
                    edges[folder].add(m.group(1))


def reach(start, skip_edge):
    """Folders reachable from start without the edge skip_edge."""
    seen, frontier = set(), [start]
    while frontier:
        a = frontier.pop()
        for b in edges[a]:
            if (a, b) != skip_edge and b not in seen:
                seen.add(b)
                frontier.append(b)
    return seen


if as_list:
    # A fenced block of its own ("text includes"), so the doc's test finds it by its first line.
    width = max(len(folder) for folder in edges) + 3
    print("```text includes")
    print(f"{'folder':<{width}}includes")
    for folder in sorted(edges):
        names = " ".join(f"{b}/" for b in sorted(edges[folder])) or "nothing"
        print(f"{folder + '/':<{width}}{names}")
    print("```")
    sys.exit(0)

print("```mermaid")
print("flowchart TB")
for folder in sorted(edges):
    print(f'  {folder}["{folder}/ ({lines.get(folder, 0):,} lines)"]')
for a in sorted(edges):
    for b in sorted(edges[a]):
        if b not in reach(a, (a, b)):
            print(f"  {a} --> {b}")
print("```")
