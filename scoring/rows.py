"""Model instances from the rows of hand-written SQL, for the few reads on the scorers' hot
path (``selectors.team_by_code``, ``board_lock``): what ``QuerySet.raw`` does, with the
column order and the field converters worked out once instead of on every call."""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.models import Model


class RowReader:
    """Reads some fields of ``model`` (all its columns by default) from a fixed run of
    columns in a row; the fields not read are deferred, never defaulted."""

    def __init__(self, model: type[Model], attnames: list[str] | None = None):
        fields = model._meta.concrete_fields
        if attnames is not None:
            unknown = set(attnames) - {f.attname for f in fields}
            if unknown:
                raise ValueError(f"{model.__name__} has no fields {sorted(unknown)}")
            fields = [f for f in fields if f.attname in attnames]
        self.model = model
        self.fields = list(fields)
        self.attnames = [f.attname for f in self.fields]
        self._converters: dict[str, list[tuple[int, list, Any]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def select(self, alias: str) -> str:
        """The columns to put in the SELECT, in the order ``read`` expects them."""
        return ", ".join(f"{alias}.{field.column}" for field in self.fields)

    def read(self, row: tuple | list, start: int = 0, using: str = "default") -> Model:
        values = list(row[start : start + len(self.fields)])
        connection = connections[using]
        for index, converters, column in self._converters_for(using):
            for converter in converters:
                values[index] = converter(values[index], column, connection)
        return self.model.from_db(using, self.attnames, values)

    def _converters_for(self, using: str) -> list[tuple[int, list, Any]]:
        if using not in self._converters:
            connection = connections[using]
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.model._meta.db_table)
                converters = connection.ops.get_db_converters(column)
                converters += column.get_db_converters(connection)
                if converters:
                    found.append((index, converters, column))
            self._converters[using] = found
        return self._converters[using]
