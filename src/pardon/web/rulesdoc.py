"""The rules of each preset for the browser, read from docs/rules.md and shown as HTML sections.

docs/rules.md is the one text of the rules; this module cuts it into sections by heading and
picks the ones a preset's players need: the classic game every edition builds on, the cards,
then what the preset changes, then the words, the board's numbering and common mistakes.  The
markdown it uses (headings, paragraphs, lists, tables, emphasis, code, links) is rendered here,
escaped first, so the page needs no library.

>>> to_html("A **bump**: `4 20-16` <b>")
'<p>A <strong>bump</strong>: <code>4 20-16</code> &lt;b&gt;</p>'
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pardon.core.rules import OPTION_HELP, PRESET_HELP, PRESETS

#: docs/rules.md, packaged beside this module (a link to it in the source tree, a copy in a wheel).
RULES_DOC: Final = Path(__file__).with_name("rules.md")

#: Sections every preset's page shows, before and after its own (titles as in docs/rules.md):
#: how to play first; the board's numbering, a reference, after the words players use.
COMMON_BEFORE: Final = ("The classic game", "Cards")
COMMON_AFTER: Final = ("Who goes first", "Words players use", "The board", "Common mistakes", "Open questions")

#: The sections of docs/rules.md that belong to each preset (title prefixes).
PRESET_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "classic": ("Other editions and variants",),
    "classic-1939": ("The 1939 game", "Points", "1939 Point Scoring Sorry"),
    "partners": ("Partners",),
    "adult": ("Hands of five", "Points", "1992 play for points"),
    "modern": ("The 2013 edition without tokens", "The 2013 edition with Fire and Ice"),
    "modern-no-tokens": ("The 2013 edition without tokens",),
    "solo": ("The solo challenge",),
}


@dataclass(frozen=True)
class Section:
    """One heading of the rules and its text (markdown)."""

    level: int
    title: str
    body: str

    @property
    def slug(self) -> str:
        """The anchor GitHub gives the heading, so links written in the docs keep working."""
        text = re.sub(r"[^\w\- ]", "", self.title.lower())
        return text.replace(" ", "-")


def split_sections(markdown: str) -> list[Section]:
    """Each ``##``-or-deeper heading with the text up to the next heading."""
    sections: list[Section] = []
    title, level, lines = "", 1, list[str]()
    for line in markdown.splitlines():
        heading = re.match(r"^(#{1,4})\s+(.*)$", line)
        if heading:
            sections.append(Section(level, title, "\n".join(lines).strip()))
            level, title, lines = len(heading.group(1)), heading.group(2).strip(), []
        else:
            lines.append(line)
    sections.append(Section(level, title, "\n".join(lines).strip()))
    return [section for section in sections if section.title]


@functools.cache
def doc_sections() -> tuple[Section, ...]:
    """The sections of docs/rules.md, or a short text made from the presets' own help when the
    docs are not installed beside the package."""
    if RULES_DOC.is_file():
        return tuple(split_sections(RULES_DOC.read_text(encoding="utf-8")))
    return (_fallback_section(),)


def _fallback_section() -> Section:
    lines = ["The full rules are in docs/rules.md of pardon's source. The presets:", ""]
    lines += [f"- `{name}`: {text}" for name, text in PRESET_HELP.items()]
    return Section(2, "The classic game", "\n".join(lines))


def preset_sections(name: str) -> list[Section]:
    """The sections a player of preset ``name`` reads, in the docs' order within each group."""
    wanted = (*COMMON_BEFORE, *PRESET_SECTIONS.get(name, ()), *COMMON_AFTER)
    found: list[Section] = []
    for prefix in wanted:
        for section in doc_sections():
            if _title_matches(section.title, prefix) and section not in found:
                found.append(section)
                break
    return found


def _title_matches(title: str, prefix: str) -> bool:
    plain = title.replace("`", "")
    return plain == prefix or plain.startswith(prefix + " ")


def home_of_anchor(slug: str, preferred: str) -> str | None:
    """The preset whose page shows the section ``slug`` (``preferred`` if it does)."""
    for name in (preferred, *PRESETS):
        if any(section.slug == slug for section in preset_sections(name)):
            return name
    return None


def options_table(name: str) -> list[dict[str, object]]:
    """Every rules option of the preset with its value, the classic value and what it does."""
    rules, classic = PRESETS[name], PRESETS["classic"]
    return [
        {
            "option": option,
            "value": getattr(rules, option),
            "classic": getattr(classic, option),
            "help": help_text,
        }
        for option, help_text in OPTION_HELP.items()
    ]


# --- a small markdown renderer ------------------------------------------------------------

_INLINE: Final = re.compile(
    r"`([^`]+)`"  # code
    r"|\*\*(.+?)\*\*"  # bold
    r"|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"  # italic
    r"|\[([^\]]+)\]\(([^)]+)\)"  # link
)


def inline(text: str, link: LinkMaker | None = None) -> str:
    """Code, bold, italic and links of one line of text, everything else escaped."""
    out, last = [], 0
    for match in _INLINE.finditer(text):
        out.append(html.escape(text[last : match.start()], quote=False))
        code, bold, italic, label, target = match.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold, link)}</strong>")
        elif italic is not None:
            out.append(f"<em>{inline(italic, link)}</em>")
        else:
            href = link(target) if link is not None else None
            label_html = inline(label, link)
            out.append(f'<a href="{html.escape(href)}">{label_html}</a>' if href else label_html)
        last = match.end()
    out.append(html.escape(text[last:], quote=False))
    return "".join(out)


class LinkMaker:
    """Where a link of the docs points on the rules pages: anchors to the page that shows
    them; links to other documents become plain text (they are not served)."""

    def __init__(self, preset: str):
        self.preset = preset

    def __call__(self, target: str) -> str | None:
        if not target.startswith("#"):
            return None
        slug = target[1:]
        home = home_of_anchor(slug, self.preset)
        if home is None:
            return None
        return f"#{slug}" if home == self.preset else f"/rules/{home}#{slug}"


def to_html(markdown: str, link: LinkMaker | None = None) -> str:
    """Paragraphs, bullet lists (with indented continuation lines), pipe tables and fenced code."""
    blocks: list[str] = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
        elif line.startswith("```"):
            end = next((n for n in range(index + 1, len(lines)) if lines[n].startswith("```")), len(lines))
            blocks.append(f"<pre><code>{html.escape(chr(10).join(lines[index + 1 : end]), quote=False)}</code></pre>")
            index = end + 1
        elif line.startswith("|"):
            end = _block_end(lines, index, lambda text: text.startswith("|"))
            blocks.append(_table(lines[index:end], link))
            index = end
        elif re.match(r"^[-*] ", line):
            end = _block_end(lines, index, lambda text: bool(text.strip()) and (text[0] in "-* " or text[0] == "\t"))
            blocks.append(_bullets(lines[index:end], link))
            index = end
        else:
            end = _block_end(lines, index, lambda text: bool(text.strip()) and not text.startswith(("|", "- ", "```")))
            blocks.append(f"<p>{inline(' '.join(part.strip() for part in lines[index:end]), link)}</p>")
            index = end
    return "\n".join(blocks)


def _block_end(lines: list[str], start: int, belongs: Callable[[str], bool]) -> int:
    end = start + 1
    while end < len(lines) and belongs(lines[end]):
        end += 1
    return end


def _bullets(lines: list[str], link: LinkMaker | None) -> str:
    items: list[str] = []
    for line in lines:
        if re.match(r"^[-*] ", line):
            items.append(line[2:].strip())
        elif items:
            items[-1] += " " + line.strip()
    return "<ul>" + "".join(f"<li>{inline(item, link)}</li>" for item in items) + "</ul>"


def _table(lines: list[str], link: LinkMaker | None) -> str:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines]
    rows = [row for row in rows if not all(re.fullmatch(r":?-{3,}:?", cell) for cell in row)]
    head, body = rows[0], rows[1:]
    header = "".join(f'<th scope="col">{inline(cell, link)}</th>' for cell in head)
    rows_html = "".join("<tr>" + "".join(f"<td>{inline(cell, link)}</td>" for cell in row) + "</tr>" for row in body)
    # a table wider than a phone scrolls sideways: a keyboard reaches it (a Tab stop), and its name says which
    label = html.escape("Table: " + ", ".join(cell.replace("`", "") for cell in head), quote=True)
    wrap = f'<div class="table-wrap" tabindex="0" role="region" aria-label="{label}">'
    return f"{wrap}<table><thead><tr>{header}</tr></thead><tbody>{rows_html}</tbody></table></div>"
