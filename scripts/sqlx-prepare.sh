#!/usr/bin/env bash
# Refreshes `.sqlx/`: what sqlx's query macros learned from a migrated database about the
# store's checked queries, so that `cargo build` checks them without a database
# (`SQLX_OFFLINE` in .cargo/config.toml). Run it after changing a checked query or adding a
# migration; commit the result. Needs the local Postgres (as the tests do).
set -euo pipefail
cd "$(dirname "$0")/.."
server="${SQLX_PREPARE_SERVER:-postgres://postgres@localhost:5432}"
db=settai_sqlx_prepare
psql -q "$server/postgres" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
for migration in migrations/*.sql; do
  psql -q -v ON_ERROR_STOP=1 "$server/$db" -f "$migration"
done
rm -rf .sqlx && mkdir .sqlx
# The macros run again only when their crate is rebuilt.
touch src/lib.rs src/store/*.rs
SQLX_OFFLINE=false SQLX_OFFLINE_DIR="$PWD/.sqlx" DATABASE_URL="$server/$db" cargo check --lib
psql -q "$server/postgres" -c "DROP DATABASE $db"
echo "wrote $(ls .sqlx | wc -l) queries to .sqlx/"
