"""Model servers: the Ollama client, embeddings, and the chat backends."""
