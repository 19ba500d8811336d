#!/bin/sh
# First start: create the cluster, the user and the database the environment names; then run
# the server listening on every address (password authentication from other hosts).
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  user=${POSTGRES_USER:-postgres}
  db=${POSTGRES_DB:-$user}
  pw=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" >"$pw"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pw" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pw"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -q -c "create database \"$db\""
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "created the database $db for $user"
fi
if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
