"""Alembic migrations of the ledger, run by the station on start (app.ledger.database)."""
