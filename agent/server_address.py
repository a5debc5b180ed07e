"""Whether a server address from the config or the environment can be reached at all.

Found by an adversary: `host = "http://[::1"` (or port 99999, or the same in
$OLLAMA_HOST or an OpenAI-compatible `base_url`) passed the config check and crashed the
app at start-up, its traceback showing the API key. Checked here, it is an error that
names the setting, as every other bad value is.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def address_problem(address: str, *, scheme_optional: bool) -> str | None:
    """Why `address` is no http(s) server address; None when it is one.

    `scheme_optional`: read as Ollama reads its host, "127.0.0.1:11434" meaning http.
    """
    text = address.strip()
    if any(ord(char) < 32 or char.isspace() for char in text):
        return "holds a space or a control character"
    if scheme_optional and "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port  # reading it checks it: a port out of range raises here
        host = parts.hostname
    except ValueError as exc:
        return f"is not an address ({exc})"
    if parts.scheme not in ("http", "https"):
        return f"must start with http:// or https:// (not {parts.scheme}://)"
    if not host and not (scheme_optional and port):
        return "names no server (such as http://127.0.0.1:11434)"
    return None
