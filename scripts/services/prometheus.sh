# shellcheck shell=bash
# Prometheus for the tests: the server and promtool from Debian's
# `prometheus` package. Nothing is started here: the Prometheus tests start
# their own server on loopback with a generated configuration (scraping the
# sidecar under test every second) and run promtool on the alert rules.
# This only makes sure the binaries exist and exports their paths:
#   EVALSIDECAR_PROMETHEUS_BIN  the prometheus server
#   EVALSIDECAR_PROMTOOL_BIN    promtool

SERVICES+=(prometheus)

prometheus_start() {
  if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
    echo "installing Debian package prometheus"
    # The package's maintainer scripts must not start the system service:
    # a policy-rc.d that refuses every start is added when none exists.
    local policy=/usr/sbin/policy-rc.d created_policy=0 status=0
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus >/dev/null ||
      { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus >/dev/null; } ||
      status=$?
    if [ "$created_policy" = 1 ]; then rm -f "$policy"; fi
    if [ "$status" != 0 ]; then
      echo "prometheus: apt-get install failed ($status)" >&2
      return "$status"
    fi
  fi
  EVALSIDECAR_PROMETHEUS_BIN="$(command -v prometheus)"
  EVALSIDECAR_PROMTOOL_BIN="$(command -v promtool)"
  export EVALSIDECAR_PROMETHEUS_BIN EVALSIDECAR_PROMTOOL_BIN
  "$EVALSIDECAR_PROMETHEUS_BIN" --version 2>&1 | head -n 1
}

prometheus_stop() {
  # The tests stop the servers they start; nothing runs on behalf of this
  # script.
  :
}
