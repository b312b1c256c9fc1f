package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// rotatedLayout names rotated files: <stream>-<UTC time>.jsonl. The fixed
// width makes the names sort in time order.
const rotatedLayout = "20060102T150405.000000000Z"

// flushThresholdBytes bounds a stream's buffer between flushes.
const flushThresholdBytes = 256 << 10

const (
	filePerm = 0o640
	dirPerm  = 0o750
)

// stream is one JSON lines file with size rotation. It is used by the
// exporter's writer goroutine only.
type stream struct {
	x    *Exporter
	i    int    // index in streamNames
	name string // streamNames[i]

	f           *os.File
	size        int64 // bytes in the current file
	buf         []byte
	pending     int       // records in buf
	partial     bool      // the file ends in a cut line; start with '\n'
	failing     bool      // the last write failed (log once per episode)
	lastRotated time.Time // newest rotated file's time, for unique names
	holdRotate  bool      // a rename failed; retry after the next flush tick
	lastPrune   time.Time
	// early counts rotated files deleted younger than minAge since the
	// last warning, youngest the age of the youngest of them.
	early    int
	youngest time.Duration
	lastWarn time.Time
}

// warnEvery bounds how often early deletions are logged.
const warnEvery = time.Minute

func (s *stream) path() string { return filepath.Join(s.x.cfg.Directory, s.name+".jsonl") }

// open opens (or reopens) the current file for appending.
func (s *stream) open() error {
	if err := os.MkdirAll(s.x.cfg.Directory, dirPerm); err != nil {
		return fmt.Errorf("jsonl: create directory %s: %w", s.x.cfg.Directory, err)
	}
	f, err := os.OpenFile(s.path(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, filePerm)
	if err != nil {
		return fmt.Errorf("jsonl: open %s: %w", s.path(), err)
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("jsonl: stat %s: %w", s.path(), err)
	}
	s.f, s.size = f, st.Size()
	if rotated, err := s.rotated(); err == nil && len(rotated) > 0 {
		if t, ok := s.rotatedTime(rotated[len(rotated)-1]); ok && t.After(s.lastRotated) {
			s.lastRotated = t
		}
	}
	return nil
}

// add buffers one line (ending in '\n'), rotating first when the line
// would take the file over maxBytes.
func (s *stream) add(line []byte) {
	if used := s.size + int64(len(s.buf)); used > 0 && used+int64(len(line)) > s.x.cfg.MaxFileBytes && !s.holdRotate {
		s.flush()
		s.rotate()
	}
	s.buf = append(s.buf, line...)
	s.pending++
	if len(s.buf) >= flushThresholdBytes {
		s.flush()
	}
}

// flush writes the buffer. Records that do not reach the file are counted
// as dropped; the file is reopened on the next flush.
func (s *stream) flush() {
	if len(s.buf) == 0 {
		return
	}
	if s.f == nil {
		if err := s.open(); err != nil {
			s.fail(err, s.pending)
			return
		}
	}
	if s.partial {
		n, err := s.f.Write([]byte{'\n'})
		s.size += int64(n)
		if err != nil {
			s.fail(err, s.pending)
			return
		}
		s.partial = false
	}
	n, err := s.f.Write(s.buf)
	s.size += int64(n)
	written := bytes.Count(s.buf[:n], []byte{'\n'})
	if written > 0 {
		s.x.m.sent[s.i].Add(float64(written))
	}
	if err != nil {
		s.partial = n > 0 && s.buf[n-1] != '\n'
		s.fail(err, s.pending-written)
		return
	}
	if s.failing {
		s.failing = false
		s.x.logger.Info("jsonl: writing again", "file", s.path())
	}
	s.buf = s.buf[:0]
	s.pending = 0
}

// fail drops the buffer, counts n records, and closes the file so that the
// next flush reopens it.
func (s *stream) fail(err error, n int) {
	s.x.drops.Add(dropStage, dropWriteError, n)
	if !s.failing {
		s.failing = true
		s.x.logger.Warn("jsonl: write failed; records dropped until writing succeeds", "file", s.path(), "error", err)
	}
	s.buf = s.buf[:0]
	s.pending = 0
	if s.f != nil {
		_ = s.f.Close()
		s.f = nil
	}
}

// dropPending counts the buffered records as dropped for reason.
func (s *stream) dropPending(reason string) {
	s.x.drops.Add(dropStage, reason, s.pending)
	s.buf = s.buf[:0]
	s.pending = 0
}

// rotate renames the current file to a unique time-stamped name, starts a
// new one, and deletes the oldest rotated files beyond maxFiles.
func (s *stream) rotate() {
	if s.f != nil {
		if err := s.f.Close(); err != nil {
			s.x.logger.Warn("jsonl: close before rotation", "file", s.path(), "error", err)
		}
		s.f = nil
	}
	target, ts, err := s.rotatedName()
	if err == nil {
		err = os.Rename(s.path(), target)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.holdRotate = true
		s.x.logger.Warn("jsonl: rotation failed; appending to the current file", "file", s.path(), "error", err)
	} else if err == nil {
		s.lastRotated = ts
		s.partial = false
		s.prune()
	}
	if err := s.open(); err != nil {
		s.x.logger.Warn("jsonl: open after rotation", "file", s.path(), "error", err)
	}
}

// rotatedName returns a name for the current file that no rotated file of
// this stream uses and that sorts after all of them.
func (s *stream) rotatedName() (string, time.Time, error) {
	ts := s.x.now().UTC().Truncate(time.Nanosecond)
	if !ts.After(s.lastRotated) {
		ts = s.lastRotated.Add(time.Nanosecond)
	}
	for range 1000 {
		p := filepath.Join(s.x.cfg.Directory, s.name+"-"+ts.Format(rotatedLayout)+".jsonl")
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, ts, nil
		}
		ts = ts.Add(time.Nanosecond)
	}
	return "", time.Time{}, fmt.Errorf("jsonl: no free rotated file name for %s", s.name)
}

// rotated lists this stream's rotated files, oldest first.
func (s *stream) rotated() ([]string, error) {
	entries, err := os.ReadDir(s.x.cfg.Directory)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if _, ok := s.rotatedTime(e.Name()); ok {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// rotatedTime parses the time of a rotated file name of this stream.
func (s *stream) rotatedTime(name string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(name, s.name+"-")
	if !ok {
		return time.Time{}, false
	}
	rest, ok = strings.CutSuffix(rest, ".jsonl")
	if !ok || len(rest) != len(rotatedLayout) {
		return time.Time{}, false
	}
	t, err := time.Parse(rotatedLayout, rest)
	return t, err == nil
}

// prune deletes the oldest rotated files beyond maxFiles and those older
// than maxAge, counting their bytes, and warns (at most every warnEvery)
// when files were deleted younger than minAge: output deleted before its
// readers could be expected to have read it.
func (s *stream) prune() {
	names, err := s.rotated()
	if err != nil {
		s.x.logger.Warn("jsonl: list rotated files", "dir", s.x.cfg.Directory, "error", err)
		return
	}
	now := s.x.now()
	s.lastPrune = now
	for ; len(names) > 0; names = names[1:] {
		rotatedAt, _ := s.rotatedTime(names[0])
		age := now.Sub(rotatedAt)
		if len(names) <= s.x.cfg.MaxFiles && (s.x.cfg.MaxAge <= 0 || age < s.x.cfg.MaxAge) {
			break
		}
		p := filepath.Join(s.x.cfg.Directory, names[0])
		st, err := os.Stat(p)
		if err == nil {
			err = os.Remove(p)
		}
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				s.x.logger.Warn("jsonl: delete rotated file", "file", p, "error", err)
			}
			continue
		}
		s.x.m.deleted.WithLabelValues(s.name).Add(float64(st.Size()))
		if s.x.cfg.MinAge > 0 && age < s.x.cfg.MinAge {
			if s.early == 0 || age < s.youngest {
				s.youngest = age
			}
			s.early++
		}
	}
	if now.Sub(s.lastWarn) >= warnEvery {
		s.warnEarly(now)
	}
}

// warnEarly logs the rotated files deleted younger than minAge since the
// last warning, if any.
func (s *stream) warnEarly(now time.Time) {
	if s.early == 0 {
		return
	}
	s.x.logger.Warn("jsonl: rotated output deleted sooner than min_age; raise max_files or max_file_bytes, or read it faster",
		"stream", s.name, "files", s.early, "youngest_age", s.youngest, "min_age", s.x.cfg.MinAge)
	s.early, s.lastWarn = 0, now
}

// close flushes and closes the file, and logs the early deletions not
// logged yet.
func (s *stream) close() error {
	s.flush()
	s.warnEarly(s.x.now())
	if s.f == nil {
		return nil
	}
	err := s.f.Sync()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f = nil
	if err != nil {
		return fmt.Errorf("jsonl: close %s: %w", s.path(), err)
	}
	return nil
}
