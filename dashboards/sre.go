package dashboards

// sreDashboards are the dashboards over the sidecar's Prometheus metrics.
func sreDashboards() []Dashboard { return nil }
