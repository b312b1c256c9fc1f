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
app.kubernetes.io/component: {{ ternary "gateway" "sidecar" (eq .Values.mode "deployment") }}
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
listen addresses, data directories and log format forced so that ports,
probes and volumes always match.
*/}}
{{- define "evalsidecar.configYAML" -}}
{{- $bind := ternary "0.0.0.0" "127.0.0.1" (eq .Values.mode "deployment") -}}
{{- $forced := dict
  "receiver" (dict
    "grpc" (dict "endpoint" (printf "%s:%d" $bind (int .Values.ports.otlpGrpc)))
    "http" (dict "endpoint" (printf "%s:%d" $bind (int .Values.ports.otlpHttp))))
  "exporters" (dict
    "prometheus" (dict "endpoint" (printf "0.0.0.0:%d" (int .Values.ports.metrics)))
    "jsonl" (dict "directory" "/var/lib/evalsidecar/jsonl")
    "clickhouse" (dict "spool" (dict "directory" "/var/lib/evalsidecar/clickhouse-spool")))
  "log" (dict "format" "json") -}}
{{- $cfg := mustMergeOverwrite (dict) (deepCopy (.Values.config | default dict)) $forced -}}
{{- toYaml $cfg }}
{{- end }}

{{/* Pod annotations that roll the pods when the configuration changes. */}}
{{- define "evalsidecar.checksumAnnotations" -}}
checksum/config: {{ include "evalsidecar.configYAML" . | sha256sum }}
{{- end }}
