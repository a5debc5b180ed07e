"""Whether a server address from the config or the environment can be reached at all.

Found by an adversary: `host = "http://[::1"` (or port 99999, or the same in
$OLLAMA_HOST or an OpenAI-compatible `base_url`) passed the config check and crashed the
app at start-up, its traceback showing the API key. Checked here, it is an error that
names the setting, as every other bad value is.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit


def address_problem(address: str, *, scheme_optional: bool) -> str | None:
    """Why `address` is no http(s) server address; None when it is one.

    `scheme_optional`: read as Ollama reads its host, "127.0.0.1:11434" meaning http.
    """
    text = address
    if not text:
        return "is empty"
    # Checked as written: stripped first, a trailing U+2028 or no-break space passed here
    # and failed at the first request with the library's words (a second adversary).
    if any(ord(char) < 32 or char.isspace() for char in text):
        return "holds a space, a line break or a control character"
    if scheme_optional and "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port  # reading it checks it: a port out of range raises here
        host = parts.hostname
    except ValueError as exc:
        return f"is not an address ({exc})"
    if host and unicodedata.normalize("NFKC", host) != host:
        # Full-width letters look like a host name; the HTTP client refuses them later.
        return "has letters in the host name that only look like ordinary ones"
    if parts.scheme not in ("http", "https"):
        written = f" (not {parts.scheme}://)" if parts.scheme else ""
        return f"must start with http:// or https://{written}"
    if port == 0:
        return "names port 0, which no server listens on"
    if not host and not (scheme_optional and port):
        return "names no server (such as http://127.0.0.1:11434)"
    return None
