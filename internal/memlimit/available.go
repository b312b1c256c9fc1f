package memlimit

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// noLimit is above any cgroup limit that is really set: cgroup v1 reports
// "no limit" as a huge page-aligned number.
const noLimit = 1 << 60

// Available returns the memory available to the process: the cgroup v2 or
// v1 memory limit when one is set, else the machine's memory; 0 when
// neither can be read.
func Available() uint64 {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(f); err == nil {
			if n, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64); err == nil && n > 0 && n < noLimit {
				return n
			}
		}
	}
	meminfo, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(meminfo)) {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
