package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
)

// ErrProtocolUnsupported is returned by Start when the server answers but
// cannot speak the protocol the endpoint chose.
var ErrProtocolUnsupported = errors.New("the ClickHouse server cannot use this endpoint's protocol")

// checkProtocol asks the server for its version over an http:// or
// https:// endpoint. The client's HTTP interface sends settings that older
// servers (18.x among them) reject, so every insert would fail; that is
// refused at start with the fix. A server that does not answer within
// dial_timeout is left to the senders' retries, like any outage.
func checkProtocol(ctx context.Context, conn driver.Conn, opts *ch.Options, timeout time.Duration) error {
	if opts.Protocol != ch.HTTP {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := conn.Ping(ctx)
	if err == nil || !strings.Contains(err.Error(), "Unknown setting") {
		return nil
	}
	host := strings.Join(opts.Addr, ",")
	first, _, _ := strings.Cut(err.Error(), "\n")
	return fmt.Errorf("%w: endpoint %s uses HTTP, which this server rejects (%v); "+
		"use the native protocol: endpoint: clickhouse://USER:PASSWORD@HOST:9000 (the server's tcp_port)",
		ErrProtocolUnsupported, host, strings.TrimSpace(first))
}
