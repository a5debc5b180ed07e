"""The PostgreSQL backend: pgvector for vectors, a tsvector for keywords, all filters in SQL."""
