"""pgvector values sent in pgvector's binary form.

Formatting 768 floats as text took 40% of a bulk import; the binary form is the floats'
own bytes (big-endian), and it is exact where the text form rounded.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo


class PgVector:
    """A vector to send as a `vector` parameter."""

    __slots__ = ("values",)

    def __init__(self, values: npt.ArrayLike) -> None:
        self.values: npt.NDArray[np.float32] = np.asarray(values, dtype=">f4").reshape(-1)


class _TextVectorDumper(Dumper):
    """Until the type is known on a connection (a fresh database before its migration)."""

    def dump(self, obj: Any) -> bytes:
        vector: PgVector = obj
        return ("[" + ",".join(repr(float(x)) for x in vector.values) + "]").encode()


class _BinaryVectorDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        vector: PgVector = obj
        return struct.pack(">HH", vector.values.size, 0) + vector.values.tobytes()


class VectorType:
    """Teaches connections to send `PgVector` values, in binary once the type's oid is known."""

    def __init__(self) -> None:
        self.info: TypeInfo | None = None

    def register(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Set `conn` up for `PgVector` (text until `learn` has found the type)."""
        conn.adapters.register_dumper(PgVector, _TextVectorDumper)
        if self.info is not None:
            # Known by name too, for a binary COPY's column types.
            self.info.register(conn)
            binary = type("VectorDumper", (_BinaryVectorDumper,), {"oid": self.info.oid})
            conn.adapters.register_dumper(PgVector, binary)

    async def learn(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Find pgvector's type (after the migration made sure it exists); set `conn` up."""
        self.info = await TypeInfo.fetch(conn, "vector")
        self.register(conn)
