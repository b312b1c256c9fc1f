package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

func TestClassify(t *testing.T) {
	ex := func(code int32) error { return fmt.Errorf("insert: %w", &ch.Exception{Code: code, Message: "m"}) }
	cases := []struct {
		name string
		err  error
		want errClass
	}{
		{"no such column", ex(16), classPark},
		{"unknown table", ex(60), classPark},
		{"type mismatch", ex(53), classPark},
		{"unknown database", ex(81), classPark},
		{"client conversion", &appendError{column: "score", err: errors.New("converting string to Float64 is unsupported")}, classPark},
		{"too many parts", ex(252), classRetry},
		{"memory limit", ex(241), classRetry},
		{"readonly replica", ex(242), classRetry},
		{"timeout exceeded", ex(159), classRetry},
		{"unknown code", ex(9999), classRetry},
		{"refused", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, classRetry},
		{"eof", fmt.Errorf("read: %w", io.EOF), classRetry},
		{"deadline", context.DeadlineExceeded, classRetry},
	}
	for _, c := range cases {
		if got := classify(c.err); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
