"""Memories: their records, their store and indexing, export and import."""
