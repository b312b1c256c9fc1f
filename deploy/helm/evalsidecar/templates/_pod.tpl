{{/*
The pod spec of the gateway replicas and of the session scorer: the
evalsidecar container and its volumes, with the pod-level settings.
*/}}
{{- define "evalsidecar.podSpec" -}}
serviceAccountName: {{ include "evalsidecar.serviceAccountName" . }}
automountServiceAccountToken: false
{{- with concat (.Values.imagePullSecrets | default list) (dig "imagePullSecrets" list (.Values.global | default dict)) }}
imagePullSecrets:
  {{- range . }}
  {{- /* names, or {name: ...} as many charts spell global.imagePullSecrets */}}
  - name: {{ if kindIs "map" . }}{{ .name }}{{ else }}{{ . }}{{ end }}
  {{- end }}
{{- end }}
{{- with .Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
containers:
  {{- include "evalsidecar.container" . | nindent 2 }}
volumes:
  {{- include "evalsidecar.volumes" . | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
