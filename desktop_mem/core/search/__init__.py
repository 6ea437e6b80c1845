"""Search: score fusion, the reference sentences and the relevance rule, memory search and the other tiers' search."""
