#!/usr/bin/env bash
# Regenerates every capture under extractor/testdata/captures/.
# Usage: tools/capture/run.sh [library ...]   (default: all libraries)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(cd "$here/../.." && pwd)/extractor/testdata/captures"
cd "$here"

export CAPTURE_MODEL_PORT="${CAPTURE_MODEL_PORT:-18080}"
export CAPTURE_OTLP_PORT="${CAPTURE_OTLP_PORT:-18081}"
export CAPTURE_OUT_DIR="$out"
# Keep library-side exporters and SDK defaults from reaching anything but loopback.
export OPENAI_API_KEY=sk-capture TRACELOOP_API_KEY=capture TRACELOOP_TELEMETRY=FALSE
export LANGCHAIN_TRACING_V2=false LANGSMITH_TRACING=false

# Library × scenario pairs the library has no construct for.
unsupported() {
  case "$1/$2" in
    langgraph/handoff) return 0 ;;
  esac
  return 1
}

libraries=("$@")
if [ ${#libraries[@]} -eq 0 ]; then
  libraries=(openai-agents vercel-ai vercel-ai-legacy traceloop langgraph)
fi
scenarios=(single-tool multi-tool repeated-tool failing-tool handoff multi-turn)
encodings=(json proto)

if [ "${SKIP_NPM_CI:-}" != 1 ]; then npm ci --no-audit --no-fund --loglevel=error; fi

node src/servers.js "$out" "$CAPTURE_MODEL_PORT" "$CAPTURE_OTLP_PORT" &
servers=$!
trap 'kill "$servers" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  if curl -fs "http://127.0.0.1:$CAPTURE_MODEL_PORT/count/x/y/z" >/dev/null 2>&1; then break; fi
  sleep 0.1
done

status=0
for lib in "${libraries[@]}"; do
  for enc in "${encodings[@]}"; do
    for sc in "${scenarios[@]}"; do
      if unsupported "$lib" "$sc"; then
        echo "skip $lib/$enc/$sc"
        continue
      fi
      rm -rf "${out:?}/$lib/$enc/$sc"
      if ! node "agents/$lib.js" --encoding "$enc" --scenario "$sc"; then
        echo "FAILED $lib/$enc/$sc" >&2
        status=1
      fi
    done
  done
done
node src/index.js "$out"
exit $status
