"""Embedders turn text into unit-length float32 vectors."""

from __future__ import annotations

from memory.embedding.base import Embedder, make_embedder, unit_vectors

__all__ = ["Embedder", "make_embedder", "unit_vectors"]
