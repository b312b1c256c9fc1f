package receiver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestLogsPartialSuccess(t *testing.T) {
	req := func() plogotlp.ExportRequest {
		r := logsRequest("hello", "bad\xff", "world")
		lrs := r.Logs().ResourceLogs().At(0).ScopeLogs().At(0).LogRecords()
		v := lrs.AppendEmpty().Attributes().PutEmpty("deep")
		for range 70 {
			v = v.SetEmptyMap().PutEmpty("k")
		}
		v.SetStr("leaf")
		return r
	}
	for _, protocol := range []string{protoGRPC, protoHTTP} {
		t.Run(protocol, func(t *testing.T) {
			s := &sink{}
			r, _ := startReceiver(t, testConfig(), s)
			var rejected int64
			var msg string
			if protocol == protoGRPC {
				resp, err := plogotlp.NewGRPCClient(grpcConn(t, r.GRPCAddr())).Export(context.Background(), req())
				if err != nil {
					t.Fatal(err)
				}
				rejected, msg = resp.PartialSuccess().RejectedLogRecords(), resp.PartialSuccess().ErrorMessage()
			} else {
				body, _ := req().MarshalProto()
				a := post(t, nil, "http://"+r.HTTPAddr()+logsPath, mediaProto, "", body, nil)
				if a.httpStatus != 200 {
					t.Fatalf("status %d", a.httpStatus)
				}
				rejected, msg = a.rejected, a.partialMsg
			}
			if rejected != 2 || !strings.Contains(msg, "attribute_depth=1, invalid_utf8=1") {
				t.Errorf("partial success = %d %q", rejected, msg)
			}
			if got := s.logBodies(); !slices.Equal(got, []string{"hello", "world"}) {
				t.Errorf("consumer got %q", got)
			}
			m := r.metrics
			if got := counter(t, m.logRecords, protocol); got != 2 {
				t.Errorf("log_records_total = %v, want 2", got)
			}
			if got := counter(t, m.refusedRecords, protocol, reasonInvalidUTF8); got != 1 {
				t.Errorf("refused_log_records_total{invalid_utf8} = %v, want 1", got)
			}
			if got := counter(t, m.requests, protocol, signalLogs, "ok"); got != 1 {
				t.Errorf("requests_total = %v, want 1", got)
			}
		})
	}
}

func TestLogsDraining(t *testing.T) {
	s := &sink{}
	r, _ := startReceiver(t, testConfig(), s)
	r.Drain()
	_, err := plogotlp.NewGRPCClient(grpcConn(t, r.GRPCAddr())).Export(context.Background(), logsRequest("x"))
	var a answer
	statusAnswer(status.Convert(err), &a)
	if a.grpcCode != codes.Unavailable || a.retryAfter <= 0 {
		t.Errorf("gRPC: code %v retry %v, want Unavailable with RetryInfo", a.grpcCode, a.retryAfter)
	}
	body, _ := logsRequest("x").MarshalJSON()
	h := post(t, nil, "http://"+r.HTTPAddr()+logsPath, mediaJSON, "", body, nil)
	if h.httpStatus != 503 || h.retryAfter <= 0 || h.header.Get("Content-Type") != mediaJSON {
		t.Errorf("HTTP: %d Retry-After %v type %q, want 503 with Retry-After in JSON", h.httpStatus, h.retryAfter, h.header.Get("Content-Type"))
	}
	if s.callCount() != 0 {
		t.Error("consumer called while draining")
	}
}
