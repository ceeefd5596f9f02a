"""The docs stand alone: what a Markdown file of the repository cites is in the repository.

For every Markdown file (``README.md``, ``docs/``, each title's ``docs/``, the glossaries; the
tree is walked as it is when the test runs, so a moved or new file is covered by itself):

* every relative link (``[text](path)``, ``![alt](path)``, ``[name]: path``) leads to a file
  or folder that exists, and a ``#fragment`` into a Markdown file to one of its headings;
* every code reference in backticks that looks like a repository path
  (``games/engine/replay.py``, ``docs/api.md``, ``titles/<package>/engine/``, a folder with its
  trailing ``/``; ``<placeholders>`` and ``*`` match any name) names something that exists;
* every code reference that names a module of the project (``games.engine.bots``,
  ``accounts.services.token_user``, or a module by its last name, ``rows.collecting``) names a
  module, and an attribute that module defines (read from the source, nothing is imported);
* nothing points outside the repository (a link or path that climbs out of it, a machine's
  own folders).

A path may be written from the repository's root, from the doc's own folder (for a
package's ``docs/`` folder, from the package too), or from a folder cited earlier in the
same section of the doc (a table of a title's files under "`titles/<package>/`:").
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless

ROOT = Path(__file__).resolve().parents[2]

#: Top folders that hold nothing of the project's own: made by tools or at run time (and
#: hidden folders anywhere: ``.git``, ``.venv``, caches).
GENERATED = {"build", "var", "data", "staticfiles", "test-results", "node_modules"}

#: Paths the docs cite on purpose although they are not in a fresh checkout, each with why.
NOT_IN_THE_TREE = {
    "build/": "generated: the compiled engine is built there by `python3 dev.py install`",
    "var/": "created at run time: the local data folder (`DATA_DIR`), SQLite file included",
}

#: Markdown files whose code references are not checked (their links are), each with why.
RECORDS = {
    "docs/benchmarks/history.md": "a log of past passes: it names the tree as it was then",
}

#: Machine paths that must not appear in a doc (the project's docs speak of the project).
MACHINE_PATHS = re.compile(r"(?<![\w.])/(?:work|root|home)/\w")

DOTTED = re.compile(r"[A-Za-z_]\w*(?:[.:][A-Za-z_]\w*)+")
#: A module's file path and a name it defines: ``titles/colorado_county/forms.ActionForm``.
PATH_AND_NAME = re.compile(r"([\w/]+/\w+)\.([A-Za-z_]\w*)")
CHECK_ID = re.compile(r"[a-z_]+\.[CEWID]\d{3}")
#: Endings that make a dotted word a file name (``dev.py``), not a module path.
FILE_ENDINGS = {
    "cfg", "conf", "css", "csv", "gz", "html", "ico", "ini", "jpg", "js", "json", "jsonl",
    "lock", "md", "mo", "png", "po", "py", "sh", "sqlite3", "svg", "toml", "tpl", "txt",
    "woff2", "xml", "yaml", "yml",
}  # fmt: skip


def tree_files(suffixes: set[str], folder: Path = ROOT) -> Iterator[Path]:
    """The repository's files with those suffixes, as the tree is now."""
    for path in sorted(folder.iterdir()):
        if path.is_dir():
            skipped = path.name in GENERATED and folder == ROOT
            if not path.name.startswith(".") and not skipped and path.name != "node_modules":
                yield from tree_files(suffixes, path)
        elif path.suffix in suffixes:
            yield path


def markdown_files() -> list[Path]:
    return list(tree_files({".md"}))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --- reading Markdown -------------------------------------------------------------------


def prose(text: str) -> str:
    """``text`` with its fenced and indented code blocks blanked (line numbers kept)."""
    out: list[str] = []
    fence = ""
    previous_blank = True
    in_indented = False
    for line in text.split("\n"):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = ""
            out.append("")
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            out.append("")
            continue
        indented = line.startswith(("    ", "\t")) and bool(line.strip())
        if indented and (previous_blank or in_indented):
            in_indented = True
            out.append("")
            continue
        in_indented = in_indented and not line.strip()
        previous_blank = not line.strip()
        out.append(line)
    return "\n".join(out)


CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)


@dataclass
class Span:
    text: str
    line: int
    section: int  # which section (heading to heading) of the doc holds it


def code_spans(text: str) -> list[Span]:
    text = prose(text)
    starts = [m.start() for m in HEADING.finditer(text)]
    out = []
    for m in CODE_SPAN.finditer(text):
        section = sum(1 for s in starts if s <= m.start())
        out.append(Span(m.group(2).strip(), text.count("\n", 0, m.start()) + 1, section))
    return out


def links(text: str) -> list[tuple[str, int]]:
    text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose(text))
    found = [(m.group(1), m.start()) for m in LINK.finditer(text)]
    found += [(m.group(1), m.start()) for m in REFERENCE.finditer(text)]
    return [(target, text.count("\n", 0, at) + 1) for target, at in found]


def heading_slug(heading: str) -> str:
    """The fragment a Markdown renderer (GitHub's way) gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def fragments_of(text: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for m in HEADING.finditer(prose(text)):
        slug = heading_slug(m.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


@cache
def fragments(path: Path) -> set[str]:
    return fragments_of(path.read_text(encoding="utf-8"))


# --- paths --------------------------------------------------------------------------------


PLACEHOLDER = re.compile(r"<[^<>]+>")


def path_tokens(span: str) -> list[str]:
    """The words of a code span that look like a repository path: a ``/`` inside, and a file
    ending or a trailing ``/``; no URL, no absolute path, no assignment."""
    out = []
    for word in PLACEHOLDER.sub("*", span).split():
        word = word.strip("([{\"',;").rstrip(")]}\"',;:.").removeprefix("./")
        if "/" not in word or "://" in word or word.startswith(("/", "~", "$", "-")):
            continue
        if any(c in word for c in "=%@?&|\\") or word.startswith("*"):
            continue
        last = word.rstrip("/").rsplit("/", 1)[-1]
        if word.endswith("/") or ("." in last and last.rsplit(".", 1)[1] in FILE_ENDINGS):
            out.append(word)
    return out


def matches(base: Path, word: str) -> list[Path]:
    """What ``word`` (a relative path, maybe with ``*``) names from ``base``."""
    want_dir = word.endswith("/")
    pattern = word.rstrip("/")
    if "*" in pattern:
        found = sorted(base.glob(pattern))
    else:
        found = [base / pattern] if (base / pattern).exists() else []
    return [p for p in found if p.is_dir() or not want_dir]


def inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


# --- modules --------------------------------------------------------------------------------


@dataclass
class Names:
    """What a module or class defines, read from its source."""

    names: dict[str, ast.AST] = field(default_factory=dict)
    anything: bool = False  # a module ``__getattr__`` or a star import: any name may exist
    imported: dict[str, str] = field(default_factory=dict)  # name -> "module.attr" it comes from


def _collect(body: list[ast.stmt], into: Names, module: str) -> None:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            into.names[node.name] = node
            if node.name == "__getattr__":
                into.anything = True
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        into.names[name.id] = node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                into.names[alias.asname or alias.name.split(".")[0]] = node
                if alias.asname:
                    into.imported[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, up ``level - 1`` more
                package = module if is_package(module) else module.rpartition(".")[0]
                for _up in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                if alias.name == "*":
                    into.anything = True
                    continue
                into.names[alias.asname or alias.name] = node
                into.imported[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.If | ast.Try | ast.With):
            blocks = [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
            blocks += [h.body for h in getattr(node, "handlers", [])]
            for block in blocks:
                _collect(block, into, module)


def is_package(dotted: str) -> bool:
    return (ROOT.joinpath(*dotted.split(".")) / "__init__.py").is_file()


def module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def module_names(dotted: str) -> Names | None:
    path = module_file(dotted)
    if path is None:
        return None
    names = Names()
    if path.name == "__init__.py":  # a package: its modules and subpackages too
        for child in path.parent.iterdir():
            if child.suffix == ".py" or (child / "__init__.py").is_file():
                names.names.setdefault(child.stem, ast.Module(body=[], type_ignores=[]))
    _collect(ast.parse(path.read_text(encoding="utf-8")).body, names, dotted)
    return names


def class_names(node: ast.ClassDef, module: str) -> Names:
    names = Names()
    _collect(node.body, names, module)
    for item in ast.walk(node):  # attributes set on ``self`` in its methods
        if (
            isinstance(item, ast.Attribute)
            and isinstance(item.value, ast.Name)
            and item.value.id == "self"
            and isinstance(item.ctx, ast.Store)
        ):
            names.names[item.attr] = item
    # Bases outside the class may define more (a model's fields, a protocol's members).
    names.anything = any(not (isinstance(b, ast.Name) and b.id == "object") for b in node.bases)
    return names


def resolves(dotted: str, depth: int = 0) -> bool:
    """Whether ``dotted`` names a module of the project, or something a module defines."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        names = module_names(module)
        if names is None:
            continue
        rest = parts[cut:]
        scope: Names = names
        for i, attr in enumerate(rest):
            if attr not in scope.names:
                return scope.anything
            if attr in scope.imported and depth < 5:
                source = scope.imported[attr]
                if module_file(source.split(".")[0]) is None:
                    return True  # from outside the project: not ours to check
                return resolves(".".join([source, *rest[i + 1 :]]), depth + 1)
            node = scope.names[attr]
            if not isinstance(node, ast.ClassDef):
                return True  # a function or a value: what it holds is not read here
            scope = class_names(node, module)
        return True
    return False


@cache
def project_packages() -> frozenset[str]:
    """The project's top-level packages (``games``, ``accounts``, ``titles``, ``tests``, …)."""
    return frozenset(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())


@cache
def modules_by_last_name() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for top in sorted(project_packages()):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.setdefault(parts[-1], []).append(".".join(parts))
    return out


def stdlib_has(dotted: str) -> bool:
    """Whether the standard library module of that name has the attribute path."""
    import importlib

    first, *rest = dotted.split(".")
    if first not in sys.stdlib_module_names:
        return False
    try:
        value: object = importlib.import_module(first)
    except ImportError:
        return False
    for attr in rest:
        if not hasattr(value, attr):
            return False
        value = getattr(value, attr)
    return True


def module_problem(word: str) -> str | None:
    """Why the dotted ``word`` is a dangling reference, or None (fine, or not a module)."""
    dotted = word.replace(":", ".")
    first, last = dotted.split(".")[0], dotted.rsplit(".", 1)[-1]
    if last in FILE_ENDINGS:
        return None  # a file name, e.g. ``dev.py``
    if CHECK_ID.fullmatch(dotted):
        return None  # a Django system check's id, e.g. ``games.W001``
    if first in project_packages():
        return None if resolves(dotted) else f"`{word}`: no such module or attribute"
    candidates = modules_by_last_name().get(first)
    if not candidates:
        return None  # not a module of the project (a class, a variable, a library)
    rest = dotted.split(".")[1:]
    if any(resolves(".".join([c, *rest])) for c in candidates) or stdlib_has(dotted):
        return None
    return f"`{word}`: none of {', '.join(sorted(candidates))} defines `{'.'.join(rest)}`"


def dotted_words(span: str) -> list[str]:
    words = span.split()
    out = []
    for word in words:
        if word[:1] in "\"'":
            continue  # a JSON string, not a name
        m = DOTTED.match(word.lstrip("(["))
        if m and (len(words) == 1 or m.group(0).split(".")[0] in project_packages()):
            out.append(m.group(0).rstrip(".:"))
    return out


# --- the checks -------------------------------------------------------------------------------


def problems_of(doc: Path, text: str | None = None) -> list[str]:
    """What ``doc`` (its ``text``, read from the file unless given) cites that is missing."""
    text = doc.read_text(encoding="utf-8") if text is None else text
    name = rel(doc)
    out = []
    for target, line in links(text):
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
            continue  # a URL (https:, mailto:)
        path_part, _, fragment = target.partition("#")
        dest = doc.parent / path_part
        if not path_part:
            if fragment not in fragments_of(text):
                out.append(f"{name}:{line}: link `{target}`: no heading gives #{fragment}")
        elif not inside(dest):
            out.append(f"{name}:{line}: link `{target}` leads out of the repository")
        elif not dest.exists():
            out.append(f"{name}:{line}: link `{target}`: no such file or folder")
        elif fragment and dest.suffix == ".md" and fragment not in fragments(dest.resolve()):
            out.append(f"{name}:{line}: link `{target}`: no heading gives #{fragment}")
    for m in MACHINE_PATHS.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append(f"{name}:{line}: a machine's own path ({m.group(0)}…)")
    if name in RECORDS:
        return out
    bases = [ROOT, doc.parent] + ([doc.parent.parent] if doc.parent.name == "docs" else [])
    context: list[Path] = []
    section = -1
    for span in code_spans(text):
        if span.section != section:
            section, context = span.section, []
        for word in path_tokens(span.text):
            if any(word.startswith(prefix) for prefix in NOT_IN_THE_TREE):
                continue
            found = [p for base in [*bases, *context] for p in matches(base, word)]
            if any(not inside(p) for p in found) or (word.startswith("../") and not found):
                out.append(f"{name}:{span.line}: `{word}` leads out of the repository")
            elif not found:
                out.append(f"{name}:{span.line}: `{word}`: no such file or folder")
            else:
                context += [p for p in found if p.is_dir()]
        for word in dotted_words(span.text):
            problem = module_problem(word)
            if problem:
                out.append(f"{name}:{span.line}: {problem}")
        for word in span.text.split():
            hybrid = PATH_AND_NAME.fullmatch(word.strip("(),;"))  # ``colorado/views.home``
            if (
                hybrid
                and hybrid.group(2) not in FILE_ENDINGS
                and not resolves(f"{hybrid.group(1).replace('/', '.')}.{hybrid.group(2)}")
            ):
                out.append(f"{name}:{span.line}: `{word}`: no such module or attribute")
    return out


RULE_DEFINED = re.compile(
    r"\*\*([A-Z]{2,4}-\d+(?:\.\d+)?)\b|^#{1,6}\s+([A-Z]{2,4}-\d+(?:\.\d+)?)\b", re.MULTILINE
)
CITING_SUFFIXES = {".py", ".md", ".html", ".js", ".txt", ".json"}


def rule_ids_defined() -> set[str]:
    """The rule ids a title's docs define: in bold (``**CC-5.2**``) or as a heading."""
    out = set()
    for doc in sorted(ROOT.glob("titles/*/docs/*.md")):
        for m in RULE_DEFINED.finditer(doc.read_text(encoding="utf-8")):
            out.add(m.group(1) or m.group(2))
    return out


def cited_rule_ids(prefixes: set[str], with_parts: set[str]) -> Iterator[tuple[str, str]]:
    """``(file, id)`` for every rule id of those prefixes the repository's text cites, test
    names included (``test_cc_5_2_…`` cites CC-5.2 when CC has numbered parts)."""
    cited = re.compile(rf"\b({'|'.join(sorted(prefixes))})-(\d+)(?:\.(\d+))?")
    named = re.compile(
        rf"\btest_({'|'.join(p.lower() for p in sorted(prefixes))})_(\d+)(?:_(\d+))?"
    )

    for path in tree_files(CITING_SUFFIXES):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in cited.finditer(text):
            yield rel(path), f"{m.group(1)}-{m.group(2)}" + (f".{m.group(3)}" if m.group(3) else "")
        for m in named.finditer(text):
            prefix = m.group(1).upper()
            part = f".{m.group(3)}" if m.group(3) and prefix in with_parts else ""
            yield rel(path), f"{prefix}-{m.group(2)}{part}"


def test_every_rule_id_the_repository_cites_is_defined_in_its_titles_docs() -> None:
    """A comment, a test or a doc that cites a rule (CC-7.3, LC-12) finds it defined on the
    title's rules page (``titles/<package>/docs/``)."""
    defined = rule_ids_defined()
    prefixes = {d.split("-")[0] for d in defined}
    assert {"CC", "LC"} <= prefixes
    with_parts = {d.split("-")[0] for d in defined if "." in d}
    missing = sorted(
        {
            f"{where}: {rule}"
            for where, rule in cited_rule_ids(prefixes, with_parts)
            if rule not in defined
        }
    )
    assert not missing, "Rule ids cited but defined in no title's docs:\n" + "\n".join(missing)


#: ``docs/server.md, "Moves made together"``: a doc and the section (a heading, or a bold
#: lead-in) that a comment, a docstring or another doc points at.
SECTION_REFERENCE = re.compile(
    r"((?:docs|titles/\w+/docs)/[\w/.-]*\.md)`{0,2}(?:,\s*\(?|\s+\(?)\"([^\"]{1,80})\""
)


def section_starts(doc: Path) -> list[str]:
    text = prose(doc.read_text(encoding="utf-8"))
    heads = [m.group(2) for m in HEADING.finditer(text)]
    return [h.replace("`", "") for h in heads + re.findall(r"\*\*([^*]+)\*\*", text)]


def test_every_section_a_reference_names_is_in_that_doc() -> None:
    """``(docs/api.md, "Moves")`` anywhere in the repository: the doc has a heading (or a bold
    lead-in) that starts with those words."""
    problems = []
    for path in tree_files(CITING_SUFFIXES):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in SECTION_REFERENCE.finditer(text):
            doc, section = ROOT / m.group(1), re.sub(r"\s*\n\s*#?\s*", " ", m.group(2))
            line = text.count("\n", 0, m.start()) + 1
            if not doc.is_file():
                problems.append(f"{rel(path)}:{line}: {m.group(1)}: no such doc")
            elif not any(h.startswith(section) for h in section_starts(doc)):
                problems.append(f"{rel(path)}:{line}: {m.group(1)} has no section {section!r}")
    assert not problems, "References to sections that are not there:\n" + "\n".join(problems)


def test_the_docs_are_found() -> None:
    names = {rel(p) for p in markdown_files()}
    assert "README.md" in names
    assert "docs/api.md" in names
    assert any(n.startswith("titles/") and "/docs/" in n for n in names)
    assert any(n.endswith("/glossary.md") for n in names)
    assert set(RECORDS) <= names, "a record listed in RECORDS is gone: drop it from the list"


def test_every_link_path_and_module_a_doc_cites_exists() -> None:
    problems = [p for doc in markdown_files() for p in problems_of(doc)]
    assert not problems, "Docs cite what is not in the repository:\n" + "\n".join(problems)


def test_the_checker_sees_a_missing_file_a_stale_module_and_a_way_out() -> None:
    """The checks themselves, on a doc made up for the purpose (as if in ``docs/``)."""
    doc = ROOT / "docs" / "_probe.md"
    problems = problems_of(
        doc,
        "# Probe\n\n"
        "See [the API](api.md), [a section](api.md#conventions), `games/engine/replay.py`,\n"
        "`games.engine.bots.get_bot`, `titles/<package>/engine/` and `build/engine/<key>/`.\n\n"
        "Gone: [old](old-page.md), [bad](api.md#no-such-heading), `tests/engine/tiny_title.py`,\n"
        "`games.engine.no_such_name`, `rows.no_such_function`, [out](../../elsewhere.md),\n"
        "`colorado/views.healthz` but not `colorado/views.no_such_view`,\n"
        "and a machine path " + "/work" + "/main/x. [Up](#probe), [down](#nowhere).\n",
    )
    text = "\n".join(problems)
    for wanted in (
        "`old-page.md`: no such file",
        "api.md#no-such-heading",
        "`tests/engine/tiny_title.py`: no such file",
        "`games.engine.no_such_name`",
        "`rows.no_such_function`",
        "`../../elsewhere.md` leads out of the repository",
        "a machine's own path",
        "#nowhere",
        "`colorado/views.no_such_view`",
    ):
        assert wanted in text, (wanted, problems)
    assert len(problems) == 9, problems
