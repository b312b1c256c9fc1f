# ClickHouse for the exporter and dashboard tests: Debian's clickhouse-server,
# run as a plain background process with a config of its own (loopback only,
# data under $EVALSIDECAR_SERVICES_DIR/clickhouse, ports away from the
# defaults). Exports:
#   EVALSIDECAR_CLICKHOUSE_DSN     clickhouse://127.0.0.1:PORT
#   EVALSIDECAR_CLICKHOUSE_HTTP    http://127.0.0.1:PORT
#   EVALSIDECAR_CLICKHOUSE_SERVER  the server binary (fault tests run private
#                                  servers of their own and stop and start them)

SERVICES+=(clickhouse)

CLICKHOUSE_TCP_PORT="${CLICKHOUSE_TCP_PORT:-19000}"
CLICKHOUSE_HTTP_PORT="${CLICKHOUSE_HTTP_PORT:-18123}"

clickhouse_write_config() {
  local dir="$1"
  mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/log"
  # The remote_servers section mirrors Debian's default config.xml
  # (test_shard_localhost: one shard, one replica on localhost), pointed at
  # this server's own port.
  cat >"$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>$dir/log/clickhouse-server.log</log>
    <errorlog>$dir/log/clickhouse-server.err.log</errorlog>
    <size>100M</size>
    <count>2</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$CLICKHOUSE_HTTP_PORT</http_port>
  <tcp_port>$CLICKHOUSE_TCP_PORT</tcp_port>
  <max_connections>512</max_connections>
  <keep_alive_timeout>3</keep_alive_timeout>
  <max_concurrent_queries>100</max_concurrent_queries>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <mark_cache_size>268435456</mark_cache_size>
  <path>$dir/data/</path>
  <tmp_path>$dir/tmp/</tmp_path>
  <user_files_path>$dir/user_files/</user_files_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <remote_servers>
    <test_shard_localhost>
      <shard>
        <replica>
          <host>127.0.0.1</host>
          <port>$CLICKHOUSE_TCP_PORT</port>
        </replica>
      </shard>
    </test_shard_localhost>
  </remote_servers>
  <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
  <max_session_timeout>3600</max_session_timeout>
  <default_session_timeout>60</default_session_timeout>
  <format_schema_path>$dir/format_schemas/</format_schema_path>
</yandex>
XML
  cp /etc/clickhouse-server/users.xml "$dir/users.xml"
}

clickhouse_start() {
  if ! command -v clickhouse-server >/dev/null 2>&1; then
    echo "installing Debian package clickhouse-server"
    # The package's maintainer scripts must not start the system service
    # (the tests run their own server): a policy-rc.d that refuses every
    # start is added while installing when none exists.
    local policy=/usr/sbin/policy-rc.d created_policy=0 status=0
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y clickhouse-server clickhouse-client curl >/dev/null 2>&1 ||
      { apt-get update >/dev/null && apt-get install -y clickhouse-server clickhouse-client curl >/dev/null; } ||
      status=$?
    if [ "$created_policy" = 1 ]; then rm -f "$policy"; fi
    if [ "$status" != 0 ]; then
      echo "clickhouse: apt-get install failed ($status)" >&2
      return "$status"
    fi
  fi
  local bin dir
  bin="$(command -v clickhouse-server)"
  dir="$EVALSIDECAR_SERVICES_DIR/clickhouse"
  clickhouse_write_config "$dir"
  # users.xml is found next to config.xml; the pid file is for clickhouse_stop.
  (cd "$dir" && nohup "$bin" --config-file="$dir/config.xml" --pidfile="$dir/clickhouse.pid" \
    >"$dir/log/stdout.log" 2>&1 &)
  local i
  for i in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$CLICKHOUSE_HTTP_PORT/?query=SELECT%201" >/dev/null 2>&1; then
      break
    fi
    sleep 0.5
  done
  if ! curl -fsS "http://127.0.0.1:$CLICKHOUSE_HTTP_PORT/?query=SELECT%201" >/dev/null 2>&1; then
    echo "clickhouse did not start; see $dir/log" >&2
    tail -20 "$dir/log/stdout.log" "$dir/log/clickhouse-server.err.log" >&2 || true
    return 1
  fi
  export EVALSIDECAR_CLICKHOUSE_DSN="clickhouse://127.0.0.1:$CLICKHOUSE_TCP_PORT"
  export EVALSIDECAR_CLICKHOUSE_HTTP="http://127.0.0.1:$CLICKHOUSE_HTTP_PORT"
  export EVALSIDECAR_CLICKHOUSE_SERVER="$bin"
}

clickhouse_stop() {
  local dir="$EVALSIDECAR_SERVICES_DIR/clickhouse" pid
  [ -f "$dir/clickhouse.pid" ] || return 0
  pid="$(cat "$dir/clickhouse.pid")"
  kill "$pid" 2>/dev/null || return 0
  local i
  for i in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -9 "$pid" 2>/dev/null || true
}
