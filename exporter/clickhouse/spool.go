package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
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
// in order. Without a directory batches are held in memory. The batches
// of one seal form a group that is kept or dropped whole.
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
	groups map[uint64]*group        // by id: the sequence number of its first batch
	notify [numTables]chan struct{} // cap 1: "the queue changed"
}

// group is the spooled batches of one seal.
type group struct {
	entries []*entry
	// started is set once one of its batches left the spool (inserted or
	// dropped): evicting the rest would split its evaluations' rows.
	started bool
}

// entry is one spooled batch.
type entry struct {
	seq   uint64
	group uint64
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
	s := &spool{dir: cfg.Directory, maxBytes: cfg.MaxBytes, fsync: cfg.Fsync, policy: cfg.DropPolicy, logger: logger, onDrop: onDrop,
		groups: map[uint64]*group{}}
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
		s.addLocked(e)
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
	// SEQ-TABLE-GROUP.batch; SEQ-TABLE.batch (older files) is a group
	// of its own.
	parts := strings.Split(strings.TrimSuffix(filepath.Base(path), spoolExt), "-")
	if seq, err := strconv.ParseUint(parts[0], 10, 64); err != nil || seq != h.seq {
		return nil, fmt.Errorf("%w: file name does not match sequence %d", errCorrupt, h.seq)
	}
	g := h.seq
	if len(parts) == 3 {
		var err error
		if g, err = strconv.ParseUint(parts[2], 10, 64); err != nil {
			return nil, fmt.Errorf("%w: file name has no group: %s", errCorrupt, filepath.Base(path))
		}
	}
	return &entry{seq: h.seq, group: g, table: h.table, rows: h.rows, size: int64(len(data)), token: h.token, path: path}, nil
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

// spoolItem is one encoded batch of a seal.
type spoolItem struct {
	b     *batch
	seq   uint64
	token string
	data  []byte
}

// push adds the encoded batches of one seal, kept or dropped together.
// When the spool is full, the policy decides: drop_oldest evicts the
// oldest whole groups that no sender has started, drop_newest (or nothing
// left to evict) drops this seal. Dropped rows are counted.
func (s *spool) push(items []spoolItem) {
	if len(items) == 0 {
		return
	}
	var size int64
	for _, it := range items {
		size += int64(len(it.data))
	}
	s.mu.Lock()
	fits := size <= s.maxBytes
	var evicted []*entry
	for fits && s.bytes+size > s.maxBytes {
		var victim *group
		if s.policy == DropOldest {
			victim = s.oldestIdleLocked()
		}
		if fits = victim != nil; fits {
			evicted = append(evicted, victim.entries...)
			for _, e := range slices.Clone(victim.entries) {
				s.removeLocked(e)
			}
		}
	}
	if fits {
		s.bytes += size // reserved: the entries are added once their files are written
	}
	s.mu.Unlock()
	for _, v := range evicted {
		s.deleteFile(v)
		s.onDrop(v.table.String(), v.rows, reasonSpoolFull)
	}
	if !fits {
		for _, it := range items {
			s.onDrop(it.b.table.String(), it.b.rows, reasonSpoolFull)
		}
		return
	}

	id := items[0].seq
	entries := make([]*entry, len(items))
	for i, it := range items {
		e := &entry{seq: it.seq, group: id, table: it.b.table, rows: it.b.rows, size: int64(len(it.data)), token: it.token, b: it.b}
		if s.dir != "" {
			path := filepath.Join(s.dir, fmt.Sprintf("%020d-%s-%020d%s", it.seq, it.b.table, id, spoolExt))
			if err := s.writeFile(path, it.data); err != nil {
				// The batch stays in memory: it is still sent, but a crash
				// before that loses it.
				s.logger.Error("clickhouse spool: cannot write batch; keeping it in memory", "error", err)
			} else {
				e.path = path
			}
		}
		entries[i] = e
	}
	s.mu.Lock()
	s.bytes -= size
	for _, e := range entries {
		if e.path != "" {
			if s.held+e.size <= maxHeldBytes || len(s.queues[e.table]) == 0 {
				s.held += e.size
			} else {
				e.b = nil // read back from its file when its turn comes
			}
		}
		s.addLocked(e)
	}
	s.mu.Unlock()
	for _, e := range entries {
		s.signal(e.table)
	}
}

// addLocked queues e in sequence order and adds it to its group.
func (s *spool) addLocked(e *entry) {
	q := s.queues[e.table]
	i := len(q)
	for i > 0 && q[i-1].seq > e.seq {
		i--
	}
	s.queues[e.table] = slices.Insert(q, i, e)
	s.bytes += e.size
	s.rows += e.rows
	g := s.groups[e.group]
	if g == nil {
		g = &group{}
		s.groups[e.group] = g
	}
	g.entries = append(g.entries, e)
}

// oldestIdleLocked returns the oldest group that drop_oldest may evict:
// none of its batches in flight or already gone. Nil when there is none.
func (s *spool) oldestIdleLocked() *group {
	var oldest *group
	var oldestID uint64
	for id, g := range s.groups {
		busy := slices.ContainsFunc(g.entries, func(e *entry) bool { return e.inflight })
		if !g.started && !busy && (oldest == nil || id < oldestID) {
			oldest, oldestID = g, id
		}
	}
	return oldest
}

// removeLocked takes e out of its queue and its group.
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
			break
		}
	}
	if g := s.groups[e.group]; g != nil {
		g.entries = slices.DeleteFunc(g.entries, func(x *entry) bool { return x == e })
		if len(g.entries) == 0 {
			delete(s.groups, e.group)
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

// done removes an entry that was sent or dropped; the rest of its group
// can no longer be evicted.
func (s *spool) done(e *entry) {
	s.mu.Lock()
	if g := s.groups[e.group]; g != nil {
		g.started = true
	}
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
	var b *batch
	if err == nil {
		_, b, err = decodeBatch(data)
	}
	if err != nil {
		s.mu.Lock()
		s.removeLocked(e)
		s.mu.Unlock()
		s.quarantine(e.path, e.table.String(), e.rows, err)
	}
	return b, err
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
	clear(s.groups)
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
