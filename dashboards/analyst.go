package dashboards

// analystDashboards are the dashboards over the ClickHouse tables.
func analystDashboards() []Dashboard { return nil }
