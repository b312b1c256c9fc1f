package main

import (
	"io"
	"os"
	"sync"
)

// lockedWriter serializes writes to w: a command's logger and its
// progress lines write to stderr from several goroutines, and the writer a
// caller hands run need not be safe for that.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p to the underlying writer, one call at a time.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// isTerminal reports whether w (or the writer a lockedWriter guards) is a
// terminal: a character device.
func isTerminal(w io.Writer) bool {
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
