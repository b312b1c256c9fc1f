# syntax=docker/dockerfile:1
# evalsidecar: a static binary on a distroless, non-root base.
#   docker build -t evalsidecar:dev --build-arg VERSION=0.1.0 .

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ARG VERSION=dev
ARG TARGETOS=linux
ARG TARGETARCH
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=${TARGETOS} GOARCH=${TARGETARCH} \
    go build -trimpath -buildvcs=false -ldflags "-s -w -X main.version=${VERSION}" -o /out/sidecar ./cmd/sidecar

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sidecar /sidecar
# OTLP gRPC, OTLP HTTP, metrics and health. The default config listens on
# 127.0.0.1; the Helm chart's config binds 0.0.0.0.
EXPOSE 4317 4318 9464
USER 65532:65532
ENTRYPOINT ["/sidecar"]
CMD ["serve"]
