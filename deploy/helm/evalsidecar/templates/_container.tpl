{{/*
The evalsidecar container. The gateway Deployment uses it, and so can your
own pod spec in sidecar mode (with evalsidecar as a dependency of your chart):

  containers:
    - name: agent
      ...
    {{- include "evalsidecar.container" (dict "Values" .Values.evalsidecar "Release" .Release) | nindent 4 }}
  volumes:
    {{- include "evalsidecar.volumes" (dict "Values" .Values.evalsidecar "Release" .Release) | nindent 4 }}

With nativeSidecar: true, include the container under initContainers instead:
it then carries restartPolicy: Always (Kubernetes >= 1.29), starts before the
agent and stops after it.

The agent then exports OTLP to localhost:4317 (gRPC) or localhost:4318 (HTTP).
*/}}
{{- define "evalsidecar.container" -}}
- name: evalsidecar
  image: {{ include "evalsidecar.image" . | quote }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  {{- if and .Values.nativeSidecar (eq .Values.mode "sidecar") }}
  restartPolicy: Always
  {{- end }}
  args: ["serve", "-config", "/etc/evalsidecar/config.yaml"]
  ports:
    - name: otlp-grpc
      containerPort: {{ .Values.ports.otlpGrpc }}
      protocol: TCP
    - name: otlp-http
      containerPort: {{ .Values.ports.otlpHttp }}
      protocol: TCP
    - name: metrics
      containerPort: {{ .Values.ports.metrics }}
      protocol: TCP
  env:
    {{- if and .Values.useGOMEMLIMIT .Values.resources .Values.resources.limits .Values.resources.limits.memory }}
    - name: GOMEMLIMIT
      value: {{ mulf (include "evalsidecar.memBytes" .Values.resources.limits.memory | float64) 0.8 | printf "%.0f" | quote }}
    {{- end }}
    {{- range $name, $ref := .Values.secretEnv }}
    - name: {{ $name }}
      valueFrom:
        secretKeyRef:
          name: {{ required (printf "secretEnv.%s.secretName is required" $name) $ref.secretName }}
          key: {{ required (printf "secretEnv.%s.key is required" $name) $ref.key }}
    {{- end }}
    {{- with .Values.judge }}
    {{- $secret := .existingSecret }}
    {{- range $i, $e := .env }}
    - name: {{ required (printf "judge.env[%d].name is required" $i) $e.name }}
      valueFrom:
        secretKeyRef:
          name: {{ required "judge.existingSecret is required when judge.env is set" $secret }}
          key: {{ required (printf "judge.env[%d].key is required" $i) $e.key }}
    {{- end }}
    {{- end }}
    {{- with concat (.Values.extraEnvs | default list) (.Values.extraEnv | default list) }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with .Values.extraEnvsFrom }}
  envFrom:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.startupProbe }}
  startupProbe:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.livenessProbe }}
  livenessProbe:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.readinessProbe }}
  readinessProbe:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.resources }}
  resources:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.securityContext }}
  securityContext:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  volumeMounts:
    - name: evalsidecar-config
      mountPath: /etc/evalsidecar
      readOnly: true
    - name: evalsidecar-data
      mountPath: /var/lib/evalsidecar
    {{- with .Values.extraVolumeMounts }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end }}

{{/*
The volumes the evalsidecar container mounts: the config, the data volume
(an emptyDir sized for what the exporters may keep, or existingClaim; in
mode statefulset each replica's claim comes from volumeClaimTemplates) and
extraVolumes.
*/}}
{{- define "evalsidecar.volumes" -}}
- name: evalsidecar-config
  configMap:
    name: {{ include "evalsidecar.fullname" . }}
{{- if ne .Values.mode "statefulset" }}
- name: evalsidecar-data
  {{- if .Values.dataVolume.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .Values.dataVolume.existingClaim }}
  {{- else }}
  emptyDir:
    sizeLimit: {{ .Values.dataVolume.sizeLimit | default (include "evalsidecar.dataSize" .) }}
  {{- end }}
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}
