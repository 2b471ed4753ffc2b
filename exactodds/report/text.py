"""A document (the report, a review) as Markdown and as one self-contained HTML page (plots inline as data-URI SVG).

Every text is data, whatever a file said: Markdown is escaped by :mod:`exactodds.layout`
(``markdown_*``), HTML by :func:`_html` and :func:`_pre` here, and nothing else is written raw.
"""

from __future__ import annotations

import base64
from html import escape

from ..layout import markdown_code, markdown_heading, markdown_paragraph, markdown_table, one_line, plain_text
from .document import Block, Code, Frame, Heading, Image, Para, Table


def markdown(frame: Frame, blocks: list[Block]) -> str:
    """The blocks as Markdown; each plot is named with the command that draws it, or by its caption (Markdown holds no
    image data)."""
    out = [f"<!-- {frame.stamp} -->", ""]
    for block in blocks:
        if isinstance(block, Heading):
            out += [markdown_heading(block.level, block.text), ""]
        elif isinstance(block, Para):
            out += [markdown_paragraph(block.text), ""]
        elif isinstance(block, Code):
            out += [markdown_code(block.text, block=True), ""]
        elif isinstance(block, Table):
            out += [markdown_table(block.headers, block.rows, block.align), ""]
        elif isinstance(block, Image):
            out += [f"Plot: {markdown_code(block.command)}" if block.command else
                    markdown_paragraph(f"Plot (in the PDF and HTML): {block.caption}"), ""]
    return "\n".join(out)


_STYLE = """
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; max-width: 62rem; margin: 1rem auto; color: #111; }
header.stamp { position: sticky; top: 0; background: #f4f4f4; border-bottom: 1px solid #ccc; font-size: .8rem;
  padding: .3rem .5rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .85rem; }
th, td { border: 1px solid #bbb; padding: .15rem .4rem; vertical-align: top; }
th { background: #eee; } td.r { text-align: right; font-variant-numeric: tabular-nums; }
pre { white-space: pre-wrap; word-break: break-all; background: #f8f8f8; padding: .4rem; font-size: .75rem; }
figure img { max-width: 100%; } figcaption { font-size: .8rem; color: #444; }
"""


def _html(text: str) -> str:
    """Text as HTML: on one line, every ``& < > " '`` an entity, no control character.

    >>> _html('<img src=x onerror="alert(1)">\\n')
    '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; '
    """
    return escape(one_line(text))


def _pre(text: str) -> str:
    """Preformatted text as HTML: its lines kept, escaped as :func:`_html`."""
    return escape(plain_text(text))


def html(frame: Frame, blocks: list[Block]) -> str:
    """The blocks as one HTML5 page with no outside reference: styles inline, plots as data-URI SVG."""
    title = _html(next((b.text for b in blocks if isinstance(b, Heading)), frame.name))
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{title}</title>",
        f'<meta name="generator" content="{_html(frame.stamp)}">',
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f'<header class="stamp">{_html(frame.stamp)}</header>',
        "<main>",
    ]
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"<h{block.level}>{_html(block.text)}</h{block.level}>")
        elif isinstance(block, Para):
            out.append(f"<p>{_html(block.text)}</p>")
        elif isinstance(block, Code):
            out.append(f"<pre><code>{_pre(block.text)}</code></pre>")
        elif isinstance(block, Table):
            out.append("<table>")
            out.append("<thead><tr>" + "".join(f"<th>{_html(h)}</th>" for h in block.headers) + "</tr></thead>")
            out.append("<tbody>")
            for row in block.rows:
                cells = "".join(
                    f'<td class="{a}">{_html(c)}</td>' for c, a in zip(row, block.align.ljust(len(row), "l"))
                )
                out.append(f"<tr>{cells}</tr>")
            out.append("</tbody></table>")
        elif isinstance(block, Image):
            data = base64.b64encode(block.data).decode("ascii")
            alone = f" Alone: <code>{_html(block.command)}</code>" if block.command else ""
            out.append(
                f'<figure><img src="data:image/svg+xml;base64,{data}" alt="{_html(block.caption)}">'
                f"<figcaption>{_html(block.caption)}{alone}</figcaption></figure>"
            )
    out += ["</main>", "</body>", "</html>", ""]
    return "\n".join(out)
