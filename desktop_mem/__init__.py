"""desktop-mem: a local language model with a long-term memory the user controls."""

__version__ = "0.1.0"
