# Developer entry points. `make test` is what CI runs (scripts/test).

HELM    ?= go run helm.sh/helm/v3/cmd/helm@v3.22.0
IMAGE   ?= ghcr.io/evalsidecar/evalsidecar
VERSION ?= dev
CHART   := deploy/helm/evalsidecar

.PHONY: test build docker helm-lint dashboards schema

## test: vet, gofmt check and every test, with the services they need
test:
	scripts/test

## build: the sidecar binary in ./bin
build:
	CGO_ENABLED=0 go build -trimpath -ldflags "-X main.version=$(VERSION)" -o bin/sidecar ./cmd/sidecar

## docker: the container image (needs a Docker engine)
docker:
	docker build --build-arg VERSION=$(VERSION) -t $(IMAGE):$(VERSION) .

## helm-lint: lint --strict and template the chart over its values matrix
helm-lint:
	$(HELM) lint --strict $(CHART)
	@for f in $(CHART)/ci/*-values.yaml; do \
		echo "== $$f"; \
		$(HELM) lint --strict $(CHART) -f $$f || exit 1; \
		$(HELM) template evalsidecar $(CHART) -f $$f >/dev/null || exit 1; \
	done
	go test ./deploy -run 'Helm|Chart' -count=1

## dashboards: regenerate the dashboard JSON and the alert rules, and copy
## the SRE dashboard into the chart
dashboards:
	go test ./dashboards -run 'GeneratedUpToDate|RulesUpToDate' -update -count=1
	cp dashboards/generated/evalsidecar-sre.json $(CHART)/files/dashboards/

## schema: regenerate the chart's config schema (values.schema.json
## properties.config) from the Go configuration types
schema:
	go test ./deploy -run ConfigSchemaIsGenerated -update -count=1
