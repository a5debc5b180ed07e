"""Each setting's description: the docstring written under its field.

Read from the source only when something shows descriptions (the example config).
Pydantic's `use_attribute_docstrings` does the same when each class is created, which
parsed the settings modules' source at every start-up: about 40 ms of every command.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from functools import cache

from pydantic import BaseModel


@cache
def attribute_docs(model: type[BaseModel]) -> dict[str, str]:
    """Field name → the docstring below it, for `model` and the models it inherits from."""
    docs: dict[str, str] = {}
    for klass in reversed(model.__mro__):
        if not issubclass(klass, BaseModel) or klass is BaseModel:
            continue
        definition = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0]
        if not isinstance(definition, ast.ClassDef):
            continue
        body = definition.body
        for field, after in zip(body, body[1:], strict=False):
            if (
                isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[field.target.id] = inspect.cleandoc(after.value.value)
    return docs


def field_description(model: type[BaseModel], name: str) -> str:
    """The field's description: its docstring, else one given to `Field`."""
    return attribute_docs(model).get(name) or model.model_fields[name].description or ""
