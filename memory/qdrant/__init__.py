"""The Qdrant backend: a collection with a named dense vector and filterable payloads."""
