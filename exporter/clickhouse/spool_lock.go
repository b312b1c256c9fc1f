package clickhouse

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockName is the lock file in the spool directory.
const lockName = ".lock"

// ErrSpoolInUse is returned by Start when another process holds the spool
// directory: two writers would replay, send and delete each other's
// batches.
var ErrSpoolInUse = errors.New("spool directory is in use by another process")

// lockDir takes an exclusive, non-blocking flock on dir/.lock and writes
// the process id into it. The lock lasts until the returned file is
// closed, or the process ends (the kernel releases it even after a
// crash, so a stale file never blocks a restart).
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is locked by pid %s; give every sidecar its own "+
				"exporters.clickhouse.spool.directory (in Kubernetes: the chart's statefulset mode, "+
				"one volume per replica)", ErrSpoolInUse, dir, strings.TrimSpace(string(holder)))
		}
		return nil, fmt.Errorf("spool: lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
