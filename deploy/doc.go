// Package deploy holds the tests of the deployment artifacts: the Helm
// chart under deploy/helm/evalsidecar, and the alert rules and SRE
// dashboard run against a real Prometheus scraping a running sidecar.
package deploy
