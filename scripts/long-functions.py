#!/usr/bin/env python3
"""The longest functions under src/ outside tests (issue 25's rule: none
longer than 120 lines). A function runs from its `fn` line to the closing
brace at its own indentation; `#[cfg(test)]` ends a file's count.

usage: scripts/long-functions.py [LIMIT]   (default 100: lists functions
longer than LIMIT lines, longest first; exits 1 if one is longer than 120)
"""
import os
import re
import sys

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 100
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
fn = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")
found = []
for d, _, files in os.walk(root):
    for f in files:
        if not f.endswith(".rs"):
            continue
        path = os.path.join(d, f)
        lines = open(path, encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            if re.match(r"\s*#\[cfg\(test\)\]", lines[i]):
                break
            m = fn.match(lines[i])
            if m:
                k = i
                while k < len(lines) and "{" not in lines[k] and ";" not in lines[k]:
                    k += 1
                one_line = k < len(lines) and lines[k].count("{") == lines[k].count("}")
                if k < len(lines) and "{" in lines[k] and not one_line:
                    j = i + 1
                    while j < len(lines) and lines[j] != m.group(1) + "}":
                        j += 1
                    n = j - i + 1
                    if n > limit:
                        found.append((n, os.path.relpath(path, os.path.join(root, "..")), i + 1, m.group(6)))
            i += 1
for n, path, line, name in sorted(found, reverse=True):
    print(f"{n:4} {path}:{line} {name}")
sys.exit(1 if any(n > 120 for n, *_ in found) else 0)
