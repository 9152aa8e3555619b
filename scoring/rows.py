"""Model instances from the rows of hand-written SQL, for the few reads on the scorers' hot
path (``selectors.entrant_by_code``, ``board_lock``): what ``QuerySet.raw`` does, with the
column order and the field converters worked out once instead of on every call."""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.models import Model
from django.db.models.signals import post_save, pre_save


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


class RowInserter:
    """``model.objects.create`` for the scorers' hot path: the same instance, field
    preparation (``pre_save``, ``get_db_prep_save``) and save signals, with the INSERT
    statement built once instead of compiled on every call."""

    def __init__(self, model: type[Model]):
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self._sql: dict[str, str] = {}

    def create(self, using: str = "default", **values: Any) -> Model:
        instance = self.model(**values)
        connection = connections[using]
        pre_save.send(
            sender=self.model, instance=instance, raw=False, using=using, update_fields=None
        )
        params = [
            field.get_db_prep_save(field.pre_save(instance, add=True), connection)
            for field in self.fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(self._statement(using), params)
            returning = connection.features.can_return_columns_from_insert
            instance.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
        instance._state.adding, instance._state.db = False, using
        post_save.send(
            sender=self.model,
            instance=instance,
            created=True,
            update_fields=None,
            raw=False,
            using=using,
        )
        return instance

    def _statement(self, using: str) -> str:
        if using not in self._sql:
            connection = connections[using]
            quote = connection.ops.quote_name
            columns = ", ".join(quote(field.column) for field in self.fields)
            marks = ", ".join(["%s"] * len(self.fields))
            sql = f"INSERT INTO {quote(self.model._meta.db_table)} ({columns}) VALUES ({marks})"
            if connection.features.can_return_columns_from_insert:
                sql += f" RETURNING {quote(self.model._meta.pk.column)}"
            self._sql[using] = sql
        return self._sql[using]


class RowUpdater:
    """``Model.objects.filter(pk=key).update(...)`` of fixed fields for the scorers' hot
    path, with the UPDATE built once: compiling the ORM's UPDATE cost more than the database
    takes to run it. Values are prepared as the ORM prepares them; no signals are sent
    (``QuerySet.update`` sends none either)."""

    def __init__(self, model: type[Model], attnames: list[str]):
        by_attname = {f.attname: f for f in model._meta.concrete_fields}
        unknown = set(attnames) - set(by_attname)
        if unknown:
            raise ValueError(f"{model.__name__} has no fields {sorted(unknown)}")
        self.model = model
        self.fields = [by_attname[name] for name in attnames]
        self._sql: dict[str, str] = {}

    def update(self, key: Any, using: str = "default", **values: Any) -> int:
        """Set the fields of the row whose primary key is ``key``; the number updated."""
        if values.keys() != {field.attname for field in self.fields}:
            raise TypeError(f"give exactly {[field.attname for field in self.fields]}")
        connection = connections[using]
        params = [
            field.get_db_prep_save(values[field.attname], connection) for field in self.fields
        ]
        params.append(self.model._meta.pk.get_db_prep_value(key, connection))
        with connection.cursor() as cursor:
            cursor.execute(self._statement(using), params)
            return cursor.rowcount

    def _statement(self, using: str) -> str:
        if using not in self._sql:
            quote = connections[using].ops.quote_name
            assignments = ", ".join(f"{quote(field.column)} = %s" for field in self.fields)
            self._sql[using] = (
                f"UPDATE {quote(self.model._meta.db_table)} SET {assignments} "
                f"WHERE {quote(self.model._meta.pk.column)} = %s"
            )
        return self._sql[using]
