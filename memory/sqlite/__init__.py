"""The SQLite backend: the default store and the source of truth."""
