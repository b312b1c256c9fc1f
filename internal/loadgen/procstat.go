package loadgen

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ProcStats is what a process has used so far, from /proc (Linux).
type ProcStats struct {
	CPUSeconds float64 // user + system time
	PeakRSS    int64   // bytes (VmHWM)
	RSS        int64   // bytes now (VmRSS)
}

// ReadProcStats reads the stats of process pid.
func ReadProcStats(pid int) (ProcStats, error) {
	var st ProcStats
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return st, err
	}
	// the command name, in parentheses, may hold spaces: fields start after it
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return st, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return st, fmt.Errorf("/proc/%d/stat: bad times", pid)
	}
	const clockTicks = 100 // USER_HZ on Linux
	st.CPUSeconds = (utime + stime) / clockTicks
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return st, err
	}
	for line := range strings.Lines(string(status)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmHWM" && k != "VmRSS") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return st, fmt.Errorf("/proc/%d/status %s: %w", pid, k, err)
		}
		if k == "VmHWM" {
			st.PeakRSS = kb << 10
		} else {
			st.RSS = kb << 10
		}
	}
	return st, nil
}
