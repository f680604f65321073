{{/* The components: the gateway and the six services (DESIGN 3), in a fixed order. */}}
{{- define "tessera.serviceNames" -}}
directory token saml broker federation audit
{{- end }}

{{- define "tessera.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped prefix of every object; room is left for "-federation" (11 characters). */}}
{{- define "tessera.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "tessera.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels of one component: (dict "root" $ "component" "token") */}}
{{- define "tessera.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tessera.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* Every object's labels: (dict "root" $ "component" "token") */}}
{{- define "tessera.labels" -}}
{{ include "tessera.selectorLabels" . }}
app.kubernetes.io/part-of: tessera
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ include "tessera.chart" .root }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "tessera.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "tessera.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tessera.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding the master key, admin API key and bootstrap admin password. */}}
{{- define "tessera.secretName" -}}
{{- default (printf "%s-secrets" (include "tessera.fullname" .)) .Values.secrets.existingSecret }}
{{- end }}

{{/* The in-cluster address of a service: (dict "root" $ "service" "token") */}}
{{- define "tessera.serviceUrl" -}}
{{- printf "http://%s-%s.%s.svc.%s:%d" (include "tessera.fullname" .root) .service .root.Release.Namespace .root.Values.clusterDomain (int .root.Values.servicePort) }}
{{- end }}
