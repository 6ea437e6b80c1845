"""The Qt-free core: storage, keys, embeddings, search, import and export."""
