{{/*
The chart's name: the chart, or nameOverride.
*/}}
{{- define "platform.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The release's full name, truncated at 63 characters (Kubernetes names are DNS labels).
A release name that contains the chart's name is used as it is.
*/}}
{{- define "platform.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The namespace of generated references: always the release's.
*/}}
{{- define "platform.namespaceName" -}}
{{- .Release.Namespace }}
{{- end }}

{{/*
An object's name: "<fullname>-<suffix>", the full name shortened so the whole stays within 63 characters.
Takes a dict: .suffix (e.g. "controller-manager") and .context (the root context).
*/}}
{{- define "platform.resourceName" -}}
{{- $fullname := include "platform.fullname" .context }}
{{- $suffix := .suffix }}
{{- $maxLen := sub 62 (len $suffix) | int }}
{{- if gt (len $fullname) $maxLen }}
{{- printf "%s-%s" (trunc $maxLen $fullname | trimSuffix "-") $suffix | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" $fullname $suffix | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/*
The manager's ServiceAccount: the chart's own when serviceAccount.enabled, else serviceAccount.name
(set it to "default" for the namespace's default ServiceAccount).
*/}}
{{- define "platform.serviceAccountName" -}}
{{- if .Values.serviceAccount.enabled }}
{{- include "platform.resourceName" (dict "suffix" "controller-manager" "context" .) }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.enabled=false (set name: default to use the namespace's default ServiceAccount)" .Values.serviceAccount.name }}
{{- end }}
{{- end }}
