"""The knowledge tier: the user's documents, read into passages and stored for search."""
