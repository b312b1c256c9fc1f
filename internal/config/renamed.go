package config

import (
	"fmt"
	"regexp"
)

// renamedKeys maps a key the configuration no longer has, by its full
// path, to what replaced it, written relative to the key's block. Loading
// a file that still uses one fails with a message naming the new key.
var renamedKeys = map[string]string{
	"receiver.grpc.max_recv_msg_bytes":             "max_recv_msg_size_mib (in MiB)",
	"receiver.http.max_request_body_bytes":         "max_request_body_size",
	"receiver.forward.queue_size":                  "sending_queue.queue_size",
	"receiver.forward.workers":                     "sending_queue.num_consumers",
	"receiver.forward.tls.enabled":                 "insecure (inverted: TLS is on unless insecure: true)",
	"scorer.queue_size":                            "sending_queue.queue_size",
	"scorer.workers":                               "sending_queue.num_consumers",
	"judge.queue_size":                             "sending_queue.queue_size",
	"exporters.jsonl.queue_size":                   "sending_queue.queue_size",
	"exporters.clickhouse.dsn":                     "endpoint",
	"exporters.clickhouse.queue_rows":              "sending_queue.queue_size",
	"exporters.clickhouse.retry_on_failure.jitter": "randomization_factor",
	"exporters.otel_events.insecure":               "tls.insecure",
	"exporters.otel_events.queue_size":             "sending_queue.queue_size",
	"exporters.otel_events.batch_size":             "sending_queue.batch.max_size",
}

// removedKeys maps a key the configuration dropped without a successor,
// by its full path, to why.
var removedKeys = map[string]string{
	"exporters.otel_events.export_interval": "a free sender sends what is queued at once, up to sending_queue.batch.max_size events",
}

// listIndex matches the index of a list item in a key path.
var listIndex = regexp.MustCompile(`\[\d+\]`)

// renamed returns the message for a key path that renamedKeys or
// removedKeys lists, and whether one lists it.
func renamed(path string) (string, bool) {
	key := listIndex.ReplaceAllString(path, "[]")
	if to, ok := renamedKeys[key]; ok {
		return fmt.Sprintf("%s: renamed to %s", path, to), true
	}
	if why, ok := removedKeys[key]; ok {
		return fmt.Sprintf("%s: removed: %s", path, why), true
	}
	return "", false
}
