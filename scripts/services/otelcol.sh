# The OpenTelemetry Collector with the transform processor and the load_balancing and nop exporters, for the
# trace-id routing and footprint tests: built from deploy/otelcol/builder.yaml with the
# Collector builder (through the Go module proxy) and cached by the
# builder file's hash, so later runs reuse it. Exports:
#   EVALSIDECAR_OTELCOL_BIN   the collector binary

SERVICES+=(otelcol)

OTELCOL_BUILDER_VERSION=v0.160.0 # equal to the component versions in deploy/otelcol/builder.yaml

otelcol_start() {
  local spec=deploy/otelcol/builder.yaml hash cache
  hash="$( (echo "$OTELCOL_BUILDER_VERSION"; cat "$spec") | sha256sum | cut -c1-16)"
  cache="${EVALSIDECAR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/evalsidecar}/otelcol-evalsidecar-$hash"
  if [ ! -x "$cache/otelcol-evalsidecar" ]; then
    echo "building the OpenTelemetry Collector (transform processor, load_balancing and nop exporters) into $cache; later runs reuse it"
    mkdir -p "$cache"
    sed "s|^  output_path: .*|  output_path: $cache|" "$spec" >"$cache/builder.yaml"
    if ! go run "go.opentelemetry.io/collector/cmd/builder@$OTELCOL_BUILDER_VERSION" \
      --config "$cache/builder.yaml" >"$cache/build.log" 2>&1; then
      tail -30 "$cache/build.log" >&2
      return 1
    fi
  fi
  export EVALSIDECAR_OTELCOL_BIN="$cache/otelcol-evalsidecar"
}

otelcol_stop() { :; }
