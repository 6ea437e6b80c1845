"""JSON as Python holds it: what `json.loads` gives and `json.dumps` takes. A record's
`to_dict()`, a backup's header, the key's sidecar (profile.json) and an export are
JSONObjects; what is read from a file stays untrusted until each field is checked."""

from __future__ import annotations

JSONValue = str | int | float | bool | None | list["JSONValue"] | dict[str, "JSONValue"]
JSONObject = dict[str, JSONValue]
