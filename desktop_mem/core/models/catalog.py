"""What the models on an Ollama server are: which of them embed, their names without the
":latest" Ollama adds, and the download size of the models the app offers to download.

Ollama says which models embed in /api/show ("capabilities": ["embedding"]); a server
too old to say so is read by the model's family (the BERT-like encoders), and by an
"embed" in its name. Ollama gives no size for a model it does not have, so the size
offered before a download comes from the table below (the Ollama library's figures).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Download sizes in bytes, as the Ollama library lists them (ollama.com/library).
KNOWN_SIZES: dict[str, int] = {
    "bge-m3": 1_200_000_000,
    "nomic-embed-text": 274_000_000,
    "mxbai-embed-large": 670_000_000,
    "all-minilm": 46_000_000,
    "snowflake-arctic-embed2": 1_200_000_000,
    "qwen2.5:7b": 4_700_000_000,
    "qwen2.5:3b": 1_900_000_000,
    "llama3.2:3b": 2_000_000_000,
}

# Families of encoder models: on a server that does not list capabilities, these embed.
EMBEDDING_FAMILIES = frozenset({"bert", "nomic-bert", "xlm-roberta", "xlmroberta", "jina-bert"})


@dataclass(frozen=True)
class ModelInfo:
    name: str  # as the window shows it: "bge-m3", not "bge-m3:latest"
    embedding: bool
    size: int = 0  # bytes on disk; 0 when not known


def short_name(name: str) -> str:
    """A model's name as the user typed it: Ollama's implicit ":latest" left out."""
    return name.removesuffix(":latest")


def download_size(model: str) -> int:
    """The download size of a model the server does not have yet (0: not known)."""
    return KNOWN_SIZES.get(short_name(model), 0)


def is_embedding(name: str, capabilities: Any = None, family: str = "") -> bool:
    """Whether a model embeds (and so cannot chat): from its capabilities when the
    server lists them, else from its family and name."""
    if capabilities:
        caps = {str(c) for c in capabilities}
        return "embedding" in caps and "completion" not in caps
    return family.lower() in EMBEDDING_FAMILIES or "embed" in short_name(name).lower()


def unique(names: list[str]) -> list[str]:
    """Names once each, without ":latest", in order."""
    return list(dict.fromkeys(short_name(n) for n in names if n))
