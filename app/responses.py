"""JSON answers: compact, UTF-8, and ending with a newline (so curl output does not run into
the prompt). Every JSON body the service sends, errors included, goes through here."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse


class JSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode() + b"\n"


def json_response(content: Any, status_code: int = 200, headers: dict[str, str] | None = None) -> JSON:
    return JSON(content, status_code=status_code, headers=headers)
