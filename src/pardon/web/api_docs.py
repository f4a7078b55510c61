"""``/docs``: the REST API described on one page, written from the OpenAPI schema the server
publishes (``/openapi.json``), with nothing loaded from elsewhere.  FastAPI's own pages load
their scripts from a CDN, so on a network without the internet they were blank, and every
visitor's browser asked a third party for them."""

from __future__ import annotations

from html import escape
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

Json = dict[str, Any]

#: The order the methods of one address are described in.
METHODS = ("get", "head", "post", "put", "patch", "delete")


@router.get("/docs")
def api_docs(request: Request) -> HTMLResponse:
    return HTMLResponse(docs_page(request.app.openapi()), headers={"Cache-Control": "no-cache"})


def docs_page(schema: Json) -> str:
    """The page: every operation, then every body it names."""
    info = schema.get("info", {})
    title = escape(f"{info.get('title', 'pardon')} {info.get('version', '')} — the API".strip())
    operations = [
        _operation(method, path, operation)
        for path, methods in schema.get("paths", {}).items()
        for method in METHODS
        if (operation := methods.get(method)) is not None
    ]
    bodies = [_body(name, body) for name, body in schema.get("components", {}).get("schemas", {}).items()]
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/pardon.css">
  <link rel="stylesheet" href="/static/pages.css">
</head>
<body class="site api-docs">
  <a class="skip-link" href="#main">Skip to the API</a>
  <header class="site-header">
    <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">P</span><span>par<b>don</b></span></a>
    <nav class="site-nav" aria-label="Site">
      <a href="/">Play</a>
      <a href="/lobby">Lobby</a>
      <a href="/puzzles">Puzzles</a>
      <a href="/rules">Rules</a>
      <a href="/scorekeeper">Scorekeeper</a>
    </nav>
  </header>
<main id="main">
  <h1>{title}</h1>
  <p class="lede">{escape(info.get("summary", ""))}</p>
  <p>The schema itself, for tools that read OpenAPI: <a href="/openapi.json">/openapi.json</a>.
  The websocket that plays a game, and every limit and error code, are in <code>docs/protocol.md</code>
  of pardon's source. Every refusal is <code>{{"error": CODE, "message": TEXT}}</code>
  (<a href="#ErrorBody">ErrorBody</a>).</p>
  <h2>Operations</h2>
  {"".join(operations)}
  <h2>Bodies</h2>
  {"".join(bodies)}
</main>
</body>
</html>
"""


def _operation(method: str, path: str, operation: Json) -> str:
    parameters = "".join(
        f"<tr><td><code>{escape(item['name'])}</code></td><td>{escape(item.get('in', ''))}</td>"
        f"<td>{'yes' if item.get('required') else 'no'}</td><td>{_type(item.get('schema', {}))}</td>"
        f"<td>{escape(item.get('description', ''))}</td></tr>"
        for item in operation.get("parameters", [])
    )
    parameter_table = (
        "<table class='scores'><thead><tr><th>parameter</th><th>in</th><th>required</th><th>type</th>"
        f"<th>meaning</th></tr></thead><tbody>{parameters}</tbody></table>"
        if parameters
        else ""
    )
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    body_line = f"<p>Body: {_type(body)}</p>" if body else ""
    answers = "".join(
        f"<li><strong>{escape(code)}</strong> {escape(answer.get('description', ''))}{_answer_body(answer)}</li>"
        for code, answer in operation.get("responses", {}).items()
    )
    description = operation.get("description", "")
    return f"""
  <section class="panel api-operation" id="{escape(operation.get("operationId", ""))}">
    <h3><code>{method.upper()} {escape(path)}</code></h3>
    <p>{escape(operation.get("summary", ""))}</p>
    {f"<p>{escape(description)}</p>" if description else ""}
    {parameter_table}{body_line}
    <p>Answers:</p><ul>{answers}</ul>
  </section>"""


def _answer_body(answer: Json) -> str:
    schema = answer.get("content", {}).get("application/json", {}).get("schema")
    return f": {_type(schema)}" if schema else ""


def _body(name: str, body: Json) -> str:
    required = set(body.get("required", []))
    fields = "".join(
        f"<tr><td><code>{escape(field)}</code></td><td>{'yes' if field in required else 'no'}</td>"
        f"<td>{_type(value)}</td><td>{escape(value.get('description', ''))}</td></tr>"
        for field, value in body.get("properties", {}).items()
    )
    table = (
        "<table class='scores'><thead><tr><th>field</th><th>required</th><th>type</th><th>meaning</th></tr>"
        f"</thead><tbody>{fields}</tbody></table>"
        if fields
        else f"<p>{_type(body)}</p>"
    )
    description = body.get("description", "")
    return f"""
  <section class="panel api-body" id="{escape(name)}">
    <h3>{escape(name)}</h3>
    {f"<p>{escape(description)}</p>" if description else ""}
    {table}
  </section>"""


def _type(schema: Json | None) -> str:
    """A schema's type in a few words, a named body as a link to it."""
    if not schema:
        return "any"
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return f'<a href="#{escape(name)}">{escape(name)}</a>'
    for either in ("anyOf", "oneOf", "allOf"):
        if either in schema:
            return " or ".join(_type(part) for part in schema[either])
    if "enum" in schema:
        return "one of " + ", ".join(f"<code>{escape(repr(value))}</code>" for value in schema["enum"])
    if "const" in schema:
        return f"<code>{escape(repr(schema['const']))}</code>"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list of {_type(schema.get('items'))}"
    if kind == "object" and "additionalProperties" in schema:
        extra = schema["additionalProperties"]
        return f"object of {_type(extra) if isinstance(extra, dict) else 'any'}"
    return escape(str(kind))
