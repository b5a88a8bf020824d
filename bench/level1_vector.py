"""Prints the level-1 vector candidates of the bundled set (candidates/<category>/<task>/ with a LEVEL = 1 task in
tasks/, no cube categories), one CATEGORY/TASK per line: what the throughput benchmarks evaluate."""
import os
import re

for cat in sorted(os.listdir("candidates")):
    d = os.path.join("candidates", cat)
    if not os.path.isdir(d) or cat in ("matmul", "convolution", "attention", "arch"):
        continue
    for name in sorted(os.listdir(d)):
        task = os.path.join("tasks", cat, name + ".py")
        if os.path.isdir(os.path.join(d, name)) and os.path.exists(task) and \
                re.search(r"^LEVEL\s*=\s*1\b", open(task).read(), re.M):
            print(cat + "/" + name)
