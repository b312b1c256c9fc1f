package queue

import (
	"strings"
	"testing"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		cfg  Config
		want []string // substrings; none for valid
	}{
		{Config{Enabled: true, NumConsumers: 1, QueueSize: 1}, nil},
		{Config{Enabled: false}, nil},
		{Config{Enabled: true, QueueSize: 1}, []string{"num_consumers: must be > 0"}},
		{Config{Enabled: true, NumConsumers: 2, QueueSize: -1}, []string{"queue_size: must be > 0"}},
		{Config{Enabled: true}, []string{"num_consumers", "queue_size"}},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if len(tt.want) == 0 {
			if err != nil {
				t.Errorf("%+v: unexpected error %v", tt.cfg, err)
			}
			continue
		}
		for _, w := range tt.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: error %v, want %q", tt.cfg, err, w)
			}
		}
	}
}
