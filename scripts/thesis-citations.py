#!/usr/bin/env python3
"""Keeps the thesis line citations of the reports checkable.

Every citation "Lnnn" or "Lnnn-nnn" in Notebooks/, Reports/*/report.md and
Datasets/ (READMEs and CSV files) must match a row of
Tests/EndToEndTests/Fixtures/citations.tsv:

    thesis <TAB> citation <TAB> claim <TAB> anchor

where `claim` is words of the citing text within 3 lines of the citation
and `anchor` is words of the thesis, as written there, within 3 lines of
the cited range. The row must be for the thesis the citation refers to:
Tests/EndToEndTests/Fixtures/theses.tsv names the thesis of each citing
file, or says that each citation's thesis is the thesis name nearest
before it (on its line, or up to 3 lines above). CitationTests checks both against the
excerpts in Tests/EndToEndTests/Fixtures/theses/, which hold the cited
lines (with 3 lines either side) of the thesis texts.

Every author-year citation ("Hall et al. 2004", "Bland and Altman 1999",
"Lewis (1995)") in Notebooks/, Reports/*/report.md, README.md and the model
documentation (Sources/EnergyModels/, Sources/Estimation/) must name a
reference of Tests/EndToEndTests/Fixtures/references.tsv:

    name <TAB> year <TAB> authors <TAB> title and where published

with the year printed there, the second author (when one is named) as
listed, and no "et al." for a single author. A row whose authors are "-"
is a known wrong attribution (its last field says what to cite instead);
a row whose year is "*" is a word that stands before a year but names no
author (a month, a university, a journal abbreviation). CitationTests
runs the same check, and also checks citations without a year: "Name et
al." needs a reference whose first author is Name, "Name and Other" (Name
a first author of the list) needs Other as that reference's second
author; words in quotation marks (a thesis quoted as written) are left.

    scripts/thesis-citations.py check      # citations without a row, and
                                           # author-year citations that
                                           # are not in references.tsv
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
THESES = os.path.join(FIXTURES, "theses.tsv")
SEEDS = os.path.join(os.path.dirname(ROOT), "shared/seeds")
CITATION = re.compile(r"\bL(\d{2,4})(?:-L?(\d{2,4}))?\b")
WINDOW = 3
REFERENCES = os.path.join(FIXTURES, "references.tsv")
# An author-year citation: a capitalised name (with its initials, a "van"
# or "de" before it), an optional second author or "et al.", then the
# year, in brackets or not. A year followed by ";" and a digit is a
# journal's volume ("Exerc 2004;36"), not a citation.
AUTHOR_YEAR = re.compile(
    r"(?<![\w.])((?:van |de )?[A-Z][A-Za-z\u2019'-]+)(?: [A-Z]{1,3}(?= ))?"
    r"(?:,? +(?:and|&|&amp;) +((?:van |de )?[A-Z][A-Za-z\u2019'-]+))?( +et al\.?)?,? +\(?((?:19|20)\d\d)(?!\d|;\d)"
)


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
                yield os.path.relpath(path, ROOT), i, lines, m.group(0), m.start()


def table_rows(path):
    """The 4-field rows of a tab-separated fixture, comments left out."""
    rows = []
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4:
            sys.exit(f"{path}:{n}: expected 4 tab-separated fields, got {len(parts)}")
        rows.append(parts)
    return rows


def manifest():
    return table_rows(MANIFEST)


def theses():
    """(names, files): thesis by name (lower case, hyphens as spaces) and
    by citing file ("named" where each citation names its thesis)."""
    names, files = {}, {}
    for n, line in enumerate(open(THESES, encoding="utf-8").read().split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[0] not in ("name", "file"):
            sys.exit(f"{THESES}:{n}: expected name|file <TAB> key <TAB> thesis")
        (names if parts[0] == "name" else files)[normalised(parts[1]) if parts[0] == "name" else parts[1]] = parts[2]
    return names, files


def normalised(text):
    return text.lower().replace("-", " ")


def thesis_of(path, i, lines, start, names, files):
    """The thesis a citation at column `start` of line `i` refers to, or
    None (with why) when neither its file nor its neighbourhood names one."""
    thesis = files.get(path)
    if thesis is None:
        return None, f"{path} is not in theses.tsv (add the thesis its citations refer to)"
    if thesis != "named":
        return thesis, None
    texts = [normalised(lines[i][:start])] + [normalised(lines[k]) for k in range(i - 1, max(-1, i - WINDOW - 1), -1)]
    for text in texts:
        found = [(text.rfind(name), thesis) for name, thesis in names.items() if name in text]
        if found:
            return max(found)[1], None
    return None, f"no thesis named on the line or up to {WINDOW} lines above"


def cited_range(citation):
    m = CITATION.fullmatch(citation)
    start = int(m.group(1))
    end = int(m.group(2)) if m.group(2) else start
    return start, end


def check():
    rows = manifest()
    names, files = theses()
    missing = 0
    for path, i, lines, citation, start in occurrences():
        near = "\n".join(lines[max(0, i - WINDOW): i + WINDOW + 1])
        thesis, why = thesis_of(path, i, lines, start, names, files)
        if why:
            missing += 1
            print(f"{path}:{i + 1}: {citation}: {why}: {lines[i].strip()[:160]}")
        elif not any(r[0] == thesis and r[1] == citation and r[2] in near for r in rows):
            missing += 1
            others = sorted({r[0] for r in rows if r[1] == citation and r[2] in near})
            other = f" (rows of thesis {', '.join(others)} only)" if others else ""
            print(f"{path}:{i + 1}: {citation}: no row of thesis {thesis}{other}: {lines[i].strip()[:160]}")
    print(f"{missing} citations without a row of their thesis", file=sys.stderr)
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


def author_year_files():
    files = sorted(glob.glob(os.path.join(ROOT, "Notebooks/*.md")))
    files += sorted(glob.glob(os.path.join(ROOT, "Reports/*/report.md")))
    files += [os.path.join(ROOT, "README.md")]
    files += sorted(glob.glob(os.path.join(ROOT, "Sources/EnergyModels/*.swift")))
    files += sorted(glob.glob(os.path.join(ROOT, "Sources/Estimation/*.swift")))
    return files


def references():
    rows = {}
    for parts in table_rows(REFERENCES):
        rows.setdefault(parts[0], []).append(parts)
    return rows


def surnames(authors):
    """'Bland JM, Altman DG' -> ['Bland', 'Altman'] (initials dropped)."""
    return [" ".join(a.split()[:-1]) or a for a in authors.split(", ")]


def author_year_problem(rows, name, second, et_al, year):
    """Why a citation does not match references.tsv, or None."""
    known = rows.get(name, [])
    if any(r[1] == "*" for r in known):
        return None
    cited = f"{name}{' and ' + second if second else ''}{' et al.' if et_al else ''} {year}"
    if not known:
        return f"{cited}: no reference {name} in references.tsv (add its authors, year and journal, or correct the name)"
    same = [r for r in known if r[1] == year]
    if not same:
        have = "; ".join(f"{r[1]} ({r[2]})" for r in known)
        return f"{cited}: references.tsv has {name} only as {have}"
    row = same[0]
    if row[2] == "-":
        return f"{cited}: {row[3]}"
    authors = surnames(row[2])
    if second and (len(authors) < 2 or authors[1] != second):
        return f"{cited}: the second author of {name} {year} is {authors[1] if len(authors) > 1 else 'nobody'} ({row[2]})"
    if et_al and len(authors) == 1:
        return f"{cited}: {name} {year} has one author ({row[2]}), so no et al."
    return None


def author_year_problems(paths):
    rows = references()
    for path in paths:
        text = open(path, encoding="utf-8").read()
        # Newlines as spaces, so that a citation broken over two lines is
        # still one; offsets stay those of the file.
        flat = re.sub(r"\n(\s*(///|//)?\s*)", lambda m: " " * len(m.group(0)), text)
        for m in AUTHOR_YEAR.finditer(flat):
            problem = author_year_problem(rows, m.group(1), m.group(2), bool(m.group(3)), m.group(4))
            if problem:
                line = text.count("\n", 0, m.start()) + 1
                yield f"{os.path.relpath(path, ROOT)}:{line}: {problem}"


def check_authors(paths=None):
    problems = list(author_year_problems(paths or author_year_files()))
    for p in problems:
        print(p)
    print(f"{len(problems)} author-year citations not in references.tsv", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "authors":
        sys.exit(check_authors(sys.argv[2:]))
    sys.exit({"check": lambda: check() | check_authors(), "excerpts": excerpts}[command]())
