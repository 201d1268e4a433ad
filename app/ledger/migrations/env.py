"""Alembic's entry: the station passes its open connection (`config.attributes`); the
`alembic` command line and `paigow ledger migrate --sql` pass a URL instead."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from app.ledger.database import VERSION_TABLE, make_engine
from app.ledger.models import Base

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      version_table=VERSION_TABLE, compare_type=True,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=target_metadata, version_table=VERSION_TABLE,
                      literal_binds=True, dialect_opts={"paramstyle": "named"},
                      output_buffer=config.output_buffer)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("alembic: give the ledger's URL: -x or sqlalchemy.url")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            _configure(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
