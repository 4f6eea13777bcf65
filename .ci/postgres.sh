# Sourced by .ci/run before the tests: a throw-away PostgreSQL cluster for the store-postgres
# tests, the CLI scenarios on PostgreSQL and the benchmarks. Installs the distribution's server
# package when `initdb` is missing, runs the cluster as a non-root user (PostgreSQL refuses root)
# in a temporary directory on a local port with trust authentication, stops it when the sourcing
# shell exits, and exports AGENT_MEMORY_TEST_DATABASE_URL.
pg_port="${AGENT_MEMORY_PG_PORT:-54329}"
pg_bin=""
for dir in /usr/lib/postgresql/*/bin; do
  [ -x "$dir/initdb" ] && pg_bin="$dir"
done
if [ -z "$pg_bin" ]; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null;
  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; fi
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && pg_bin="$dir"
  done
fi
[ -n "$pg_bin" ] || { echo "no PostgreSQL server binaries found"; exit 1; }

pg_dir="$(mktemp -d /tmp/agent-memory-pg.XXXXXX)"
if [ "$(id -u)" = 0 ]; then
  pg_user=pgci
  id "$pg_user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$pg_user"
  chown "$pg_user" "$pg_dir"
  as_pg() { runuser -u "$pg_user" -- "$@"; }
else
  as_pg() { "$@"; }
fi
as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$pg_dir/initdb.log" \
  || { cat "$pg_dir/initdb.log"; exit 1; }
# Enough connections for the parallel tests (each backend opens a small pool). The cluster is
# thrown away, so the server's own crash safety is not under test: no fsync, no waiting for the
# WAL flush at commit (commits stay atomic and isolated, which is what the tests check).
as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
  -o "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null \
  || { cat "$pg_dir/server.log"; exit 1; }
pg_stop() { as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap pg_stop EXIT
export AGENT_MEMORY_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
echo "ok: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $AGENT_MEMORY_TEST_DATABASE_URL ($pg_dir)"
