"""Search: score fusion, the reference sentences and the relevance rule, the one search
pipeline every tier runs, and memory search (the pipeline with the memory tier's steps)."""
