#!/usr/bin/env python3
"""Keeps the thesis line citations of the reports checkable.

Every citation "Lnnn" or "Lnnn-nnn" in Notebooks/, Reports/*/report.md and
Datasets/ (READMEs and CSV files) must match a row of
Tests/EndToEndTests/Fixtures/citations.tsv:

    thesis <TAB> citation <TAB> claim <TAB> anchor

where `claim` is words of the citing text within 3 lines of the citation
and `anchor` is words of the thesis, as written there, within 3 lines of
the cited range. CitationTests checks both against the
excerpts in Tests/EndToEndTests/Fixtures/theses/, which hold the cited
lines (with 3 lines either side) of the thesis texts.

    scripts/thesis-citations.py check      # citations without a row
    scripts/thesis-citations.py excerpts   # rewrite the excerpts from
                                           # ../shared/seeds/ (the theses)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests/EndToEndTests/Fixtures")
MANIFEST = os.path.join(FIXTURES, "citations.tsv")
SEEDS = os.path.join(os.path.dirname(ROOT), "shared/seeds")
CITATION = re.compile(r"\bL(\d{2,4})(?:-L?(\d{2,4}))?\b")
WINDOW = 3


def citing_files():
    files = sorted(glob.glob(os.path.join(ROOT, "Notebooks/*.md")))
    files += sorted(glob.glob(os.path.join(ROOT, "Reports/*/report.md")))
    files += sorted(glob.glob(os.path.join(ROOT, "Datasets/**/README.md"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "Datasets/**/*.csv"), recursive=True))
    return files


def occurrences():
    for path in citing_files():
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            for m in CITATION.finditer(line):
                yield os.path.relpath(path, ROOT), i, lines, m.group(0)


def manifest():
    rows = []
    for n, line in enumerate(open(MANIFEST, encoding="utf-8").read().split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4:
            sys.exit(f"{MANIFEST}:{n}: expected 4 tab-separated fields, got {len(parts)}")
        rows.append(parts)
    return rows


def cited_range(citation):
    m = CITATION.fullmatch(citation)
    start = int(m.group(1))
    end = int(m.group(2)) if m.group(2) else start
    return start, end


def check():
    rows = manifest()
    missing = 0
    for path, i, lines, citation in occurrences():
        near = "\n".join(lines[max(0, i - WINDOW): i + WINDOW + 1])
        if not any(r[1] == citation and r[2] in near for r in rows):
            missing += 1
            print(f"{path}:{i + 1}: {citation}: {lines[i].strip()[:160]}")
    print(f"{missing} citations without a row", file=sys.stderr)
    return 1 if missing else 0


def excerpts():
    wanted = {}
    for thesis, citation, _, _ in manifest():
        start, end = cited_range(citation)
        wanted.setdefault(thesis, set()).update(range(max(1, start - WINDOW), end + WINDOW + 1))
    os.makedirs(os.path.join(FIXTURES, "theses"), exist_ok=True)
    for thesis, numbers in sorted(wanted.items()):
        source = glob.glob(os.path.join(SEEDS, f"{thesis}_*.txt"))
        if len(source) != 1:
            sys.exit(f"no thesis {thesis} in {SEEDS}")
        text = open(source[0], encoding="utf-8").read().split("\n")
        name = os.path.basename(source[0])
        out = [f"# Lines of {name} cited by EnergyLab's reports (with {WINDOW} lines either side), as"
               f" LINE<TAB>TEXT; written by scripts/thesis-citations.py excerpts"]
        for k in sorted(numbers):
            if k <= len(text):
                out.append(f"{k}\t{text[k - 1]}")
        with open(os.path.join(FIXTURES, "theses", f"{thesis}.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    sys.exit({"check": check, "excerpts": excerpts}[command]())
