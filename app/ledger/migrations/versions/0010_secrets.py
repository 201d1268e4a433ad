"""Secrets stay secret (issue 23, item 4): on PostgreSQL a station's login reads no secret
hash, yet a station still checks a supervisor's secret, through two functions that run as
the ledger's owner (docs/trust.md, "Secrets stay secret"):

- `paigow_secret_salt(name)`: the person's newest hash without its last field (the hash
  itself): "$argon2id$v=19$m=...,t=...,p=...$<salt>". For a name nobody has, a made-up
  one of the same shape, the same on every call: the library's default parameters and a
  salt derived from the name and a random key only the owner can read.
- `paigow_secret_matches(name, candidate)`: whether the full hash the station made with
  that prefix is the stored one; NULL when the database's own pace refuses the check.

The pace is kept in sequences, because `nextval` is never undone: a caller who rolls its
transaction back after each call (to undo any row a check would write) still uses up its
checks. Each person has two: every check takes a number from `tries`, every refused check
one from `refused` as well, so refusals cost nothing and a hammering caller cannot run up
a debt that keeps the person out afterwards. A check is refused when the checks taken
since the pace row's `since`, less those refused, would pass BURST + one per EVERY seconds.
The names nobody has share the pace row ''.

Everything private lives in the schema `paigow_secrets`, on which nobody but its owner has
USAGE: the owner's default privileges for `public` (setup-roles gives the stations SELECT
on later tables) do not reach it, and a grant on anything in it would be useless without
USAGE. `paigow_secrets.pace_from_now(name)` (the owner's code calls it when a person is
added or reset) makes a person's sequences if needed and starts their pace again.

On upgrade, every role that may insert into `sign_ins` (a station's login, as setup-roles
made it) loses SELECT of `users.secret_hash` and may call the two functions at once, so a
ledger upgraded with `paigow ledger migrate` alone is not left readable until setup-roles
is run again. SQLite: nothing (a station reads the hash of its own file, docs/trust.md).

Revision ID: 0010_secrets
Revises: 0009_floor_logouts
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

revision: str = "0010_secrets"
down_revision: str | None = "0009_floor_logouts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BURST = 20  # checks of a name that are never refused after its pace starts
EVERY_S = 30  # then one more check of the name every this many seconds
# argon2-cffi's PasswordHasher defaults (RFC 9106's low-memory profile), which every hash
# the ledger makes has; a made-up prefix has them too (a test holds the two together)
MADE_UP = "$argon2id$v=19$m=65536,t=3,p=4$"
USERS_READABLE = ("id", "name", "version", "role", "disabled", "change", "changed_by", "at")
SECURE = "SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp"

SCHEMA = f"""
CREATE SCHEMA paigow_secrets;
REVOKE ALL ON SCHEMA paigow_secrets FROM PUBLIC;

-- the key that makes up the salt of a name nobody has: 244 random bits (two UUIDs v4,
-- made by the server so that no copy of it is ever in a script or a log)
CREATE TABLE paigow_secrets.key (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    value bytea NOT NULL
);
INSERT INTO paigow_secrets.key (value)
    VALUES (decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
                   'hex'));

-- one row per person ('': every name nobody has), written only by the owner's code when
-- the person is added or reset; never by a check (a row a check wrote would be undone by
-- its caller's ROLLBACK)
CREATE TABLE paigow_secrets.pace (
    name text PRIMARY KEY,
    tries text NOT NULL,         -- the sequence every check takes a number from
    refused text NOT NULL,       -- the sequence every refused check takes a number from
    tries_base bigint NOT NULL,  -- their numbers when the pace started
    refused_base bigint NOT NULL,
    since timestamptz NOT NULL
);

CREATE FUNCTION paigow_secrets.pace_from_now(who text) RETURNS void
LANGUAGE plpgsql {SECURE} AS $$
DECLARE
    stem text := 'pace_' || left(encode(sha256(convert_to(who, 'UTF8')), 'hex'), 32);
    tries_now bigint;
    refused_now bigint;
BEGIN
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS paigow_secrets.%I MINVALUE 0 START 0 '
                   'CACHE 1', stem || '_tries');
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS paigow_secrets.%I MINVALUE 0 START 0 '
                   'CACHE 1', stem || '_refused');
    tries_now := nextval(format('paigow_secrets.%I', stem || '_tries')::regclass);
    refused_now := nextval(format('paigow_secrets.%I', stem || '_refused')::regclass);
    INSERT INTO paigow_secrets.pace AS p
        VALUES (who, stem || '_tries', stem || '_refused', tries_now, refused_now,
                clock_timestamp())
        ON CONFLICT (name) DO UPDATE SET tries_base = EXCLUDED.tries_base,
            refused_base = EXCLUDED.refused_base, since = EXCLUDED.since;
END $$;
REVOKE ALL ON FUNCTION paigow_secrets.pace_from_now(text) FROM PUBLIC;
SELECT paigow_secrets.pace_from_now('');

CREATE FUNCTION paigow_secret_salt(who text) RETURNS text
LANGUAGE plpgsql STABLE {SECURE} AS $$
DECLARE
    stored text;
    k bytea;
BEGIN
    SELECT secret_hash INTO stored FROM public.users WHERE name = who
        ORDER BY version DESC LIMIT 1;
    IF stored IS NOT NULL THEN
        RETURN regexp_replace(stored, '[$][^$]*$', '');
    END IF;
    SELECT value INTO k FROM paigow_secrets.key;
    RETURN '{MADE_UP}' || rtrim(encode(substring(
        sha256(k || sha256(convert_to(who, 'UTF8'))) FROM 1 FOR 16), 'base64'), '=');
END $$;

CREATE FUNCTION paigow_secret_matches(who text, candidate text) RETURNS boolean
LANGUAGE plpgsql {SECURE} AS $$
DECLARE
    p paigow_secrets.pace%ROWTYPE;
    refused_before bigint;
    n bigint;
    stored text;
BEGIN
    SELECT secret_hash INTO stored FROM public.users WHERE name = who
        ORDER BY version DESC LIMIT 1;
    SELECT * INTO p FROM paigow_secrets.pace WHERE name = who;
    IF NOT FOUND THEN  -- nobody of that name (or a person from before pace_from_now)
        SELECT * INTO p FROM paigow_secrets.pace WHERE name = '';
    END IF;
    -- read before taking a number: every refusal counted here came from a check that took
    -- its number earlier, so the count can only err towards refusing
    EXECUTE format('SELECT last_value FROM paigow_secrets.%I', p.refused)
        INTO refused_before;
    n := nextval(format('paigow_secrets.%I', p.tries)::regclass);
    IF (n - p.tries_base) - (refused_before - p.refused_base)
            > {BURST} + floor(extract(epoch FROM clock_timestamp() - p.since) / {EVERY_S}) THEN
        PERFORM nextval(format('paigow_secrets.%I', p.refused)::regclass);
        RETURN NULL;
    END IF;
    -- compared as digests: the time taken says nothing of how much of the hash matched
    RETURN stored IS NOT NULL AND candidate IS NOT NULL
        AND sha256(convert_to(stored, 'UTF8')) = sha256(convert_to(candidate, 'UTF8'));
END $$;

REVOKE ALL ON FUNCTION paigow_secret_salt(text), paigow_secret_matches(text, text)
    FROM PUBLIC;
"""


def for_each_station(*statements: str) -> str:
    """A block that runs each statement (with %I for the role) for every station's login
    as setup-roles made it: a role that may insert into sign_ins (the owner owns it; an
    auditor's login may not)."""
    run = "\n".join(f"        EXECUTE format('{sql}', r.who);" for sql in statements)
    return f"""
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN SELECT DISTINCT pg_get_userbyid(a.grantee) AS who
             FROM pg_class c, aclexplode(c.relacl) a
             WHERE c.oid = 'public.sign_ins'::regclass AND a.privilege_type = 'INSERT'
               AND a.grantee <> 0 AND a.grantee <> c.relowner LOOP
{run}
    END LOOP;
END $$"""


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(SCHEMA)
    if not context.is_offline_mode():  # the SQL for a DBA: a new ledger has nobody yet
        conn = op.get_bind()
        for (name,) in conn.execute(sa.text("SELECT DISTINCT name FROM users")):
            conn.execute(sa.text("SELECT paigow_secrets.pace_from_now(:name)"),
                         {"name": name})
    # the stations' logins lose the hashes and may check secrets at once: a ledger
    # upgraded with `paigow ledger migrate` alone is not left readable until setup-roles
    # is run again
    op.execute(for_each_station(
        "REVOKE SELECT ON public.users FROM %I",
        f"GRANT SELECT ({', '.join(USERS_READABLE)}) ON public.users TO %I",
        "GRANT EXECUTE ON FUNCTION paigow_secret_salt(text), "
        "paigow_secret_matches(text, text) TO %I"))


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    # the code before this reads `users` whole
    op.execute(for_each_station("GRANT SELECT ON public.users TO %I"))
    op.execute("DROP FUNCTION paigow_secret_matches(text, text)")
    op.execute("DROP FUNCTION paigow_secret_salt(text)")
    op.execute("DROP SCHEMA paigow_secrets CASCADE")
