{{/* Chart name, truncated to 63 characters (the DNS label limit). */}}
{{- define "evalsidecar.name" -}}
{{- default "evalsidecar" .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full name: release-name unless the release name already contains it. It does
not read .Chart, so a parent chart can include the sidecar templates with
(dict "Values" .Values.evalsidecar "Release" .Release).
*/}}
{{- define "evalsidecar.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default "evalsidecar" .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "evalsidecar.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "evalsidecar.selectorLabels" -}}
app.kubernetes.io/name: {{ include "evalsidecar.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "evalsidecar.labels" -}}
helm.sh/chart: {{ include "evalsidecar.chart" . }}
{{ include "evalsidecar.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: {{ ternary "gateway" "sidecar" (include "evalsidecar.gateway" . | eq "true") }}
{{- end }}

{{/* "true" in the gateway modes (deployment, statefulset), which render a workload and a Service. */}}
{{- define "evalsidecar.gateway" -}}
{{- has .Values.mode (list "deployment" "statefulset") -}}
{{- end }}

{{/* The gateway's workload kind. */}}
{{- define "evalsidecar.workloadKind" -}}
{{- ternary "StatefulSet" "Deployment" (eq .Values.mode "statefulset") -}}
{{- end }}

{{/* The image reference, under global.imageRegistry when a parent chart sets one. */}}
{{- define "evalsidecar.image" -}}
{{- $tag := .Values.image.tag | default (and .Chart .Chart.AppVersion) | required "image.tag is required when the chart is included from another chart" -}}
{{- $registry := dig "imageRegistry" "" (.Values.global | default dict) -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) .Values.image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end }}

{{/*
The bytes the exporters may keep on the data volume, from the sidecar
configuration (the sidecar's defaults where it sets nothing): JSON lines keep
3 streams x (max_files + 1) files of max_file_bytes, the ClickHouse spool
max_bytes; plus 10 % for a file being written past its limit. The chart tests
check these defaults against the sidecar's.
*/}}
{{- define "evalsidecar.dataBytes" -}}
{{- $cfg := include "evalsidecar.configYAML" . | fromYaml -}}
{{- $exp := $cfg.exporters | default dict -}}
{{- $jsonl := $exp.jsonl | default dict -}}
{{- $ch := $exp.clickhouse | default dict -}}
{{- $bytes := 0.0 -}}
{{- if (hasKey $jsonl "enabled" | ternary $jsonl.enabled true) -}}
{{- $bytes = mulf 3 (addf 1 (hasKey $jsonl "max_files" | ternary $jsonl.max_files 5)) (hasKey $jsonl "max_file_bytes" | ternary $jsonl.max_file_bytes 104857600) -}}
{{- end -}}
{{- if $ch.enabled -}}
{{- $bytes = addf $bytes (dig "spool" "max_bytes" 1073741824 $ch) -}}
{{- end -}}
{{- printf "%.0f" (mulf $bytes 1.1) -}}
{{- end }}

{{/* The data volume's size: the derived bytes in MiB, at least 64Mi. */}}
{{- define "evalsidecar.dataSize" -}}
{{- $mib := divf (include "evalsidecar.dataBytes" . | float64) 1048576 | ceil | int64 -}}
{{- printf "%dMi" (max $mib 64) -}}
{{- end }}

{{- define "evalsidecar.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "evalsidecar.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Memory quantity (e.g. 512Mi, 1G, 1073741824) to bytes. */}}
{{- define "evalsidecar.memBytes" -}}
{{- $mem := toString . -}}
{{- $units := dict "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "k" 1000.0 "K" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 -}}
{{- $bytes := 0.0 -}}
{{- $matched := false -}}
{{- range $suffix, $mult := $units -}}
{{- if and (not $matched) (hasSuffix $suffix $mem) (not (hasSuffix (printf "i%s" $suffix) $mem)) -}}
{{- $bytes = mulf (trimSuffix $suffix $mem | float64) $mult -}}
{{- $matched = true -}}
{{- end -}}
{{- end -}}
{{- if not $matched -}}{{- $bytes = float64 $mem -}}{{- end -}}
{{- printf "%.0f" $bytes -}}
{{- end }}

{{/*
The sidecar configuration: .Values.config over the chart's defaults, with the
listen addresses, the data directory (storage.directory: the JSON lines files
and the ClickHouse spool, unless the config moves them) and the log format
forced so that ports, probes and volumes always match; sessions.enabled is
false in the replicas when the session scorer scores the conversations.
*/}}
{{- define "evalsidecar.configYAML" -}}
{{- $bind := ternary "0.0.0.0" "127.0.0.1" (include "evalsidecar.gateway" . | eq "true") -}}
{{- $forced := dict
  "receiver" (dict
    "grpc" (dict "endpoint" (printf "%s:%d" $bind (int .Values.ports.otlpGrpc)))
    "http" (dict "endpoint" (printf "%s:%d" $bind (int .Values.ports.otlpHttp))))
  "exporters" (dict
    "prometheus" (dict "endpoint" (printf "0.0.0.0:%d" (int .Values.ports.metrics))))
  "storage" (dict "directory" "/var/lib/evalsidecar")
  "log" (dict "format" "json") -}}
{{- $cfg := mustMergeOverwrite (dict) (deepCopy (.Values.config | default dict)) $forced -}}
{{- if include "evalsidecar.sessions" . | eq "true" -}}
{{- /* with a session scorer, the replicas leave sessions to it */ -}}
{{- $_ := set $cfg "sessions" (set ($cfg.sessions | default dict) "enabled" (include "evalsidecar.sessionScorer" . | ne "true")) -}}
{{- end -}}
{{- toYaml $cfg }}
{{- end }}

{{/* Pod annotations that roll the pods when the configuration changes. */}}
{{- define "evalsidecar.checksumAnnotations" -}}
checksum/config: {{ include "evalsidecar.configYAML" . | sha256sum }}
{{- end }}

{{/*
"true" when the trace-id routing tier is rendered: routing.enabled true, or
"auto" in a gateway mode that can run more than one replica.
*/}}
{{- define "evalsidecar.routing" -}}
{{- $on := .Values.routing.enabled -}}
{{- if eq (toString $on) "auto" -}}
{{- $on = or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled -}}
{{- end -}}
{{- and (include "evalsidecar.gateway" . | eq "true") $on -}}
{{- end }}

{{- define "evalsidecar.routingSelectorLabels" -}}
app.kubernetes.io/name: {{ printf "%s-routing" (include "evalsidecar.name" .) | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "evalsidecar.routingLabels" -}}
helm.sh/chart: {{ include "evalsidecar.chart" . }}
{{ include "evalsidecar.routingSelectorLabels" . }}
app.kubernetes.io/version: {{ .Values.routing.image.tag | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: routing
app.kubernetes.io/part-of: {{ include "evalsidecar.name" . }}
{{- end }}

{{/*
The routing tier's Collector configuration: OTLP in; traces and logs out
through the load_balancing exporter by trace id to the sidecar replicas
behind the headless Service; routing.config merged over it.
*/}}
{{- define "evalsidecar.routingConfig" -}}
{{- $headless := printf "%s-headless" (include "evalsidecar.fullname" .) -}}
{{- $resolver := dict -}}
{{- if eq .Values.routing.resolver "k8s" -}}
{{- $resolver = dict "k8s" (dict "service" (printf "%s.%s" $headless .Release.Namespace) "ports" (list (int .Values.ports.otlpGrpc))) -}}
{{- else if eq .Values.routing.resolver "dns" -}}
{{- $resolver = dict "dns" (dict "hostname" (printf "%s.%s.svc.%s" $headless .Release.Namespace .Values.routing.clusterDomain) "port" (toString .Values.ports.otlpGrpc)) -}}
{{- else -}}
{{- fail (printf "routing.resolver: %q is neither k8s nor dns" .Values.routing.resolver) -}}
{{- end -}}
{{- /*
Spans are hashed on the raw trace id and log records on its hex form when
both use routing_key traceID, so a trace's log records (GenAI events,
feedback) would reach another replica than its spans: the transform
processor writes the trace id into evalsidecar.route on both, and both are
routed by that attribute. A log record without a trace id gets a random
route.
*/ -}}
{{- $route := dict
  "error_mode" "ignore"
  "trace_statements" (list "set(span.attributes[\"evalsidecar.route\"], span.trace_id.string)")
  "log_statements" (list
    "set(log.attributes[\"evalsidecar.route\"], log.trace_id.string) where log.trace_id != TraceID(0x00000000000000000000000000000000)"
    "set(log.attributes[\"evalsidecar.route\"], UUID()) where log.trace_id == TraceID(0x00000000000000000000000000000000)") -}}
{{- $lb := dict
  "routing_key" "attributes"
  "routing_attributes" (list "evalsidecar.route")
  "protocol" (dict "otlp" (dict
    "tls" (dict "insecure" true)
    "timeout" "10s"
    "sending_queue" (dict "enabled" true "queue_size" (int .Values.routing.sendingQueueSize))
    "retry_on_failure" (dict "enabled" true "max_elapsed_time" .Values.routing.retryMaxElapsedTime)))
  "resolver" $resolver -}}
{{- $cfg := dict
  "extensions" (dict "health_check" (dict "endpoint" "0.0.0.0:13133"))
  "receivers" (dict "otlp" (dict "protocols" (dict "grpc" (dict "endpoint" "0.0.0.0:4317") "http" (dict "endpoint" "0.0.0.0:4318"))))
  "processors" (dict "transform/route" $route)
  "exporters" (dict "load_balancing" $lb)
  "service" (dict
    "extensions" (list "health_check")
    "telemetry" (dict "metrics" (dict "readers" (list (dict "pull" (dict "exporter" (dict "prometheus" (dict "host" "0.0.0.0" "port" 8888)))))))
    "pipelines" (dict
      "traces" (dict "receivers" (list "otlp") "processors" (list "transform/route") "exporters" (list "load_balancing"))
      "logs" (dict "receivers" (list "otlp") "processors" (list "transform/route") "exporters" (list "load_balancing")))) -}}
{{- mustMergeOverwrite $cfg (deepCopy (.Values.routing.config | default dict)) | toYaml -}}
{{- end }}

{{/* "true" when the headless Service over the sidecar replicas is rendered. */}}
{{- define "evalsidecar.headless" -}}
{{- or (eq .Values.mode "statefulset") (include "evalsidecar.routing" . | eq "true") -}}
{{- end }}

{{/* The label of the Service whose endpoints the ServiceMonitor scrapes. */}}
{{- define "evalsidecar.scrapeLabel" -}}
evalsidecar.io/scrape: "true"
{{- end }}

{{/* "true" when conversations are scored: sessions.enabled or config.sessions.enabled. */}}
{{- define "evalsidecar.sessions" -}}
{{- if or (.Values.sessions | default dict).enabled (dig "sessions" "enabled" false (.Values.config | default dict)) -}}
true
{{- else -}}
false
{{- end -}}
{{- end }}

{{/*
"true" when the session scorer Deployment is rendered: sessions on in a
gateway mode where more than one replica can run, each seeing only part of
a conversation.
*/}}
{{- define "evalsidecar.sessionScorer" -}}
{{- $several := or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled (include "evalsidecar.routing" . | eq "true") -}}
{{- and (include "evalsidecar.gateway" . | eq "true") (include "evalsidecar.sessions" . | eq "true") $several -}}
{{- end }}

{{- define "evalsidecar.sessionScorerSelectorLabels" -}}
app.kubernetes.io/name: {{ printf "%s-sessions" (include "evalsidecar.name" .) | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "evalsidecar.sessionScorerLabels" -}}
helm.sh/chart: {{ include "evalsidecar.chart" . }}
{{ include "evalsidecar.sessionScorerSelectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: sessions
app.kubernetes.io/part-of: {{ include "evalsidecar.name" . }}
{{- end }}

{{/* matchExpressions selecting the gateway replicas and the session scorer pods (never the routing tier) for the monitors and the NetworkPolicy. */}}
{{- define "evalsidecar.sidecarNames" -}}
- key: app.kubernetes.io/name
  operator: In
  values:
    - {{ include "evalsidecar.name" . }}
    - {{ printf "%s-sessions" (include "evalsidecar.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
