"""Put the JSON Schema pydantic generates into docs/file-format.md (between the schema markers).

Run after changing the file envelope or any system's sheet model:
``.venv/bin/python -m tests.files.update_schema_doc``. A test fails while the doc is out of date.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from sheet_app.files import json_schema

DOC = Path(__file__).resolve().parents[2] / "docs" / "file-format.md"


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    schema = json.dumps(json_schema(), ensure_ascii=False, indent=2)
    block = f"<!-- schema:start -->\n```json\n{schema}\n```\n<!-- schema:end -->"
    new, count = re.subn(r"<!-- schema:start -->.*?<!-- schema:end -->", lambda _: block, text, flags=re.S)
    if count != 1:
        sys.stderr.write("marqueurs <!-- schema:start --> / <!-- schema:end --> introuvables\n")
        return 1
    DOC.write_text(new, encoding="utf-8")
    sys.stdout.write(f"{DOC} : schéma mis à jour ({len(schema)} caractères)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
