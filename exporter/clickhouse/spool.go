package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// spool is the bounded FIFO of sealed batches between the exporter and
// ClickHouse, one queue per table, ordered by a sequence number shared by
// all tables. With a directory every batch is one file, written (and
// synced, with fsync on) before it counts as accepted and deleted once
// ClickHouse has it; files left by an earlier process are replayed first,
// in order. Without a directory batches are held in memory.
type spool struct {
	dir      string
	maxBytes int64
	fsync    bool
	policy   string
	logger   *slog.Logger
	// onDrop counts rows dropped from the spool with a reason.
	onDrop func(table string, rows int, reason string)

	lock *os.File // the flock on dir/.lock, held from open to close

	mu    sync.Mutex
	seq   uint64
	bytes int64
	rows  int
	// held is the encoded size of the spooled batches that are also kept
	// decoded in memory (bounded by maxHeldBytes).
	held   int64
	queues [numTables][]*entry
	notify [numTables]chan struct{} // cap 1: "the queue changed"
}

// entry is one spooled batch.
type entry struct {
	seq   uint64
	table tableID
	rows  int
	size  int64
	token string
	path  string // "" when held in memory only
	b     *batch // the batch, when still at hand (always without a file)
	// inflight is set while a sender owns the entry; drop_oldest never
	// evicts it, so a batch is never both inserted and counted as dropped.
	inflight bool
}

// Drop reasons of the ClickHouse exporter, counted in
// evalsidecar_dropped_total{stage="clickhouse"} in rows.
const (
	dropStage              = "clickhouse"
	reasonSpoolFull        = "spool_full"
	reasonSpoolCorrupt     = "spool_corrupt"
	reasonQueueFull        = "queue_full"
	reasonPermanent        = "permanent_error"
	reasonRetriesExhausted = "retries_exhausted"
	reasonShutdown         = "shutdown_timeout"
	reasonShuttingDown     = "shutting_down"
	reasonEncode           = "encode_error"
)

const spoolExt = ".batch"

// maxHeldBytes bounds the batches a disk spool also keeps decoded in
// memory, so that a server that keeps up never reads a batch back from
// disk, and an outage does not grow memory with the spool.
const maxHeldBytes = 64 << 20

func newSpool(cfg SpoolConfig, logger *slog.Logger, onDrop func(string, int, string)) *spool {
	s := &spool{dir: cfg.Directory, maxBytes: cfg.MaxBytes, fsync: cfg.Fsync, policy: cfg.DropPolicy, logger: logger, onDrop: onDrop}
	for i := range s.notify {
		s.notify[i] = make(chan struct{}, 1)
	}
	return s
}

// open creates the directory, locks it against a second process (see
// lockDir) and loads the batches an earlier process left, reading only
// their headers. Unreadable files are moved aside
// (".corrupt") and counted; stray temporary files are removed. A spool
// larger than max_bytes is loaded whole: the next push evicts by policy.
func (s *spool) open() error {
	if s.dir == "" {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	lock, err := lockDir(s.dir)
	if err != nil {
		return err
	}
	s.lock = lock
	names, err := os.ReadDir(s.dir)
	if err != nil {
		s.close()
		return fmt.Errorf("spool: %w", err)
	}
	var loaded []*entry
	for _, de := range names {
		name := de.Name()
		path := filepath.Join(s.dir, name)
		if strings.HasSuffix(name, ".tmp") {
			_ = os.Remove(path)
			continue
		}
		if !strings.HasSuffix(name, spoolExt) || de.IsDir() {
			continue
		}
		e, err := s.loadEntry(path)
		if err != nil {
			s.quarantine(path, "unknown", 0, err)
			continue
		}
		loaded = append(loaded, e)
	}
	sort.Slice(loaded, func(i, j int) bool { return loaded[i].seq < loaded[j].seq })
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range loaded {
		s.queues[e.table] = append(s.queues[e.table], e)
		s.bytes += e.size
		s.rows += e.rows
		s.seq = max(s.seq, e.seq)
	}
	if len(loaded) > 0 {
		s.logger.Info("clickhouse spool: replaying batches left by an earlier run",
			"batches", len(loaded), "rows", s.rows, "bytes", s.bytes)
	}
	return nil
}

// loadEntry reads a spool file's header. The checksum covers the whole
// file, so this reads it once; the rows are decoded when the batch is sent.
func (s *spool) loadEntry(path string) (*entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	h, err := decodeSpoolHeader(data)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(path), spoolExt)
	seqPart, _, _ := strings.Cut(base, "-")
	if seq, err := strconv.ParseUint(seqPart, 10, 64); err != nil || seq != h.seq {
		return nil, fmt.Errorf("%w: file name does not match sequence %d", errCorrupt, h.seq)
	}
	return &entry{seq: h.seq, table: h.table, rows: h.rows, size: int64(len(data)), token: h.token, path: path}, nil
}

// quarantine moves an unreadable file aside and counts its rows (when the
// header could be read) or the file as one row.
func (s *spool) quarantine(path, table string, rows int, cause error) {
	if err := os.Rename(path, path+".corrupt"); err != nil {
		_ = os.Remove(path)
	}
	if rows <= 0 {
		rows = 1
	}
	s.logger.Error("clickhouse spool: unreadable batch moved aside", "file", path, "error", cause)
	s.onDrop(table, rows, reasonSpoolCorrupt)
}

// stats returns the spooled bytes and rows.
func (s *spool) stats() (bytes int64, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes, s.rows
}

// tableRows returns the rows spooled for t.
func (s *spool) tableRows(t tableID) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.queues[t] {
		n += e.rows
	}
	return n
}

func (s *spool) signal(t tableID) {
	select {
	case s.notify[t] <- struct{}{}:
	default:
	}
}

// nextSeq reserves the next sequence number (used for the token before
// the batch is encoded).
func (s *spool) nextSeq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

// push adds an encoded batch. When the spool is full, the policy decides:
// drop_oldest evicts the oldest batches no sender holds, drop_newest (or
// nothing left to evict) drops this one. Dropped rows are counted; push
// reports whether the batch was kept.
func (s *spool) push(b *batch, seq uint64, token string, data []byte) bool {
	size := int64(len(data))
	s.mu.Lock()
	if size > s.maxBytes {
		s.mu.Unlock()
		s.onDrop(b.table.String(), b.rows, reasonSpoolFull)
		return false
	}
	var evicted []*entry
	for s.bytes+size > s.maxBytes {
		var victim *entry
		if s.policy == DropOldest {
			victim = s.oldestIdleLocked()
		}
		if victim == nil {
			s.mu.Unlock()
			s.finishEvict(evicted)
			s.onDrop(b.table.String(), b.rows, reasonSpoolFull)
			return false
		}
		s.removeLocked(victim)
		evicted = append(evicted, victim)
	}
	s.bytes += size
	s.rows += b.rows
	s.mu.Unlock()
	s.finishEvict(evicted)

	e := &entry{seq: seq, table: b.table, rows: b.rows, size: size, token: token, b: b}
	if s.dir != "" {
		path := filepath.Join(s.dir, fmt.Sprintf("%020d-%s%s", seq, b.table, spoolExt))
		if err := s.writeFile(path, data); err != nil {
			// The batch stays in memory: it is still sent, but a crash
			// before that loses it.
			s.logger.Error("clickhouse spool: cannot write batch; keeping it in memory", "error", err)
		} else {
			e.path = path
		}
	}
	s.mu.Lock()
	q := s.queues[b.table]
	if e.path != "" {
		if s.held+size <= maxHeldBytes || len(q) == 0 {
			s.held += size
		} else {
			e.b = nil // read back from its file when its turn comes
		}
	}
	// Batches are pushed in sequence order by one goroutine; keep the
	// queue sorted in case a caller ever pushes out of order.
	i := len(q)
	for i > 0 && q[i-1].seq > seq {
		i--
	}
	q = append(q, nil)
	copy(q[i+1:], q[i:])
	q[i] = e
	s.queues[b.table] = q
	s.mu.Unlock()
	s.signal(b.table)
	return true
}

func (s *spool) finishEvict(evicted []*entry) {
	for _, v := range evicted {
		s.deleteFile(v)
		s.onDrop(v.table.String(), v.rows, reasonSpoolFull)
	}
}

func (s *spool) oldestIdleLocked() *entry {
	var oldest *entry
	for t := range s.queues {
		for _, e := range s.queues[t] {
			if !e.inflight {
				if oldest == nil || e.seq < oldest.seq {
					oldest = e
				}
				break
			}
		}
	}
	return oldest
}

func (s *spool) removeLocked(e *entry) {
	q := s.queues[e.table]
	for i, x := range q {
		if x == e {
			s.queues[e.table] = append(q[:i:i], q[i+1:]...)
			s.bytes -= e.size
			s.rows -= e.rows
			if e.path != "" && e.b != nil {
				s.held -= e.size
			}
			return
		}
	}
}

func (s *spool) writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && s.fsync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if s.fsync {
		if d, err := os.Open(s.dir); err == nil {
			err = d.Sync()
			_ = d.Close()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *spool) deleteFile(e *entry) {
	if e.path != "" {
		if err := os.Remove(e.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.logger.Warn("clickhouse spool: cannot delete sent batch", "file", e.path, "error", err)
		}
	}
}

// head waits for the oldest batch of t and marks it in flight.
func (s *spool) head(ctx context.Context, t tableID) (*entry, error) {
	for {
		s.mu.Lock()
		if q := s.queues[t]; len(q) > 0 {
			e := q[0]
			e.inflight = true
			s.mu.Unlock()
			return e, nil
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.notify[t]:
		}
	}
}

// release returns an in-flight entry to the queue's head without sending
// it (the sender is stopping).
func (s *spool) release(e *entry) {
	s.mu.Lock()
	e.inflight = false
	s.mu.Unlock()
}

// done removes an entry that was sent or dropped.
func (s *spool) done(e *entry) {
	s.mu.Lock()
	s.removeLocked(e)
	s.mu.Unlock()
	s.deleteFile(e)
}

// load returns the batch of e, decoding its file or memory copy. A batch
// that cannot be decoded is moved aside, counted and removed; the error
// says so.
func (s *spool) load(e *entry) (*batch, error) {
	if e.b != nil {
		return e.b, nil
	}
	data, err := os.ReadFile(e.path)
	{
		if err != nil {
			s.mu.Lock()
			s.removeLocked(e)
			s.mu.Unlock()
			s.logger.Error("clickhouse spool: cannot read batch", "file", e.path, "error", err)
			s.onDrop(e.table.String(), e.rows, reasonSpoolCorrupt)
			return nil, err
		}
	}
	_, b, err := decodeBatch(data)
	if err != nil {
		s.mu.Lock()
		s.removeLocked(e)
		s.mu.Unlock()
		s.quarantine(e.path, e.table.String(), e.rows, err)
		return nil, err
	}
	return b, nil
}

// drain removes every entry and returns them (memory spools count them as
// dropped at shutdown).
func (s *spool) drain() []*entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*entry
	for t := range s.queues {
		out = append(out, s.queues[t]...)
		s.queues[t] = nil
	}
	s.bytes, s.rows, s.held = 0, 0, 0
	return out
}

// close releases the directory lock.
func (s *spool) close() {
	if s.lock != nil {
		_ = s.lock.Close()
		s.lock = nil
	}
}

// empty reports whether no batch is spooled.
func (s *spool) empty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t := range s.queues {
		if len(s.queues[t]) > 0 {
			return false
		}
	}
	return true
}
