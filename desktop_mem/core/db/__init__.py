"""Storage: the encrypted database, its migrations, the vector index, backups and re-keying."""
