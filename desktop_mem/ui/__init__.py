"""The desktop application (PySide6 Widgets). Qt only: every read and write goes
through the core services (desktop_mem.core), never through SQL, and anything that
may wait (the model, embeddings, imports, pulls) runs off the GUI thread."""
